import FuzzSupport
import SoundstageJSON

// The JSON reader (scene files and the daemon's protocol share it): any bytes parse or throw a
// syntax error, and what parses writes back as JSON that parses to the same value and writes
// the same text again.

@main struct FuzzJSON {
    static func main() { Fuzzing.main(testOneInput) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Fuzzing.bytes(data, size)
    guard let value = try? JSONValue(parsing: bytes) else { return 0 }
    var text = ""
    value.write(to: &text)
    let again: JSONValue
    do {
        again = try JSONValue(parsing: Array(text.utf8))
    } catch {
        Fuzzing.require(false, "what the reader parsed writes back as JSON it refuses: \(text.prefix(200)) (\(error))")
        return 0
    }
    Fuzzing.require(again == value, "a value changed on its way through writing: \(text.prefix(200))")
    var second = ""
    again.write(to: &second)
    Fuzzing.require(second == text, "writing is not deterministic: \(text.prefix(200)) vs \(second.prefix(200))")
    return 0
}
