import Foundation
import NIOConcurrencyHelpers
import Testing
@testable import Soundstage
import TestSupport

/// Records a session's events.
final class EventLog: Sendable {
    private let list = NIOLockedValueBox<[SessionEvent]>([])
    init(_ session: AudioSession) { session.addObserver { [self] event in list.withLockedValue { $0.append(event) } } }
    var kinds: [SessionEvent.Kind] { list.withLockedValue { $0.map(\.kind) } }
    var all: [SessionEvent] { list.withLockedValue { $0 } }
}

/// A loopback device, a session center with a manual clock, and helpers.
final class SessionRig {
    let device: Device
    let center: AudioSessionCenter
    let clock = ManualClock()

    init(duckGain: Float = 0.3) throws {
        device = try Device.loopback()
        let clock = self.clock
        center = AudioSessionCenter(device: device, duckGain: duckGain, clock: { clock.now })
    }

    deinit { device.close() }

    /// A session with a scene playing a looping sine at `frequency`, 1 m ahead.
    func session(_ category: SessionCategory, options: SessionOptions = [], frequency: Double = 440,
                 activate: Bool = true) throws -> (AudioSession, Scene, Source) {
        let session = center.makeSession(category: category, options: options)
        let scene = try device.makeScene()
        session.attach(scene)
        if activate { try session.setActive(true) }
        let source = scene.makeSource(buffer: try device.makeBuffer(Signals.sine(frequency, seconds: 1)))
        source.position = Vector3(0, 0, -1)
        source.isLooping = true
        if activate { try source.play() }
        return (session, scene, source)
    }

    func render(_ seconds: Double) throws -> AudioBuffer { try device.render(frames: Int(seconds * 48_000)) }
}

