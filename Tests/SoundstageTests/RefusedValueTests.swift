import Foundation
import NIOConcurrencyHelpers
import Soundstage
import SoundstageScenes
import Testing
import TestSupport

/// A game's physics can hand any float to a setter. Every one is either taken or refused —
/// the previous value stays, the scene counts it, one diagnostic names it — and the mix stays
/// finite; nothing traps.
@Suite struct RefusedValueTests {
    /// The floats a game could pass: specials, edges and random values of every magnitude.
    static func anyFloat(_ generator: inout SplitMix64) -> Float {
        let specials: [Float] = [.nan, -.nan, .infinity, -.infinity, 0, -0.0, .leastNonzeroMagnitude, .greatestFiniteMagnitude,
                                 -.greatestFiniteMagnitude, 1, -1, 0.5, 360, 361, -100, -101, 10, 11, 1e9, 1.1e9, -1e9, 1e38]
        switch generator.next() % 4 {
        case 0: return specials[Int(generator.next() % UInt64(specials.count))]
        case 1: return Float(bitPattern: UInt32(truncatingIfNeeded: generator.next()))    // any bit pattern, NaNs included
        case 2: return Float.random(in: -1...1, using: &generator)
        default: return Float.random(in: -1000...1000, using: &generator)
        }
    }

    /// A setter under test: sets a value, reads the property back, and says whether the value is valid.
    struct Setter {
        let name: String
        let set: (Float, Float, Float) -> Void
        let get: () -> [Float]
        let valid: (Float, Float, Float) -> Bool
    }

    static func setters(_ source: Source, _ listener: Listener, _ group: SoundGroup, _ scene: Scene) -> [Setter] {
        let finite: (Float) -> Bool = { $0.isFinite }
        let coordinate: (Float) -> Bool = { $0.isFinite && abs($0) <= Vector3.maxCoordinate }
        func vector(_ v: Vector3) -> [Float] { [v.x, v.y, v.z] }
        func scalar(_ name: String, _ set: @escaping (Float) -> Void, _ get: @escaping () -> Float,
                    _ valid: @escaping (Float) -> Bool) -> Setter {
            Setter(name: name, set: { a, _, _ in set(a) }, get: { [get()] }, valid: { a, _, _ in valid(a) })
        }
        func position(_ name: String, _ set: @escaping (Vector3) -> Void, _ get: @escaping () -> Vector3) -> Setter {
            Setter(name: name, set: { set(Vector3($0, $1, $2)) }, get: { vector(get()) },
                   valid: { coordinate($0) && coordinate($1) && coordinate($2) })
        }
        return [
            position("Source.position", { source.position = $0 }, { source.position }),
            position("Source.velocity", { source.velocity = $0 }, { source.velocity }),
            position("Source.direction", { source.direction = $0 }, { source.direction }),
            scalar("Source.gain", { source.gain = $0 }, { source.gain }, { finite($0) && $0 >= 0 }),
            scalar("Source.pitch", { source.pitch = $0 }, { source.pitch }, { finite($0) && $0 > 0 }),
            scalar("Source.minGain", { source.minGain = $0 }, { source.minGain }, { (0...1).contains($0) }),
            scalar("Source.maxGain", { source.maxGain = $0 }, { source.maxGain }, { (0...1).contains($0) }),
            scalar("Source.referenceDistance", { source.referenceDistance = $0 }, { source.referenceDistance }, { finite($0) && $0 >= 0 }),
            scalar("Source.maxDistance", { source.maxDistance = $0 }, { source.maxDistance }, { !$0.isNaN && $0 >= 0 }),
            scalar("Source.rolloffFactor", { source.rolloffFactor = $0 }, { source.rolloffFactor }, { finite($0) && $0 >= 0 }),
            scalar("Source.occlusion", { source.occlusion = $0 }, { source.occlusion }, { (-100...0).contains($0) }),
            scalar("Source.obstruction", { source.obstruction = $0 }, { source.obstruction }, { (-100...0).contains($0) }),
            scalar("Source.airAbsorption", { source.airAbsorption = $0 }, { source.airAbsorption }, { (0...10).contains($0) }),
            scalar("Source.reverbSend", { source.reverbSend = $0 }, { source.reverbSend }, { (0...1).contains($0) }),
            Setter(name: "Source.cone", set: { source.cone = Source.Cone(innerAngle: $0, outerAngle: $1, outerGain: $2) },
                   get: { let c = source.cone; return [c.innerAngle, c.outerAngle, c.outerGain] },
                   valid: { (0...360).contains($0) && (0...360).contains($1) && (0...1).contains($2) }),
            position("Listener.position", { listener.position = $0 }, { listener.position }),
            position("Listener.velocity", { listener.velocity = $0 }, { listener.velocity }),
            scalar("Listener.gain", { listener.gain = $0 }, { listener.gain }, { finite($0) && $0 >= 0 }),
            scalar("SoundGroup.gain", { group.gain = $0 }, { group.gain }, { finite($0) && $0 >= 0 }),
            scalar("SoundGroup.pitch", { group.pitch = $0 }, { group.pitch }, { finite($0) && $0 > 0 }),
            scalar("Scene.dopplerFactor", { scene.dopplerFactor = $0 }, { scene.dopplerFactor }, { finite($0) && $0 >= 0 }),
            scalar("Scene.speedOfSound", { scene.speedOfSound = $0 }, { scene.speedOfSound }, { finite($0) && $0 > 0 }),
        ]
    }

