// walk-past: you walk down a street past a radio; your footsteps follow you (head-relative).
//
//   swift run walk-past [--render FILE]
import Foundation
import ExampleSupport
import Soundstage

runExample("walk-past", seconds: 10, about: "You walk 20 m past a radio on your right") { device in
    let scene = try device.makeScene()
    let radio = scene.makeSource(buffer: try device.buffer(file: asset("radio.ogg")))
    radio.position = Vector3(3, 0, 0)
    radio.referenceDistance = 2
    radio.isLooping = true
    try radio.play()

    let steps = scene.makeSource(buffer: try device.buffer(file: asset("footstep.caf")))
    steps.isHeadRelative = true            // always just below the listener
    steps.position = Vector3(0, -1.6, 0)
    steps.gain = 0.6
    steps.isLooping = true
    try steps.play()

    let speed: Float = 2                   // metres per second, towards −z
    scene.listener.velocity = Vector3(0, 0, -speed)
    return { t in
        scene.listener.position = Vector3(0, 0, 10 - speed * Float(t))
    }
}
