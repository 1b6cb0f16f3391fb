import AudioToolbox
import Foundation
import SoundFile
import Testing

/// Every way to call Audio File Stream Services wrongly, from outside its callbacks and from inside
/// them, and every hostile stream, is one of Apple's codes, never a crash or a hang.
@Suite struct AudioFileStreamErrorTests {
    static let wave: [UInt8] = {
        (try? AudioFileStreamTests.written(.wavPCM16, frames: 3_000, name: "e.wav")) ?? []
    }()

    @Test func nullArguments() throws {
        var streamID: AudioFileStreamID?
        #expect(AudioFileStreamOpen(nil, streamPropertyListener, streamPacketsProc, 0, nil) == kAudio_ParamError)
        #expect(AudioFileStreamOpen(nil, nil, streamPacketsProc, 0, &streamID) == kAudio_ParamError && streamID == nil)
        #expect(AudioFileStreamOpen(nil, streamPropertyListener, nil, 0, &streamID) == kAudio_ParamError && streamID == nil)
        #expect(AudioFileStreamParseBytes(nil, 0, nil, []) == kAudio_ParamError)
        #expect(AudioFileStreamClose(nil) == kAudio_ParamError)
        var size: UInt32 = 4
        var value: UInt32 = 0
        #expect(AudioFileStreamGetProperty(nil, kAudioFileStreamProperty_ReadyToProducePackets, &size, &value) == kAudio_ParamError)
        #expect(AudioFileStreamGetPropertyInfo(nil, kAudioFileStreamProperty_ReadyToProducePackets, &size, nil) == kAudio_ParamError)

        let recorder = StreamRecorder(hint: 0)
        let id = try #require(recorder.streamID)
        defer { recorder.close() }
        #expect(AudioFileStreamParseBytes(id, 10, nil, []) == kAudio_ParamError)
        #expect(AudioFileStreamGetProperty(id, kAudioFileStreamProperty_ReadyToProducePackets, nil, &value) == kAudio_ParamError)
        #expect(AudioFileStreamGetProperty(id, kAudioFileStreamProperty_ReadyToProducePackets, &size, nil) == kAudio_ParamError)
        #expect(AudioFileStreamGetPropertyInfo(id, kAudioFileStreamProperty_ReadyToProducePackets, nil, nil) == noErr)
        var offset: Int64 = 0
        var flags: AudioFileStreamSeekFlags = []
        #expect(AudioFileStreamSeek(id, 0, nil, &flags) == kAudio_ParamError)
        #expect(AudioFileStreamSeek(id, 0, &offset, nil) == kAudio_ParamError)
        // A parse of nothing (a non-NULL pointer, no bytes) is nothing; a flush of nothing too.
        var byte: UInt8 = 0
        #expect(AudioFileStreamParseBytes(id, 0, &byte, []) == noErr)
        #expect(AudioFileStreamParseBytes(id, 0, nil, []) == noErr)
        // NULL client data reaches the callbacks as NULL; nothing crashes.
        var bare: AudioFileStreamID?
        #expect(AudioFileStreamOpen(nil, { _, _, _, _ in }, { _, _, _, _, _ in }, 0, &bare) == noErr)
        let data = Self.wave
        #expect(data.withUnsafeBytes { AudioFileStreamParseBytes(bare!, UInt32($0.count), $0.baseAddress, []) } == noErr)
        #expect(AudioFileStreamClose(bare!) == noErr)
    }

