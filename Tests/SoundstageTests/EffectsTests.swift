import Foundation
@testable import Soundstage
import SoundFile
import Testing
import TestSupport

/// EFX on loopback renders: reverb zones (tails, sends, regions that follow the listener),
/// occlusion and obstruction as high-frequency dB, air absorption, presets, and the EFX objects'
/// lifetimes.
@Suite struct EffectsTests {
    static let rate = Signals.rate

    /// RMS of both channels of `mix` in consecutive windows of `seconds`.
    static func windows(_ mix: AudioBuffer, seconds: Double) -> [Double] {
        let frames = Int(seconds * Double(mix.sampleRate)) * mix.channels
        return stride(from: 0, to: mix.samples.count - frames + 1, by: frames).map {
            Signals.rms(mix.samples[$0..<($0 + frames)])
        }
    }

    static func decibels(_ ratio: Double) -> Double { 20 * log10(ratio) }

    /// White noise, 0.25 RMS.
    static func noise(seconds: Double) -> AudioBuffer {
        var random = SplitMix64(seed: 11)
        let samples = (0..<Int(seconds * Double(rate))).map { _ in Float(Double(random.next() % 1_000_000) / 1_000_000 - 0.5) * 0.87 }
        return AudioBuffer(samples: samples, channels: 1, sampleRate: rate)
    }

    /// A dry 1 kHz burst of `seconds` in front of the listener, played once.
    static func burst(_ rig: Rig, frequency: Double = 1_000, seconds: Double = 0.25,
                      configure: (Source) -> Void = { _ in }) throws -> Source {
        let source = rig.scene.makeSource(buffer: try rig.device.makeBuffer(Signals.sine(frequency, seconds: seconds)))
        source.position = Vector3(0, 0, -1)
        configure(source)
        try source.play()
        return source
    }

