import AudioToolbox
import Foundation
import SoundFile

/// `soundstage-bench audio-converter`: a whole AAC file decoded the way iOS code does it —
/// AudioFileReadPacketData in an input procedure, AudioConverterFillComplexBuffer to interleaved
/// Float32 — against SoundFile's FFmpeg decode of the same file, measured in the same run
/// (CPU time, medians of 5, the two alternating). The goal (issue 46): within 1.1×.
func converterBench() throws {
    try FFmpeg.requireAvailable()
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bench-converter-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let seconds = benchAACSeconds, rate = benchAACRate
    let path = try writeBenchAAC(in: directory)

    var soundFileTimes: [Double] = [], converterTimes: [Double] = []
    var framesSoundFile = 0, framesConverter = 0
    for _ in 0..<5 {
        var start = cpuSeconds()
        framesSoundFile = try decodeWithSoundFile(path)
        soundFileTimes.append(cpuSeconds() - start)

        start = cpuSeconds()
        framesConverter = try decodeWithConverter(path)
        converterTimes.append(cpuSeconds() - start)
    }
    let ours = median(converterTimes), baseline = median(soundFileTimes)
    print("soundstage-bench audio-converter: \(seconds) s of stereo AAC-LC 128 kb/s at \(rate) Hz (.m4a), decoded to Float32 5 times each; "
          + "medians of CPU time (\(FFmpeg.versionDescription ?? ""))")
    print(String(format: "  SoundFile (FFmpeg, trimmed)                                        %.3f s  %7.1f× real time  (%d frames)",
                 baseline, Double(seconds) / baseline, framesSoundFile))
    print(String(format: "  AudioFileReadPacketData + AudioConverterFillComplexBuffer        %.3f s  %7.1f× real time  (%d frames, priming included)",
                 ours, Double(seconds) / ours, framesConverter))
    print(String(format: "  converter / SoundFile: %.3f (goal ≤ 1.1)", ours / baseline))
}

/// The benchmarks' AAC file: its length and rate.
let benchAACSeconds = 120, benchAACRate = 44_100

/// Writes the benchmarks' AAC file (two moving tones and a little noise, stereo, 128 kb/s, .m4a)
/// in `directory`; returns its path.
func writeBenchAAC(in directory: URL) throws -> String {
    let seconds = benchAACSeconds, rate = benchAACRate
    var samples = [Float](repeating: 0, count: seconds * rate * 2)
    var phase = (0.0, 0.0)
    var noise: UInt64 = 9
    for i in 0..<(seconds * rate) {
        let t = Double(i) / Double(rate)
        phase.0 += 2 * Double.pi * (220 + 200 * sin(t * 0.7)) / Double(rate)
        phase.1 += 2 * Double.pi * (330 + 150 * sin(t * 1.3)) / Double(rate)
        noise = noise &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        let n = Float(Double(noise >> 40) / Double(1 << 24) - 0.5) * 0.05
        samples[2 * i] = Float(0.3 * sin(phase.0) + 0.1 * sin(phase.1 * 3)) + n
        samples[2 * i + 1] = Float(0.3 * sin(phase.1) + 0.1 * sin(phase.0 * 2)) - n
    }
    let path = directory.appendingPathComponent("bench.m4a").path
    try SoundFileWriter.write(.init(samples: samples, channels: 2, sampleRate: rate), to: path, format: .m4aAAC)
    return path
}

/// SoundFile's decode of the whole file, 4,096 frames at a time (the baseline); returns the frames.
func decodeWithSoundFile(_ path: String) throws -> Int {
    let sound = try SoundFile(path: path)
    var frames = 0
    while true {
        let chunk = try sound.read(frames: 4096)
        if chunk.frames == 0 { break }
        frames += chunk.frames
    }
    return frames
}

/// The input procedure's state: the file and where it is.
private final class PacketReader {
    let file: AudioFileID
    var packet: Int64 = 0
    var buffer: [UInt8]
    var descriptions: [AudioStreamPacketDescription]
    let maximumPacket: Int

    init(file: AudioFileID, maximumPacket: Int) {
        self.file = file
        self.maximumPacket = maximumPacket
        buffer = [UInt8](repeating: 0, count: maximumPacket * 16)
        descriptions = [AudioStreamPacketDescription](repeating: AudioStreamPacketDescription(), count: 16)
    }
}