@Suite struct SessionTests {
    /// An observer may call its session back from inside its call: iOS code reactivates and
    /// sets its category when an interruption ends. (The observers were called under the
    /// center's lock, and this re-entry trapped on it.) The events keep their order, and the
    /// ones the observer caused come after the one it was handling.
    @Test func anObserverMayCallItsSessionBack() throws {
        let rig = try SessionRig()
        let (session, _, source) = try rig.session(.soloAmbient)
        let log = EventLog(session)
        let once = NIOLockedValueBox(false)
        session.addObserver { event in
            guard case .interruptionEnded = event.kind else { return }
            let first = once.withLockedValue { done in
                defer { done = true }
                return !done
            }
            guard first else { return }
            session.setCategory(.ambient)
            try? session.setActive(true)
            session.beginInterruption()   // and once more, to see the order: this one nests
        }
        _ = try rig.render(0.1)
        session.beginInterruption()
        #expect(Signals.peak(try rig.render(0.1)) == 0)
        session.endInterruption(shouldResume: true)
        #expect(session.category == .ambient)
        #expect(log.kinds == [.interruptionBegan(.application), .interruptionEnded(shouldResume: true), .interruptionBegan(.application)],
                "\(log.kinds)")
        #expect(session.isInterrupted && source.playbackState == .paused)
        session.endInterruption(shouldResume: true)
        #expect(source.playbackState == .playing)
    }

    @Test func anInterruptionIsSilentAndResumesFromTheSavedOffset() throws {
        // Reference: 0.6 s straight through (non-looping 2 s sound).
        let straight = try SessionRig()
        let (_, _, ref) = try straight.session(.soloAmbient)
        ref.isLooping = false
        let reference = try straight.render(0.6)

        let rig = try SessionRig()
        let (session, _, source) = try rig.session(.soloAmbient)
        source.isLooping = false
        let log = EventLog(session)
        _ = try rig.render(0.4)
        rig.clock.advance(0.4)
        session.beginInterruption()
        #expect(abs(source.offset - 0.4) < 0.011)
        let during = try rig.render(0.5)
        #expect(Signals.peak(during) == 0, "silent while interrupted")
        #expect(abs(source.offset - 0.4) < 0.011, "the offset holds")
        rig.clock.advance(0.5)
        session.endInterruption(shouldResume: true)
        let after = try rig.render(0.2)
        let expected = reference.slice(frames: 19_200..<28_800)
        let diff = zip(after.samples, expected.samples).map { abs($0 - $1) }.max() ?? 1
        #expect(diff < 1e-3, "continues from where it was (max difference \(diff))")
        #expect(log.all == [SessionEvent(kind: .interruptionBegan(.application), time: 0.4),
                            SessionEvent(kind: .interruptionEnded(shouldResume: true), time: 0.9)])
    }

    @Test func withoutShouldResumeSourcesStayPausedUntilTheGamePlaysThem() throws {
        let rig = try SessionRig()
        let (session, _, source) = try rig.session(.soloAmbient)
        _ = try rig.render(0.1)
        session.beginInterruption()
        session.endInterruption(shouldResume: false)
        #expect(Signals.peak(try rig.render(0.2)) == 0)
        #expect(source.playbackState == .paused)
        try source.play()
        #expect(Signals.rms(try rig.render(0.1).samples) > 0.1)
    }

    @Test func sourcesTheGameStoppedOrStartedDuringAnInterruption() throws {
        let rig = try SessionRig()
        let (session, scene, a) = try rig.session(.soloAmbient)
        let b = scene.makeSource(buffer: a.buffer)
        b.isLooping = true
        try b.play()
        session.beginInterruption()
        b.stop()                                         // stopped during: stays stopped
        let c = scene.makeSource(buffer: a.buffer)
        let error = #expect(throws: SoundstageError.self) { try c.play() }   // started during: refused
        #expect(error?.code == .sessionNotActive)
        session.endInterruption(shouldResume: true)
        #expect(a.playbackState == .playing)
        #expect(b.playbackState == .stopped, "nothing resumes that was not playing")
        #expect(c.playbackState == .initial)
    }

    @Test func ambientIsInterruptedBySoloAmbient() throws {
        let rig = try SessionRig()
        let (ambient, _, _) = try rig.session(.ambient, frequency: 300)
        let log = EventLog(ambient)
        let (solo, _, _) = try rig.session(.soloAmbient, frequency: 1_000)
        #expect(log.kinds == [.interruptionBegan(.otherSessionActivated)])
        #expect(!ambient.isSounding && solo.isSounding)
        let mix = try rig.render(0.2)
        #expect(abs(Signals.frequency(mix) - 1_000) < 2, "only the solo session is heard")
        try solo.setActive(false)                         // notifies others by default
        #expect(log.kinds.last == .interruptionEnded(shouldResume: true))
        #expect(abs(Signals.frequency(try rig.render(0.2)) - 300) < 2, "the ambient session resumes")
    }

    @Test func mixWithOthersSessionsBothSound() throws {
        let rig = try SessionRig()
        let (first, _, _) = try rig.session(.soloAmbient, options: .mixWithOthers, frequency: 300)
        let (second, _, _) = try rig.session(.soloAmbient, options: .mixWithOthers, frequency: 1_000)
        #expect(first.isSounding && second.isSounding)
        let both = Signals.rms(try rig.render(0.2).samples)
        try second.setActive(false)
        _ = try rig.render(0.02)
        let one = Signals.rms(try rig.render(0.2).samples)
        #expect(abs(both / one - 2.0.squareRoot()) < 0.05, "two equal sines add up: \(both / one)")
    }

    @Test func duckOthersLowersTheOthersAndRestoresThem() throws {
        let rig = try SessionRig(duckGain: 0.25)
        let (game, _, _) = try rig.session(.soloAmbient, frequency: 300)
        let log = EventLog(game)
        let full = Signals.rms(try rig.render(0.2).samples)
        let (chat, chatScene, chatSource) = try rig.session(.playAndRecord, options: .duckOthers, frequency: 1_000)
        chatSource.stop()                                 // measure the game alone while ducked
        #expect(game.isSounding && game.isDucked)
        _ = try rig.render(0.02)
        let ducked = Signals.rms(try rig.render(0.2).samples)
        #expect(abs(ducked / full - 0.25) < 0.01, "ducked to \(ducked / full)")
        try chat.setActive(false)
        _ = try rig.render(0.02)
        let restored = Signals.rms(try rig.render(0.2).samples)
        #expect(abs(restored / full - 1) < 0.01)
        #expect(log.kinds == [.ducked(gain: 0.25), .unducked])
        _ = chatScene
    }

    @Test func playbackKeepsPlayingUntilVoiceChat() throws {
        let rig = try SessionRig()
        let (music, _, _) = try rig.session(.playback)
        _ = try rig.session(.soloAmbient)
        #expect(music.isSounding, "playback keeps playing when others start")
        let (chat, _, _) = try rig.session(.playAndRecord)
        #expect(!music.isSounding, "voice chat interrupts it")
        let (late, _, _) = try rig.session(.soloAmbient, activate: false)
        let error = #expect(throws: SoundstageError.self) { try late.setActive(true) }
        #expect(error?.code == .sessionUnavailable)
        try chat.setActive(false, notifyOthersOnDeactivation: false)
        #expect(music.isSounding)
        #expect(music.isActive)
    }

    @Test func deactivatingWithoutNotifyingLeavesOthersPaused() throws {
        let rig = try SessionRig()
        let (ambient, _, ambientSource) = try rig.session(.ambient)
        let (solo, _, _) = try rig.session(.soloAmbient)
        let log = EventLog(ambient)
        try solo.setActive(false, notifyOthersOnDeactivation: false)
        #expect(log.kinds == [.interruptionEnded(shouldResume: false)])
        #expect(ambientSource.playbackState == .paused)
    }

    @Test func systemSoundsGoSilentWithTheirSession() throws {
        let rig = try SessionRig()
        let session = rig.center.makeSession()
        let registry = try SystemSoundRegistry(device: rig.device)
        session.attach(registry)
        try session.setActive(true)
        let data = try Self.wav(Signals.sine(880, seconds: 0.2))
        let id = try registry.register(data: data, name: "beep.wav")
        session.beginInterruption()
        let outcomes = Outcomes()
        try registry.play(id, completion: outcomes.handler)
        #expect(Signals.peak(try rig.render(0.1)) == 0)
        #expect(outcomes.all == [.silenced])
        session.endInterruption(shouldResume: true)
        try registry.play(id)
        #expect(Signals.rms(try rig.render(0.1).samples) > 0.1)
        registry.close()
    }

    @Test func eventsArriveInOrderOnTheAsyncStreamWithTheInjectedClock() async throws {
        let rig = try SessionRig()
        let (session, _, _) = try rig.session(.soloAmbient)
        let stream = session.events()
        rig.clock.advance(1)
        session.beginInterruption()
        rig.clock.advance(2)
        session.endInterruption(shouldResume: true)
        var iterator = stream.makeAsyncIterator()
        let first = await iterator.next(), second = await iterator.next()
        #expect(first == SessionEvent(kind: .interruptionBegan(.application), time: 1))
        #expect(second == SessionEvent(kind: .interruptionEnded(shouldResume: true), time: 3))
    }

    /// 1000 random begin/end/activate/deactivate/route events (and game plays, pauses, stops)
    /// across three sessions: nothing plays while its session does not sound, nothing resumes
    /// that was not playing, OpenAL objects stay bounded.
    @Test func randomizedEventsKeepTheInvariants() throws {
        let rig = try SessionRig()
        let connected = NIOLockedValueBox(true)
        rig.device.route.withLockedValue { route in
            route.hooks.isConnected = { _ in connected.withLockedValue { $0 } }
            route.hooks.openReplacement = { _ throws(SoundstageError) in
                guard connected.withLockedValue({ $0 }) else { throw SoundstageError(.noOutputDevice, "unplugged") }
                return try Device.openLoopbackHandle()
            }
            route.hooks.clock = { [clock = rig.clock] in clock.now }
        }
        let categories: [SessionCategory] = [.ambient, .soloAmbient, .playAndRecord]
        var sessions: [(AudioSession, Scene, [Source])] = []
        for (index, category) in categories.enumerated() {
            let session = rig.center.makeSession(category: category, options: index == 0 ? [] : (index == 2 ? [.duckOthers] : []))
            let scene = try rig.device.makeScene(sourceBudget: 4)
            session.attach(scene)
            let buffer = try rig.device.makeBuffer(Signals.sine(200 + 100 * Double(index), seconds: 0.3))
            let sources = (0..<3).map { _ in let s = scene.makeSource(buffer: buffer); s.isLooping = true; return s }
            sessions.append((session, scene, sources))
        }
        var seeded = SplitMix64(seed: 20261122)
        var pausedByGame: Set<ObjectIdentifier> = []   // must never be resumed by the engine
        for step in 0..<1_000 {
            let (session, _, sources) = sessions[Int.random(in: 0..<3, using: &seeded)]
            // What was playing before this event, per source.
            let before = Dictionary(uniqueKeysWithValues: sessions.flatMap(\.2).map { (ObjectIdentifier($0), $0.playbackState) })
            let target = sources[Int.random(in: 0..<3, using: &seeded)]
            rig.clock.advance(0.05)
            switch Int.random(in: 0..<8, using: &seeded) {
            case 7:
                // A route event: the output goes away, or comes back (then the engine migrates).
                connected.withLockedValue { $0.toggle() }
                _ = try rig.render(0.01)
            case 0: try? session.setActive(true)
            case 1: try? session.setActive(false, notifyOthersOnDeactivation: Bool.random(using: &seeded))
            case 2: session.beginInterruption()
            case 3: session.endInterruption(shouldResume: Bool.random(using: &seeded))
            case 4:
                if (try? target.play()) != nil { pausedByGame.remove(ObjectIdentifier(target)) }
            case 5:
                if target.playbackState == .playing { target.pause(); pausedByGame.insert(ObjectIdentifier(target)) }
            default:
                target.stop()
                pausedByGame.remove(ObjectIdentifier(target))
            }
            if step % 10 == 0 { _ = try rig.render(0.01) }
            for (s, scene, sourceList) in sessions {
                for source in sourceList {
                    let now = source.playbackState
                    if !s.isSounding { #expect(now != .playing, "step \(step): plays while its session does not sound") }
                    if pausedByGame.contains(ObjectIdentifier(source)) {
                        #expect(now == .paused, "step \(step): a source the game paused was resumed by the engine")
                    }
                    if now == .playing, before[ObjectIdentifier(source)] == .paused || before[ObjectIdentifier(source)] == .stopped {
                        // Only a resume (of a suspension-paused source) or a game play may start it.
                        #expect(s.isSounding, "step \(step): resumed while not sounding")
                    }
                }
                #expect(scene.activeSourceCount <= 3)
            }
            #expect(rig.device.liveObjects.sources <= 12)
            #expect(rig.device.liveObjects.contexts == 3, "three scenes: the first uses the device's own context")
        }
    }

    private static func wav(_ audio: AudioBuffer) throws -> [UInt8] {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("s-\(UUID()).wav").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try SoundFileWriter.write(audio, to: path, format: .wavPCM16)
        return try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    }
}

