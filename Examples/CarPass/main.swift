// car-pass: a car drives past at 72 km/h; its engine's pitch drops as it passes (Doppler).
//
//   swift run car-pass [--render FILE]
import Foundation
import ExampleSupport
import Soundstage

runExample("car-pass", seconds: 6, about: "A car passes 5 m in front of you at 72 km/h") { device in
    let scene = try device.makeScene()
    scene.dopplerFactor = 1
    let car = scene.makeSource(buffer: try device.buffer(file: asset("engine.flac")))
    car.isLooping = true
    car.referenceDistance = 3
    let speed: Float = 20                  // m/s along +x
    car.velocity = Vector3(speed, 0, 0)    // OpenAL computes Doppler from velocities
    car.position = Vector3(-60, 0, -5)
    try car.play()
    return { t in
        car.position = Vector3(-60 + speed * Float(t), 0, -5)
    }
}
