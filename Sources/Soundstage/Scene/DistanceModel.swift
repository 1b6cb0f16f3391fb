#if canImport(Glibc)
import Glibc
#endif

/// How a source's gain falls with distance (`alDistanceModel`). The clamped variants keep the
/// distance within [reference distance, max distance] first.
public enum DistanceModel: String, Sendable, Codable, CaseIterable {
    /// No attenuation (`AL_NONE`).
    case none
    /// `ref / (ref + rolloff·(d − ref))` (`AL_INVERSE_DISTANCE`).
    case inverse
    /// Inverse, distance clamped (`AL_INVERSE_DISTANCE_CLAMPED`, the OpenAL default).
    case inverseClamped
    /// `1 − rolloff·(d − ref)/(max − ref)` (`AL_LINEAR_DISTANCE`).
    case linear
    /// Linear, distance clamped (`AL_LINEAR_DISTANCE_CLAMPED`).
    case linearClamped
    /// `(d / ref)^(−rolloff)` (`AL_EXPONENT_DISTANCE`).
    case exponent
    /// Exponent, distance clamped (`AL_EXPONENT_DISTANCE_CLAMPED`).
    case exponentClamped

    /// The gain this model gives at `distance` (before min/max gain), as OpenAL computes it.
    public func gain(distance: Float, referenceDistance: Float, maxDistance: Float, rolloff: Float) -> Float {
        var d = distance
        switch self {
        case .inverseClamped, .linearClamped, .exponentClamped:
            d = max(referenceDistance, min(d, maxDistance))
        default:
            break
        }
        switch self {
        case .none:
            return 1
        case .inverse, .inverseClamped:
            let denominator = referenceDistance + rolloff * (d - referenceDistance)
            return denominator > 0 ? referenceDistance / denominator : 1
        case .linear, .linearClamped:
            guard maxDistance != referenceDistance else { return 1 }
            let dd = min(d, maxDistance)
            return max(0, 1 - rolloff * (dd - referenceDistance) / (maxDistance - referenceDistance))
        case .exponent, .exponentClamped:
            guard d > 0, referenceDistance > 0 else { return 1 }
            return powf(d / referenceDistance, -rolloff)
        }
    }
}
