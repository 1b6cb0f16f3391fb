import AudioToolbox
import FuzzSupport

// Audio File Services fed any bytes through AudioFileOpenWithCallbacks: every container parser
// (WAVE, AIFF, AIFC, CAF, MPEG-4, MP3, ADTS), chosen by content. The first byte picks how the
// read callback serves the bytes (whole, a few at a time, or failing past the offset in the next
// four bytes). Whatever the bytes, the open is noErr or an Audio File error; an open file answers
// every property with noErr or a documented code, its packets read whole and in range, and it
// closes exactly once.

@main struct FuzzAudioFile {
    static func main() { Fuzzing.main(testOneInput) }
}

/// The bytes the callbacks serve, and how.
final class Served {
    let bytes: [UInt8]
    let mode: UInt8
    let failAt: Int
    init(_ bytes: [UInt8], mode: UInt8, failAt: Int) {
        self.bytes = bytes
        self.mode = mode
        self.failAt = failAt
    }
}

private let read: AudioFile_ReadProc = { client, position, count, buffer, actual in
    let served = Unmanaged<Served>.fromOpaque(client!).takeUnretainedValue()
    guard position >= 0, let buffer, let actual else { return kAudio_ParamError }
    if served.mode % 3 == 2, position >= Int64(served.failAt) { return -36 }   // an I/O error past a point
    let start = Int(min(position, Int64(served.bytes.count)))
    var end = min(start + Int(count), served.bytes.count)
    if served.mode % 3 == 1 { end = min(end, start + 7) }   // a few bytes at a time
    served.bytes.withUnsafeBytes { if end > start { buffer.copyMemory(from: $0.baseAddress! + start, byteCount: end - start) } }
    actual.pointee = UInt32(end - start)
    return noErr
}

private let size: AudioFile_GetSizeProc = { client in
    Int64(Unmanaged<Served>.fromOpaque(client!).takeUnretainedValue().bytes.count)
}

/// The codes an open may return.
private let openCodes: Set<OSStatus> = [noErr, kAudioFileInvalidFileError, kAudioFileUnsupportedFileTypeError,
                                        kAudioFileUnsupportedDataFormatError, -36]

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    var input = FuzzInput(Fuzzing.bytes(data, count))
    let mode = input.byte()
    let failAt = Int(input.u32())
    let served = Served(input.rest(), mode: mode, failAt: failAt)
    var fileID: AudioFileID?
    let status = withExtendedLifetime(served) {
        AudioFileOpenWithCallbacks(Unmanaged.passUnretained(served).toOpaque(), read, nil, size, nil, 0, &fileID)
    }
    Fuzzing.require(openCodes.contains(status), "the open returned \(status)")
    guard status == noErr, let file = fileID else {
        Fuzzing.require(fileID == nil, "a failed open set its ID")
        return 0
    }
    defer { _ = served }
    var asbd = AudioStreamBasicDescription()
    var propertySize = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
    Fuzzing.require(AudioFileGetProperty(file, kAudioFilePropertyDataFormat, &propertySize, &asbd) == noErr, "no data format")
    Fuzzing.require(asbd.mChannelsPerFrame >= 1 && asbd.mSampleRate > 0, "an opened file describes \(asbd)")
    for id in [kAudioFilePropertyFileFormat, kAudioFilePropertyMagicCookieData, kAudioFilePropertyAudioDataByteCount,
               kAudioFilePropertyAudioDataPacketCount, kAudioFilePropertyMaximumPacketSize, kAudioFilePropertyPacketSizeUpperBound,
               kAudioFilePropertyDataOffset, kAudioFilePropertyChannelLayout, kAudioFilePropertyPacketTableInfo,
               kAudioFilePropertyFormatList, kAudioFilePropertyEstimatedDuration, kAudioFilePropertyBitRate,
               kAudioFilePropertySourceBitDepth] {
        var size: UInt32 = 0
        let info = AudioFileGetPropertyInfo(file, id, &size, nil)
        Fuzzing.require(info == noErr || info == kAudioFileUnsupportedPropertyError, "property info returned \(info)")
        guard info == noErr else { continue }
        var value = [UInt8](repeating: 0, count: Int(size))
        Fuzzing.require(AudioFileGetProperty(file, id, &size, &value) == noErr, "a property with a size has no value")
    }
    // Every packet, a bounded number of reads.
    var upper: UInt32 = 0
    propertySize = 4
    _ = AudioFileGetProperty(file, kAudioFilePropertyPacketSizeUpperBound, &propertySize, &upper)
    let room = Int(max(upper, 1)) * 16
    var buffer = [UInt8](repeating: 0, count: room)
    var descriptions = [AudioStreamPacketDescription](repeating: AudioStreamPacketDescription(), count: 16)
    var packet: Int64 = 0
    for _ in 0..<256 {
        var bytes = UInt32(room)
        var packets: UInt32 = 16
        let result = AudioFileReadPacketData(file, false, &bytes, &descriptions, packet, &packets, &buffer)
        if result == kAudioFileEndOfFileError || packets == 0 { break }
        Fuzzing.require(result == noErr || result == kAudioFileInvalidFileError || result == -36, "a read returned \(result)")
        guard result == noErr else { break }
        Fuzzing.require(Int(bytes) <= room && packets <= 16, "a read overran: \(bytes) bytes, \(packets) packets")
        packet += Int64(packets)
    }
    Fuzzing.require(AudioFileClose(file) == noErr, "the close failed")
    Fuzzing.require(AudioFileClose(file) == kAudioFileNotOpenError, "a second close did not say the file is not open")
    return 0
}
