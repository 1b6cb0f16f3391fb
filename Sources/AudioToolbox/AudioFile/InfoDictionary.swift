// kAudioFilePropertyInfoDictionary: what a file says about itself, as a new CFDictionary of
// strings keyed by the kAFInfoDictionary_ names (AudioFile.h): the approximate duration always,
// then the file's tags (title, artist, ...) as its container states them.

enum InfoDictionary {
    /// The entries for `layout`, the duration first (a stream's header that does not state its
    /// length gives none).
    static func entries(_ layout: FileLayout, withDuration: Bool = true) -> [(String, String)] {
        var entries = withDuration ? [("approximate duration in seconds", threeDecimals(layout.duration))] : []
        for tag in layout.tags where !entries.contains(where: { $0.0 == tag.key }) { entries.append((tag.key, tag.value)) }
        return entries
    }

    /// A new CFDictionaryRef of the entries, retained for the caller.
    static func make(_ layout: FileLayout, withDuration: Bool = true) -> UnsafeRawPointer {
        cfRetained(CFDictionaryStorage(strings: entries(layout, withDuration: withDuration)))
    }

    /// `value` with three decimals, as Core Audio writes the duration.
    static func threeDecimals(_ value: Double) -> String {
        guard value.isFinite, value >= 0, value < 1e15 else { return "0.000" }
        let thousandths = Int64((value * 1000).rounded())
        let fraction = String(thousandths % 1000)
        return String(thousandths / 1000) + "." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
