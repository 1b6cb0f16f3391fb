import AudioToolbox
import Foundation
import SoundFile

/// `soundstage-bench ext-audio-file`: a whole AAC file loaded the way an iOS game's OpenAL loader
/// loads it — ExtAudioFileOpenURL, a 16-bit interleaved client format at the file's rate,
/// FileLengthFrames, one ExtAudioFileRead into one buffer — against SoundFile's FFmpeg decode of
/// the same file (to Float32, 4,096 frames a call), in the same run (CPU time, medians of 5, the
/// two alternating). The goal (issue 46): within 1.1×.
func extAudioFileBench() throws {
    try FFmpeg.requireAvailable()
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bench-extaudiofile-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = try writeBenchAAC(in: directory)
    var soundFileTimes: [Double] = [], extTimes: [Double] = []
    var framesSoundFile = 0, framesExt = 0
    for _ in 0..<5 {
        var start = cpuSeconds()
        framesSoundFile = try decodeWithSoundFile(path)
        soundFileTimes.append(cpuSeconds() - start)

        start = cpuSeconds()
        framesExt = try loadWithExtAudioFile(path)
        extTimes.append(cpuSeconds() - start)
    }
    let ours = median(extTimes), baseline = median(soundFileTimes)
    let seconds = benchAACSeconds
    print("soundstage-bench ext-audio-file: \(seconds) s of stereo AAC-LC 128 kb/s at \(benchAACRate) Hz (.m4a), 5 times each; "
          + "medians of CPU time (\(FFmpeg.versionDescription ?? ""))")
    print(String(format: "  SoundFile (FFmpeg, trimmed) to Float32                         %.3f s  %7.1f× real time  (%d frames)",
                 baseline, Double(seconds) / baseline, framesSoundFile))
    print(String(format: "  ExtAudioFileRead of the whole file to 16-bit PCM               %.3f s  %7.1f× real time  (%d frames)",
                 ours, Double(seconds) / ours, framesExt))
    print(String(format: "  ExtAudioFileRead / SoundFile: %.3f (goal ≤ 1.1)", ours / baseline))
}

/// The game's loader (oalTouch's MyGetOpenALAudioData); returns the frames read.
private func loadWithExtAudioFile(_ path: String) throws -> Int {
    var file: ExtAudioFileRef?
    guard ExtAudioFileOpenURL(URL(fileURLWithPath: path) as CFURL, &file) == noErr, let file else { throw CocoaError(.fileReadUnknown) }
    defer { ExtAudioFileDispose(file) }
    var fileFormat = AudioStreamBasicDescription()
    var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
    ExtAudioFileGetProperty(file, kExtAudioFileProperty_FileDataFormat, &size, &fileFormat)
    let channels = fileFormat.mChannelsPerFrame
    var client = AudioStreamBasicDescription(mSampleRate: fileFormat.mSampleRate, mFormatID: kAudioFormatLinearPCM,
                                             mFormatFlags: kAudioFormatFlagsNativeEndian | kAudioFormatFlagIsPacked | kAudioFormatFlagIsSignedInteger,
                                             mBytesPerPacket: 2 * channels, mFramesPerPacket: 1, mBytesPerFrame: 2 * channels,
                                             mChannelsPerFrame: channels, mBitsPerChannel: 16, mReserved: 0)
    guard ExtAudioFileSetProperty(file, kExtAudioFileProperty_ClientDataFormat, size, &client) == noErr else { throw CocoaError(.featureUnsupported) }
    var length: Int64 = 0
    size = UInt32(MemoryLayout<Int64>.size)
    ExtAudioFileGetProperty(file, kExtAudioFileProperty_FileLengthFrames, &size, &length)
    let bytes = Int(length) * Int(client.mBytesPerFrame)
    let data = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 16)
    defer { data.deallocate() }
    var list = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: channels, mDataByteSize: UInt32(bytes), mData: data))
    var frames = UInt32(length)
    guard ExtAudioFileRead(file, &frames, &list) == noErr else { throw CocoaError(.fileReadCorruptFile) }
    return Int(frames)
}
