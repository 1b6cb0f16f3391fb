#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif

/// How an ``AudioPlayer`` spreads a mono file over the left and right of a stereo mix for a
/// ``AudioPlayer/pan`` value.
public enum PanLaw: String, Sendable, Equatable, CaseIterable {
    /// OpenAL's: the sound is placed around the listener, constant power — each channel at 0.596
    /// at the centre, 1/0 hard to a side.
    case constantPower
    /// iOS's `AVAudioPlayer`'s balance: full level in both channels at the centre, the far
    /// channel falling linearly to 0 at ±1 while the near one stays at full level
    /// (left = min(1, 1 − pan), right = min(1, 1 + pan)).
    case balance
}

/// Where a mono source goes, and how loud, so that OpenAL Soft 1.19's stereo panning (see
/// `StereoPanning`) gives a pan law's channel gains: its azimuth (before OpenAL Soft widens the
/// front ×1.5) and the gain that brings the louder channel to its level.
struct PanPlacement: Equatable {
    /// Radians, positive to the right, as the source is placed (OpenAL Soft widens it ×1.5).
    var azimuth: Float
    /// The source's gain for the law (above 1 for `balance` near the centre: 1.68 there).
    var gain: Float

    /// The placement for `pan` (−1…1) under `law`.
    init(pan: Float, law: PanLaw) {
        switch law {
        case .constantPower:
            // OpenAL Soft widens the front by 1.5 (hard to a side at 60°): ±1 → ±60°.
            azimuth = pan * .pi / 3
            gain = 1
        case .balance:
            // The near channel at 1, the far at 1 − |pan|: find the (widened) azimuth whose
            // far/near ratio is 1 − |pan|, then the gain that brings the near channel to 1.
            let ratio = Double(1 - min(1, abs(pan)))
            var low = 0.0, high = Double.pi / 2
            for _ in 0..<48 {
                let middle = (low + high) / 2
                let (far, near) = Self.openALGains(widened: middle)
                if far / near > ratio { low = middle } else { high = middle }
            }
            let widened = (low + high) / 2
            let near = Self.openALGains(widened: widened).near
            azimuth = Float(widened / 1.5) * (pan < 0 ? -1 : 1)
            gain = Float(1 / near)
        }
    }

    /// OpenAL Soft 1.19's gains toward the far and the near side for a source ahead at the
    /// widened azimuth `a` (0…π/2), from its first-order stereo decoder (as `StereoPanning`).
    static func openALGains(widened a: Double) -> (far: Double, near: Double) {
        let front = 0.0552305643 * 3.0.squareRoot() * cos(a)
        return (0.5 - 0.5 * sin(a) + front, 0.5 + 0.5 * sin(a) + front)
    }
}
