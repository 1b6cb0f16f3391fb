import Foundation
import NIOConcurrencyHelpers
import Testing
import Soundstage
import TestSupport

/// A clock tests move by hand.
final class ManualClock: Sendable {
    private let time = NIOLockedValueBox(0.0)
    var now: Double { time.withLockedValue { $0 } }
    func advance(_ seconds: Double) { time.withLockedValue { $0 += seconds } }
}

/// Records every outcome a completion reports.
final class Outcomes: Sendable {
    private let list = NIOLockedValueBox<[SystemSoundOutcome]>([])
    func record(_ outcome: SystemSoundOutcome) { list.withLockedValue { $0.append(outcome) } }
    var all: [SystemSoundOutcome] { list.withLockedValue { $0 } }
    var handler: @Sendable (SystemSoundOutcome) -> Void { { [self] in record($0) } }
}

/// A loopback device, a registry with a manual clock, and a scratch directory.
final class SoundRig {
    let device: Device
    let registry: SystemSoundRegistry
    let clock = ManualClock()
    let dir: URL

    init(maxConcurrent: Int = 1, theme: SoundTheme? = nil) throws {
        device = try Device.loopback()
        var options = SystemSoundRegistry.Options()
        options.maxConcurrent = maxConcurrent
        let clock = self.clock
        options.clock = { clock.now }
        if let theme { options.theme = theme }
        registry = try SystemSoundRegistry(device: device, options: options)
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("sysound-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    deinit {
        registry.close()
        device.close()
        try? FileManager.default.removeItem(at: dir)
    }

    /// Writes a mono sine of `seconds` and returns its path.
    func file(_ name: String, seconds: Double = 0.2, frequency: Double = 440, format: OutputFormat = .wavPCM16) throws -> String {
        let path = dir.appendingPathComponent(name).path
        try SoundFileWriter.write(Signals.sine(frequency, seconds: seconds), to: path, format: format)
        return path
    }

    func render(_ seconds: Double) throws -> AudioBuffer { try device.render(frames: Int(seconds * 48_000)) }
}

@Suite struct SystemSoundTests {
    @Test func thirtySecondsIsAcceptedAndThirtyAndAHalfIsNot() throws {
        let rig = try SoundRig()
        _ = try rig.registry.register(file: try rig.file("ok.wav", seconds: 30))
        let error = #expect(throws: SoundstageError.self) { try rig.registry.register(file: try rig.file("long.wav", seconds: 30.5)) }
        #expect(error?.code == .exceededMaximumDuration)
    }

    @Test(arguments: [OutputFormat.mp3, .flac, .oggVorbis])
    func compressedFormatsAreRefused(_ format: OutputFormat) throws {
        let rig = try SoundRig()
        let error = #expect(throws: SoundstageError.self) { try rig.registry.register(file: try rig.file("x.\(format.name)", format: format)) }
        #expect(error?.code == .unsupportedFormat)
    }

    @Test(arguments: [OutputFormat.wavPCM16, .wavIMA4, .wavMSADPCM, .wavULaw, .wavALaw, .cafPCM16, .cafIMA4, .aiffPCM16, .wavFloat32])
    func theModelsFormatsAreAccepted(_ format: OutputFormat) throws {
        let rig = try SoundRig()
        _ = try rig.registry.register(file: try rig.file("x.\(format.name)", format: format))
    }

    @Test func missingAndCorruptFilesAreTypedErrors() throws {
        let rig = try SoundRig()
        let missing = #expect(throws: SoundstageError.self) { try rig.registry.register(file: "/nonexistent/click.wav") }
        #expect(missing?.code == .notFound)
        let corrupt = rig.dir.appendingPathComponent("corrupt.wav").path
        let valid = try [UInt8](Data(contentsOf: URL(fileURLWithPath: try rig.file("v.wav"))))
        try Data(valid.prefix(200)).write(to: URL(fileURLWithPath: corrupt))
        let error = #expect(throws: SoundstageError.self) { try rig.registry.register(file: corrupt) }
        #expect(error?.code == .corruptData)
        let notAudio = #expect(throws: SoundstageError.self) { try rig.registry.register(data: Array("hello".utf8), name: "hello.txt") }
        #expect(notAudio?.code == .unsupportedFormat)
    }

