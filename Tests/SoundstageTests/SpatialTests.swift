import Testing
import Soundstage
import TestSupport

/// Panning, distance models, Doppler, cones: measured on the rendered mix.
@Suite struct SpatialTests {
    @Test func sourceOnTheRightIsHeardOnlyInTheRightChannel() throws {
        let rig = try Rig()
        _ = try rig.playing(at: Vector3(5, 0, 0))
        let mix = try rig.render(0.5)
        #expect(Signals.rms(mix, channel: 0) < 0.0001)
        #expect(Signals.rms(mix, channel: 1) > 0.05)
    }

    @Test func sourceOnTheLeftMirrorsIt() throws {
        let right = try Rig(), left = try Rig()
        _ = try right.playing(at: Vector3(5, 0, 0))
        _ = try left.playing(at: Vector3(-5, 0, 0))
        let r = try right.render(0.5), l = try left.render(0.5)
        #expect(Signals.rms(l, channel: 1) < 0.0001)
        #expect(abs(Signals.rms(l, channel: 0) - Signals.rms(r, channel: 1)) < 1e-6)
    }

    /// RMS of the mix (both channels) with the source at `distance` metres ahead.
    private func level(model: DistanceModel, distance: Float, rolloff: Float = 1,
                       reference: Float = 1, maxDistance: Float = 100) throws -> Double {
        let rig = try Rig()
        rig.scene.distanceModel = model
        _ = try rig.playing(at: Vector3(0, 0, -distance)) { source in
            source.rolloffFactor = rolloff
            source.referenceDistance = reference
            source.maxDistance = maxDistance
        }
        let mix = try rig.render(0.5)
        return Signals.rms(mix.samples)
    }

    @Test func inverseClampedTenMetresIsATenthOfOneMetre() throws {
        let ratio = try level(model: .inverseClamped, distance: 10) / level(model: .inverseClamped, distance: 1)
        #expect(abs(ratio - 0.1) <= 0.001, "ratio \(ratio)")
    }

    @Test(arguments: [DistanceModel.linear, .linearClamped, .exponent, .exponentClamped, .inverse])
    func distanceModelsMatchTheirFormulas(model: DistanceModel) throws {
        let near = try level(model: model, distance: 1, rolloff: 0.8, maxDistance: 20)
        for distance: Float in [3, 7, 12] {
            let measured = try level(model: model, distance: distance, rolloff: 0.8, maxDistance: 20) / near
            let expected = Double(model.gain(distance: distance, referenceDistance: 1, maxDistance: 20, rolloff: 0.8))
            #expect(abs(measured - expected) <= 0.01 * expected + 1e-4, "\(model) at \(distance) m: \(measured) vs \(expected)")
        }
    }

    @Test func clampedModelsDoNotAttenuateInsideTheReferenceDistance() throws {
        let inside = try level(model: .inverseClamped, distance: 0.5, reference: 2)
        let atReference = try level(model: .inverseClamped, distance: 2, reference: 2)
        #expect(abs(inside / atReference - 1) < 0.01)
        let far = try level(model: .inverseClamped, distance: 4, reference: 2)
        #expect(abs(far / atReference - 0.5) < 0.005)
    }

    /// Frequency heard from a 440 Hz source 50 m ahead with the given velocities.
    private func heardFrequency(source: Vector3, listener: Vector3) throws -> Double {
        let rig = try Rig()
        rig.listener(velocity: listener)
        _ = try rig.playing(at: Vector3(0, 0, -50)) { $0.velocity = source }
        let mix = try rig.render(1)
        return Signals.frequency(mix)
    }

    @Test func dopplerShiftMatchesTheOpenALFormula() throws {
        let c: Float = 343.3
        let approaching = try heardFrequency(source: Vector3(0, 0, 0.1 * c), listener: .zero)
        let receding = try heardFrequency(source: Vector3(0, 0, -0.1 * c), listener: .zero)
        let listenerApproaching = try heardFrequency(source: .zero, listener: Vector3(0, 0, -0.1 * c))
        #expect(abs(approaching - 488.9) <= 0.5, "approaching \(approaching)")
        #expect(abs(receding - 400.0) <= 0.5, "receding \(receding)")
        #expect(abs(listenerApproaching - 484.0) <= 0.5, "listener approaching \(listenerApproaching)")
    }

    @Test func dopplerFactorZeroTurnsDopplerOff() throws {
        let rig = try Rig()
        rig.scene.dopplerFactor = 0
        _ = try rig.playing(at: Vector3(0, 0, -50)) { $0.velocity = Vector3(0, 0, 34.33) }
        #expect(abs(Signals.frequency(try rig.render(1)) - 440) < 0.5)
    }

    @Test func coneAttenuatesBehindTheSource() throws {
        func level(facing direction: Vector3) throws -> Double {
            let rig = try Rig()
            _ = try rig.playing(at: Vector3(0, 0, -2)) { source in
                source.direction = direction
                source.cone = Source.Cone(innerAngle: 60, outerAngle: 120, outerGain: 0.25)
            }
            return Signals.rms(try rig.render(0.5).samples)
        }
        let facing = try level(facing: Vector3(0, 0, 1))     // towards the listener
        let away = try level(facing: Vector3(0, 0, -1))      // listener is behind it
        #expect(abs(away / facing - 0.25) < 0.01, "ratio \(away / facing)")
    }

    @Test func headRelativeSourceIgnoresListenerMovement() throws {
        let rig = try Rig()
        _ = try rig.playing(at: Vector3(5, 0, 0)) { $0.isHeadRelative = true }
        let before = try rig.render(0.25)
        rig.scene.listener.position = Vector3(20, 0, 0)   // would put the source on the left
        let after = try rig.render(0.25)
        #expect(Signals.rms(after, channel: 0) < 0.0001)
        #expect(abs(Signals.rms(after, channel: 1) - Signals.rms(before, channel: 1)) < 0.01)

        let world = try Rig()
        _ = try world.playing(at: Vector3(5, 0, 0))
        world.scene.listener.position = Vector3(20, 0, 0)
        let moved = try world.render(0.25)
        #expect(Signals.rms(moved, channel: 1) < 0.0001, "a world-space source does move to the left")
    }

    @Test func listenerOrientationTurnsTheMix() throws {
        let rig = try Rig()
        _ = try rig.playing(at: Vector3(5, 0, 0))
        rig.scene.listener.setOrientation(at: Vector3(0, 0, 1), up: Vector3(0, 1, 0)) // turned around
        let mix = try rig.render(0.25)
        #expect(Signals.rms(mix, channel: 1) < 0.0001)
        #expect(Signals.rms(mix, channel: 0) > 0.05)
    }
}

extension Rig {
    func listener(velocity: Vector3) { scene.listener.velocity = velocity }
}
