import AudioToolbox
import Foundation
import SoundFile
import Soundstage

/// `soundstage-bench audio-queues`: Audio Queue Services on a device against Soundstage's own
/// streams of the same sounds, each side rendering 10 s of a loopback device (medians of 5,
/// taking turns; CPU of the whole process, the queues' and the streams' decoder threads included):
///
/// 1. one output queue of AAC, fed from its callback with AudioFileReadPacketData as a program
///    feeds it, against the same M4A file as a streaming source (goal: ≤ 1.1×);
/// 2. 32 output queues of 16-bit PCM at once against 32 streaming sources of the same file
///    (goal: ≤ 1.15×).
func audioQueueBench() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bench-queues-\(getpid())").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let wav = directory + "/sweep.wav", m4a = directory + "/sweep.m4a"
    try writeSweep(path: wav, seconds: 12)
    try SoundFileWriter.write(try SoundFile(path: wav).readAll(), to: m4a, format: .m4aAAC)

    let aac = try compare(path: m4a, count: 1)
    let pcm = try compare(path: wav, count: 32)
    print("soundstage-bench audio-queues: 10 s rendered on a loopback device (\(rate) Hz), medians of 5, CPU of the process")
    print(String(format: "  1 AAC file:   stream %.3f s, output queue %.3f s: queue / stream %.3f (goal: ≤ 1.1)", aac.streams, aac.queues,
                 aac.queues / aac.streams))
    print(String(format: "  32 PCM files: streams %.3f s, output queues %.3f s: queues / streams %.3f (goal: ≤ 1.15)", pcm.streams,
                 pcm.queues, pcm.queues / pcm.streams))
}

/// The CPU of `count` streams of `path` and of `count` queues fed from it, medians of 5.
private func compare(path: String, count: Int) throws -> (streams: Double, queues: Double) {
    var streamTimes: [Double] = [], queueTimes: [Double] = []
    for _ in 0..<5 {
        streamTimes.append(try renderCPU { device in
            let scene = try device.makeScene(sourceBudget: count)
            var sources: [Source] = []
            for _ in 0..<count {
                let source = try scene.makeStreamingSource(file: path)
                source.isHeadRelative = true
                source.rolloffFactor = 0
                source.isLooping = true
                try source.play()
                sources.append(source)
            }
            return sources
        })
        queueTimes.append(try renderCPU { device in
            try ApplicationAudio.use(device: device)
            return try (0..<count).map { _ in try QueueFeeder(path: path) }
        })
    }
    return (median(streamTimes), median(queueTimes))
}

/// Renders 10 s of a new loopback device with what `setUp` starts on it; the CPU it took.
private func renderCPU(_ setUp: (Device) throws -> [AnyObject]) throws -> Double {
    let device = try Device.loopback(sampleRate: rate)
    defer { device.close() }
    let playing = try setUp(device)
    _ = try device.render(frames: 4_800)
    let start = cpuSeconds()
    for _ in 0..<100 { _ = try device.render(frames: rate / 10) }
    let used = cpuSeconds() - start
    withExtendedLifetime(playing) {}
    return used
}

/// An output queue playing a file round and round, fed from its callback (on the queue's thread)
/// with AudioFileReadPacketData, as the Core Audio books' player feeds it.
final class QueueFeeder: @unchecked Sendable {
    // @unchecked: `next` is touched only by the callback, which one thread runs at a time, and
    // by `init` before the queue starts.
    private let file: AudioFileID
    private var queue: AudioQueueRef?
    private let packets: Int64
    private let variable: Bool
    private var next: Int64 = 0
    private static let buffers = 3, bufferBytes: UInt32 = 16_384

    init(path: String) throws {
        var opened: AudioFileID?
        guard AudioFileOpenURL(URL(fileURLWithPath: path) as CFURL, .readPermission, 0, &opened) == noErr, let opened else {
            throw CocoaError(.fileReadUnknown)
        }
        file = opened
        var format = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        AudioFileGetProperty(file, kAudioFilePropertyDataFormat, &size, &format)
        var count: UInt64 = 0
        size = 8
        AudioFileGetProperty(file, kAudioFilePropertyAudioDataPacketCount, &size, &count)
        packets = Int64(count)
        variable = format.mBytesPerPacket == 0
        var made: AudioQueueRef?
        guard AudioQueueNewOutput(&format, { userData, _, buffer in
            Unmanaged<QueueFeeder>.fromOpaque(userData!).takeUnretainedValue().fill(buffer)
        }, Unmanaged.passUnretained(self).toOpaque(), nil, nil, 0, &made) == noErr, let made else { throw CocoaError(.featureUnsupported) }
        queue = made
        var cookieSize: UInt32 = 0
        if AudioFileGetPropertyInfo(file, kAudioFilePropertyMagicCookieData, &cookieSize, nil) == noErr, cookieSize > 0 {
            var cookie = [UInt8](repeating: 0, count: Int(cookieSize))
            AudioFileGetProperty(file, kAudioFilePropertyMagicCookieData, &cookieSize, &cookie)
            AudioQueueSetProperty(made, kAudioQueueProperty_MagicCookie, cookie, cookieSize)
        }
        for _ in 0..<Self.buffers {
            var buffer: AudioQueueBufferRef?
            AudioQueueAllocateBufferWithPacketDescriptions(made, Self.bufferBytes, variable ? 512 : 0, &buffer)
            if let buffer { fill(buffer) }
        }
        AudioQueueStart(made, nil)
    }

    deinit {
        if let queue { AudioQueueDispose(queue, true) }
        AudioFileClose(file)
    }

    /// Reads the next packets into `buffer` and enqueues it (from the start again at the end).
    func fill(_ buffer: AudioQueueBufferRef) {
        guard let queue else { return }
        if next >= packets { next = 0 }
        var bytes = buffer.pointee.mAudioDataBytesCapacity
        var count: UInt32 = variable ? 512 : bytes / 2
        let status = AudioFileReadPacketData(file, false, &bytes, variable ? buffer.pointee.mPacketDescriptions : nil, next, &count,
                                             buffer.pointee.mAudioData)
        guard status == noErr || status == kAudioFileEndOfFileError, count > 0 else { return }
        next += Int64(count)
        buffer.pointee.mAudioDataByteSize = bytes
        buffer.pointee.mPacketDescriptionCount = variable ? count : 0
        AudioQueueEnqueueBuffer(queue, buffer, 0, nil)
    }
}
