import Foundation   // sin
import Soundstage

let device = try Device.loopback()                      // or Device.openOutput()
defer { device.close() }
let scene = try device.makeScene()

// A one-second 440 Hz tone, made in memory.
let tone = AudioBuffer(samples: (0..<48_000).map { Float(0.5 * sin(2 * .pi * 440 * Double($0) / 48_000)) },
                       channels: 1, sampleRate: 48_000)
let source = scene.makeSource(buffer: try device.makeBuffer(tone))
source.position = Vector3(5, 0, 0)                      // to the right
try source.play()

let mix = try device.render(frames: 48_000)             // stereo floats
print(mix.channel(0).max()!, mix.channel(1).max()!)     // 0.0 on the left, 0.1 on the right (0.5 at 5 m)
