// hello-soundstage: a buzzing bee circles your head for six seconds.
//
//   swift run hello-soundstage [--render OUT.wav]
//
// Plays on the default output device; on a machine without one (or with --render) it renders
// the same scene offline to a WAV file and says where. Shows the core API: a device, a scene,
// a buffer made from samples in memory, a looping positioned source moved every frame.
import Foundation
import Soundstage

let seconds = 6.0
let arguments = CommandLine.arguments.dropFirst()
let renderPath: String? = arguments.first == "--render" ? (arguments.dropFirst().first ?? "hello-soundstage.wav") : nil

/// A bee: a buzzy 220 Hz tone with a fast wobble, one second long (it loops).
func buzz(rate: Int) -> AudioBuffer {
    let samples = (0..<rate).map { i -> Float in
        let t = Double(i) / Double(rate)
        let saw = 2 * (t * 220).truncatingRemainder(dividingBy: 1) - 1
        let wobble = 0.75 + 0.25 * sin(2 * Double.pi * 23 * t)
        return Float(0.4 * saw * wobble)
    }
    return AudioBuffer(samples: samples, channels: 1, sampleRate: rate)
}

/// Where the bee is at time `t`: a circle of 2 m around the listener, once every 3 s.
func beePosition(at t: Double) -> Vector3 {
    let angle = 2 * Double.pi * t / 3
    return Vector3(Float(2 * sin(angle)), 0, Float(-2 * cos(angle)))
}

do {
    var device: Device
    var realTime = true
    if renderPath == nil, let output = try? Device.openDefault(quietly: true) {
        device = output
    } else {
        if renderPath == nil {
            FileHandle.standardError.write(Data("hello-soundstage: no audio output device; rendering to hello-soundstage.wav instead\n".utf8))
        }
        device = try Device.loopback()
        realTime = false
    }
    defer { device.close() }

    let scene = try device.makeScene()
    let bee = scene.makeSource(buffer: try device.makeBuffer(buzz(rate: device.sampleRate), name: "bee"))
    bee.isLooping = true
    bee.position = beePosition(at: 0)
    try bee.play()

    if realTime {
        print("A bee circles your head for \(Int(seconds)) seconds (listen with headphones)...")
        let start = Date()
        while Date().timeIntervalSince(start) < seconds {
            bee.position = beePosition(at: Date().timeIntervalSince(start))   // a game loop: every frame
            usleep(16_000)
        }
    } else {
        let path = renderPath ?? "hello-soundstage.wav"
        let writer = try SoundFileWriter(path: path, format: .wavPCM16, sampleRate: device.sampleRate, channels: 2)
        let frame = device.sampleRate / 60
        for step in 0..<Int(seconds * 60) {
            bee.position = beePosition(at: Double(step) / 60)
            try writer.write(try device.render(frames: frame))
        }
        try writer.finish()
        print("Rendered \(Int(seconds)) s of a bee circling the listener to \(path)")
    }
} catch {
    FileHandle.standardError.write(Data("hello-soundstage: \(error)\n".utf8))
    exit(1)
}
