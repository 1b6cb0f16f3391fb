import AudioToolbox
import Foundation
import SoundFile
import Testing

/// Seeking a stream as a streaming player does: AudioFileStreamSeek gives the byte offset of a
/// packet, the player fetches the file from there (an HTTP range request) and parses with
/// kAudioFileStreamParseFlag_Discontinuity; the packets that follow are the file's from there on.
@Suite struct AudioFileStreamSeekTests {
    /// Feeds the start of `data`, seeks to `packet`, feeds the rest from where the seek said; returns
    /// the recorder, the seek's offset and flags, and how many packets it had before the seek.
    static func seek(_ data: [UInt8], hint: AudioFileTypeID = 0, head: Int, to packet: Int64)
        -> (StreamRecorder, Int64, AudioFileStreamSeekFlags, Int, OSStatus) {
        let recorder = StreamRecorder(hint: hint)
        var random = SplitMix(seed: 99)
        recorder.feed(Array(data[0..<head]), pieces: { _ in Int.random(in: 1...700, using: &random) }, flush: false)
        let before = recorder.descriptions.isEmpty ? recorder.packets : recorder.descriptions.count
        var offset: Int64 = -1
        var flags: AudioFileStreamSeekFlags = []
        let status = AudioFileStreamSeek(recorder.streamID!, packet, &offset, &flags)
        if status == noErr {
            let from = Int(recorder.dataOffset + offset)
            recorder.feed(Array(data[from...]), pieces: { _ in Int.random(in: 1...700, using: &random) }, flags: .discontinuity)
        }
        return (recorder, offset, flags, before, status)
    }

    /// The packets after the seek, as descriptions' byte ranges in the recorder.
    static func packetsAfter(_ recorder: StreamRecorder, _ before: Int) -> [[UInt8]] {
        recorder.descriptions[before...].map {
            Array(recorder.bytes[Int($0.mStartOffset)..<Int($0.mStartOffset) + Int($0.mDataByteSize)])
        }
    }

    static func packets(_ file: FileReading) -> [[UInt8]] {
        file.descriptions.map { Array(file.bytes[Int($0.mStartOffset)..<Int($0.mStartOffset) + Int($0.mDataByteSize)]) }
    }

    @Test func mp3SeeksToAnEstimateAndFindsTheNextFrame() throws {
        // Constant bit rate: the estimate (the Info frame's bytes over its frames) lands within a frame or two.
        let data = try ffmpegFile(["-c:a", "libmp3lame", "-b:a", "128k"], name: "s.mp3", seconds: 3)
        let file = FileReading(data)
        let (recorder, offset, flags, before, status) = Self.seek(data, hint: kAudioFileMP3Type, head: data.count / 4, to: 80)
        #expect(status == noErr && flags.contains(.offsetIsEstimated))
        let averageFrame = Double(file.bytes.count) / Double(file.descriptions.count)
        let distance = abs(Double(offset) - Double(file.descriptions[80].mStartOffset))
        #expect(distance < 2 * averageFrame)
        #expect(recorder.errors.isEmpty, "\(recorder.errors)")
        let after = Self.packetsAfter(recorder, before)
        let all = Self.packets(file)
        let first = try #require(all.firstIndex { $0 == after.first }, "the first packet after the seek is one of the file's")
        #expect(abs(first - 80) <= 2)
        #expect(Array(all[first...]) == after, "every packet from there on, in order")
        recorder.close()

        // Variable bit rate: an estimate from the average, further off; the frames from there are still the file's.
        let vbr = try ffmpegFile(["-c:a", "libmp3lame", "-q:a", "4"], name: "v.mp3", seconds: 3)
        let (stream, _, vbrFlags, vbrBefore, vbrStatus) = Self.seek(vbr, hint: kAudioFileMP3Type, head: 5_000, to: 80)
        #expect(vbrStatus == noErr && vbrFlags == .offsetIsEstimated && stream.errors.isEmpty)
        let vbrAfter = Self.packetsAfter(stream, vbrBefore)
        let vbrAll = Self.packets(FileReading(vbr))
        let vbrFirst = try #require(vbrAll.firstIndex { $0 == vbrAfter.first })
        #expect(Array(vbrAll[vbrFirst...]) == vbrAfter)
        stream.close()
    }

    @Test func adtsSeeksToAnEstimate() throws {
        guard FFmpeg.hasEncoder(named: "aac") else { return }
        let data = try AudioFileStreamTests.written(.adtsAAC, frames: 88_200, name: "s.aac")
        let file = FileReading(data)
        let (recorder, _, flags, before, status) = Self.seek(data, hint: kAudioFileAAC_ADTSType, head: 3_000, to: 40)
        #expect(status == noErr && flags == .offsetIsEstimated && recorder.errors.isEmpty)
        let after = Self.packetsAfter(recorder, before)
        let all = Self.packets(file)
        let first = try #require(all.firstIndex { $0 == after.first })
        #expect(abs(first - 40) <= 3 && Array(all[first...]) == after)
        recorder.close()
    }

