/// What a sample must be before it is mixed, in one place: finite, and no further from zero than
/// ``maximumMagnitude``. One sample of `Float.greatestFiniteMagnitude` is finite, yet mixed with
/// any gain it overflows to infinity, and a reverb that hears it rings NaN for good.
public enum PlayableSamples {
    /// The largest magnitude a played sample may have: 65536, 96 dB above full scale — far beyond
    /// any real recording's overs, and small enough that no mix of them can overflow a float.
    public static let maximumMagnitude: Float = 65_536

    /// The bit pattern of ``maximumMagnitude``: a sample's magnitude bits above it are too large,
    /// an infinity, or NaN (their patterns sort above every finite magnitude).
    private static let maximumBits: UInt32 = maximumMagnitude.bitPattern

    /// The first sample that may not be played (NaN, an infinity, or beyond ±``maximumMagnitude``),
    /// with its index; nil when all may.
    @_optimize(speed)   // every buffer and every mixed chunk passes here, in debug builds too
    public static func firstUnplayable(_ samples: UnsafeBufferPointer<Float>) -> (index: Int, value: Float)? {
        // One integer max over the magnitude bits (vectorized); the index only when it failed.
        let raw = UnsafeRawBufferPointer(samples).bindMemory(to: UInt32.self)
        var largest: UInt32 = 0
        for bits in raw { largest = max(largest, bits & 0x7FFF_FFFF) }
        guard largest > maximumBits else { return nil }
        let index = raw.firstIndex { $0 & 0x7FFF_FFFF > maximumBits }!
        return (index, samples[index])
    }

    /// Makes every sample playable in place: NaN and infinities become 0, larger magnitudes are
    /// clamped to ±``maximumMagnitude``. Returns how many were changed.
    @discardableResult
    public static func sanitize(_ samples: UnsafeMutableBufferPointer<Float>) -> Int {
        guard firstUnplayable(UnsafeBufferPointer(samples)) != nil else { return 0 }
        var changed = 0
        for index in samples.indices where !(abs(samples[index]) <= maximumMagnitude) {
            samples[index] = samples[index].isFinite ? (samples[index] < 0 ? -maximumMagnitude : maximumMagnitude) : 0
            changed += 1
        }
        return changed
    }

    /// Whether every sample is finite: the check a mix passes before it leaves the engine.
    @_optimize(speed)
    public static func allFinite(_ samples: UnsafeBufferPointer<Float>) -> Bool {
        // An exponent of all ones (infinity or NaN) carries into bit 31 when 0x0080_0000 is added
        // to the exponent bits; OR-ing every result vectorizes.
        let raw = UnsafeRawBufferPointer(samples).bindMemory(to: UInt32.self)
        var carried: UInt32 = 0
        for bits in raw { carried |= (bits & 0x7F80_0000) &+ 0x0080_0000 }
        return carried & 0x8000_0000 == 0
    }
}
