import Foundation
import Soundstage

/// Test signals and measurements on rendered audio.
enum Signals {
    static let rate = 48_000

    /// A mono sine.
    static func sine(_ frequency: Double, seconds: Double, amplitude: Float = 0.5, rate: Int = rate) -> AudioBuffer {
        let n = Int(seconds * Double(rate))
        let samples = (0..<n).map { Float(sin(2 * Double.pi * frequency * Double($0) / Double(rate))) * amplitude }
        return AudioBuffer(samples: samples, channels: 1, sampleRate: rate)
    }

    /// A mono sine whose first half is `first` Hz and second half `second` Hz.
    static func twoTone(_ first: Double, _ second: Double, seconds: Double) -> AudioBuffer {
        let a = sine(first, seconds: seconds / 2), b = sine(second, seconds: seconds / 2)
        return AudioBuffer(samples: a.samples + b.samples, channels: 1, sampleRate: rate)
    }

    static func rms(_ samples: some Collection<Float>) -> Double {
        guard !samples.isEmpty else { return 0 }
        return (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
    }

    static func rms(_ buffer: AudioBuffer, channel: Int) -> Double { rms(buffer.channel(channel)) }

    static func peak(_ buffer: AudioBuffer) -> Float { buffer.samples.map(abs).max() ?? 0 }

    /// Frequency from upward zero crossings, interpolated between samples.
    static func frequency(_ samples: [Float], rate: Int = rate) -> Double {
        var crossings: [Double] = []
        for i in 1..<samples.count where samples[i - 1] < 0 && samples[i] >= 0 {
            let fraction = Double(-samples[i - 1]) / Double(samples[i] - samples[i - 1])
            crossings.append(Double(i - 1) + fraction)
        }
        guard crossings.count >= 2 else { return 0 }
        return Double(crossings.count - 1) * Double(rate) / (crossings.last! - crossings.first!)
    }

    static func frequency(_ buffer: AudioBuffer, channel: Int = 0) -> Double {
        frequency(buffer.channel(channel), rate: buffer.sampleRate)
    }
}

/// A loopback device with one scene and a 1 s 440 Hz mono sine buffer; closes the device when
/// the test lets go of it (playing sources keep their scene, and so the device, alive).
final class Rig {
    let device: Device
    let scene: Scene
    let sine: Buffer

    init(layout: ChannelLayout = .stereo, budget: Int = 256, seconds: Double = 1) throws {
        device = try Device.loopback(sampleRate: Signals.rate, layout: layout)
        scene = try device.makeScene(sourceBudget: budget)
        sine = try device.makeBuffer(Signals.sine(440, seconds: seconds))
    }

    deinit { device.close() }

    /// A source playing the sine, looping, at `position`.
    func playing(at position: Vector3, configure: (Source) -> Void = { _ in }) throws -> Source {
        let source = scene.makeSource(buffer: sine)
        source.position = position
        source.isLooping = true
        configure(source)
        try source.play()
        return source
    }

    func render(_ seconds: Double) throws -> AudioBuffer {
        try device.render(frames: Int(seconds * Double(device.sampleRate)))
    }
}
