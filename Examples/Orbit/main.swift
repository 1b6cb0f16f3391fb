// orbit: a bee circles your head — a looping mono source moved every frame.
//
//   swift run orbit [--render FILE]
import Foundation
import ExampleSupport
import Soundstage

runExample("orbit", seconds: 8, about: "A bee circles your head, once every 4 seconds") { device in
    let scene = try device.makeScene()
    let bee = scene.makeSource(buffer: try device.buffer(file: asset("bee.wav")))
    bee.isLooping = true
    bee.gain = 0.8
    try bee.play()
    var previous: Vector3? = nil
    return { t in
        let angle = 2 * Double.pi * t / 4
        let position = Vector3(Float(2 * sin(angle)), 0, Float(-2 * cos(angle)))
        // Velocity from the motion, so Doppler is right too.
        if let previous { bee.velocity = (position - previous) * 60 }
        bee.position = position
        previous = position
    }
}