    @Test func closedAndStaleIDs() throws {
        let recorder = StreamRecorder(hint: 0)
        let id = try #require(recorder.streamID)
        #expect(AudioFileStreamClose(id) == noErr)
        #expect(AudioFileStreamClose(id) == kAudioFileNotOpenError)
        var size: UInt32 = 4
        var value: UInt32 = 0
        var offset: Int64 = 0
        var flags: AudioFileStreamSeekFlags = []
        let data = Self.wave
        #expect(data.withUnsafeBytes { AudioFileStreamParseBytes(id, 100, $0.baseAddress, []) } == kAudioFileNotOpenError)
        #expect(AudioFileStreamGetProperty(id, kAudioFileStreamProperty_ReadyToProducePackets, &size, &value) == kAudioFileNotOpenError)
        #expect(AudioFileStreamGetPropertyInfo(id, kAudioFileStreamProperty_ReadyToProducePackets, &size, nil) == kAudioFileNotOpenError)
        #expect(AudioFileStreamSetProperty(id, kAudioFileStreamProperty_DataFormat, 4, &value) == kAudioFileNotOpenError)
        #expect(AudioFileStreamSeek(id, 0, &offset, &flags) == kAudioFileNotOpenError)
        #expect(recorder.announced.isEmpty && recorder.packets == 0)
        // Never given out, and an AudioFileID where a stream's is wanted.
        #expect(AudioFileStreamClose(OpaquePointer(bitPattern: 0x7777_0001)) == kAudioFileNotOpenError)
        let file = MemoryFile(bytes: data)
        var fileID: AudioFileID?
        #expect(AudioFileOpenWithCallbacks(Unmanaged.passUnretained(file).toOpaque(), MemoryFile.read, nil, MemoryFile.size, nil, 0,
                                           &fileID) == noErr)
        #expect(AudioFileStreamGetProperty(fileID, kAudioFileStreamProperty_ReadyToProducePackets, &size, &value) == kAudioFileNotOpenError)
        #expect(AudioFileStreamClose(fileID) == kAudioFileNotOpenError)
        #expect(AudioFileClose(fileID) == noErr)
        // A new stream in the closed one's slot does not answer to the old ID.
        let next = StreamRecorder(hint: 0)
        #expect(AudioFileStreamGetProperty(id, kAudioFileStreamProperty_ReadyToProducePackets, &size, &value) == kAudioFileNotOpenError)
        next.close()
        withExtendedLifetime(file) {}
    }

    @Test func propertiesBeforeAndAfterTheHeader() throws {
        let recorder = StreamRecorder(hint: 0)
        let id = try #require(recorder.streamID)
        defer { recorder.close() }
        #expect(recorder.property(kAudioFileStreamProperty_ReadyToProducePackets, UInt32(9)) == (noErr, 0))
        var size: UInt32 = 0
        #expect(AudioFileStreamGetPropertyInfo(id, kAudioFileStreamProperty_DataFormat, &size, nil) == kAudioFileStreamError_DataUnavailable)
        #expect(recorder.property(kAudioFileStreamProperty_DataFormat, AudioStreamBasicDescription()).0 == kAudioFileStreamError_DataUnavailable)
        #expect(recorder.property(0x7A7A_7A7A, UInt32(0)).0 == kAudioFileStreamError_UnsupportedProperty)
        #expect(recorder.property(kAudioFileStreamProperty_RestrictsRandomAccess, UInt32(0)).0 == kAudioFileStreamError_UnsupportedProperty)

        let data = Self.wave
        recorder.feed(Array(data[0..<100]), pieces: { $0 }, flush: false)
        #expect(recorder.property(kAudioFileStreamProperty_ReadyToProducePackets, UInt32(0)) == (noErr, 1))
        var writable = true
        #expect(AudioFileStreamGetPropertyInfo(id, kAudioFileStreamProperty_DataFormat, &size, &writable) == noErr)
        #expect(size == UInt32(MemoryLayout<AudioStreamBasicDescription>.size) && !writable)
        // Too little room: kAudioFileStreamError_BadPropertySize, and nothing written.
        var small: UInt32 = 0xABCD
        size = 4
        #expect(AudioFileStreamGetProperty(id, kAudioFileStreamProperty_DataFormat, &size, &small) == kAudioFileStreamError_BadPropertySize)
        #expect(small == 0xABCD)
        // What a WAVE file does not have.
        #expect(recorder.property(kAudioFileStreamProperty_MagicCookieData, UInt64(0)).0 == kAudioFileStreamError_ValueUnknown)
        #expect(recorder.property(kAudioFileStreamProperty_PacketTableInfo, AudioFilePacketTableInfo()).0 == kAudioFileStreamError_ValueUnknown)
        // Nothing can be set.
        var value: UInt32 = 1
        #expect(AudioFileStreamSetProperty(id, kAudioFileStreamProperty_DataFormat, 4, &value) == kAudioFileStreamError_IllegalOperation)
        #expect(AudioFileStreamSetProperty(id, 0x7A7A_7A7A, 4, &value) == kAudioFileStreamError_UnsupportedProperty)
        // Sizes, rates and translations of 16-bit stereo at 44.1 kHz.
        #expect(recorder.property(kAudioFileStreamProperty_MaximumPacketSize, UInt32(0)).1 == 4)
        #expect(recorder.property(kAudioFileStreamProperty_PacketSizeUpperBound, UInt32(0)).1 == 4)
        #expect(recorder.property(kAudioFileStreamProperty_AverageBytesPerPacket, Float64(0)).1 == 4)
        #expect(recorder.property(kAudioFileStreamProperty_BitRate, UInt32(0)).1 == 1_411_200)
        #expect(recorder.property(kAudioFileStreamProperty_AudioDataPacketCount, UInt64(0)).1 == 3_000)
        var frames = AudioFramePacketTranslation(mFrame: 0, mPacket: 17, mFrameOffsetInPacket: 0)
        #expect(recorder.property(kAudioFileStreamProperty_PacketToFrame, frames).1.mFrame == 17)
        frames = AudioFramePacketTranslation(mFrame: 33, mPacket: 0, mFrameOffsetInPacket: 0)
        #expect(recorder.property(kAudioFileStreamProperty_FrameToPacket, frames).1.mPacket == 33)
        var bytes = AudioBytePacketTranslation(mByte: 0, mPacket: 10, mByteOffsetInPacket: 0, mFlags: [])
        let toByte = recorder.property(kAudioFileStreamProperty_PacketToByte, bytes)
        #expect(toByte.0 == noErr && toByte.1.mByte == 40 && toByte.1.mFlags.isEmpty)
        bytes = AudioBytePacketTranslation(mByte: 41, mPacket: 0, mByteOffsetInPacket: 0, mFlags: [])
        let toPacket = recorder.property(kAudioFileStreamProperty_ByteToPacket, bytes)
        #expect(toPacket.1.mPacket == 10 && toPacket.1.mByteOffsetInPacket == 1)
        size = 8
        #expect(AudioFileStreamGetProperty(id, kAudioFileStreamProperty_PacketToByte, &size, &bytes) == kAudioFileStreamError_BadPropertySize)
    }

    @Test func framesAreEstimated() throws {
        let data = try ffmpegFile(["-c:a", "libmp3lame", "-b:a", "128k", "-write_xing", "0", "-id3v2_version", "0", "-f", "mp3"],
                                  name: "e.mp3")
        let recorder = StreamRecorder(hint: kAudioFileMP3Type)
        defer { recorder.close() }
        recorder.feed(Array(data[0..<2_000]), pieces: { $0 }, flush: false)
        #expect(recorder.property(kAudioFileStreamProperty_AudioDataByteCount, UInt64(0)).0 == kAudioFileStreamError_ValueUnknown)
        #expect(recorder.property(kAudioFileStreamProperty_AudioDataPacketCount, UInt64(0)).0 == kAudioFileStreamError_ValueUnknown)
        let bitRate = recorder.property(kAudioFileStreamProperty_BitRate, UInt32(0)).1
        #expect(abs(Int(bitRate) - 128_000) < 1_000, "\(bitRate)")
        let upper = recorder.property(kAudioFileStreamProperty_PacketSizeUpperBound, UInt32(0)).1
        #expect(upper == 1_045)   // 320 kbit/s at 44.1 kHz, padded
        #expect(recorder.descriptions.allSatisfy { $0.mDataByteSize <= upper })
        let average = recorder.property(kAudioFileStreamProperty_AverageBytesPerPacket, Float64(0)).1
        #expect(average > 416 && average < 419)
        var bytes = AudioBytePacketTranslation(mByte: 0, mPacket: 100, mByteOffsetInPacket: 0, mFlags: [])
        let toByte = recorder.property(kAudioFileStreamProperty_PacketToByte, bytes)
        #expect(toByte.0 == noErr && toByte.1.mFlags == .isEstimate && abs(Double(toByte.1.mByte) - 100 * average) < 2)
        bytes = AudioBytePacketTranslation(mByte: 4_200, mPacket: 0, mByteOffsetInPacket: 0, mFlags: [])
        let toPacket = recorder.property(kAudioFileStreamProperty_ByteToPacket, bytes)
        #expect(toPacket.0 == noErr && toPacket.1.mPacket == 10 && toPacket.1.mFlags == .isEstimate)
        let frames = AudioFramePacketTranslation(mFrame: 0, mPacket: 3, mFrameOffsetInPacket: 0)
        #expect(recorder.property(kAudioFileStreamProperty_PacketToFrame, frames).1.mFrame == 3 * 1152)
    }

    @Test func unsupportedAndGarbage() throws {
        // A FLAC file, an Ogg file, text: not a type the parser reads.
        for format in [OutputFormat.flac, .oggVorbis] {
            let data = try AudioFileStreamTests.written(format, frames: 2_000, name: "u")
            let stream = streamed(data, split: .random)
            #expect(stream.errors.first == kAudioFileStreamError_UnsupportedFileType && stream.announced.isEmpty, "\(format)")
        }
        let text = Array("These are words, not sounds, and a parser says so.".utf8)
        #expect(streamed(text, split: .byteAtATime).errors.first == kAudioFileStreamError_UnsupportedFileType)
        // Too short to tell: decided at the flush.
        let short = StreamRecorder(hint: 0)
        short.feed([0x52, 0x49, 0x46], pieces: { $0 }, flush: false)
        #expect(short.errors.isEmpty)
        short.feed([], pieces: { $0 })
        #expect(short.errors == [kAudioFileStreamError_UnsupportedFileType])
        short.close()
        // Garbage said to be MP3 or ADTS: 64 KB of looking for a frame, then kAudioFileStreamError_InvalidFile, which sticks.
        var random = SplitMix(seed: 3)
        let garbage = (0..<100_000).map { _ in UInt8.random(in: 0...255, using: &random) }
        for hint in [kAudioFileMP3Type, kAudioFileAAC_ADTSType] {
            let stream = streamed(garbage, hint: hint, split: .random)
            #expect(!stream.errors.isEmpty && stream.errors.allSatisfy { $0 == kAudioFileStreamError_InvalidFile }, "\(stream.errors)")
            #expect(stream.packets == 0)
        }
        // A WAVE of MP3 data: a container whose data format is not read.
        var mp3InWave = Self.wave
        mp3InWave[20] = 0x55
        #expect(streamed(mp3InWave, split: .whole).errors.first == kAudioFileStreamError_UnsupportedDataFormat)
    }

    @Test func hostileHeaders() throws {
        func le32(_ v: UInt32) -> [UInt8] { withUnsafeBytes(of: v.littleEndian) { Array($0) } }
        func be64(_ v: Int64) -> [UInt8] { withUnsafeBytes(of: v.bigEndian) { Array($0) } }
        // A WAVE data chunk claiming 4 GB, and 1,001 bytes of it: the whole packets that came.
        var wave = Array(Self.wave[0..<44])
        wave.replaceSubrange(40..<44, with: le32(0xFFFF_FFF0))
        let claimed = streamed(wave + [UInt8](repeating: 1, count: 1_001), split: .random)
        #expect(claimed.errors.isEmpty && claimed.packets == 250 && claimed.bytes.count == 1_000)
        // A CAF whose first chunk claims 2^62 bytes, then a megabyte: skipped, not kept; then the stream ends.
        let caf = Array("caff".utf8) + [0, 1, 0, 0] + Array("free".utf8) + be64(1 << 62)
        let recorder = StreamRecorder(hint: 0)
        recorder.feed(caf, pieces: { $0 }, flush: false)
        let zeros = [UInt8](repeating: 0, count: 1 << 16)
        for _ in 0..<16 { recorder.feed(zeros, pieces: { $0 }, flush: false) }
        #expect(recorder.errors.isEmpty)
        recorder.feed([], pieces: { $0 })
        #expect(recorder.errors == [kAudioFileStreamError_InvalidFile])
        recorder.close()
        // An ID3 tag claiming 256 MB, a megabyte of it, then the end.
        let id3 = Array("ID3".utf8) + [4, 0, 0, 0x7F, 0x7F, 0x7F, 0x7F]
        let tagged = StreamRecorder(hint: kAudioFileMP3Type)
        tagged.feed(id3, pieces: { $0 }, flush: false)
        for _ in 0..<16 { tagged.feed(zeros, pieces: { $0 }, flush: false) }
        tagged.feed([], pieces: { $0 })
        #expect(tagged.errors == [kAudioFileStreamError_InvalidFile] && tagged.packets == 0)
        tagged.close()
    }

    /// Every prefix of one file of each format, and seeded mutations of them, fed in random pieces:
    /// Apple's codes only, packets within what was fed.
    @Test func truncatedAndMutatedStreams() throws {
        var files = [Self.wave, try AudioFileStreamTests.written(.cafALAC, frames: 5_000, name: "t.caf"),
                     try AudioFileStreamTests.written(.cafIMA4, frames: 2_000, name: "t.caf"),
                     try AudioFileStreamTests.written(.aiffPCM16, frames: 2_000, name: "t.aiff"),
                     try AudioFileStreamTests.written(.mp3, frames: 10_000, name: "t.mp3"),
                     try ffmpegFile(["-c:a", "alac", "-movflags", "+faststart"], name: "t.m4a", seconds: 0.3)]
        if FFmpeg.hasEncoder(named: "aac") { files.append(try AudioFileStreamTests.written(.adtsAAC, frames: 10_000, name: "t.aac")) }
        let allowed: Set<OSStatus> = [kAudioFileStreamError_UnsupportedFileType, kAudioFileStreamError_UnsupportedDataFormat,
                                      kAudioFileStreamError_InvalidFile, kAudioFileStreamError_NotOptimized]
        var random = SplitMix(seed: 2026)
        for (index, bytes) in files.enumerated() {
            for cut in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 60)) {
                let stream = streamed(Array(bytes[0..<cut]), split: .random, seed: UInt64(cut))
                #expect(stream.errors.allSatisfy(allowed.contains), "file \(index) cut at \(cut): \(stream.errors)")
                #expect(stream.bytes.count <= cut)
            }
            for _ in 0..<40 {
                var mutated = bytes
                for _ in 0..<Int.random(in: 1...8, using: &random) {
                    mutated[Int.random(in: 0..<mutated.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
                }
                let stream = streamed(mutated, split: .random, seed: random.next())
                #expect(stream.errors.allSatisfy(allowed.contains), "file \(index): \(stream.errors)")
            }
        }
    }

    /// A callback may ask for properties; it may not parse or seek its own stream
    /// (kAudioFileStreamError_IllegalOperation); closing it there ends the parse.
    @Test func callingBackIntoTheStream() throws {
        let data = Self.wave
        let recorder = StreamRecorder(hint: 0)
        var inner: [OSStatus] = []
        recorder.onProperty = { recorder, id in
            guard id == kAudioFileStreamProperty_DataOffset, let streamID = recorder.streamID else { return }
            inner.append(data.withUnsafeBytes { AudioFileStreamParseBytes(streamID, 10, $0.baseAddress, []) })
        }
        recorder.onPackets = { recorder in
            guard let streamID = recorder.streamID, recorder.packetCalls == 1 else { return }
            inner.append(data.withUnsafeBytes { AudioFileStreamParseBytes(streamID, 10, $0.baseAddress, []) })
            var offset: Int64 = 0
            var flags: AudioFileStreamSeekFlags = []
            inner.append(AudioFileStreamSeek(streamID, 0, &offset, &flags))
            inner.append(recorder.property(kAudioFileStreamProperty_DataFormat, AudioStreamBasicDescription()).0)
        }
        recorder.feed(data, pieces: { _ in 1_000 })
        #expect(inner == [kAudioFileStreamError_IllegalOperation, kAudioFileStreamError_IllegalOperation,
                          kAudioFileStreamError_IllegalOperation, noErr])
        #expect(recorder.errors.isEmpty && recorder.bytes == Array(data[44...]))
        recorder.close()

        // Closed from inside its packets callback: no callback follows, the parse returns noErr,
        // and the ID is stale from then on.
        let closing = StreamRecorder(hint: 0)
        closing.onPackets = { recorder in
            if let streamID = recorder.streamID { _ = AudioFileStreamClose(streamID) }
        }
        closing.feed(data, pieces: { _ in 1_000 }, flush: false)
        #expect(closing.packetCalls == 1)
        #expect(!closing.errors.isEmpty && closing.errors.allSatisfy { $0 == kAudioFileNotOpenError })

        // One stream's callback may drive another.
        let other = StreamRecorder(hint: 0)
        let driver = StreamRecorder(hint: 0)
        driver.onPackets = { _ in other.feed(Array(data[0..<1_000]), pieces: { $0 }, flush: false) }
        driver.feed(data, pieces: { $0 })
        #expect(other.errors.isEmpty && other.packets > 0)
        other.close()
        driver.close()
    }
}
