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
}
