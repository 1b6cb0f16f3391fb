#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif

/// The gains by which each channel of a source (one or two) reaches the left and right of a
/// stereo mix, as OpenAL Soft 1.19 pans without HRTF (its "pair-wise" stereo): a mono source by
/// its direction from the listener — azimuth scaled ×1.5 toward the sides, then first-order
/// ambisonic coefficients decoded by OpenAL Soft's stereo matrix (hard left 1/0, ahead 0.596
/// each); a stereo source's channels straight to their sides. Read from OpenAL Soft's
/// `Alc/panning.c` and `Alc/ALu.c`; used by group and scene meters.
struct StereoPanning: Equatable {
    /// `[channel 0 → left, channel 0 → right, channel 1 → left, channel 1 → right]`.
    var gains: SIMD4<Float>

    /// The gain from `channel` (0 or 1) to `output` (0 left, 1 right).
    @inline(__always)
    func gain(_ channel: Int, to output: Int) -> Float { gains[channel * 2 + output] }

    /// Nil for sources of more than two channels (their meters fold channels instead).
    init?(_ p: Source.Properties, channels: Int, spatialized: Bool, listener: Listener.Properties) {
        guard spatialized, channels == 1 else {
            guard channels == 2 else { return nil }
            gains = SIMD4(1, 0, 0, 1)
            return
        }
        // The direction in the listener's frame (OpenAL's: x right, y up, z back).
        let relative = p.headRelative ? p.position : p.position - listener.position
        var azimuth: Float = 0, elevation: Float = 0
        let distance = relative.length
        if distance > .ulpOfOne {
            let ahead = listener.at.normalized, up0 = listener.up.normalized
            let right = ahead.cross(up0).normalized
            let up = right.cross(ahead)
            let direction = p.headRelative ? relative * (1 / distance)
                : Vector3(relative.dot(right), relative.dot(up), -relative.dot(ahead)) * (1 / distance)
            azimuth = atan2f(direction.x, -direction.z)
            elevation = asinf(max(-1, min(1, direction.y)))
        }
        // ScaleAzimuthFront(azimuth, 1.5): the front half-circle is widened to the sides.
        if abs(azimuth) <= .pi / 2 { azimuth = min(abs(azimuth) * 1.5, .pi / 2) * (azimuth < 0 ? -1 : 1) }
        let root3: Float = 1.7320508
        let y = -sinf(azimuth) * cosf(elevation), x = cosf(azimuth) * cosf(elevation)
        let left = 0.5 + 0.288675135 * root3 * y + 0.0552305643 * root3 * x
        let right = 0.5 - 0.288675135 * root3 * y + 0.0552305643 * root3 * x
        gains = SIMD4(max(0, left), max(0, right), 0, 0)
    }
}
