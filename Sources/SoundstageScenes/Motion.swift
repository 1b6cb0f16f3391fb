import Soundstage
/// A path through space: keyframes in time, interpolated linearly or smoothly (a Catmull-Rom
/// spline through the keyframes). Before the first keyframe and after the last, the position
/// holds still.
public struct Motion: Sendable, Equatable {
    /// A position at a time.
    public struct Keyframe: Sendable, Equatable {
        /// Seconds from the start of the scene.
        public var t: Double
        /// Where the object is then.
        public var position: Vector3

        /// Creates a keyframe.
        public init(t: Double, position: Vector3) {
            self.t = t
            self.position = position
        }
    }

    /// How positions between keyframes are computed.
    public enum Interpolation: String, Sendable, Codable, CaseIterable {
        /// Straight lines at constant speed between keyframes.
        case linear
        /// A Catmull-Rom spline through the keyframes: smooth position and velocity.
        case smooth
    }

    /// The keyframes, in increasing time.
    public let keyframes: [Keyframe]
    /// How to interpolate.
    public let interpolation: Interpolation

    /// Creates a motion.
    /// - Throws: `.invalidArgument` unless `keyframes` is non-empty, strictly increasing in
    ///   time, with finite times and usable positions.
    public init(keyframes: [Keyframe], interpolation: Interpolation = .linear) throws {
        guard !keyframes.isEmpty else { throw SoundstageError(.invalidArgument, "a motion needs at least one keyframe") }
        guard keyframes.allSatisfy({ $0.t.isFinite && $0.position.isUsablePosition }) else {
            throw SoundstageError(.invalidArgument, "keyframe times must be finite and positions usable (finite, within ±1e9)")
        }
        guard zip(keyframes, keyframes.dropFirst()).allSatisfy({ $0.t < $1.t }) else {
            throw SoundstageError(.invalidArgument, "keyframe times must increase")
        }
        self.keyframes = keyframes
        self.interpolation = interpolation
    }

    /// The position at time `t`.
    public func position(at t: Double) -> Vector3 { sample(t).position }

    /// The velocity at time `t` (units per second): the derivative of the path, zero outside it.
    public func velocity(at t: Double) -> Vector3 { sample(t).velocity }

    private func sample(_ t: Double) -> (position: Vector3, velocity: Vector3) {
        guard let first = keyframes.first, let last = keyframes.last else { return (.zero, .zero) }
        if keyframes.count == 1 || t <= first.t { return (first.position, .zero) }
        if t >= last.t { return (last.position, .zero) }
        // The segment i ... i+1 containing t.
        var i = 0
        while keyframes[i + 1].t < t { i += 1 }
        let a = keyframes[i], b = keyframes[i + 1]
        let span = b.t - a.t
        let u = (t - a.t) / span
        switch interpolation {
        case .linear:
            let velocity = (b.position - a.position) * Float(1 / span)
            return (a.position + (b.position - a.position) * Float(u), velocity)
        case .smooth:
            let ma = tangent(i), mb = tangent(i + 1)
            let u2 = u * u, u3 = u2 * u
            let h00 = 2 * u3 - 3 * u2 + 1, h10 = u3 - 2 * u2 + u, h01 = -2 * u3 + 3 * u2, h11 = u3 - u2
            let d00 = 6 * u2 - 6 * u, d10 = 3 * u2 - 4 * u + 1, d01 = -6 * u2 + 6 * u, d11 = 3 * u2 - 2 * u
            let position = a.position * Float(h00) + ma * Float(h10 * span) + b.position * Float(h01) + mb * Float(h11 * span)
            let velocity = (a.position * Float(d00) + ma * Float(d10 * span) + b.position * Float(d01)
                            + mb * Float(d11 * span)) * Float(1 / span)
            return (position, velocity)
        }
    }

    /// The spline's velocity at keyframe `i`: a central difference (one-sided at the ends).
    private func tangent(_ i: Int) -> Vector3 {
        let before = keyframes[max(0, i - 1)], after = keyframes[min(keyframes.count - 1, i + 1)]
        let dt = after.t - before.t
        return dt > 0 ? (after.position - before.position) * Float(1 / dt) : .zero
    }
}
