// two-scenes: a world scene and a UI scene on one device, mixed. The UI scene's clicks and
// chime are not affected by where the listener stands or by the world's volume.
//
//   swift run two-scenes [--render FILE]
import Foundation
import ExampleSupport
import Soundstage

runExample("two-scenes", seconds: 5, about: "A world with a bee and wind, and UI clicks on top") { device in
    let world = try device.makeScene()
    let bee = world.makeSource(buffer: try device.buffer(file: asset("bee.wav")))
    bee.position = Vector3(-2, 0, -1)
    bee.isLooping = true
    bee.gain = 0.5
    try bee.play()
    let wind = world.makeSource(buffer: try device.buffer(file: asset("ambience.ogg")))
    wind.isLooping = true
    wind.gain = 0.3
    try wind.play()

    let ui = try device.makeScene(sourceBudget: 8)
    let click = try device.buffer(file: asset("click.wav"))
    let chime = try device.buffer(file: asset("chime.aiff"))
    var fired: Set<Int> = []
    return { t in
        // The world fades out over the last two seconds; the UI stays at full level.
        world.listener.gain = Float(max(0, min(1, (5 - t) / 2)))
        for (index, (time, buffer)) in [(1.0, click), (1.5, click), (2.5, chime), (4.0, click)].enumerated()
        where t >= time && !fired.contains(index) {
            fired.insert(index)
            let sound = ui.makeSource(buffer: buffer)   // fire and forget: the scene keeps it until it ends
            try? sound.play()
        }
    }
}