    @Test func aPlayIsHeardUnpositionedAndCompletesOnce() throws {
        let rig = try SoundRig()
        let id = try rig.registry.register(file: try rig.file("beep.wav", seconds: 0.2))
        let outcomes = Outcomes()
        let perSound = Outcomes()
        try rig.registry.addCompletion(id) { _ in perSound.record(.finished) }
        try rig.registry.play(id, completion: outcomes.handler)
        let mix = try rig.render(0.4)
        let heard = mix.slice(frames: 0..<9_000)
        #expect(Signals.rms(heard, channel: 0) > 0.1)
        #expect(abs(Signals.rms(heard, channel: 0) - Signals.rms(heard, channel: 1)) < 1e-6, "equal in both channels")
        #expect(Signals.peak(mix.slice(frames: 10_000..<19_200)) == 0, "no looping")
        #expect(outcomes.all == [.finished])
        #expect(perSound.all == [.finished])
        try rig.registry.removeCompletion(id)
    }

    @Test func disposedAndUnknownIDsFailCleanly() throws {
        let rig = try SoundRig()
        let id = try rig.registry.register(file: try rig.file("beep.wav"))
        try rig.registry.dispose(id)
        let outcomes = Outcomes()
        let error = #expect(throws: SoundstageError.self) { try rig.registry.play(id, completion: outcomes.handler) }
        #expect(error?.code == .unknownSoundID)
        #expect(outcomes.all.count == 1)
        if case .failed(let failure)? = outcomes.all.first { #expect(failure.code == .unknownSoundID) } else { Issue.record("no failure") }
        #expect(throws: SoundstageError.self) { try rig.registry.dispose(id) }
        #expect(throws: SoundstageError.self) { try rig.registry.playAlert(SystemSoundID(rawValue: 999)) }
        #expect(throws: SoundstageError.self) { try rig.registry.addCompletion(id) { _ in } }
    }

    @Test func aNewSoundReplacesTheOnePlayingAndBothComplete() throws {
        let rig = try SoundRig()
        let low = try rig.registry.register(file: try rig.file("low.wav", seconds: 0.5, frequency: 300))
        let high = try rig.registry.register(file: try rig.file("high.wav", seconds: 0.2, frequency: 1_000))
        let first = Outcomes(), second = Outcomes()
        try rig.registry.play(low, completion: first.handler)
        _ = try rig.render(0.1)
        rig.clock.advance(0.1)
        try rig.registry.play(high, completion: second.handler)
        let mix = try rig.render(0.15)
        #expect(abs(Signals.frequency(mix) - 1_000) < 2, "only the new sound is heard")
        _ = try rig.render(0.3)
        #expect(first.all == [.replaced])
        #expect(second.all == [.finished])
    }

    @Test func overlapOptionLetsSoundsMix() throws {
        let rig = try SoundRig(maxConcurrent: 2)
        let a = try rig.registry.register(file: try rig.file("a.wav", seconds: 0.5, frequency: 300))
        let b = try rig.registry.register(file: try rig.file("b.wav", seconds: 0.5, frequency: 1_000))
        try rig.registry.play(a)
        let single = Signals.rms(try rig.render(0.1).samples)
        rig.clock.advance(0.01)
        try rig.registry.play(b)
        #expect(rig.registry.playingCount == 2)
        let both = Signals.rms(try rig.render(0.1).samples)
        // Two equal, unrelated sines: the level rises by √2.
        #expect(abs(both / single - 2.0.squareRoot()) < 0.05, "ratio \(both / single)")
        let c = try rig.registry.register(file: try rig.file("c.wav", seconds: 0.5, frequency: 500))
        let oldest = Outcomes()
        try rig.registry.play(c, completion: oldest.handler)
        #expect(rig.registry.playingCount == 2, "the oldest made room")
    }

    @Test func rapidRetriggersCoalesce() throws {
        let rig = try SoundRig()
        let click = try rig.registry.register(file: try rig.file("click.wav", seconds: 0.1))
        let outcomes = Outcomes()
        for _ in 0..<5 {
            try rig.registry.play(click, completion: outcomes.handler)
            rig.clock.advance(0.01)                        // 10 ms apart: within the window
        }
        #expect(rig.registry.playingCount == 1)
        let mix = try rig.render(0.3)
        #expect(Signals.rms(mix.slice(frames: 0..<4_800).samples) > 0.05)
        #expect(outcomes.all == Array(repeating: .coalesced, count: 4) + [.finished], "every attempt completes once")
        rig.clock.advance(1)
        try rig.registry.play(click, completion: outcomes.handler)   // after the window: a new play
        #expect(rig.registry.playingCount == 1)
    }

    @Test func silentDuringAnInterruptionAndHeardAfter() throws {
        let rig = try SoundRig()
        let id = try rig.registry.register(file: try rig.file("beep.wav", seconds: 0.2))
        let playing = Outcomes()
        try rig.registry.play(id, completion: playing.handler)
        rig.registry.beginInterruption()
        #expect(playing.all == [.silenced], "the sound that was playing stops")
        let during = Outcomes()
        rig.clock.advance(1)
        try rig.registry.play(id, completion: during.handler)
        #expect(Signals.peak(try rig.render(0.2)) == 0)
        #expect(during.all == [.silenced], "the completion still reports")
        rig.registry.endInterruption()
        rig.clock.advance(1)
        let after = Outcomes()
        try rig.registry.play(id, completion: after.handler)
        #expect(Signals.rms(try rig.render(0.1).samples) > 0.1)
        _ = try rig.render(0.2)
        #expect(after.all == [.finished])
    }

    @Test func volumeAndTheEnableSwitch() throws {
        let rig = try SoundRig()
        let id = try rig.registry.register(file: try rig.file("beep.wav", seconds: 0.3))
        try rig.registry.play(id)
        let full = Signals.rms(try rig.render(0.1).samples)
        _ = try rig.render(0.3)
        rig.registry.volume = 0.5
        rig.clock.advance(1)
        try rig.registry.play(id)
        let half = Signals.rms(try rig.render(0.1).samples)
        #expect(abs(half / full - 0.5) < 0.01)
        _ = try rig.render(0.3)
        rig.registry.isEnabled = false
        let outcomes = Outcomes()
        rig.clock.advance(1)
        try rig.registry.play(id, completion: outcomes.handler)
        #expect(Signals.peak(try rig.render(0.1)) == 0)
        #expect(outcomes.all == [.silenced])
    }

    @Test func alertsCallTheAttentionHook() throws {
        let rig = try SoundRig()
        let id = try rig.registry.register(file: try rig.file("alert.wav"))
        let calls = Counter()
        rig.registry.attentionHandler = { alerted in if alerted == id { calls.increment() } }
        try rig.registry.playAlert(id)
        try rig.registry.play(id)
        #expect(calls.value == 1)
    }

    @Test func gameSceneGainDoesNotChangeSystemSounds() throws {
        let rig = try SoundRig()
        let game = try rig.device.makeScene()
        let music = game.makeSource(buffer: try rig.device.makeBuffer(Signals.sine(200, seconds: 1)))
        music.position = Vector3(-5, 0, 0)       // left only
        music.isLooping = true
        try music.play()
        let id = try rig.registry.register(file: try rig.file("ui.wav", seconds: 0.5, frequency: 1_000))
        try rig.registry.play(id)
        let mix = try rig.render(0.2)
        #expect(abs(Signals.frequency(mix, channel: 1) - 1_000) < 2, "the UI sound on the right")
        #expect(Signals.rms(mix, channel: 0) > Signals.rms(mix, channel: 1), "the game and the UI sound mix on the left")
        game.listener.gain = 0
        _ = try rig.render(0.01)
        let muted = try rig.render(0.1)
        #expect(abs(Signals.rms(muted, channel: 0) - Signals.rms(muted, channel: 1)) < 1e-6, "only the system sound is left")
        #expect(Signals.rms(muted, channel: 1) > 0.1, "at its own level")
        game.close()
    }
}

/// The freedesktop Sound Theme lookup on a temporary theme tree.
@Suite struct SoundThemeTests {
    /// Builds `base/theme/dir[/locale]/name.ext` files and index.theme files.
    private func tree() throws -> (URL, URL) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("themes-\(UUID())")
        let user = root.appendingPathComponent("user/sounds"), system = root.appendingPathComponent("system/sounds")
        func write(_ path: URL, _ text: String = "x") throws {
            try FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: path, atomically: true, encoding: .utf8)
        }
        try write(system.appendingPathComponent("child/index.theme"),
                  "[Sound Theme]\nName=Child\nInherits=parent\nDirectories=stereo,surround\n\n[stereo]\nOutputProfile=stereo\n\n[surround]\nOutputProfile=5.1\n")
        try write(system.appendingPathComponent("parent/index.theme"), "[Sound Theme]\nName=Parent\nDirectories=stereo\n\n[stereo]\nOutputProfile=stereo\n")
        try write(system.appendingPathComponent("freedesktop/index.theme"), "[Sound Theme]\nName=Default\nDirectories=stereo\n\n[stereo]\nOutputProfile=stereo\n")
        try write(system.appendingPathComponent("child/stereo/button-pressed.oga"))
        try write(system.appendingPathComponent("child/surround/button-pressed.wav"))
        try write(system.appendingPathComponent("parent/stereo/dialog-error.oga"))
        try write(system.appendingPathComponent("parent/stereo/de/dialog-error.oga"))
        try write(system.appendingPathComponent("freedesktop/stereo/bell.oga"))
        try write(system.appendingPathComponent("freedesktop/stereo/dialog.oga"))
        try write(system.appendingPathComponent("child/stereo/bell.disabled"))
        try write(user.appendingPathComponent("child/stereo/message.wav"))
        try write(system.appendingPathComponent("child/stereo/message.oga"))
        return (user, system)
    }

