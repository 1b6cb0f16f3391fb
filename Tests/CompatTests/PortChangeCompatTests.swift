import Foundation
@testable import Soundstage
import SoundstageCompat
import Testing
import TestSupport

extension CompatPrograms.CompatDesktopTests {
    /// What libpulse says of a laptop's one sink (`A` here): its active port and its jacks.
    static func laptopSink(_ active: String, headphonesPlugged: Bool) -> SinkPortSnapshot {
        SinkPortSnapshot(sink: "A", activePort: active, ports: [
            .init(name: "analog-output-speaker", description: "Speakers", availability: .unknown, type: 2),
            .init(name: "analog-output-headphones", description: "Headphones", availability: headphonesPlugged ? .yes : .no, type: 3),
        ])
    }

    /// A music player in the `playback` category, on a laptop whose headphones are pulled: the
    /// sink stays and its port goes from the headphones to the speakers. `routeChangeNotification`
    /// comes with `.oldDeviceUnavailable` and the headphones as the previous route, the seeds'
    /// route-change handler pauses the music (and the session paused it first), and the route is
    /// the speakers; plugged in again: `.newDeviceAvailable`, the speakers as the previous route.
    /// No server the tests can start has a sink with ports, so the port sequence libpulse delivers
    /// is handed to the real output where libpulse's answer arrives (see `SinkPortTests`).
    @Test(arguments: servers)
    func pullingALaptopsHeadphonesPausesTheMusic(_ kind: AudioServerFixture.Kind) throws {
        let fixture = try AudioServerFixture(kind)
        let device = try Self.device(on: fixture)
        try CompatOutput.use(device: device)
        defer { device.close() }
        let desktop = try #require(device.desktop)
        #expect(waitFor(5) { desktop.sinkInfoAnswers >= 1 })
        let music = try Self.file(Signals.sine(440, seconds: 0.5, amplitude: 0.5), "music.wav")
        defer { try? FileManager.default.removeItem(at: music) }
        let session = AVAudioSession.sharedInstance()
        try session.setCategory(.playback)
        try session.setActive(true)
        let player = try AVAudioPlayer(contentsOf: music)
        player.numberOfLoops = -1
        #expect(player.play())
        let watcher = HeadphoneWatcher(music: player)
        let notes = RouteNotes()
        let token = NotificationCenter.default.addObserver(forName: AVAudioSession.routeChangeNotification, object: nil,
                                                           queue: nil) { note in notes.add(note) }
        defer { NotificationCenter.default.removeObserver(token) }

        desktop.receiveSinkInfo(Self.laptopSink("analog-output-headphones", headphonesPlugged: true))
        #expect(waitFor(5) { device.mixTime > 0.2 })
        desktop.receiveSinkInfo(Self.laptopSink("analog-output-speaker", headphonesPlugged: false))
        #expect(waitFor(5) { watcher.pausedForRoute == 1 }, "\(watcher.reasons)")
        #expect(!player.isPlaying)
        let pulled = try #require(notes.all.first)
        #expect(pulled.reason == AVAudioSession.RouteChangeReason.oldDeviceUnavailable.rawValue)
        #expect(pulled.previous.map(\.portType) == [.headphones])
        #expect(pulled.previous.map(\.uid) == ["A"])
        #expect(session.currentRoute.outputs.map(\.portType) == [.builtInSpeaker])

        desktop.receiveSinkInfo(Self.laptopSink("analog-output-headphones", headphonesPlugged: true))
        #expect(waitFor(5) { notes.all.count == 2 })
        let plugged = notes.all[1]
        #expect(plugged.reason == AVAudioSession.RouteChangeReason.newDeviceAvailable.rawValue)
        #expect(plugged.previous.map(\.portType) == [.builtInSpeaker])
        #expect(session.currentRoute.outputs.map(\.portType) == [.headphones])
        #expect(watcher.reasons == [.oldDeviceUnavailable, .newDeviceAvailable])
        #expect(!player.isPlaying, "nothing resumes by itself")
        player.stop()
    }
}

/// The route-change notifications seen: each one's reason and previous route's outputs.
final class RouteNotes: @unchecked Sendable {
    // @unchecked: `notes` is guarded by `lock`.
    struct Note { let reason: UInt?; let previous: [AVAudioSessionPortDescription] }
    private let lock = NSLock()
    private var notes: [Note] = []

    func add(_ note: Notification) {
        let reason = note.userInfo?[AVAudioSessionRouteChangeReasonKey] as? UInt
        let previous = (note.userInfo?[AVAudioSessionRouteChangePreviousRouteKey] as? AVAudioSessionRouteDescription)?.outputs ?? []
        lock.withLock { notes.append(Note(reason: reason, previous: previous)) }
    }

    var all: [Note] { lock.withLock { notes } }
}
