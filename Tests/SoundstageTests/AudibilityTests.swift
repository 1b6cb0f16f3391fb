import Foundation
@testable import Soundstage
import SoundFile
import Testing
import TestSupport

/// `Source.audibility` predicts the level OpenAL actually mixes: the measure a voice manager
/// ranks sources by.
@Suite struct AudibilityTests {
    @Test(arguments: DistanceModel.allCases)
    func audibilityMatchesTheRenderedLevel(_ model: DistanceModel) throws {
        var random = SplitMix64(seed: UInt64(model.rawValue.utf8.count))
        func uniform(_ range: ClosedRange<Float>) -> Float {
            range.lowerBound + Float(Double(random.next() % 1_000_000) / 1_000_000) * (range.upperBound - range.lowerBound)
        }
        /// RMS of the front-left channel for a source set up by `configure`, after the onset.
        func rendered(_ configure: (Source, Scene) -> Void) throws -> (rms: Double, audibility: Float) {
            let device = try Device.loopback()
            defer { device.close() }
            let scene = try device.makeScene()
            scene.distanceModel = model
            let source = scene.makeSource(buffer: try device.makeBuffer(Signals.sine(440, seconds: 0.5)))
            configure(source, scene)
            try source.play()
            _ = try device.render(frames: 4_800)
            return (Signals.rms(try device.render(frames: 9_600), channel: 0), source.audibility)
        }
        // Straight ahead at half a metre, no attenuation: the reference level.
        let reference = try rendered { source, _ in
            source.position = Vector3(0, 0, -0.5)
            source.referenceDistance = 1
            source.rolloffFactor = 0
        }
        #expect(abs(reference.audibility - 1) < 1e-6)
        for trial in 0..<12 {
            var expected: Float = 0
            let measured = try rendered { source, scene in
                // Always straight ahead (both ears equal), at a random distance, with random
                // attenuation settings, gain, listener gain and, half the time, a cone.
                source.position = Vector3(0, 0, -uniform(0.2...40))
                source.referenceDistance = uniform(0.5...5)
                source.maxDistance = source.referenceDistance + uniform(1...60)
                source.rolloffFactor = uniform(0...3)
                source.gain = uniform(0.2...1)
                scene.listener.gain = uniform(0.5...1)
                if trial % 2 == 1 {
                    let turn = uniform(0...Float.pi)      // the cone's axis turned away from the listener
                    source.direction = Vector3(sinf(turn), 0, cosf(turn))
                    let inner = uniform(0...180)
                    source.cone = Source.Cone(innerAngle: inner, outerAngle: inner + uniform(10...180), outerGain: uniform(0...0.5))
                }
                expected = source.audibility
            }
            let ratio = Float(measured.rms / reference.rms)
            #expect(abs(ratio - expected) < 0.005 + 0.02 * expected, "\(model) trial \(trial): mixed \(ratio), predicted \(expected)")
        }
    }

    /// The voice manager computes the audibility of thousands of voices eight at a time (SIMD);
    /// it must give exactly what `Source.audibility` gives, for every model and kind of source.
    @Test(arguments: DistanceModel.allCases)
    func theVoiceTablesAudibilityIsExactlySourceAudibility(_ model: DistanceModel) throws {
        let device = try Device.loopback()
        defer { device.close() }
        let scene = try device.makeScene(sourceBudget: 8)
        scene.virtualizesVoices = true
        scene.distanceModel = model
        scene.listener.position = Vector3(3, -1, 7)
        scene.listener.gain = 0.8
        let mono = try device.makeBuffer(Signals.sine(440, seconds: 0.5))
        let stereo = try device.makeBuffer(AudioBuffer(samples: [Float](repeating: 0.1, count: 4_800), channels: 2, sampleRate: 48_000))
        var random = SplitMix64(seed: 5)
        func uniform(_ range: ClosedRange<Float>) -> Float {
            range.lowerBound + Float(Double(random.next() % 1_000_000) / 1_000_000) * (range.upperBound - range.lowerBound)
        }
        var sources: [Source] = []
        for index in 0..<203 {                       // not a multiple of 8: the scalar tail too
            let source = scene.makeSource(buffer: index % 17 == 0 ? stereo : mono)
            source.isLooping = true
            source.position = Vector3(uniform(-60...60), uniform(-5...5), uniform(-60...60))
            source.referenceDistance = uniform(0.5...5)
            source.maxDistance = index % 5 == 0 ? source.referenceDistance : source.referenceDistance + uniform(0...50)
            source.rolloffFactor = uniform(0...4)
            source.gain = uniform(0...2)
            source.minGain = index % 7 == 0 ? uniform(0...0.2) : 0
            source.maxGain = index % 11 == 0 ? uniform(0.3...1) : 1
            source.isHeadRelative = index % 13 == 0
            if index % 9 == 0 {
                source.direction = Vector3(1, 0, 0)
                source.cone = Source.Cone(innerAngle: 40, outerAngle: 200, outerGain: 0.2)
            }
            try source.play()
            sources.append(source)
        }
        _ = try device.render(frames: 480)
        let table = scene.withState { state, _ in state.voices!.table }
        var computed: [Float] = []
        table.audibilities(model, scene.listener.propertiesLocked, into: &computed)
        #expect(table.count == sources.count)
        for (index, source) in table.members.enumerated() {
            #expect(computed[index] == source.audibility, "\(model) row \(index)")
        }
    }
}