    @Test func lookupFollowsTheSpecification() throws {
        let (user, system) = try tree()
        defer { try? FileManager.default.removeItem(at: user.deletingLastPathComponent().deletingLastPathComponent()) }
        let theme = SoundTheme(name: "child", baseDirectories: [user.path, system.path], locale: "de_AT.UTF-8")
        #expect(theme.chain == ["child", "parent", "freedesktop", SoundTheme.fallbackThemeName])
        #expect(theme.resolve("button-pressed") == .file("\(system.path)/child/stereo/button-pressed.oga"))
        // Inheritance, and locale fallback de_AT → de.
        #expect(theme.resolve("dialog-error") == .file("\(system.path)/parent/stereo/de/dialog-error.oga"))
        // Dash truncation: dialog-error-serious → dialog-error.
        #expect(theme.resolve("dialog-error-serious") == .file("\(system.path)/parent/stereo/de/dialog-error.oga"))
        // …and to the freedesktop theme: dialog-warning → dialog.
        #expect(theme.resolve("dialog-warning") == .file("\(system.path)/freedesktop/stereo/dialog.oga"))
        // A .disabled marker wins over the freedesktop file.
        #expect(theme.resolve("bell") == .disabled("\(system.path)/child/stereo/bell.disabled"))
        // $XDG_DATA_HOME comes before $XDG_DATA_DIRS.
        #expect(theme.resolve("message") == .file("\(user.path)/child/stereo/message.wav"))
        #expect(theme.resolve("no-such-event-at-all") == nil)
        // Without a locale, the unlocalized file.
        let plain = SoundTheme(name: "child", baseDirectories: [user.path, system.path], locale: "C")
        #expect(plain.resolve("dialog-error") == .file("\(system.path)/parent/stereo/dialog-error.oga"))
        // The 5.1 profile prefers the surround directory.
        let surround = SoundTheme(name: "child", baseDirectories: [user.path, system.path], profile: "5.1")
        #expect(surround.resolve("button-pressed") == .file("\(system.path)/child/surround/button-pressed.wav"))
        #expect(theme.eventNames().contains("dialog-error") && !theme.eventNames().contains("bell"))
    }