    @Test func aPacketTableSeeksExactly() throws {
        let data = try AudioFileStreamTests.written(.cafALAC, frames: 60_000, name: "s.caf")
        let file = FileReading(data)
        let (recorder, offset, flags, before, status) = Self.seek(data, head: 500, to: 7)
        #expect(status == noErr && flags.isEmpty && recorder.errors.isEmpty)
        #expect(offset == file.descriptions[7].mStartOffset)
        #expect(Self.packetsAfter(recorder, before) == Array(Self.packets(file)[7...]))
        recorder.close()
        // Past the last packet: kAudioFileStreamError_InvalidPacketOffset; the end itself is the data's size.
        let stream = StreamRecorder(hint: 0)
        stream.feed(Array(data[0..<300]), pieces: { $0 }, flush: false)
        var end: Int64 = 0
        var seekFlags: AudioFileStreamSeekFlags = []
        #expect(AudioFileStreamSeek(stream.streamID!, Int64(file.packetCount), &end, &seekFlags) == noErr && end == Int64(file.byteCount))
        #expect(AudioFileStreamSeek(stream.streamID!, Int64(file.packetCount) + 1, &end, &seekFlags) == kAudioFileStreamError_InvalidPacketOffset)
        #expect(AudioFileStreamSeek(stream.streamID!, -1, &end, &seekFlags) == kAudioFileStreamError_InvalidPacketOffset)
        stream.close()
    }

    @Test func constantPacketsSeekExactly() throws {
        let data = try AudioFileStreamTests.written(.wavPCM16, frames: 10_000, name: "s.wav")
        let file = FileReading(data)
        let (recorder, offset, flags, before, status) = Self.seek(data, head: 1_001, to: 2_500)
        #expect(status == noErr && flags.isEmpty && offset == 2_500 * 4 && recorder.errors.isEmpty)
        #expect(Array(recorder.bytes.suffix(7_500 * 4)) == Array(file.bytes[(2_500 * 4)...]))
        #expect(recorder.packets == before + 7_500)
        recorder.close()
    }

    @Test func discontinuitiesThatCannotBePlaced() throws {
        // A packet table cannot place bytes after a gap it was not told of: kAudioFileStreamError_
        // DiscontinuityCantRecover until a seek says where they are.
        let data = try AudioFileStreamTests.written(.cafALAC, frames: 60_000, name: "d.caf")
        let recorder = StreamRecorder(hint: 0)
        recorder.feed(Array(data[0..<2_000]), pieces: { $0 }, flush: false)
        let id = recorder.streamID!
        let status = data.withUnsafeBytes { AudioFileStreamParseBytes(id, 100, $0.baseAddress! + 9_000, .discontinuity) }
        #expect(status == kAudioFileStreamError_DiscontinuityCantRecover)
        let again = data.withUnsafeBytes { AudioFileStreamParseBytes(id, 100, $0.baseAddress! + 9_100, []) }
        #expect(again == kAudioFileStreamError_DiscontinuityCantRecover)
        var offset: Int64 = 0
        var flags: AudioFileStreamSeekFlags = []
        #expect(AudioFileStreamSeek(id, 2, &offset, &flags) == noErr)
        let before = recorder.descriptions.count
        let from = Int(recorder.dataOffset + offset)
        let resumed = data.withUnsafeBytes { AudioFileStreamParseBytes(id, UInt32(data.count - from), $0.baseAddress! + from, .discontinuity) }
        #expect(resumed == noErr)
        #expect(Self.packetsAfter(recorder, before) == Array(Self.packets(FileReading(data))[2...]))
        recorder.close()

        // In the header, a gap cannot be recovered from at all.
        let header = StreamRecorder(hint: 0)
        header.feed(Array(data[0..<20]), pieces: { $0 }, flush: false)
        let broken = data.withUnsafeBytes { AudioFileStreamParseBytes(header.streamID!, 100, $0.baseAddress! + 1_000, .discontinuity) }
        #expect(broken == kAudioFileStreamError_DiscontinuityCantRecover)
        header.close()
        // Before any byte, the flag means nothing.
        let fresh = streamed(data, split: .whole)
        #expect(fresh.errors.isEmpty)
        let flagged = StreamRecorder(hint: 0)
        flagged.feed(data, pieces: { $0 }, flags: .discontinuity)
        #expect(flagged.errors.isEmpty && flagged.packets == fresh.packets)
        flagged.close()

        // Seeking before the header is parsed: kAudioFileStreamError_DataUnavailable.
        let early = StreamRecorder(hint: 0)
        #expect(AudioFileStreamSeek(early.streamID!, 0, &offset, &flags) == kAudioFileStreamError_DataUnavailable)
        early.close()
    }
}
