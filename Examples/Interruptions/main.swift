// interruptions: audio sessions around a game — voice chat ducks the game, a cut-scene
// interrupts it, and everything that was playing resumes from where it was.
//
//   swift run interruptions [--render FILE]
import ExampleSupport
import Foundation
import Soundstage

runExample("interruptions", seconds: 7, about: "Game audio, ducked by voice chat (2–3.5 s), interrupted by a cut-scene (4.5–5.5 s)") { device in
    let center = AudioSessionCenter(device: device, duckGain: 0.25)

    // The game: a radio and a bee, in a soloAmbient session.
    let game = center.makeSession(category: .soloAmbient)
    let world = try device.makeScene()
    game.attach(world)
    try game.setActive(true)
    let radio = world.makeSource(buffer: try device.buffer(file: asset("radio.ogg")))
    radio.position = Vector3(2, 0, -2)
    radio.isLooping = true
    try radio.play()
    let bee = world.makeSource(buffer: try device.buffer(file: asset("bee.wav")))
    bee.position = Vector3(-2, 0, -1)
    bee.isLooping = true
    bee.gain = 0.5
    try bee.play()

    // Voice chat: playAndRecord that ducks the others instead of interrupting them.
    let chat = center.makeSession(category: .playAndRecord, options: .duckOthers)
    let chatScene = try device.makeScene()
    chat.attach(chatScene)
    let voice = chatScene.makeSource(buffer: try device.buffer(file: asset("chime.aiff")))
    voice.isHeadRelative = true

    game.addObserver { event in print("game session: \(event.kind)") }
    var step = 0
    return { t in
        switch (step, t) {
        case (0, 2...):
            try? chat.setActive(true)          // the game drops to 25 %
            try? voice.play()
            step = 1
        case (1, 3.5...):
            try? chat.setActive(false)         // back to full level
            step = 2
        case (2, 4.5...):
            game.beginInterruption()           // a cut-scene: the game's sources pause where they are
            step = 3
        case (3, 5.5...):
            game.endInterruption(shouldResume: true)   // they play on from those offsets
            step = 4
        default:
            break
        }
    }
}
