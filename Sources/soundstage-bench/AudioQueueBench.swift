import AudioToolbox
import Foundation
import SoundFile
import Soundstage
import TestSupport

/// `soundstage-bench audio-queues`: Audio Queue Services on a device against Soundstage's own
/// streams of the same sounds, each side rendering 10 s of a loopback device (medians of 5,
/// taking turns; CPU of the whole process, the queues' and the streams' decoder threads included):
///
/// 1. one output queue of AAC, fed from its callback with AudioFileReadPacketData as a program
///    feeds it, against the same M4A file as a streaming source (goal: ≤ 1.1×);
/// 2. 32 output queues of 16-bit PCM at once against 32 streaming sources of the same file
///    (goal: ≤ 1.15×).
///
/// `--profile queues|streams`: one side only, the 32 PCM files for 20 s in real time, for a
/// profiler to watch (`perf record -g`); prints its CPU.
func audioQueueBench(arguments: [String] = []) throws {
    // OpenAL Soft's null output (its "No Output" device) for the real-time runs: set before
    // OpenAL first starts, which reads it once.
    setenv("ALSOFT_DRIVERS", "null", 1)
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bench-queues-\(getpid())").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let wav = directory + "/sweep.wav", m4a = directory + "/sweep.m4a"
    try writeSweep(path: wav, seconds: 12)
    if let index = arguments.firstIndex(of: "--profile"), index + 1 < arguments.count {
        let queues = arguments[index + 1] == "queues"
        let used = try renderCPU(realTime: true, seconds: 20) { device in
            queues ? try queueFeeders(path: wav, count: 32, device: device) : try streamingSources(path: wav, count: 32, device: device)
        }
        print(String(format: "32 PCM files as %@, 20 s in real time: %.3f s of CPU", queues ? "output queues" : "streams", used))
        return
    }
    try SoundFileWriter.write(try SoundFile(path: wav).readAll(), to: m4a, format: .m4aAAC)

    // In real time, as a game plays (the goals' measure): OpenAL Soft's null output mixes in real
    // time and plays nowhere. Then faster than real time on a loopback device, where a render
    // waits for every queue's thread each chunk (a cost only offline renders of device queues pay).
    for realTime in [true, false] {
        let aac = try compare(path: m4a, count: 1, realTime: realTime)
        let pcm = try compare(path: wav, count: 32, realTime: realTime)
        print(realTime ? "soundstage-bench audio-queues: 4 s played in real time on OpenAL Soft's null output, medians of 5, CPU of the process"
                       : "  faster than real time: 10 s rendered on a loopback device (\(rate) Hz), medians of 5")
        print(String(format: "  1 AAC file:   stream %.3f s, output queue %.3f s: queue / stream %.3f%@", aac.streams, aac.queues,
                     aac.queues / aac.streams, realTime ? " (goal: ≤ 1.1)" : ""))
        print(String(format: "  32 PCM files: streams %.3f s, output queues %.3f s: queues / streams %.3f%@", pcm.streams,
                     pcm.queues, pcm.queues / pcm.streams, realTime ? " (goal: ≤ 1.15)" : ""))
    }
}

/// The CPU of `count` streams of `path` and of `count` queues fed from it, medians of 5.
private func compare(path: String, count: Int, realTime: Bool) throws -> (streams: Double, queues: Double) {
    var streamTimes: [Double] = [], queueTimes: [Double] = []
    for _ in 0..<5 {
        streamTimes.append(try renderCPU(realTime: realTime) { try streamingSources(path: path, count: count, device: $0) })
        queueTimes.append(try renderCPU(realTime: realTime) { try queueFeeders(path: path, count: count, device: $0) })
    }
    return (median(streamTimes), median(queueTimes))
}

/// `count` streaming sources of `path` playing round and round on `device`, unpositioned.
private func streamingSources(path: String, count: Int, device: Device) throws -> [AnyObject] {
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
}

/// `count` output queues on `device`, each fed from `path` as a program feeds it.
private func queueFeeders(path: String, count: Int, device: Device) throws -> [AnyObject] {
    try ApplicationAudio.use(device: device)
    return try (0..<count).map { _ in try QueueFeeder(path: path) }
}

