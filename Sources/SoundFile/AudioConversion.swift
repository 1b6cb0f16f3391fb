#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif

extension AudioBuffer {
    /// The buffer resampled to `rate` frames per second with a windowed-sinc filter
    /// (Blackman window, 32 zero crossings; cut-off below the lower Nyquist frequency). A rate
    /// that is not positive (or a buffer without one) leaves it unchanged.
    public func resampled(to rate: Int) -> AudioBuffer {
        guard rate > 0, sampleRate > 0, rate != sampleRate, frames > 0 else {
            return AudioBuffer(samples: samples, channels: channels, sampleRate: rate)
        }
        let ratio = Double(rate) / Double(sampleRate)
        let outFrames = Int((Double(frames) * ratio).rounded())
        let cutoff = min(1.0, ratio) * 0.97
        let halfWidth = 32.0 / cutoff
        var out = [Float](repeating: 0, count: outFrames * channels)
        var acc = [Double](repeating: 0, count: channels)
        samples.withUnsafeBufferPointer { input in
            for n in 0..<outFrames {
                let center = Double(n) / ratio
                let first = max(0, Int((center - halfWidth).rounded(.up)))
                let last = min(frames - 1, Int((center + halfWidth).rounded(.down)))
                guard first <= last else { continue }
                for c in 0..<channels { acc[c] = 0 }
                for k in first...last {
                    let x = Double(k) - center
                    let t = x * cutoff
                    let sinc = t == 0 ? 1.0 : sin(Double.pi * t) / (Double.pi * t)
                    let w = 0.42 + 0.5 * cos(Double.pi * x / halfWidth) + 0.08 * cos(2 * Double.pi * x / halfWidth)
                    let weight = sinc * w * cutoff
                    for c in 0..<channels { acc[c] += weight * Double(input[k * channels + c]) }
                }
                for c in 0..<channels { out[n * channels + c] = Float(acc[c]) }
            }
        }
        return AudioBuffer(samples: out, channels: channels, sampleRate: rate)
    }

    /// The buffer with `count` channels: mono is copied to every channel; many channels mix down
    /// to mono by averaging; otherwise channels are kept in order, dropped, or filled with silence.
    /// A count below 1 leaves it unchanged.
    public func remixed(toChannels count: Int) -> AudioBuffer {
        guard count > 0, count != channels else { return self }
        var out = [Float](repeating: 0, count: frames * count)
        for frame in 0..<frames {
            let base = frame * channels
            if count == 1 {
                var sum: Float = 0
                for c in 0..<channels { sum += samples[base + c] }
                out[frame] = sum / Float(channels)
            } else if channels == 1 {
                for c in 0..<count { out[frame * count + c] = samples[base] }
            } else {
                for c in 0..<min(count, channels) { out[frame * count + c] = samples[base + c] }
            }
        }
        return AudioBuffer(samples: out, channels: count, sampleRate: sampleRate)
    }
}
