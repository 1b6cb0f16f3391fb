import NumberText
import Testing

/// The one formatting helper: the exact text each call produces (issue 36: no `String(format:)`).
@Suite struct NumberTextTests {
    @Test func fixedPointTextIsExact() {
        let cases: [(Double, Int, String)] = [
            (0, 0, "0"), (0, 2, "0.00"), (-0.0, 1, "0.0"), (1, 1, "1.0"), (-1.5, 0, "-2"), (1.5, 0, "2"),
            (3.14159, 2, "3.14"), (2.675, 2, "2.68"), (0.125, 2, "0.13"), (9.96, 1, "10.0"), (-9.96, 1, "-10.0"),
            (99.95, 1, "100.0"), (0.04, 1, "0.0"), (-0.04, 1, "0.0"), (0.05, 1, "0.1"), (12.5, 0, "13"),
            (1e-05, 2, "0.00"), (5e-05, 4, "0.0001"), (1.23456e-07, 9, "0.000000123"), (0.000123, 6, "0.000123"),
            (1e20, 1, "100000000000000000000.0"), (1.5e16, 0, "15000000000000000"), (-42.0, 3, "-42.000"),
            (123456.789, 1, "123456.8"), (0.999, 2, "1.00"), (7, -1, "7"), (Double.greatestFiniteMagnitude, 0,
             "17976931348623157" + String(repeating: "0", count: 292)),
            (.nan, 2, "nan"), (.infinity, 1, "inf"), (-.infinity, 0, "-inf"),
        ]
        for (value, places, text) in cases {
            #expect(value.fixed(places) == text, "\(value) to \(places) places")
        }
    }

    @Test func hexadecimalIsZeroPadded() {
        #expect(UInt64(0).hex(digits: 16) == "0000000000000000")
        #expect(UInt64.max.hex(digits: 16) == "ffffffffffffffff")
        #expect(UInt64(0xbeef).hex(digits: 2) == "beef")
        #expect(Int(-255).hex(digits: 4) == "-00ff")
    }

    @Test func paddingAlignsColumns() {
        #expect("7".padded(to: 3) == "  7")
        #expect("1234".padded(to: 3) == "1234")
        #expect("ab".padded(after: 4) == "ab  ")
        #expect((-12.34).fixed(1).padded(to: 7) == "  -12.3")
        #expect(String(42).padded(to: 6) == "    42")
    }
}
