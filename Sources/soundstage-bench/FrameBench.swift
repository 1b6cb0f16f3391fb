import Foundation
import NIOConcurrencyHelpers
import Soundstage

/// `soundstage-bench frame [seconds]`: what a game's frame loop waits for. A game thread sets
/// `source.position` and calls `play()` on a click about 1,000 times a second while the device
/// renders in real time, measured twice in one run:
///
/// - quiet: the same scene with its 32 streaming sources paused (the baseline);
/// - churning: the 32 streams play Ogg Vorbis, refill, and a second thread seeks one of them at
///   random every 50 ms (each seek drops and decodes a second of audio).
///
/// Prints p50, p99, p99.9 and max of each call (goal: p99.9 ≤ 50 µs while churning).
func frameBench(arguments: [String]) throws {
    let seconds = arguments.first.flatMap(Double.init) ?? 15
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bench-frame-\(getpid())").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/music.ogg"
    try writeMusic(path: path, seconds: 60)

    let device = try Device.loopback(sampleRate: rate)
    defer { device.close() }
    let scene = try device.makeScene()
    let streams = try (0..<32).map { index -> Source in
        var options = StreamOptions()
        options.loops = true
        let source = try scene.makeStreamingSource(file: path, options: options)
        source.position = Vector3(Float(index % 8) - 4, 0, -Float(index / 8) - 1)
        source.gain = 0.05
        return source
    }
    let click = try device.makeBuffer(AudioBuffer(samples: Array(sine(1_000).prefix(rate / 20)), channels: 1, sampleRate: rate))
    let clicks = (0..<4).map { _ in scene.makeSource(buffer: click) }
    let renderer = try RealTimeRenderer(device: device)
    renderer.start()
    defer { try? renderer.stop() }

    print("frame-loop latency, \(Int(seconds)) s per phase, 32 Ogg Vorbis streams (real-time loopback render):")
    let quiet = try measureFrameLoop(seconds: seconds, streams: streams, clicks: clicks, churn: false)
    for stream in streams { try stream.play() }
    let churning = try measureFrameLoop(seconds: seconds, streams: streams, clicks: clicks, churn: true)
    for (name, base, load) in [("source.position =", quiet.position, churning.position), ("play()", quiet.play, churning.play)] {
        print("  \(name)")
        print("    quiet:    \(frameSummary(base))")
        print("    churning: \(frameSummary(load))")
        print(String(format: "    p99.9 churning / quiet: %.2f (goal: churning p99.9 <= 50 µs)",
                     percentile(load, 0.999) / max(percentile(base, 0.999), 0.001)))
    }
    let underruns = streams.reduce(0) { $0 + $1.underrunCount }
    print("  stream underruns while churning: \(underruns); seeks: \(churning.seeks)")
}

/// Sorted nanosecond samples of the two calls, and how many seeks the churn thread made.
struct FrameSamples {
    var position: [UInt64] = []
    var play: [UInt64] = []
    var seeks = 0
}

func measureFrameLoop(seconds: Double, streams: [Source], clicks: [Source], churn: Bool) throws -> FrameSamples {
    let running = NIOLockedValueBox(true)
    let seeks = NIOLockedValueBox(0)
    var churner: Thread?
    if churn {
        let thread = Thread {
            var generator = SystemRandomNumberGenerator()
            while running.withLockedValue({ $0 }) {
                let stream = streams[Int.random(in: 0..<streams.count, using: &generator)]
                try? stream.seek(to: Double.random(in: 0..<55, using: &generator))
                seeks.withLockedValue { $0 += 1 }
                usleep(50_000)
            }
            Soundstage.detachCurrentThread()
        }
        thread.start()
        churner = thread
    }
    var samples = FrameSamples()
    let end = nanoseconds() + UInt64(seconds * 1e9)
    var frame = 0
    while nanoseconds() < end {
        frame += 1
        let stream = streams[frame % streams.count]
        let target = Vector3(Float(frame % 17) - 8, 0, -2)
        var start = nanoseconds()
        stream.position = target
        samples.position.append(nanoseconds() - start)
        let click = clicks[frame % clicks.count]
        start = nanoseconds()
        try click.play()
        samples.play.append(nanoseconds() - start)
        usleep(1_000)
    }
    running.withLockedValue { $0 = false }
    withExtendedLifetime(churner) {}
    usleep(20_000)
    samples.position.sort()
    samples.play.sort()
    samples.seeks = seeks.withLockedValue { $0 }
    return samples
}

func frameSummary(_ sorted: [UInt64]) -> String {
    String(format: "p50 %.1f µs, p99 %.1f µs, p99.9 %.1f µs, max %.1f µs (%d calls)",
           percentile(sorted, 0.5), percentile(sorted, 0.99), percentile(sorted, 0.999), percentile(sorted, 1), sorted.count)
}

/// A stereo 48 kHz Ogg Vorbis chord of `seconds`, written in one-second chunks.
func writeMusic(path: String, seconds: Int) throws {
    let writer = try SoundFileWriter(path: path, format: .oggVorbis, sampleRate: rate, channels: 2)
    var chunk = [Float](repeating: 0, count: 2 * rate)
    for second in 0..<seconds {
        for i in 0..<rate {
            let t = Double(second * rate + i) / Double(rate)
            let value = Float(0.2 * sin(2 * .pi * 220 * t) + 0.1 * sin(2 * .pi * 331 * t) + 0.05 * sin(2 * .pi * 440 * t * (1 + 0.01 * sin(t))))
            chunk[2 * i] = value
            chunk[2 * i + 1] = value * 0.8
        }
        try writer.write(AudioBuffer(samples: chunk, channels: 2, sampleRate: rate))
    }
    try writer.finish()
}
