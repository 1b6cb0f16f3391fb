import SoundstageJSON
import Testing

/// RFC 8259 conformance, case by case, in the style of Nicolas Seriot's JSONTestSuite: `accepts`
/// holds texts any JSON parser must accept (the suite's `y_` cases), `refuses` texts it must
/// refuse (`n_`), and `implementationDefined` the texts the RFC leaves to the parser (`i_`),
/// each with the answer Soundstage chose and why. The cases are written here, not copied.
@Suite struct JSONConformanceTests {
    private func parse(_ bytes: [UInt8]) throws -> JSONValue { try JSONValue(parsing: bytes) }
    private func parse(_ text: String) throws -> JSONValue { try parse(Array(text.utf8)) }

    // MARK: y_: must be accepted, and read as this value

    /// A text and the value it must read as.
    struct Case: Sendable, CustomTestStringConvertible {
        let text: String, value: JSONValue
        init(_ text: String, _ value: JSONValue) { self.text = text; self.value = value }
        var testDescription: String { text.debugDescription }
    }

    /// A one-character string (for noncharacters, which Swift literals refuse).
    private static func scalar(_ code: UInt32) -> JSONValue { .string(String(Unicode.Scalar(code)!)) }

    @Test(arguments: [
        // Structure and whitespace.
        Case("[]", []), Case("{}", [:]), Case("[[]   ]", [[]]), Case(" [1]", [1]), Case("[2] ", [2]), Case("[1\n]", [1]),
        Case("\t\r\n[\t1\r\n,\n2 ]\r\n", [1, 2]), Case("[1,null,null,null,2]", [1, nil, nil, nil, 2]),
        Case(#"[null, 1, "1", {}]"#, [nil, 1, "1", [:]]), Case(#"{"a":[]}"#, ["a": []]),
        Case(#"{"asd":"sdf", "dfg":"fgh"}"#, ["asd": "sdf", "dfg": "fgh"]), Case(#"{"":0}"#, ["": 0]),
        Case(#"[{"a": {"b": [{"c": null}]}}]"#, [["a": ["b": [["c": nil]]]]]),
        // Scalars at the top level (RFC 8259 allows any value, unlike RFC 4627).
        Case("42", 42), Case("-0.1", -0.1), Case("true", true), Case("false", false), Case("null", nil), Case(#""asd""#, "asd"), Case(#"" ""#, " "),
        // Numbers.
        Case("[0]", [0]), Case("[-0]", [0]), Case("[-1]", [-1]), Case("[-123]", [-123]), Case("[123]", [123]), Case("[123.456789]", [123.456789]),
        Case("[1E22]", [1e22]), Case("[1E-2]", [0.01]), Case("[1E+2]", [100]), Case("[1e-2]", [0.01]), Case("[1e+2]", [100]),
        Case("[0e+1]", [0]), Case("[0e1]", [0]), Case("[20e1]", [200]), Case("[123e65]", [123e65]), Case("[123.456e78]", [123.456e78]),
        Case("[-0.000000000000000000000000000000000000000000000000000000000000000000000000000001]", [-1e-78]),
        Case(#"{ "min": -1.0e+28, "max": 1.0e+28 }"#, ["min": -1e28, "max": 1e28]),
        Case("[9007199254740991]", [9_007_199_254_740_991]),
        // Strings: escapes, surrogate pairs, raw UTF-8, things that only look special.
        Case(#"["\"\\\/\b\f\n\r\t"]"#, ["\"\\/\u{8}\u{C}\n\r\t"]), Case(#"["\\u0000"]"#, ["\\u0000"]), Case(#"["\\a"]"#, ["\\a"]),
        Case(#"["\u0060\u012a\u12AB"]"#, ["\u{60}\u{12A}\u{12AB}"]), Case(#"["\uD801\udc37"]"#, ["\u{10437}"]),
        Case(#"["\ud83d\ude39\ud83d\udc8d"]"#, ["😹💍"]), Case(#"["\uDBFF\uDFFF"]"#, ["\u{10FFFF}"]), Case(#"["\uD834\uDD1E"]"#, ["𝄞"]),
        Case(#"["\u0000"]"#, ["\u{0}"]), Case(#"["\u0012"]"#, ["\u{12}"]), Case(#"["\uFFFF"]"#, [scalar(0xFFFF)]), Case(#"["\uFFFE"]"#, [scalar(0xFFFE)]),
        Case(#"["\uFDD0"]"#, [scalar(0xFDD0)]), Case(#"["\u005C"]"#, ["\\"]), Case(#"["\u002c"]"#, [","]), Case(#"["new\u000Aline"]"#, ["new\nline"]),
        Case(#"["\u0061\u30af\u30EA\u30b9"]"#, ["aクリス"]), Case(#"["a/*b*/c/*d//e"]"#, ["a/*b*/c/*d//e"]),
        Case(#"{"foo\u0000bar": 42}"#, ["foo\u{0}bar": 42]), Case("[\"π\"]", ["π"]), Case("[\"€𝄞\"]", ["€𝄞"]), Case("[\"⍂㈴⍂\"]", ["⍂㈴⍂"]),
        Case("[\"\u{2028}\u{2029}\"]", ["\u{2028}\u{2029}"]), Case("[\"\u{7F}\"]", ["\u{7F}"]), Case("[\"asd \"]", ["asd "]),
    ])
    func accepts(_ accepted: Case) throws {
        #expect(try parse(accepted.text) == accepted.value, "\(accepted.text)")
    }

    // MARK: n_: must be refused

    @Test(arguments: [
        // Arrays.
        "[1 true]", "[\"\": 1]", "[\"\"],", "[,1]", "[1,,2]", "[\"x\",,]", "[\"x\"]]", "[\"\",]", "[\"x\"", "[x", "[3[4]]",
        "[1:2]", "[,]", "[-]", "[   , \"\"]", "[\"a\",\n4\n,1,", "[1,]", "[1,,]", "[*]", "[\"\"", "[1,", "[1,\n1\n,1", "[{}",
        "[fals]", "[nul]", "[tru]", "[True]", "[\"a\" \"b\"]", "[\n]]", "[]]", "]", "[", "[][]", "[1]x", "[1]]",
        // Numbers.
        "[++1234]", "[+1]", "[+Inf]", "[-01]", "[-1.0.]", "[-2.]", "[-NaN]", "[.-1]", "[.2e-3]", "[0.1.2]", "[0.3e+]",
        "[0.3e]", "[0.e1]", "[0E+]", "[0E]", "[0e+]", "[0e]", "[1.0e+]", "[1.0e-]", "[1.0e]", "[1 000.0]", "[1eE2]",
        "[2.e+3]", "[2.e-3]", "[2.e3]", "[9.e+]", "[Inf]", "[NaN]", "[Infinity]", "[-Infinity]", "[\u{FF11}]", "[-foo]",
        "[- 1]", "[-012]", "[-.123]", "[-1x]", "[1ea]", "[1.]", "[.123]", "[1.2a-3]", "[1.8011670033376514H-308]", "[012]",
        "[0x1]", "[0x42]", "[1_000]", "[1e1.5]",
        // Objects.
        "{[: \"x\"}", "{\"x\", null}", "{\"x\"::\"b\"}", "{\"a\":\"a\" 123}", "{key: 'value'}", "{\"a\" b}", "{:\"b\"}",
        "{\"a\" \"b\"}", "{\"a\":", "{\"a\"", "{1:1}", "{9999E9999:1}", "{null:null,null:null}", "{\"id\":0,,,,,}",
        "{'a':0}", "{\"id\":0,}", "{\"a\":\"b\"}/**/", "{\"a\":\"b\"}//", "{\"a\":\"b\"}/", "{\"a\":\"b\",,\"c\":\"d\"}",
        "{a: \"b\"}", "{\"a\":\"a", "{ \"foo\" : \"bar\", \"a\" }", "{\"a\":\"b\"}#", "{}}", "{\"x\": true,", "{",
        "{\"a\":true} \"x\"", "{\"a\" : /* c */ 1}",
        // Strings.
        #"["\uD800\"]"#, #"["\uD800\u"]"#, #"["\uD800\u1"]"#, #"["\uD800\u1x"]"#, "[é]", "[\"\u{0}\"]", #"["\x00"]"#,
        #"["\a"]"#, #"["\uqqqq"]"#, "[\"\\𝄞\"]", "[\\u0020\"asd\"]", "\"", "['single quote']", "abc", "[\"\\", "[\"a\u{0}a\"]",
        "[\"new\nline\"]", "[\"\t\"]", "[\"\u{1F}\"]", #""\UA66D""#, "\"\"\"", #"["\u00A"]"#, #"["\u00G0"]"#,
        // Whitespace JSON does not allow, and texts that are not JSON at all.
        "", " ", "[\u{A0}1]", "[\u{C}]", "[\u{2060}]", "[\u{B}1]", "<!DOCTYPE html>", "<.>", "[<null>]", "*", "1]", "2 @",
        "[1]\u{0}", "123\u{0}", "/* comment */ 1", "// comment\n1", "[\"a\",", "(1)", "nulll", "truefalse",
    ])
    func refuses(_ text: String) {
        #expect(throws: JSONSyntaxError.self, "\(text.debugDescription) was accepted") { try parse(text) }
    }

    /// Bytes that are not UTF-8 inside and outside strings, and JSON in other encodings.
    @Test(arguments: [
        [0x5B, 0x22, 0xFF, 0x22, 0x5D],                   // ["<FF>"]: not a UTF-8 byte
        [0x5B, 0x22, 0xC0, 0xAF, 0x22, 0x5D],             // an overlong '/'
        [0x5B, 0x22, 0xED, 0xA0, 0x80, 0x22, 0x5D],       // a surrogate encoded in UTF-8
        [0x5B, 0x22, 0xE0, 0xFF, 0x22, 0x5D],             // a truncated sequence
        [0x5B, 0x22, 0xF4, 0xBF, 0xBF, 0xBF, 0x22, 0x5D], // beyond U+10FFFF
        [0x5B, 0x22, 0x81, 0x22, 0x5D],                   // a lone continuation byte
        [0x5B, 0xFF, 0x5D],                               // [<FF>]
        [0x7B, 0x22, 0xB9, 0x22, 0x3A, 0x22, 0x30, 0x22, 0x7D], // {"<B9>":"0"}: in a member name
        [0x00, 0x5B, 0x00, 0x5D],                         // UTF-16BE "[]"
        [0xFF, 0xFE, 0x5B, 0x00, 0x5D, 0x00],             // UTF-16LE with its byte-order mark
    ] as [[UInt8]])
    func refusesBytesThatAreNotUTF8(_ bytes: [UInt8]) {
        #expect(throws: JSONSyntaxError.self, "\(bytes) was accepted") { try parse(bytes) }
    }

    // MARK: i_: left to the parser; what Soundstage does, and why

    /// Numbers a `Double` cannot hold. An integer of any size is kept as its digits (request ids
    /// come back exactly); a number that would be infinite is refused rather than turned into
    /// infinity (JSON has none, and a game must never get one from a file); one that underflows
    /// is read as the nearest Double, zero, as every IEEE parser does.
    @Test func numbersBeyondADouble() throws {
        #expect(try parse("[100000000000000000000]") == [.integer("100000000000000000000")])
        #expect(try parse("[-123123123123123123123123123123]") == [.integer("-123123123123123123123123123123")])
        #expect(try parse("[9007199254740993]").encoded == "[9007199254740993]")
        for text in ["[1E400]", "[-1e400]", "[1.5e+9999]", "[123123e100000]", "[0.4e006699999999999999999999]"] {
            let error = #expect(throws: JSONSyntaxError.self, "\(text)") { try parse(text) }
            #expect(error?.message.contains("out of range") == true, "\(text): \(error?.message ?? "")")
        }
        #expect(try parse("[-1e-400]") == [0])
        #expect(try parse("[1e-400]") == [0])
        #expect(try parse("[4.9e-324]") == [.number(.leastNonzeroMagnitude)], "the smallest subnormal is kept")
    }

    /// Escapes that name half a surrogate pair are refused: the text they stand for is not
    /// Unicode, and a Swift `String` cannot hold it without silently changing it.
    @Test(arguments: [#"["\uDFAA"]"#, #"["\uD800"]"#, #"["\uD800abc"]"#, #"["\uDd1ea"]"#, #"["\uD888\u1234"]"#,
                      #"["\uDADA"]"#, #"["\uD800\uD800\n"]"#, #"["\uDd1e\uD834"]"#])
    func unpairedSurrogatesAreRefused(_ text: String) {
        let error = #expect(throws: JSONSyntaxError.self, "\(text)") { try parse(text) }
        #expect(error?.message.contains("surrogate") == true, "\(text): \(error?.message ?? "")")
    }

    /// A UTF-8 byte-order mark is refused: RFC 8259 §8.1 says a sender must not add one, and the
    /// daemon's lines and scene files never need one; the error names the first byte.
    @Test func aByteOrderMarkIsRefused() {
        let error = #expect(throws: JSONSyntaxError.self) { try parse([0xEF, 0xBB, 0xBF, 0x7B, 0x7D]) }
        #expect(error?.message.contains("at byte 0") == true, "\(error?.message ?? "")")
    }

    /// Nesting: 512 levels are read, deeper is refused before the stack is at risk (the suite's
    /// `i_structure_500_nested_arrays` is accepted; 100,000 levels are refused, not a crash).
    @Test func nestingDepth() throws {
        let deep = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        _ = try parse(deep)
        for depth in [513, 100_000] {
            let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            let error = #expect(throws: JSONSyntaxError.self) { try parse(text) }
            #expect(error?.message.contains("deeper than 512") == true)
        }
        let objects = String(repeating: #"{"a":"#, count: 600) + "1" + String(repeating: "}", count: 600)
        #expect(throws: JSONSyntaxError.self) { try parse(objects) }
    }

    /// The suite's `y_object_duplicated_key` cases are accepted by most parsers (the last copy
    /// wins); RFC 8259 only says names SHOULD be unique. Soundstage refuses them on purpose, even
    /// when both copies agree: a request or scene file that says a thing twice is a mistake, and
    /// guessing which copy was meant hides it.
    @Test(arguments: [#"{"a":"b","a":"c"}"#, #"{"a":"b","a":"b"}"#, #"{"a":1,"b":2,"a":1}"#])
    func duplicateNamesAreRefusedDeliberately(_ text: String) {
        let error = #expect(throws: JSONSyntaxError.self) { try parse(text) }
        #expect(error?.message.contains(#"duplicate member name "a""#) == true)
    }
}