    @Test func localeVariants() {
        #expect(SoundTheme.variantsForTesting("de_DE.UTF-8@euro") == ["de_DE@euro", "de_DE", "de@euro", "de"])
        #expect(SoundTheme.variantsForTesting("C") == [])
        #expect(SoundTheme.variantsForTesting("fr") == ["fr"])
    }

    @Test func theFallbackThemeFillsWhatFreedesktopLacks() throws {
        let theme = SoundTheme(name: "freedesktop", environment: ["XDG_DATA_HOME": "/nonexistent", "XDG_DATA_DIRS": "/nonexistent"])
        guard case .file(let path)? = theme.resolve("button-pressed") else { Issue.record("no button-pressed"); return }
        #expect(path.hasSuffix("soundstage-fallback/stereo/button-pressed.wav"))
        let rig = try SoundRig(theme: theme)
        let outcomes = Outcomes()
        try rig.registry.play(event: "menu-click", completion: outcomes.handler)
        #expect(Signals.rms(try rig.render(0.02).samples) > 0.01)
        _ = try rig.render(0.1)
        #expect(outcomes.all == [.finished])
        let error = #expect(throws: SoundstageError.self) { try rig.registry.play(event: "no-such-event") }
        #expect(error?.code == .notFound)
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/share/sounds/freedesktop/stereo"),
                   "needs sound-theme-freedesktop (scripts/setup.sh installs it)"))
    func everyFreedesktopStereoSoundRegistersAndPlays() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: "/usr/share/sounds/freedesktop/stereo")
        #expect(files.count >= 30)
        let rig = try SoundRig(maxConcurrent: 4)
        for file in files.sorted() {
            let event = String(file.prefix { $0 != "." })
            let id = try rig.registry.register(event: event)
            rig.clock.advance(1)
            let outcomes = Outcomes()
            try rig.registry.play(id, completion: outcomes.handler)
            #expect(Signals.rms(try rig.render(0.3).samples) > 0.0001, "\(file) is heard")
        }
    }
}