private let readerProc: AudioConverterComplexInputDataProc = { _, ioNumberDataPackets, ioData, outDataPacketDescription, inUserData in
    let reader = Unmanaged<PacketReader>.fromOpaque(inUserData!).takeUnretainedValue()
    var packets = min(ioNumberDataPackets.pointee, 16)
    var bytes = UInt32(reader.buffer.count)
    let status = reader.buffer.withUnsafeMutableBytes { buffer in
        reader.descriptions.withUnsafeMutableBufferPointer { descriptions in
            AudioFileReadPacketData(reader.file, false, &bytes, descriptions.baseAddress, reader.packet, &packets, buffer.baseAddress)
        }
    }
    if status == kAudioFileEndOfFileError || packets == 0 {
        ioNumberDataPackets.pointee = 0
        return noErr
    }
    guard status == noErr else { return status }
    reader.packet += Int64(packets)
    reader.buffer.withUnsafeMutableBytes { ioData.pointee.mBuffers.mData = $0.baseAddress }   // the array is not resized: its storage stays put
    ioData.pointee.mBuffers.mDataByteSize = bytes
    reader.descriptions.withUnsafeMutableBufferPointer { outDataPacketDescription?.pointee = $0.baseAddress }
    ioNumberDataPackets.pointee = packets
    return noErr
}

/// Decodes the whole file as iOS code does; returns the frames.
private func decodeWithConverter(_ path: String) throws -> Int {
    var file: AudioFileID?
    guard AudioFileOpenURL(URL(fileURLWithPath: path) as CFURL, .readPermission, 0, &file) == noErr, let file else {
        throw CocoaError(.fileReadUnknown)
    }
    defer { AudioFileClose(file) }
    var format = AudioStreamBasicDescription()
    var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
    AudioFileGetProperty(file, kAudioFilePropertyDataFormat, &size, &format)
    var maximum: UInt32 = 0
    size = 4
    AudioFileGetProperty(file, kAudioFilePropertyPacketSizeUpperBound, &size, &maximum)
    var output = AudioStreamBasicDescription(mSampleRate: format.mSampleRate, mFormatID: kAudioFormatLinearPCM,
                                             mFormatFlags: kAudioFormatFlagsNativeFloatPacked, mBytesPerPacket: 8, mFramesPerPacket: 1,
                                             mBytesPerFrame: 8, mChannelsPerFrame: 2, mBitsPerChannel: 32, mReserved: 0)
    var converter: AudioConverterRef?
    guard AudioConverterNew(&format, &output, &converter) == noErr, let converter else { throw CocoaError(.featureUnsupported) }
    defer { AudioConverterDispose(converter) }
    var cookieSize: UInt32 = 0
    if AudioFileGetPropertyInfo(file, kAudioFilePropertyMagicCookieData, &cookieSize, nil) == noErr {
        var cookie = [UInt8](repeating: 0, count: Int(cookieSize))
        AudioFileGetProperty(file, kAudioFilePropertyMagicCookieData, &cookieSize, &cookie)
        AudioConverterSetProperty(converter, kAudioConverterDecompressionMagicCookie, cookieSize, &cookie)
    }
    let reader = PacketReader(file: file, maximumPacket: Int(maximum))
    let list = AudioBufferList.allocate(maximumBuffers: 1)
    defer { free(list.unsafeMutablePointer) }
    var samples = [Float](repeating: 0, count: 4096 * 2)
    var frames = 0
    while true {
        var packets: UInt32 = 4096
        let status = samples.withUnsafeMutableBufferPointer { buffer -> OSStatus in
            list[0] = .init(mNumberChannels: 2, mDataByteSize: UInt32(buffer.count * 4), mData: buffer.baseAddress)
            return AudioConverterFillComplexBuffer(converter, readerProc, Unmanaged.passUnretained(reader).toOpaque(), &packets,
                                                   list.unsafeMutablePointer, nil)
        }
        guard status == noErr else { throw CocoaError(.fileReadCorruptFile) }
        if packets == 0 { break }
        frames += Int(packets)
    }
    return frames
}
