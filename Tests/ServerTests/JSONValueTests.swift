import Foundation
import SoundstageJSON
import Testing
import TestSupport

/// The protocol's JSON: strict parsing with positions in errors, and output that parses back.
@Suite struct JSONValueTests {
    private func parse(_ text: String) throws -> JSONValue { try JSONValue(parsing: Data(text.utf8)) }

    @Test func valuesParseToTheirKinds() throws {
        #expect(try parse(#" {"a": [1, -2.5e3, true, false, null, "x"], "b": {}} "#)
                == ["a": [1, -2500, true, false, nil, "x"], "b": [:]])
        #expect(try parse("1") == .number(1))
        #expect(try parse("true") == .bool(true), "a Boolean is never a number")
        #expect(try parse("0.1") == .number(0.1))
        #expect(try parse("-0") == .number(0))
        #expect(try parse("1e-7") == .number(1e-7))
        // A duplicate member name is refused (where it is), at any depth: one copy must not hide another.
        for text in [#"{"k": 1, "k": 2}"#, #"{"a": {"k": 1, "k": 1}}"#, #"[{"x": 0, "y": 1, "x": 2}]"#] {
            do {
                _ = try parse(text)
                Issue.record("accepted \(text)")
            } catch {
                #expect("\(error)".contains("duplicate member name"), "\(error)")
            }
        }
        #expect(try parse(#"{"k": 1, "K": 2, "k2": 3}"#) == ["k": 1, "K": 2, "k2": 3], "names differing by case or suffix are distinct")
    }

    @Test func escapesAndUnicode() throws {
        #expect(try parse(#""a\"b\\c\/d\b\f\n\r\t""#) == .string("a\"b\\c/d\u{8}\u{C}\n\r\t"))
        #expect(try parse(#""\u00e9\u20AC\ud83d\ude00""#) == .string("é€😀"))
        #expect(try parse("\"héllo ✓\"") == .string("héllo ✓"))
    }

    @Test(arguments: [
        ("", "end of the text"), ("{", "member name"), ("{\"a\" 1}", "':'"), ("{\"a\":1,}", "member name"),
        ("[1,]", "JSON value"), ("[1 2]", "',' or ']'"), ("01", "unexpected data"), ("1.", "decimal point"),
        (".5", "JSON value"), ("+1", "JSON value"), ("NaN", "JSON value"), ("1e400", "out of range"),
        ("\"abc", "unterminated"), ("\"a\u{01}b\"", "control character"), ("\"\\ud800\"", "surrogate"),
        ("\"\\x\"", "unknown escape"), ("tru", "expected true"), ("{} x", "unexpected data"),
        (String(repeating: "[", count: 600), "deeper than 512"),
    ])
    func malformedTextIsRefusedWithWhatWasExpected(_ text: String, _ expected: String) {
        let error = #expect(throws: JSONSyntaxError.self) { try parse(text) }
        #expect(error?.message.contains(expected) == true, "\(text): \(error?.message ?? "no error")")
    }

    @Test func invalidUTF8IsRefused() {
        #expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: [0x22, 0xC3, 0x28, 0x22]) }
    }

    @Test func encodedTextParsesBackToTheSameValue() throws {
        var random = SplitMix64(seed: 7)
        func make(_ depth: Int) -> JSONValue {
            switch random.next() % (depth > 3 ? 4 : 6) {
            case 0: return .null
            case 1: return .bool(random.next() % 2 == 0)
            case 2: return .number(Double(Int64(bitPattern: random.next()) % 1_000_000) / 64)
            case 3: return .string(String((0..<Int(random.next() % 8)).map { _ in
                ["a", "\"", "\\", "\n", "\u{1}", "é", "😀", " "][Int(random.next() % 8)] }))
            case 4: return .array((0..<Int(random.next() % 4)).map { _ in make(depth + 1) })
            default: return .object(Dictionary((0..<Int(random.next() % 4)).map { ("k\($0)", make(depth + 1)) },
                                               uniquingKeysWith: { a, _ in a }))
            }
        }
        for _ in 0..<500 {
            let value = make(0)
            let text = value.encoded
            #expect(!text.contains("\n"), "one line")
            #expect(try parse(text) == value, "\(text)")
        }
    }
}

/// Request ids come back exactly as they were sent: integers of any size, strings as strings.
@Suite struct ExactIDTests {
    @Test func integersBeyondADoubleAreKeptDigitForDigit() throws {
        for text in ["9007199254740993", "12345678901234567", "-9007199254740993", "1" + String(repeating: "0", count: 400)] {
            let value = try JSONValue(parsing: Data(text.utf8))
            #expect(value.encoded == text, "\(text) → \(value.encoded)")
            #expect(value.kind == "a number")
        }
        // Within 2^53 they stay ordinary numbers.
        #expect(try JSONValue(parsing: Data("9007199254740991".utf8)) == .number(9_007_199_254_740_991))
        #expect(throws: (any Error).self, "a huge non-integer is still out of range") { try JSONValue(parsing: Data("1e400".utf8)) }
    }

    @Test func theDaemonEchoesEveryIdExactly() throws {
        let daemon = try TestDaemon()
        defer { daemon.stop() }
        let client = try daemon.connect()
        for id in ["9007199254740993", "12345678901234567", "-1", "0", "7", "\"9007199254740993\"", "\"\"", "1.5"] {
            client.send("{\"id\":\(id),\"command\":\"ping\"}\n")
            let line = try #require(client.readLine(), "no answer for id \(id)")
            #expect(line.contains("\"id\":\(id)"), "\(id) came back as \(line)")
        }
        // And in the error answer of a request that fails.
        client.send("{\"id\":12345678901234567,\"command\":\"fly\"}\n")
        #expect(client.readLine()?.contains("\"id\":12345678901234567") == true)
    }
}

extension JSONValueTests {
    /// A request that names a member twice is refused with `badJSON`, naming the member: the
    /// daemon never guesses which `command` was meant.
    @Test func aRequestWithADuplicateMemberIsRefused() throws {
        let daemon = try TestDaemon()
        defer { daemon.stop() }
        let client = try daemon.connect()
        client.send(#"{"id": 7, "command": "ping", "command": "status"}"# + "\n")
        let answer = try #require(client.response())
        #expect(answer["ok"] == false)
        let message = answer["error"]?["message"]?.stringValue ?? ""
        #expect(message.contains(#"duplicate member name "command""#), "\(answer.encoded)")
        #expect(client.request(["id": 8, "command": "ping"])?.isOK == true, "the connection goes on")
    }
}
