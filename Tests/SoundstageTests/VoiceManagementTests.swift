import Foundation
import NIOConcurrencyHelpers
@testable import Soundstage
import SoundFile
import Testing
import TestSupport

/// Virtual voices: thousands of sources on a small budget, ranked by priority then audibility.
@Suite struct VoiceManagementTests {
    /// 2000 looping sources scattered over a 200 m square on a 64-voice scene.
    private struct Crowd {
        let device: Device
        let scene: Scene
        let sources: [Source]

        init(count: Int = 2_000, budget: Int = 64) throws {
            device = try Device.loopback()
            scene = try device.makeScene(sourceBudget: budget)
            scene.virtualizesVoices = true
            let tone = try device.makeBuffer(Signals.sine(440, seconds: 1))
            var random = SplitMix64(seed: 9)
            func coordinate() -> Float { Float(Int(random.next() % 20_000)) / 100 - 100 }
            var made: [Source] = []
            for index in 0..<count {
                let source = scene.makeSource(buffer: tone)
                source.isLooping = true
                source.position = Vector3(coordinate(), 0, coordinate())
                source.priority = index % 50 == 0 ? 1 : 0          // 40 important ones
                try source.play()
                made.append(source)
            }
            sources = made
        }

        /// The sources that should be real: priority first, then audibility.
        func expectedReal(_ budget: Int = 64) -> Set<ObjectIdentifier> {
            let ranked = sources.map { ($0, $0.priority, $0.audibility) }
                .sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.2 > $1.2 }
            return Set(ranked.prefix(budget).map { ObjectIdentifier($0.0) })
        }