/// Registries sharing one context: each keeps its own sounds, volume and interruptions, and
/// both are heard in the mix.
@Suite struct SharedRegistryTests {
    @Test func twoRegistriesInOneSceneStayApartAndBothSound() throws {
        let rig = try SoundRig()
        let shared = try rig.device.makeScene(sourceBudget: 8)
        let contexts = rig.device.liveObjects.contexts
        let left = try SystemSoundRegistry(sharing: shared), right = try SystemSoundRegistry(sharing: shared)
        #expect(rig.device.liveObjects.contexts == contexts, "no context of their own")
        let low = try left.register(file: rig.file("low.wav", seconds: 0.5, frequency: 300))
        let high = try right.register(file: rig.file("high.wav", seconds: 0.5, frequency: 1_200))
        // IDs are per registry: both number from 1, and a second sound of one is unknown to the other.
        #expect(low == high)
        let second = try right.register(file: rig.file("second.wav", seconds: 0.1))
        #expect(throws: SoundstageError.self) { try left.play(second) }
        // Interruptions are per registry: the right one is silenced, the left one sounds.
        right.beginInterruption()
        try right.play(high)
        try left.play(low)
        let mix = try rig.render(0.2)
        #expect(abs(Signals.frequency(mix, channel: 0) - 300) < 10, "only the left registry's 300 Hz is heard")
        right.endInterruption()
        right.volume = 0.5
        try right.play(high)
        #expect(left.volume == 1, "volume is per registry")
        #expect(Signals.rms(try rig.render(0.1).samples) > 0.05)
        // Closing one leaves the shared scene (and the other registry) working.
        right.close()
        #expect(!shared.isClosed)
        try left.play(low)
        #expect(Signals.rms(try rig.render(0.1).samples) > 0.05)
        left.close()
        shared.close()
    }
}
