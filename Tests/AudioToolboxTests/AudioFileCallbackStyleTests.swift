import AudioToolbox
import Foundation
import Testing

/// Audio File Services' callbacks in the shapes iOS Swift code gives them, which must compile
/// unchanged: named functions with AudioFile.h's non-optional parameters (Apple's nullability), the
/// client data turned back into the object with `Unmanaged<...>.fromOpaque(inClientData)` without
/// unwrapping, the output pointers written through directly.
@Suite struct AudioFileCallbackStyleTests {
    @Test func aPlayerReadsItsFileThroughNamedCallbacks() throws {
        let data = try ffmpegFile(["-c:a", "pcm_s16le", "-metadata", "title=Callbacks"], name: "c.wav", seconds: 0.1, channels: 1)
        let source = DownloadedSound(data)
        var fileID: AudioFileID?
        #expect(AudioFileOpenWithCallbacks(Unmanaged.passUnretained(source).toOpaque(), downloadedRead, nil, downloadedSize, nil,
                                           kAudioFileWAVEType, &fileID) == noErr)
        let file = try #require(fileID)
        var packets: UInt64 = 0
        var size = UInt32(MemoryLayout<UInt64>.size)
        #expect(AudioFileGetProperty(file, kAudioFilePropertyAudioDataPacketCount, &size, &packets) == noErr)
        #expect(packets == 4_410 && source.reads > 0)
        #expect(AudioFileClose(file) == noErr)

        // Written through named write and set-size callbacks as well, then read back.
        let sink = DownloadedSound([])
        var format = AudioStreamBasicDescription(mSampleRate: 8_000, mFormatID: kAudioFormatLinearPCM,
                                                 mFormatFlags: kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked,
                                                 mBytesPerPacket: 2, mFramesPerPacket: 1, mBytesPerFrame: 2, mChannelsPerFrame: 1,
                                                 mBitsPerChannel: 16, mReserved: 0)
        var created: AudioFileID?
        #expect(AudioFileInitializeWithCallbacks(Unmanaged.passUnretained(sink).toOpaque(), downloadedRead, downloadedWrite,
                                                 downloadedSize, downloadedSetSize, kAudioFileWAVEType, &format, [], &created) == noErr)
        let writer = try #require(created)
        var samples = [Int16](repeating: 1_000, count: 800)
        var count = UInt32(samples.count)
        #expect(AudioFileWritePackets(writer, false, UInt32(samples.count * 2), nil, 0, &count, &samples) == noErr)
        #expect(AudioFileClose(writer) == noErr)
        #expect(sink.bytes.count == 44 + 1_600)
    }
}

/// A sound held in memory, as a player that downloaded it keeps it.
final class DownloadedSound {
    var bytes: [UInt8]
    var reads = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }
}

func downloadedRead(_ inClientData: UnsafeMutableRawPointer, _ inPosition: Int64, _ requestCount: UInt32,
                    _ buffer: UnsafeMutableRawPointer, _ actualCount: UnsafeMutablePointer<UInt32>) -> OSStatus {
    let sound = Unmanaged<DownloadedSound>.fromOpaque(inClientData).takeUnretainedValue()
    sound.reads += 1
    let start = Int(min(max(inPosition, 0), Int64(sound.bytes.count)))
    let count = min(Int(requestCount), sound.bytes.count - start)
    sound.bytes.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress! + start, byteCount: count) }
    actualCount.pointee = UInt32(count)
    return noErr
}

func downloadedWrite(_ inClientData: UnsafeMutableRawPointer, _ inPosition: Int64, _ requestCount: UInt32,
                     _ buffer: UnsafeRawPointer, _ actualCount: UnsafeMutablePointer<UInt32>) -> OSStatus {
    let sound = Unmanaged<DownloadedSound>.fromOpaque(inClientData).takeUnretainedValue()
    let end = Int(inPosition) + Int(requestCount)
    if sound.bytes.count < end { sound.bytes += [UInt8](repeating: 0, count: end - sound.bytes.count) }
    sound.bytes.withUnsafeMutableBytes { ($0.baseAddress! + Int(inPosition)).copyMemory(from: buffer, byteCount: Int(requestCount)) }
    actualCount.pointee = requestCount
    return noErr
}

func downloadedSize(_ inClientData: UnsafeMutableRawPointer) -> Int64 {
    Int64(Unmanaged<DownloadedSound>.fromOpaque(inClientData).takeUnretainedValue().bytes.count)
}

func downloadedSetSize(_ inClientData: UnsafeMutableRawPointer, _ inSize: Int64) -> OSStatus {
    let sound = Unmanaged<DownloadedSound>.fromOpaque(inClientData).takeUnretainedValue()
    if sound.bytes.count > Int(inSize) { sound.bytes.removeLast(sound.bytes.count - Int(inSize)) }
    return noErr
}
