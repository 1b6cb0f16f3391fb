#if canImport(Glibc)
import Glibc
#endif

// How loud a source would be where it is: what voice management ranks by.
extension Source {
    // MARK: Audibility

    /// How loud the source reaches the listener now, as a linear gain, computed the way OpenAL
    /// does: ``gain`` × its groups × its fade level × the scene's distance model at its distance
    /// (with its reference distance, rolloff and max distance) × its cone, clamped to
    /// ``minGain``…``maxGain``, × the listener's gain. Unspatialized (multi-channel) sources skip
    /// distance and cone. The ranking a voice manager needs; it reads no OpenAL state.
    public var audibility: Float {
        locked { s, sceneState, _ in
            Self.audibility(s.properties, spatialized: s.spatialized, sceneState.distanceModel, scene.listener.propertiesLocked)
        }
    }

    /// ``audibility`` with the scene's lock held.
    func audibilityLocked(_ model: DistanceModel, _ listener: Listener.Properties) -> Float {
        Self.audibility(state.properties, spatialized: state.spatialized, model, listener)
    }


    /// The voice manager's ranking key (scene lock held): priority first, then audibility.
    func rankKeyLocked(_ model: DistanceModel, _ listener: Listener.Properties) -> Double {
        Self.rankKey(priority: state.priority, state.properties, spatialized: state.spatialized, model, listener)
    }

    static func rankKey(priority: Int, _ p: Properties, spatialized: Bool, _ model: DistanceModel,
                        _ listener: Listener.Properties) -> Double {
        rankKey(priority: Double(priority), audibility: audibility(p, spatialized: spatialized, model, listener))
    }

    /// Priority first (each step outweighs any audibility), then audibility.
    @inline(__always)
    static func rankKey(priority: Double, audibility: Float) -> Double {
        priority * 1_024 + Double(min(audibility, 1_000))
    }

    static func audibility(_ p: Properties, spatialized: Bool, _ model: DistanceModel,
                           _ listener: Listener.Properties) -> Float {
        guard spatialized else {
            return audibility(level: p.openALGain, distance: nil, reference: 0, maxDistance: 0, rolloff: 0, coneFactor: 1,
                              minGain: p.minGain, maxGain: p.maxGain, model: model, listenerGain: listener.gain * listener.duck)
        }
        let relative = p.headRelative ? p.position : p.position - listener.position
        let distance = relative.length
        return audibility(level: p.openALGain, distance: distance, reference: p.referenceDistance, maxDistance: p.maxDistance,
                          rolloff: p.rolloffFactor, coneFactor: coneFactor(p, relative: relative, distance: distance),
                          minGain: p.minGain, maxGain: p.maxGain, model: model, listenerGain: listener.gain * listener.duck)
    }

    /// The formula on plain values: `level` × the distance model at `distance` (nil: not
    /// spatialized) × the cone, clamped to minGain…maxGain, × the listener's gain.
    @inline(__always)
    static func audibility(level: Float, distance: Float?, reference: Float, maxDistance: Float, rolloff: Float,
                           coneFactor: Float, minGain: Float, maxGain: Float, model: DistanceModel, listenerGain: Float) -> Float {
        var level = level
        if let distance {
            level *= model.gain(distance: distance, referenceDistance: reference, maxDistance: maxDistance, rolloff: rolloff) * coneFactor
        }
        return min(max(level, minGain), maxGain) * listenerGain
    }

    /// Whether the source's cone can change its level (a direction and an inner angle under 360°).
    static func hasCone(_ p: Properties) -> Bool { p.direction.length > 0 && p.cone.innerAngle < 360 }

    /// The cone's gain for a listener at `relative` (from the source's view, negated) and `distance`.
    static func coneFactor(_ p: Properties, relative: Vector3, distance: Float) -> Float {
        let directionLength = p.direction.length
        guard directionLength > 0, distance > 0, p.cone.innerAngle < 360 else { return 1 }
        let cosine = max(-1, min(1, p.direction.dot(relative * (-1 / distance)) / directionLength))
        let angle = 2 * acosf(cosine) * 180 / .pi
        if angle >= p.cone.outerAngle { return p.cone.outerGain }
        if angle > p.cone.innerAngle {
            let t = (angle - p.cone.innerAngle) / (p.cone.outerAngle - p.cone.innerAngle)
            return 1 + (p.cone.outerGain - 1) * t
        }
        return 1
    }

    /// Distance to the listener (scene lock held).
    func distanceLocked(_ listener: Listener.Properties) -> Float {
        state.properties.headRelative ? state.properties.position.length : (state.properties.position - listener.position).length
    }
}
