import Foundation
import Testing
@testable import Soundstage
import SoundFile
import TestSupport

/// What libpulse says of a laptop's one sink after its headphones are pulled or plugged in (the
/// active port and the jacks), for the stream's sink `A`.
func laptopSink(_ active: String, headphonesPlugged: Bool, sink: String = "A") -> SinkPortSnapshot {
    SinkPortSnapshot(sink: sink, activePort: active, ports: [
        .init(name: "analog-output-speaker", description: "Speakers", availability: .unknown, type: 2),
        .init(name: "analog-output-headphones", description: "Headphones", availability: headphonesPlugged ? .yes : .no, type: 3),
    ])
}

extension DesktopOutputTests {
    /// A laptop's headphones pulled, then plugged in again: the sink stays, its port changes.
    /// No server the tests can start has a sink with ports to switch (null and virtual sinks have
    /// none; ALSA's need a sound card, and the container has none), so the real server is asked
    /// about its sink — after the stream opened and after a change of that sink, here its
    /// volume, which is no route change — and the port sequence libpulse delivers on a laptop is
    /// then handed to the output where libpulse's answer arrives. From there on it is the real
    /// path: the route observer, the session center, the sessions' sources.
    @Test(arguments: installedServers)
    func aLaptopsHeadphonesPulledAndPluggedInAreRouteChanges(_ kind: AudioServerFixture.Kind) throws {
        let fixture = try AudioServerFixture(kind)
        let device = try desktopDevice(on: fixture)
        defer { device.close() }
        let desktop = try #require(device.desktop)
        #expect(waitFor(5) { desktop.sinkInfoAnswers >= 1 }, "the server told the output about its sink")
        let center = AudioSessionCenter(device: device)
        let observed = Observed(device)
        let music = center.makeSession(category: .playback)
        let game = center.makeSession(category: .soloAmbient)
        observed.watch(music)
        try music.setActive(true)
        try game.setActive(true)
        let musicScene = try device.makeScene(), gameScene = try device.makeScene()
        music.attach(musicScene)
        game.attach(gameScene)
        let song = try toneSource(musicScene, device, Signals.sine(440, seconds: 20))
        let engine = try toneSource(gameScene, device, Signals.sine(220, seconds: 20))
        try song.play()
        try engine.play()

        // A change of the sink that is not its port (the user's volume on it): asked, no route change.
        let answers = desktop.sinkInfoAnswers
        _ = try fixture.pactl(["set-sink-volume", "A", "50%"])
        #expect(waitFor(5) { desktop.sinkInfoAnswers > answers }, "a change of the sink is read")
        #expect(desktop.receiveSinkInfo(laptopSink("analog-output-headphones", headphonesPlugged: true)))
        usleep(100_000)
        #expect(observed.routes.isEmpty, "\(observed.routes)")

        // Pulled: the server switched to the speakers.
        desktop.receiveSinkInfo(laptopSink("analog-output-speaker", headphonesPlugged: false))
        #expect(waitFor(5) { observed.routes.count == 1 && song.playbackState == .paused })
        let pulled = try #require(observed.routes.first)
        #expect(pulled.reason == .oldDeviceUnavailable)
        #expect(pulled.previousOutput == "A" && pulled.output == "A")
        #expect(pulled.previousPort == "analog-output-headphones" && pulled.port == "analog-output-speaker")
        // The music paused where it was and stays paused; the session sounds again (the sound
        // already has its place); the game plays on.
        #expect(waitFor(5) { observed.sessions.count == 3 })
        #expect(observed.sessions == [.activated, .interruptionBegan(.deviceUnavailable), .interruptionEnded(shouldResume: false)])
        #expect(music.isActive && !music.isInterrupted)
        #expect(engine.playbackState == .playing)
        let pausedAt = song.offset
        #expect(pausedAt > 0)

        // Plugged in again: a new device, nothing resumes by itself.
        desktop.receiveSinkInfo(laptopSink("analog-output-headphones", headphonesPlugged: true))
        #expect(waitFor(5) { observed.routes.count == 2 })
        let plugged = observed.routes[1]
        #expect(plugged.reason == .newDeviceAvailable)
        #expect(plugged.previousPort == "analog-output-speaker" && plugged.port == "analog-output-headphones")
        usleep(100_000)
        #expect(song.playbackState == .paused && song.offset == pausedAt)
        #expect(observed.sessions.count == 3, "\(observed.sessions)")
        try song.play()
        #expect(song.playbackState == .playing)
    }
}