    @Test(arguments: [1 as UInt64, 2, 3])
    func everySetterTakesOrRefusesAnyFloatAndTheMixStaysFinite(seed: UInt64) throws {
        let device = try Device.loopback()
        defer { device.close() }
        let scene = try device.makeScene()
        let refused = NIOLockedValueBox<[RefusedValue]>([])
        scene.refusedValueHandler = { value in refused.withLockedValue { $0.append(value) } }
        let group = scene.makeGroup("sfx")
        let source = scene.makeSource(buffer: try device.makeBuffer(Signals.sine(440, seconds: 0.5)))
        source.isLooping = true
        source.group = group
        try source.play()
        var generator = SplitMix64(seed: seed)
        var expectedRefusals = 0
        for round in 0..<400 {
            for setter in Self.setters(source, scene.listener, group, scene) {
                let (a, b, c) = (Self.anyFloat(&generator), Self.anyFloat(&generator), Self.anyFloat(&generator))
                let before = setter.get()
                setter.set(a, b, c)
                let after = setter.get()
                if setter.valid(a, b, c) {
                    #expect(after.elementsEqual([a, b, c].prefix(after.count)) { $0 == $1 || ($0.isNaN && $1.isNaN) },
                            "\(setter.name) took \(a), \(b), \(c); reads \(after)")
                } else {
                    expectedRefusals += 1
                    #expect(after.elementsEqual(before) { $0 == $1 || ($0.isNaN && $1.isNaN) },
                            "\(setter.name) refused \(a), \(b), \(c) but changed from \(before) to \(after)")
                    let last = refused.withLockedValue { $0.last }
                    #expect(last?.property == setter.name, "the diagnostic names \(setter.name): \(String(describing: last))")
                }
            }
            let mix = try device.render(frames: 480)
            let finiteMix = mix.samples.allSatisfy { $0.isFinite }
            #expect(finiteMix, "round \(round): the mix stays finite")
            if !finiteMix { break }
        }
        #expect(scene.refusedValueCount == expectedRefusals)
        #expect(refused.withLockedValue { $0.count } == expectedRefusals)
        #expect(Soundstage.unexpectedOpenALErrors == 0, "\(String(describing: Soundstage.lastUnexpectedOpenALError))")
    }

    /// The other calls that take numbers: each random argument is taken, refused with the
    /// previous state kept, or a typed error — never a trap — and the mix stays finite.
    @Test(arguments: [11 as UInt64, 12])
    func everyOtherCallTakingNumbersIsTakenRefusedOrATypedError(seed: UInt64) throws {
        let device = try Device.loopback()
        defer { device.close() }
        let scene = try device.makeScene()
        scene.refusedValueHandler = { _ in }
        let group = scene.makeGroup("music")
        let zone = try scene.makeReverbZone("hall", preset: .generic)
        let buffer = try device.makeBuffer(Signals.sine(440, seconds: 0.5))
        let source = scene.makeSource(buffer: buffer), other = scene.makeSource(buffer: buffer)
        source.group = group
        try source.play()
        let registry = try SystemSoundRegistry(device: device)
        var generator = SplitMix64(seed: seed)
        func anyInt() -> Int {
            [Int.min, -1, 0, 1, 2, 10_000, 10_001, 1_000_000, 1_000_001, Int.max, Int.random(in: -100...100, using: &generator)]
                .randomElement(using: &generator)!
        }
        func anyDouble() -> Double { Double(Self.anyFloat(&generator)) }
        for _ in 0..<300 {
            let (a, b, c) = (Self.anyFloat(&generator), Self.anyFloat(&generator), Self.anyFloat(&generator))
            let count = anyInt()
            let before = source.repeatCount
            source.repeatCount = count
            #expect(source.repeatCount == ((0...10_000).contains(count) ? count : before))
            let priority = source.priority
            source.priority = count
            #expect(source.priority == ((-1_000_000...1_000_000).contains(count) ? count : priority))
            scene.listener.setOrientation(at: Vector3(a, b, c), up: Vector3(c, a, b))
            #expect(scene.listener.at.isFinite && scene.listener.up.isFinite)
            source.fade(to: a, over: anyDouble())
            group.fade(to: b, over: anyDouble())
            source.setReverbSend(c, to: zone)
            zone.gain = a
            #expect((0...1).contains(zone.gain))
            registry.volume = b
            #expect(registry.volume.isFinite && registry.volume >= 0)
            scene.voiceRankingInterval = anyDouble()
            #expect(scene.voiceRankingInterval.isFinite)
            do { try source.seek(to: anyDouble()) } catch let error as SoundstageError { #expect(error.code == .invalidArgument) }
            do { try scene.crossfade(from: source, to: other, over: anyDouble()) } catch let error as SoundstageError {
                #expect(error.code == .invalidArgument)
            }
            // Buffers and files from odd shapes and rates: made whole, or a typed error.
            let shaped = AudioBuffer(samples: [a, b, c], channels: anyInt() % 5, sampleRate: anyInt())
            #expect(shaped.channels >= 1 && shaped.samples.count % shaped.channels == 0)
            _ = shaped.channel(anyInt())
            _ = shaped.remixed(toChannels: anyInt() % 9)
            _ = Signals.sine(440, seconds: 0.01).resampled(to: anyInt() % 200_000)
            do { _ = try device.makeBuffer(shaped) } catch is SoundstageError {}
            do {
                _ = try Motion(keyframes: [.init(t: anyDouble(), position: Vector3(a, b, c)), .init(t: anyDouble(), position: .zero)])
            } catch let error as SoundstageError { #expect(error.code == .invalidArgument) }
            try source.play()
            let mix = try device.render(frames: 480)
            let finite = mix.samples.allSatisfy { $0.isFinite }
            #expect(finite, "the mix stays finite")
            if !finite { break }
        }
        #expect(Soundstage.unexpectedOpenALErrors == 0, "\(String(describing: Soundstage.lastUnexpectedOpenALError))")
        #expect(scene.refusedValueCount > 0)
    }

    /// Times too large for a frame count (1e300 s is finite) are errors, never an Int
    /// conversion trap: a scheduled start and an offline render of a file with no size limit.
    @Test func hugeFiniteTimesAreErrorsNotTraps() throws {
        let device = try Device.loopback()
        defer { device.close() }
        let scene = try device.makeScene()
        let source = scene.makeSource(buffer: try device.makeBuffer(Signals.sine(440, seconds: 0.1)))
        for time in [1e300, -1e300, Double.greatestFiniteMagnitude] {
            #expect(throws: SoundstageError.self) { try scene.play([source], at: time) }
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("huge-\(UInt32.random(in: 0...UInt32.max)).flac").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: SoundstageError.self) { try device.render(seconds: 1e300, to: path, format: .flac) }
    }

    @Test func aRefusalLeavesThePreviousValueAndSaysWhichPropertyGotWhichValue() throws {
        let device = try Device.loopback()
        defer { device.close() }
        let scene = try device.makeScene()
        let source = scene.makeSource()
        source.gain = 0.5
        source.gain = .nan
        #expect(source.gain == 0.5)
        #expect(scene.refusedValueCount == 1)
        #expect(scene.lastRefusedValue == RefusedValue(property: "Source.gain", value: "nan", rule: "finite and >= 0"))
        #expect(scene.lastRefusedValue?.description == "Source.gain = nan (must be finite and >= 0)")
        source.position = Vector3(1, .infinity, 0)
        #expect(source.position.x == 0 && source.position.y == 0)
        #expect(scene.lastRefusedValue?.property == "Source.position")
        #expect(scene.lastRefusedValue?.value == "(1.0, inf, 0.0)")
        scene.listener.setOrientation(at: Vector3(0, 1, 0), up: Vector3(0, 2, 0))
        #expect(scene.lastRefusedValue?.property == "Listener.orientation", "parallel vectors are refused")
        #expect(scene.listener.up.y == 1 && scene.listener.up.x == 0)
        #expect(scene.refusedValueCount == 3)
    }

    @Test func objectsOfAnotherSceneAreRefusedNotTrapped() throws {
        let device = try Device.loopback(), other = try Device.loopback()
        defer { device.close(); other.close() }
        let scene = try device.makeScene(), otherScene = try other.makeScene()
        let foreignBuffer = try other.makeBuffer(Signals.sine(440, seconds: 0.1))
        let source = scene.makeSource(buffer: foreignBuffer)
        #expect(source.buffer === nil)
        source.group = otherScene.makeGroup("theirs")
        #expect(source.group === nil)
        let child = scene.makeGroup("child", parent: otherScene.makeGroup("theirs"))
        #expect(child.parent === nil)
        #expect(throws: SoundstageError.self) { try scene.crossfade(from: source, to: otherScene.makeSource(), over: 1) }
        #expect(throws: SoundstageError.self) { try scene.crossfade(from: source, to: scene.makeSource(), over: .nan) }
        #expect(scene.refusedValueCount == 3)
        var options = StreamOptions()
        options.bufferCount = 1
        #expect(throws: SoundstageError.self) { try scene.makeStreamingSource(file: "/dev/null", options: options) }
    }
}
