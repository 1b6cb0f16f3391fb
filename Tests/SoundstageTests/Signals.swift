import Foundation
import Soundstage
import TestSupport

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