        var real: Set<ObjectIdentifier> { Set(sources.filter { !$0.isVirtual }.map(ObjectIdentifier.init)) }
    }

    @Test func theRealVoicesAreExactlyTheMostImportantThenTheLoudest() throws {
        let crowd = try Crowd()
        defer { crowd.device.close() }
        #expect(crowd.sources.allSatisfy { $0.playbackState == .playing }, "every play succeeds, real or virtual")
        _ = try crowd.device.render(frames: 480)                        // the first update ranks them
        #expect(crowd.real == crowd.expectedReal())
        let statistics = crowd.scene.voiceStatistics
        #expect(statistics.realVoices == 64 && statistics.virtualVoices == 1_936)
        #expect(crowd.device.liveObjects.sources == 64, "never more OpenAL sources than the budget")
        // Walking elsewhere changes which are real.
        let before = crowd.real
        crowd.scene.listener.position = Vector3(80, 0, 80)
        _ = try crowd.device.render(frames: 2_400)                      // the next ranking (every 50 ms)
        #expect(crowd.real == crowd.expectedReal())
        #expect(crowd.real != before)
        let statistics2 = crowd.scene.voiceStatistics
        #expect(statistics2.virtualizations > 0 && statistics2.realizations > 0)
        // The ranking's cost is counted, the choosing part within it; a reset starts afresh.
        #expect(statistics2.updates >= 2 && statistics2.totalUpdateMicroseconds > 0)
        #expect(statistics2.totalSelectionMicroseconds > 0 && statistics2.totalSelectionMicroseconds <= statistics2.totalUpdateMicroseconds)
        crowd.scene.resetVoiceStatistics()
        let reset = crowd.scene.voiceStatistics
        #expect(reset.updates == 0 && reset.virtualizations == 0 && reset.totalUpdateMicroseconds == 0)
        #expect(reset.realVoices == 64 && reset.virtualVoices == 1_936, "the counts of voices are not counters")
    }

    @Test func aVoiceThatTurnsRealAgainResumesAtItsClock() throws {
        let device = try Device.loopback()
        defer { device.close() }
        let scene = try device.makeScene(sourceBudget: 1)
        scene.virtualizesVoices = true
        let long = try device.makeBuffer(Signals.sine(440, seconds: 10))
        let quiet = scene.makeSource(buffer: long)
        quiet.position = Vector3(0, 0, -10)
        try quiet.play()
        _ = try device.render(frames: 48_000)                            // 1 s in, real
        let loud = scene.makeSource(buffer: long)
        loud.position = Vector3(0, 0, -1)
        try loud.play()                                                  // outranks quiet: takes its voice at once
        #expect(quiet.isVirtual && !loud.isVirtual)
        _ = try device.render(frames: 480)
        _ = try device.render(frames: 96_000)                            // 2 s with quiet virtual
        loud.stop()
        _ = try device.render(frames: 2_400)                             // quiet becomes real at the next ranking
        #expect(!quiet.isVirtual)
        // 1 s + 10 ms + 2 s + 50 ms of mix time since it started: its OpenAL offset continues the
        // clock (within one update).
        #expect(abs(quiet.offset - 3.06) < 0.011, "offset \(quiet.offset)")
        #expect(Signals.rms(try device.render(frames: 4_800), channel: 0) > 0.01, "heard again")
    }

    /// A voice that turns real again starts on a whole frame, so OpenAL plays its samples as they
    /// are: a fractional start would have OpenAL Soft interpolate the voice for as long as it
    /// plays (costlier, and a slight low-pass). The mix must be the buffer's samples, exactly
    /// scaled, at some whole-frame alignment.
    @Test func aVoiceTurnedRealPlaysItsSamplesUninterpolated() throws {
        let device = try Device.loopback(layout: .mono)
        defer { device.close() }
        let scene = try device.makeScene(sourceBudget: 1)
        scene.virtualizesVoices = true
        var random = SplitMix64(seed: 21)
        let noise = (0..<96_000).map { _ in Float(Int(random.next() % 2_001) - 1_000) / 2_000 }
        let buffer = try device.makeBuffer(AudioBuffer(samples: noise, channels: 1, sampleRate: 48_000))
        let voice = scene.makeSource(buffer: buffer)
        voice.isHeadRelative = true
        voice.isLooping = true
        try voice.play()
        let loud = scene.makeSource(buffer: buffer)
        loud.isHeadRelative = true
        try loud.play()                                   // ties: the earlier keeps the voice
        voice.gain = 0.5
        loud.gain = 1                                     // now loud outranks: voice turns virtual
        _ = try device.render(frames: 2_400)
        #expect(voice.isVirtual)
        // Its clock runs on for 1.5 s and an odd number of frames: an offset a float number of
        // seconds cannot hold exactly, so a start at AL_SEC_OFFSET would land between frames.
        _ = try device.render(frames: 72_000 + 1_237)
        loud.stop()
        _ = try device.render(frames: 2_400)              // the next ranking makes it real again
        #expect(!voice.isVirtual)
        /// The largest difference between the next 100 ms of mix and the buffer at its best
        /// whole-frame alignment and gain.
        func interpolationError() throws -> Double {
            let window = Array(try device.render(frames: 4_800).samples[480...])
            var best = (frame: -1, error: Double.infinity)
            for start in 0..<(noise.count - window.count) where noise[start] != 0 {
                let scale = window[0] / noise[start]
                guard scale.isFinite, scale > 0 else { continue }
                var error = 0.0
                for index in 0..<64 { error = max(error, Double(abs(window[index] - noise[start + index] * scale))) }
                if error < best.error { best = (start, error) }
            }
            let scale = window[1] / noise[best.frame + 1]
            return window.indices.map { Double(abs(window[$0] - noise[best.frame + $0] * scale)) }.max() ?? 1
        }
        let realized = try interpolationError()
        #expect(realized < 1e-4, "the mix is the buffer itself, not an interpolation: off by \(realized)")
        // A seek between two frames lands on one of them.
        try voice.seek(to: 0.5 + 0.3 / 48_000)
        let sought = try interpolationError()
        #expect(sought < 1e-4, "after a seek between frames: off by \(sought)")
    }

    @Test func aVirtualVoiceEndsWhenItsClockPassesItsSound() throws {
        let device = try Device.loopback()
        defer { device.close() }
        let scene = try device.makeScene(sourceBudget: 1)
        scene.virtualizesVoices = true
        let hold = scene.makeSource(buffer: try device.makeBuffer(Signals.sine(440, seconds: 5)))
        try hold.play()
        let short = scene.makeSource(buffer: try device.makeBuffer(Signals.sine(440, seconds: 0.5)))
        short.position = Vector3(0, 0, -50)
        let ended = Counter()
        short.completionHandler = { _ in ended.increment() }
        try short.play()
        #expect(short.isVirtual, "quieter than the one playing")
        _ = try device.render(frames: 19_200)
        #expect(short.isVirtual && ended.value == 0)
        _ = try device.render(frames: 9_600)
        #expect(ended.value == 1, "its completion runs although it was never heard")
        #expect(short.playbackState == .stopped)
    }

    @Test(arguments: VoiceLimit.StealPolicy.allCases)
    func aVoiceLimitStealsByItsPolicy(_ policy: VoiceLimit.StealPolicy) throws {
        let device = try Device.loopback()
        defer { device.close() }
        let scene = try device.makeScene(sourceBudget: 16)
        scene.virtualizesVoices = true
        let stolen = NIOLockedValueBox<[ObjectIdentifier]>([])
        scene.voiceEventHandler = { event in
            if event.kind == .stolen { stolen.withLockedValue { $0.append(ObjectIdentifier(event.source)) } }
        }
        let footsteps = scene.makeVoiceLimit("footsteps", maxVoices: 2, steal: policy)
        let step = try device.makeBuffer(Signals.sine(440, seconds: 2))
        func footstep(_ position: Vector3, gain: Float) throws -> Source {
            let source = scene.makeSource(buffer: step)
            source.position = position
            source.gain = gain
            source.voiceLimit = footsteps
            try source.play()
            _ = try device.render(frames: 480)
            return source
        }
        let first = try footstep(Vector3(0, 0, -2), gain: 1)       // oldest
        let second = try footstep(Vector3(0, 0, -8), gain: 1)      // farthest and quietest
        switch policy {
        case .none:
            let error = #expect(throws: SoundstageError.self) { _ = try footstep(Vector3(0, 0, -1), gain: 1) }
            #expect(error?.code == .voiceLimitReached)
            #expect(first.playbackState == .playing && second.playbackState == .playing)
            #expect(stolen.withLockedValue { $0 }.isEmpty)
        case .oldest, .quietest, .farthest:
            let third = try footstep(Vector3(0, 0, -1), gain: 1)
            let victim = policy == .oldest ? first : second
            let survivor = policy == .oldest ? second : first
            #expect(victim.playbackState == .stopped)
            #expect(survivor.playbackState == .playing && third.playbackState == .playing)
            #expect(stolen.withLockedValue { $0 } == [ObjectIdentifier(victim)])
            #expect(scene.voiceStatistics.steals == 1)
        }
    }

    @Test func pausingAndSuspendingFreezeVirtualClocks() throws {
        let device = try Device.loopback()
        defer { device.close() }
        let scene = try device.makeScene(sourceBudget: 1)
        scene.virtualizesVoices = true
        let buffer = try device.makeBuffer(Signals.sine(440, seconds: 10))
        try scene.makeSource(buffer: buffer).play()
        let virtual = scene.makeSource(buffer: buffer)
        virtual.position = Vector3(0, 0, -20)
        try virtual.play()
        _ = try device.render(frames: 48_000)
        #expect(virtual.isVirtual)
        virtual.pause()
        let at = virtual.offset
        _ = try device.render(frames: 48_000)
        #expect(abs(virtual.offset - at) < 1e-9, "a paused virtual clock stands still")
        try virtual.play()
        _ = try device.render(frames: 24_000)
        #expect(abs(virtual.offset - (at + 0.5)) < 1e-6, "and runs again")
        let group = scene.makeGroup("all")
        virtual.group = group
        group.pause()
        let held = virtual.offset
        _ = try device.render(frames: 24_000)
        #expect(abs(virtual.offset - held) < 1e-9)
        group.resume()
        #expect(virtual.playbackState == .playing)
        try virtual.seek(to: 7)
        #expect(abs(virtual.offset - 7) < 1e-9, "a seek moves a virtual clock")
    }
}