    @Test func aReverbZoneLeavesADecayingTailAfterTheDrySoundStops() throws {
        /// 1 s of audio after a 0.25 s burst has ended, in 100 ms windows.
        func tail(zone: Bool) throws -> [Double] {
            let rig = try Rig()
            if zone { try rig.scene.makeReverbZone("cave", preset: .cave) }
            let source = rig.scene.makeSource(buffer: try rig.device.makeBuffer(Self.noise(seconds: 0.25)))
            source.position = Vector3(0, 0, -1)
            try source.play()
            _ = try rig.render(0.3)
            #expect(source.playbackState == .stopped, "the dry sound is over")
            return Self.windows(try rig.render(1.0), seconds: 0.1)
        }
        let dry = try tail(zone: false), wet = try tail(zone: true)
        #expect(dry.allSatisfy { $0 < 1e-6 }, "without a zone the mix is silent after the sound: \(dry)")
        #expect(wet[0] > 0.005, "the cave rings on: \(wet)")
        // It decays: every window below the one before, at the pace of a reverberation time of
        // seconds (the cave's is 2.91 s at mid frequencies, longer at high ones).
        for (earlier, later) in zip(wet, wet.dropFirst()) { #expect(later < earlier, "\(wet)") }
        let t60 = -60 / (Self.decibels(wet[9] / wet[1]) / 0.8)
        #expect((2.0...6.0).contains(t60), "reverberation time \(t60) s: \(wet)")
    }

    /// A mono sum of equal sines at `frequencies` with random phases (a band of "noise" whose
    /// energy is known to sit in that band), normalised to 0.5 peak-ish.
    static func band(_ frequencies: [Double], seconds: Double = 1) -> AudioBuffer {
        var random = SplitMix64(seed: 7)
        let phases = frequencies.map { _ in Double(random.next() % 1_000) / 1_000 * 2 * .pi }
        let n = Int(seconds * Double(rate))
        let scale = 0.5 / Double(frequencies.count).squareRoot()
        let samples = (0..<n).map { i -> Float in
            let t = Double(i) / Double(rate)
            return Float(zip(frequencies, phases).reduce(0.0) { $0 + sin(2 * .pi * $1.0 * t + $1.1) } * scale)
        }
        return AudioBuffer(samples: samples, channels: 1, sampleRate: rate)
    }

    /// Level of a looping signal in front of the listener with the given occlusion/obstruction, past the onset.
    static func level(_ signal: AudioBuffer, occlusion: Float = 0, obstruction: Float = 0) throws -> Double {
        let rig = try Rig()
        let source = rig.scene.makeSource(buffer: try rig.device.makeBuffer(signal))
        source.position = Vector3(0, 0, -1)
        source.isLooping = true
        source.occlusion = occlusion
        source.obstruction = obstruction
        try source.play()
        _ = try rig.render(0.1)
        return Signals.rms(try rig.render(0.4).samples)
    }

    @Test func occlusionLowersHighFrequenciesByItsDecibelsAndLeavesLowOnesAlone() throws {
        // Energy above 5 kHz: 15 sines from 5.5 to 19.5 kHz; below: 10 from 100 to 1,000 Hz.
        let high = Self.band(stride(from: 5_500.0, through: 19_500, by: 1_000).map { $0 })
        let low = Self.band(stride(from: 100.0, through: 1_000, by: 100).map { $0 })
        let open = try Self.level(high)
        let highDrop = Self.decibels(try Self.level(high, occlusion: -12) / open)
        #expect(abs(highDrop + 12) < 2, "energy above 5 kHz: \(highDrop) dB")
        let lowDrop = Self.decibels(try Self.level(low, occlusion: -12) / Self.level(low))
        #expect(lowDrop > -0.5, "low frequencies mostly intact: \(lowDrop) dB")
        // The shelf: half the dB at its 5 kHz reference, all of it well above.
        let tone5k = Signals.sine(5_000, seconds: 1), tone16k = Signals.sine(16_000, seconds: 1)
        let at5k = Self.decibels(try Self.level(tone5k, occlusion: -12) / Self.level(tone5k))
        let at16k = Self.decibels(try Self.level(tone16k, occlusion: -12) / Self.level(tone16k))
        #expect(abs(at5k + 6) < 0.5, "5 kHz: \(at5k) dB")
        #expect(abs(at16k + 12) < 0.5, "16 kHz: \(at16k) dB")
        // Obstruction filters the direct sound the same way; both add up on it.
        let obstructed = Self.decibels(try Self.level(high, obstruction: -12) / open)
        #expect(abs(obstructed - highDrop) < 0.2, "\(obstructed) dB")
        let both = Self.decibels(try Self.level(high, occlusion: -6, obstruction: -6) / open)
        #expect(abs(both - highDrop) < 0.2, "\(both) dB")
    }

    @Test func occlusionMufflesTheReverbAndObstructionDoesNot() throws {
        /// The reverb tail of a 10 kHz burst.
        func tail(occlusion: Float = 0, obstruction: Float = 0) throws -> Double {
            let rig = try Rig()
            try rig.scene.makeReverbZone("hall", preset: .concertHall)
            _ = try Self.burst(rig, frequency: 10_000) { $0.occlusion = occlusion; $0.obstruction = obstruction }
            _ = try rig.render(0.3)
            return Signals.rms(try rig.render(0.3).samples)
        }
        let open = try tail()
        #expect(open > 1e-4)
        let occluded = Self.decibels(try tail(occlusion: -12) / open)
        let obstructed = Self.decibels(try tail(obstruction: -12) / open)
        #expect(occluded < -8, "the wall muffles the reverb too: \(occluded) dB")
        #expect(abs(obstructed) < 0.5, "an obstruction leaves the room's reverb: \(obstructed) dB")
    }

    @Test func sendLevelsScaleTheReverbPerSourceAndPerZone() throws {
        func tail(_ configure: (Source, ReverbZone) -> Void) throws -> Double {
            let rig = try Rig()
            let zone = try rig.scene.makeReverbZone("room", preset: .stoneRoom)
            _ = try Self.burst(rig) { configure($0, zone) }
            _ = try rig.render(0.3)
            return Signals.rms(try rig.render(0.3).samples)
        }
        let full = try tail { _, _ in }
        let half = try tail { source, _ in source.reverbSend = 0.5 }
        let dry = try tail { source, _ in source.reverbSend = 0 }
        let zoneHalf = try tail { source, zone in source.setReverbSend(0.5, to: zone) }
        let zoneGain = try tail { _, zone in zone.gain = 0.25 }
        // A preset changed while the zone exists: the stone room's gain 0.3162 replaced by 0.1.
        let quieter = try tail { _, zone in
            var preset = ReverbPreset.stoneRoom
            preset.gain = 0.1
            try? zone.setPreset(preset)
        }
        #expect(full > 1e-3)
        #expect(abs(half / full - 0.5) < 0.03, "send 0.5: \(half / full)")
        #expect(dry < 1e-6, "send 0 keeps the source dry: \(dry)")
        #expect(abs(zoneHalf / full - 0.5) < 0.03, "zone send 0.5: \(zoneHalf / full)")
        #expect(abs(zoneGain / full - 0.25) < 0.02, "zone gain 0.25: \(zoneGain / full)")
        #expect(abs(quieter / full - 0.1 / 0.3162) < 0.03, "a live preset change: \(quieter / full)")
    }

    @Test func aZoneIsHeardWhereTheListenerIs() throws {
        let region = ReverbRegion.sphere(center: Vector3(0, 0, -50), radius: 10, fade: 4)
        #expect(region.weight(at: Vector3(0, 0, -45)) == 1)
        #expect(region.weight(at: Vector3(0, 0, -38)) == 0.5)
        #expect(region.weight(at: Vector3(0, 0, -30)) == 0)
        let box = ReverbRegion.box(min: Vector3(-1, -1, -1), max: Vector3(1, 1, 1), fade: 2)
        #expect(box.weight(at: Vector3(0.5, 0, 0)) == 1)
        #expect(box.weight(at: Vector3(2, 0, 0)) == 0.5)

        /// The reverb tail of a head-relative burst with the listener at `z`.
        func tail(listenerAt z: Float) throws -> (Double, Float) {
            let rig = try Rig()
            let zone = try rig.scene.makeReverbZone("cave", preset: .cave, region: region)
            rig.scene.listener.position = Vector3(0, 0, z)
            _ = try Self.burst(rig) { $0.isHeadRelative = true }
            _ = try rig.render(0.3)
            return (Signals.rms(try rig.render(0.3).samples), zone.weight)
        }
        let (inside, insideWeight) = try tail(listenerAt: -50)
        let (edge, edgeWeight) = try tail(listenerAt: -38)
        let (outside, outsideWeight) = try tail(listenerAt: 0)
        #expect(insideWeight == 1 && edgeWeight == 0.5 && outsideWeight == 0)
        #expect(inside > 1e-3)
        #expect(abs(edge / inside - 0.5) < 0.03, "half-way through the fade: \(edge / inside)")
        #expect(outside < 1e-6, "outside the cave there is no cave reverb: \(outside)")
    }

    @Test func theListenerWalkingIntoAZoneBringsItsReverbIn() throws {
        let rig = try Rig()
        let cave = try rig.scene.makeReverbZone("cave", preset: .cave, region: .sphere(center: Vector3(0, 0, -50), radius: 10, fade: 0))
        let source = try rig.playing(at: .zero) { $0.isHeadRelative = true }
        _ = try rig.render(0.3)
        source.stop()
        #expect(Signals.rms(try rig.render(0.2).samples) < 1e-6, "outside: dry only, and it stopped")
        rig.scene.listener.position = Vector3(0, 0, -50)
        try source.play()
        _ = try rig.render(0.3)
        source.stop()
        #expect(Signals.rms(try rig.render(0.2).samples) > 1e-3, "inside the cave it rings")
        // Back outside, then the zone's region moved to cover the plains: it rings there too.
        rig.scene.listener.position = .zero
        try source.play()
        _ = try rig.render(0.3)
        source.stop()
        #expect(Signals.rms(try rig.render(0.2).samples) < 1e-6, "outside again: dry")
        cave.region = .everywhere
        try source.play()
        _ = try rig.render(0.3)
        source.stop()
        #expect(Signals.rms(try rig.render(0.2).samples) > 1e-3, "a region set while it plays takes effect")
    }

    @Test func airAbsorptionDarkensDistantSounds() throws {
        /// Level of a tone 100 m away (inverse distance) with the given absorption.
        func level(_ frequency: Double, absorption: Float) throws -> Double {
            let rig = try Rig()
            let source = rig.scene.makeSource(buffer: try rig.device.makeBuffer(Signals.sine(frequency, seconds: 1)))
            source.position = Vector3(0, 0, -100)
            source.isLooping = true
            source.airAbsorption = absorption
            try source.play()
            _ = try rig.render(0.1)
            return Signals.rms(try rig.render(0.2).samples)
        }
        // 1 = the real atmosphere: 0.99426 per metre beyond the reference distance (99 m) at 5 kHz
        // (−4.9 dB), as the high shelf's gain there: about twice that well above it.
        let at5k = Self.decibels(try level(5_000, absorption: 1) / level(5_000, absorption: 0))
        let high = Self.decibels(try level(16_000, absorption: 1) / level(16_000, absorption: 0))
        let low = Self.decibels(try level(200, absorption: 1) / level(200, absorption: 0))
        let expected = Self.decibels(pow(0.99426, 99))
        #expect(abs(at5k - expected) < 0.5, "5 kHz: \(at5k) dB, expected \(expected)")
        #expect(high < at5k - 3, "the highest frequencies lose most: \(high) dB")
        #expect(low > -0.5, "the lows carry: \(low) dB")
    }

    @Test func presetsCarryEveryEntryOfTheHeader() throws {
        #expect(ReverbPreset.all.count == 113)
        #expect(Set(ReverbPreset.allNames).count == 113)
        #expect(ReverbPreset.named("castle_small_room") == .castleSmallRoom)
        #expect(ReverbPreset.named("Concert-Hall")?.decayTime == 3.92)
        #expect(ReverbPreset.named("no-such-room") == nil)
        // A sample of values against efx-presets.h.
        #expect(ReverbPreset.cave.decayTime == 2.91 && ReverbPreset.cave.gainHF == 1 && ReverbPreset.cave.decayHFLimit == false)
        #expect(ReverbPreset.castleSmallRoom.hfReference == 5_168.6001 && ReverbPreset.smallWaterRoom.decayHFLimit == false)
        // Every preset loads into OpenAL Soft (all values inside the EFX ranges).
        let rig = try Rig()
        let zone = try rig.scene.makeReverbZone("any", preset: .generic)
        for preset in ReverbPreset.all { try zone.setPreset(preset) }
    }

    @Test func badSettingsAreRefusedWithClearErrorsAndChangeNothing() throws {
        let rig = try Rig()
        var broken = ReverbPreset.cave
        broken.decayTime = 50
        let error = try #require(throws: SoundstageError.self) { try rig.scene.makeReverbZone("x", preset: broken) }
        #expect(error.code == .invalidArgument)
        #expect(error.message.contains("decayTime = 50.0"), "\(error.message)")
        #expect(rig.scene.reverbZones.isEmpty && rig.device.liveObjects.effectSlots == 0, "nothing half-made")

        let zone = try rig.scene.makeReverbZone("cave", preset: .cave)
        #expect(throws: SoundstageError.self) { try zone.setPreset(broken) }
        #expect(zone.preset == .cave, "the old preset stays")
        #expect((try? rig.scene.makeReverbZone("g", preset: .cave, gain: 2)) == nil)
        #expect((try? rig.scene.makeReverbZone("r", preset: .cave, region: .sphere(center: .zero, radius: -1, fade: 0))) == nil)

        // As many zones as sends, then a clear refusal.
        let limit = rig.scene.maxReverbZones
        #expect(limit == 4)
        for index in 1..<limit { try rig.scene.makeReverbZone("zone \(index)", preset: .room) }
        let full = try #require(throws: SoundstageError.self) { try rig.scene.makeReverbZone("one too many", preset: .room) }
        #expect(full.message.contains("already has 4 reverb zones"), "\(full.message)")
        zone.remove()
        #expect(throws: SoundstageError.self) { try zone.setPreset(.room) }
        try rig.scene.makeReverbZone("replacement", preset: .room)
    }

    /// A device opened for fewer reverb zones holds that many per scene: one zone rings (its
    /// tail is heard), a second is refused naming the limit; with none, a zone is refused and
    /// the rest of EFX (occlusion) still works; counts outside 0...4 are refused at opening.
    @Test func aDeviceOpenedForFewerZonesHoldsThatMany() throws {
        let one = try Device.loopback(reverbZones: 1)
        defer { one.close() }
        #expect(one.reverbZones == 1)
        let scene = try one.makeScene()
        #expect(scene.maxReverbZones == 1)
        try scene.makeReverbZone("cave", preset: .cave)
        let full = try #require(throws: SoundstageError.self) { try scene.makeReverbZone("hall", preset: .room) }
        #expect(full.code == .invalidArgument && full.message.contains("already has 1 reverb zone"), "\(full.message)")
        let source = scene.makeSource(buffer: try one.makeBuffer(Self.noise(seconds: 0.25)))
        source.position = Vector3(0, 0, -1)
        try source.play()
        _ = try one.render(frames: Self.rate * 3 / 10)
        #expect(Signals.rms(try one.render(frames: Self.rate / 10).samples) > 0.005, "the one zone rings on")

        let none = try Device.loopback(reverbZones: 0)
        defer { none.close() }
        let plain = try none.makeScene()
        #expect(plain.maxReverbZones == 0)
        let refused = try #require(throws: SoundstageError.self) { try plain.makeReverbZone("cave", preset: .cave) }
        #expect(refused.code == .invalidArgument, "\(refused)")
        let muffled = plain.makeSource(buffer: try none.makeBuffer(Signals.sine(16_000, seconds: 1)))
        muffled.position = Vector3(0, 0, -1)
        muffled.isLooping = true
        try muffled.play()
        let open = Signals.rms(try none.render(frames: 4_800).samples)
        muffled.occlusion = -12
        _ = try none.render(frames: 4_800)
        let drop = Self.decibels(Signals.rms(try none.render(frames: 4_800).samples) / open)
        #expect(abs(drop + 12) < 1, "occlusion works without sends: 16 kHz \(drop) dB")

        for count in [-1, 5] {
            let error = try #require(throws: SoundstageError.self) { _ = try Device.loopback(reverbZones: count) }
            #expect(error.code == .invalidArgument && error.message.contains("reverbZones \(count)"), "\(error)")
        }
    }

    @Test func effectObjectsAreFreedWithZonesAndScenes() throws {
        let device = try Device.loopback()
        let scene = try device.makeScene()
        let base = device.liveObjects
        let cave = try scene.makeReverbZone("cave", preset: .cave)
        let hall = try scene.makeReverbZone("hall", preset: .concertHall)
        let source = scene.makeSource(buffer: try device.makeBuffer(Signals.sine(1_000, seconds: 0.5)))
        source.isLooping = true
        source.occlusion = -6
        try source.play()
        _ = try device.render(frames: 4_800)
        #expect(device.liveObjects.effectSlots == 2 && device.liveObjects.effects == 1 && device.liveObjects.filters == 1)
        // Removing a zone a playing source sends to: its reverb goes, the source plays on. Its
        // slot is parked for the scene's next zone (deleting it would crash OpenAL Soft 1.19.1's
        // next alcCreateContext on this device: HostileInputTests).
        cave.remove()
        #expect(device.liveObjects.effectSlots == 2)
        #expect(scene.reverbZones.map(\.name) == ["hall"])
        _ = try device.render(frames: 4_800)
        #expect(source.playbackState == .playing)
        // A pooled OpenAL source that once sent to a zone does not keep its slot alive.
        source.stop()
        hall.remove()
        #expect(device.liveObjects.effectSlots == 2)
        try scene.makeReverbZone("again", preset: .room)
        #expect(device.liveObjects.effectSlots == 2, "a parked slot is reused")
        try source.play()
        _ = try device.render(frames: 4_800)
        scene.close()
        #expect(device.liveObjects.effectSlots == 0 && device.liveObjects.effects == 0 && device.liveObjects.filters == 0)
        #expect(base.effectSlots == 0)
        // A scene dropped without close() goes with its zones (they do not keep it alive).
        weak var dropped: Scene?
        var outlived: ReverbZone?
        do {
            let other = try device.makeScene()
            outlived = try other.makeReverbZone("left behind", preset: .room)
            dropped = other
        }
        #expect(dropped == nil)
        #expect(outlived?.scene == nil && outlived?.isRemoved == true)
        #expect(throws: SoundstageError.self) { try outlived?.setPreset(.cave) }
        #expect(device.liveObjects == LiveObjectCounts(devices: 1, contexts: 1, buffers: 1), "only the source's buffer is left")
        device.close()
        #expect(device.liveObjects.isZero)
    }

    @Test func zonesAndFiltersMoveWithTheSceneToANewDevice() throws {
        let rig = try Rig()
        try rig.scene.makeReverbZone("cave", preset: .cave)
        let source = try Self.burst(rig, frequency: 12_000, seconds: 2) { $0.occlusion = -12 }
        _ = try rig.render(0.2)
        let before = Signals.rms(try rig.render(0.2).samples)
        let objects = rig.device.liveObjects
        try rig.device.migrate { _ throws(SoundstageError) in try Device.openLoopbackHandle() }
        #expect(rig.device.liveObjects == objects, "the same objects, now on the new device")
        _ = try rig.render(0.2)
        let after = Signals.rms(try rig.render(0.2).samples)
        #expect(abs(Self.decibels(after / before)) < 1.5, "still occluded and reverberant: \(before) → \(after)")
        source.stop()
        _ = try rig.render(0.05)
        #expect(Signals.rms(try rig.render(0.2).samples) > 1e-4, "the zone still rings after the move")
    }
}