/// The two categories of recording and offline work, heard on loopback renders.
@Suite struct RecordingCategoryTests {
    /// Only `record` and `playAndRecord` may record, and only while active: the others are
    /// refused before anything opens.
    @Test func onlyRecordingCategoriesMayRecord() throws {
        let rig = try SessionRig()
        for category in SessionCategory.allCases {
            let session = rig.center.makeSession(category: category)
            try session.setActive(true)
            let recorder = try AudioRecorder(path: "/nonexistent/never.wav", settings: .init(server: "unix:/nonexistent/socket"),
                                             session: session)
            let error = try #require(throws: SoundstageError.self) { try recorder.record() }
            // Allowed categories get as far as the input (none answers here); the others stop at the category.
            #expect(error.code == (category.allowsRecording ? .noInputDevice : .categoryForbids), "\(category): \(error)")
            if !category.allowsRecording { #expect(error.message.contains(category.rawValue)) }
            try session.setActive(false)
            if category.allowsRecording {
                do { try recorder.record() } catch { #expect(error.code == .sessionNotActive) }
            }
            rig.center.removeSession(session)
        }
    }

    /// A `record` session's scenes are silent, and activating it interrupts a `playback`
    /// session (as voice chat does) but later sessions still activate.
    @Test func aRecordSessionIsSilentAndInterruptsPlayback() throws {
        let rig = try SessionRig()
        let (music, _, musicSource) = try rig.session(.playback, frequency: 300)
        let (recording, _, ownSource) = try rig.session(.record, frequency: 1_000, activate: false)
        try recording.setActive(true)
        #expect(throws: SoundstageError.self) { try ownSource.play() }
        #expect(music.isInterrupted)
        #expect(recording.isActive)
        #expect(Signals.rms(try rig.render(0.1), channel: 0) < 1e-6, "nothing sounds: music interrupted, the record session silent")
        #expect(musicSource.playbackState == .paused)
        let (game, _, _) = try rig.session(.soloAmbient, frequency: 500)
        #expect(game.isActive && recording.isActive)
        #expect(abs(Signals.frequency(try rig.render(0.2), channel: 0) - 500) < 5)
    }

    /// An `audioProcessing` session neither sounds nor interrupts, and nothing interrupts it.
    @Test func anAudioProcessingSessionNeitherSoundsNorInterrupts() throws {
        let rig = try SessionRig()
        let (game, _, _) = try rig.session(.soloAmbient, frequency: 500)
        let (work, _, workSource) = try rig.session(.audioProcessing, frequency: 1_000, activate: false)
        try work.setActive(true)
        #expect(throws: SoundstageError.self) { try workSource.play() }
        #expect(game.isActive && work.isActive)
        #expect(abs(Signals.frequency(try rig.render(0.2), channel: 0) - 500) < 5, "only the game is heard")
        let (chat, _, _) = try rig.session(.playAndRecord, frequency: 700)
        #expect(game.isInterrupted && !work.isInterrupted && chat.isActive)
    }
}