/// The CPU a new device took with what `setUp` starts on it: `seconds` (4) played in real time
/// on OpenAL Soft's null output, or 10 s rendered on a loopback device.
private func renderCPU(realTime: Bool, seconds: Int = 4, _ setUp: (Device) throws -> [AnyObject]) throws -> Double {
    let device = realTime ? try Device.open(named: "No Output") : try Device.loopback(sampleRate: rate)
    defer { device.close() }
    let playing = try setUp(device)
    let used: Double
    if realTime {
        usleep(500_000)
        let start = cpuSeconds()
        usleep(UInt32(seconds) * 1_000_000)
        used = cpuSeconds() - start
    } else {
        _ = try device.render(frames: 4_800)
        let start = cpuSeconds()
        for _ in 0..<100 { _ = try device.render(frames: rate / 10) }
        used = cpuSeconds() - start
    }
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

/// `soundstage-bench audio-queue-ear [--pipewire] [--plays N]`: a queue's buffer callback to the
/// ear against a Soundstage stream's, on a throw-away desktop server (PulseAudio by default), each
/// measured at the sink's monitor as the first sample of a 1 kHz click:
///
/// - the queue: 16-bit mono at 48 kHz in three buffers of 10 ms, refilled with silence from its
///   callback on the queue's thread; armed, the next callback fills its buffer with the click. From
///   that callback's enqueue to the ear, less the audio enqueued ahead of it (what iOS plays first
///   too), is what the queue adds;
/// - the stream: a streaming source of ``queueStreamOptions`` (20 ms chunks, four in OpenAL's
///   queue and four decoded ahead) reading from a producer that hands it silence, and the click
///   once armed: from that hand-over to the ear. (The queue's run holds as much in OpenAL's queue,
///   in chunks as long as its buffers, and one chunk fewer decoded ahead: its buffers wait too.)
///
/// The goal: the queue within 2 ms of the stream (medians).
func audioQueueEarLatency(arguments: [String]) throws {
    let kind: AudioServerFixture.Kind = arguments.contains("--pipewire") ? .pipewire : .pulseaudio
    let plays = arguments.firstIndex(of: "--plays").flatMap { Int(arguments[$0 + 1]) } ?? 30
    let fixture = try AudioServerFixture(kind)
    defer { fixture.stop() }
    let recording = try fixture.record(sink: "A")
    defer { recording.stop() }
    let device = try Device.openDesktop(DesktopOutputOptions(applicationName: "bench", server: fixture.server))
    defer { device.close() }
    let audio = try ApplicationAudio.use(device: device)
    print("callback to the ear on \(kind): a 1 kHz click's first sample at sink A's monitor, \(plays) plays each")

    let clicks = ClickSource()
    let producer = ClickProducer(clicks)
    let stream = try AudioPlayer(producer: producer, sampleRate: 48_000, channels: 1, name: "<bench stream>", scene: audio.scene,
                                 session: nil, options: queueStreamOptions)
    try stream.play()
    let streamLatencies = try measureClicks(plays, recording: recording, clicks: clicks)
    stream.stop()
    producer.cancel()

    let queueClicks = ClickSource()
    let queue = try ClickQueue(queueClicks)
    defer { queue.dispose() }
    let queueLatencies = try measureClicks(plays, recording: recording, clicks: queueClicks)
    report("stream: producer hands the click over → sink", streamLatencies, goal: nil)
    report("queue: callback enqueues the click → sink, less the 20 ms enqueued ahead", queueLatencies, goal: nil)
    let sorted = (streamLatencies.sorted(), queueLatencies.sorted())
    if !sorted.0.isEmpty, !sorted.1.isEmpty {
        let difference = sorted.1[sorted.1.count / 2] - sorted.0[sorted.0.count / 2]
        print(String(format: "  queue − stream (medians): %+.1f ms (goal: within 2 ms)", difference * 1_000))
    }
}

/// Arms a click and says when its first sample left the program (monotonic seconds).
final class ClickSource: @unchecked Sendable {
    private let lock = NSLock()
    private var armed = false
    private var handedAt: Double?
    /// Seconds of audio queued ahead of the click when it was handed over (the queue's buffers).
    private var ahead = 0.0
    static let click: [Float] = (0..<1_440).map { Float(0.5 * sin(2 * Double.pi * 1_000 * Double($0) / 48_000)) }

    func arm() { lock.withLock { armed = true; handedAt = nil } }
    /// Whether to hand the click over now; notes the time (and the audio ahead of it).
    func takeArmed(ahead seconds: Double = 0) -> Bool {
        lock.withLock {
            guard armed else { return false }
            armed = false
            handedAt = MonitorRecording.now()
            ahead = seconds
            return true
        }
    }
    var handed: (at: Double, ahead: Double)? { lock.withLock { handedAt.map { ($0, ahead) } } }
}

/// A stream's producer: silence, and the click when armed (paced by the stream asking).
final class ClickProducer: FrameProducer, @unchecked Sendable {
    private let clicks: ClickSource
    private let lock = NSLock()
    private var cancelled = false
    private var pending: [Float] = []
    init(_ clicks: ClickSource) { self.clicks = clicks }

    func produce(into destination: UnsafeMutablePointer<Float>, frames: Int) throws -> Int {
        lock.withLock {
            if cancelled { return 0 }
            if pending.isEmpty, clicks.takeArmed() { pending = ClickSource.click }
            let count = min(frames, 480)
            for index in 0..<count { destination[index] = index < pending.count ? pending[index] : 0 }
            pending.removeFirst(min(count, pending.count))
            return count
        }
    }

    func cancel() { lock.withLock { cancelled = true } }
}

/// An output queue refilled with silence from its callback, the click when armed.
final class ClickQueue: @unchecked Sendable {
    private var queue: AudioQueueRef?
    private let clicks: ClickSource
    private var pending: [Int16] = []
    private static let frames = 480

    init(_ clicks: ClickSource) throws {
        self.clicks = clicks
        var format = AudioStreamBasicDescription(mSampleRate: 48_000, mFormatID: kAudioFormatLinearPCM,
                                                 mFormatFlags: kLinearPCMFormatFlagIsSignedInteger | kLinearPCMFormatFlagIsPacked,
                                                 mBytesPerPacket: 2, mFramesPerPacket: 1, mBytesPerFrame: 2, mChannelsPerFrame: 1,
                                                 mBitsPerChannel: 16, mReserved: 0)
        var made: AudioQueueRef?
        guard AudioQueueNewOutput(&format, { userData, _, buffer in
            Unmanaged<ClickQueue>.fromOpaque(userData!).takeUnretainedValue().fill(buffer)
        }, Unmanaged.passUnretained(self).toOpaque(), nil, nil, 0, &made) == noErr, let made else { throw CocoaError(.featureUnsupported) }
        queue = made
        for _ in 0..<3 {
            var buffer: AudioQueueBufferRef?
            AudioQueueAllocateBuffer(made, UInt32(Self.frames * 2), &buffer)
            if let buffer { fill(buffer) }
        }
        guard AudioQueueStart(made, nil) == noErr else { throw CocoaError(.featureUnsupported) }
    }

    /// The callback (the queue's thread): the next 10 ms, silence or the click.
    func fill(_ buffer: AudioQueueBufferRef) {
        guard let queue else { return }
        // Two buffers are enqueued ahead of this one: 20 ms the ear hears first.
        if pending.isEmpty, clicks.takeArmed(ahead: 2 * Double(Self.frames) / 48_000) {
            pending = ClickSource.click.map { Int16($0 * 32_767) }
        }
        let samples = buffer.pointee.mAudioData.assumingMemoryBound(to: Int16.self)
        for index in 0..<Self.frames { samples[index] = index < pending.count ? pending[index] : 0 }
        pending.removeFirst(min(Self.frames, pending.count))
        buffer.pointee.mAudioDataByteSize = UInt32(Self.frames * 2)
        AudioQueueEnqueueBuffer(queue, buffer, 0, nil)
    }

    func dispose() {
        if let queue { AudioQueueDispose(queue, true) }
    }
}

/// Arms `plays` clicks one at a time; each one's time from its hand-over (less the audio ahead of
/// it, if any) to its first sample at the monitor.
func measureClicks(_ plays: Int, recording: MonitorRecording, clicks: ClickSource) throws -> [Double] {
    usleep(500_000)   // the stream settles
    var latencies: [Double] = []
    for _ in 0..<plays {
        usleep(150_000)
        let from = recording.frameCount
        clicks.arm()
        let deadline = Date().addingTimeInterval(2)
        var onset: Int?
        while onset == nil && Date() < deadline {
            usleep(1_000)
            onset = recording.firstFrame(above: 0.05, from: from)
        }
        guard let onset, let heard = recording.time(ofFrame: onset), let handed = clicks.handed else { continue }
        latencies.append(heard - handed.at - handed.ahead)
    }
    return latencies
}
