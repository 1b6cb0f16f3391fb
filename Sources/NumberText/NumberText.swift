/// Numbers as text, the same on every machine: what the CLI, logs, SVG plots, the live view and
/// JSON print. No locale, no `String(format:)` (which pulls in Foundation's internationalization
/// and ICU's 34 MB data table; see docs/c-api.md, "What the library weighs").
///
/// Everything here is `package`: helpers of Soundstage's own modules, not API for games.
extension Double {
    /// The value with exactly `places` digits after the point (none and no point when `places`
    /// is 0), as `printf("%.*f")` would write it in the C locale, with one difference: it rounds
    /// the shortest decimal that reads back as the value (what `description` prints), half away
    /// from zero, so 2.675 is "2.68" and 0.125 is "0.13" (printf rounds the binary value: "2.67",
    /// "0.12"). A result that rounds to zero has no minus sign. Not finite: "nan", "inf", "-inf".
    package func fixed(_ places: Int) -> String {
        guard isFinite else { return isNaN ? "nan" : (self < 0 ? "-inf" : "inf") }
        let places = Swift.max(0, places)
        // description is either "123.456" or "1.23456e-05" / "1e+20"; the sign is put back below.
        let text = magnitude.description
        let mantissa: Substring
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            mantissa = text[..<e]
            exponent = Int(text[text.index(after: e)...]) ?? 0
        } else {
            mantissa = text[...]
        }
        var digits = [UInt8]()
        var point = -1
        for character in mantissa.utf8 {
            if character == UInt8(ascii: ".") { point = digits.count } else { digits.append(character - UInt8(ascii: "0")) }
        }
        // The value is 0.d1d2d3… × 10^integerDigits.
        var integerDigits = (point < 0 ? digits.count : point) + exponent
        let kept = integerDigits + places
        if kept < 0 {
            digits = []
        } else if kept < digits.count {
            let roundsUp = digits[kept] >= 5
            digits.removeSubrange(kept...)
            if roundsUp {
                var index = kept - 1
                while index >= 0 && digits[index] == 9 { digits[index] = 0; index -= 1 }
                if index >= 0 { digits[index] += 1 } else { digits.insert(1, at: 0); integerDigits += 1 }
            }
        }
        var out = [UInt8]()
        out.reserveCapacity(Swift.max(integerDigits, 1) + places + 2)
        func digit(_ position: Int) -> UInt8 {   // position counts from the first digit of `digits`
            UInt8(ascii: "0") + (position >= 0 && position < digits.count ? digits[position] : 0)
        }
        if integerDigits <= 0 { out.append(UInt8(ascii: "0")) }
        for position in 0..<Swift.max(integerDigits, 0) { out.append(digit(position)) }
        if places > 0 {
            out.append(UInt8(ascii: "."))
            for position in integerDigits..<(integerDigits + places) { out.append(digit(position)) }
        }
        let isZero = !digits.contains { $0 != 0 }
        if sign == .minus && !isZero { out.insert(UInt8(ascii: "-"), at: 0) }
        return String(decoding: out, as: UTF8.self)
    }
}

extension BinaryInteger {
    /// The value in lower-case hexadecimal, zero-padded on the left to at least `digits` digits
    /// (`printf("%0*llx")`). A negative value is written with a minus sign.
    package func hex(digits: Int) -> String {
        let text = String(magnitude, radix: 16)
        let padded = String(repeating: "0", count: Swift.max(0, digits - text.count)) + text
        return self < 0 ? "-" + padded : padded
    }
}

extension StringProtocol {
    /// The text right-aligned in `width` characters (spaces on the left), as `printf("%*s")`;
    /// longer text is left whole.
    package func padded(to width: Int) -> String {
        String(repeating: " ", count: Swift.max(0, width - count)) + self
    }

    /// The text left-aligned in `width` characters (spaces on the right), as `printf("%-*s")`;
    /// longer text is left whole.
    package func padded(after width: Int) -> String {
        self + String(repeating: " ", count: Swift.max(0, width - count))
    }
}
