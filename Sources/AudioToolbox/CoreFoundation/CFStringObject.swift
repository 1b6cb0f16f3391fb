// CFString: an immutable Swift string with its UTF-8 bytes kept NUL-terminated beside it, so
// CFStringGetCStringPtr can hand them out for as long as the string lives.
import NIOConcurrencyHelpers

/// The object behind a CFStringRef.
final class CFStringStorage: CFObject, @unchecked Sendable {
    // @unchecked: `cString` is written once, in init, and only read afterwards; it is freed in deinit.
    /// The characters.
    let value: String
    /// The UTF-8 bytes and a NUL, owned by this object.
    let cString: UnsafeMutablePointer<CChar>
    /// The length in UTF-16 code units (CFStringGetLength).
    let utf16Count: Int
    /// Whether CFSTR made it: CFRetain and CFRelease leave it alone, so it is never freed.
    let isConstant: Bool

    init(_ value: String, constant: Bool = false) {
        isConstant = constant
        self.value = value
        let utf8 = Array(value.utf8)
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: utf8.count + 1)
        for (index, byte) in utf8.enumerated() { buffer[index] = CChar(bitPattern: byte) }
        buffer[utf8.count] = 0
        cString = buffer
        utf16Count = value.utf16.count
    }

    deinit { cString.deallocate() }

    var cfDescription: String { value }

    func cfEquals(_ other: any CFObject) -> Bool {
        (other as? CFStringStorage)?.value == value
    }
}

/// The strings CFSTR made: one per text, never freed.
private let constantStrings = NIOLockedValueBox<[String: CFStringStorage]>([:])   // not Mutex: see OpenAudioFile

/// The string behind a CFStringRef, or nil.
func cfString(_ pointer: UnsafeRawPointer?) -> String? {
    (cfObject(pointer) as? CFStringStorage)?.value
}

/// A new CFStringRef for C, owned by the caller.
func cfNewString(_ value: String) -> UnsafeRawPointer {
    cfRetained(CFStringStorage(value))
}

/// The text of `bytes` in `encoding`, or nil when they are not valid in it or the encoding is not one
/// Soundstage converts (UTF-8, ASCII, ISO Latin 1, and MacRoman/Windows Latin 1 in their ASCII half).
func decodeCFString(_ bytes: UnsafeBufferPointer<UInt8>, encoding: CFStringEncoding) -> String? {
    switch encoding {
    case CFStringBuiltInEncodings.UTF8.rawValue:
        return String(validating: bytes, as: UTF8.self)
    case CFStringBuiltInEncodings.ASCII.rawValue, CFStringBuiltInEncodings.macRoman.rawValue,
         CFStringBuiltInEncodings.windowsLatin1.rawValue, CFStringBuiltInEncodings.nextStepLatin.rawValue:
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    case CFStringBuiltInEncodings.isoLatin1.rawValue:
        return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    default:
        return nil
    }
}

/// The bytes of `value` in `encoding`, or nil when it cannot be encoded so.
func encodeCFString(_ value: String, encoding: CFStringEncoding) -> [UInt8]? {
    switch encoding {
    case CFStringBuiltInEncodings.UTF8.rawValue:
        return Array(value.utf8)
    case CFStringBuiltInEncodings.ASCII.rawValue, CFStringBuiltInEncodings.macRoman.rawValue,
         CFStringBuiltInEncodings.windowsLatin1.rawValue, CFStringBuiltInEncodings.nextStepLatin.rawValue:
        let bytes = Array(value.utf8)
        return bytes.allSatisfy { $0 < 0x80 } ? bytes : nil
    case CFStringBuiltInEncodings.isoLatin1.rawValue:
        var bytes: [UInt8] = []
        for scalar in value.unicodeScalars {
            guard scalar.value < 0x100 else { return nil }
            bytes.append(UInt8(scalar.value))
        }
        return bytes
    default:
        return nil
    }
}

/// `__CFStringMakeConstantString`, what `CFSTR("...")` expands to: the interned string for these
/// UTF-8 bytes, made on first use and never freed.
@c(soundstage___CFStringMakeConstantString)
public func _CFStringMakeConstantString(_ cStr: UnsafePointer<CChar>?) -> UnsafeRawPointer? {
    guard let cStr else { return nil }
    let text = String(decoding: UnsafeRawBufferPointer(start: cStr, count: strlen(cStr)).bindMemory(to: UInt8.self), as: UTF8.self)
    let storage = constantStrings.withLockedValue { table in
        if let existing = table[text] { return existing }
        let made = CFStringStorage(text, constant: true)
        table[text] = made
        return made
    }
    return cfUnretained(storage)
}

/// `CFStringCreateWithCString`.
@c(soundstage_CFStringCreateWithCString)
public func _CFStringCreateWithCString(_ alloc: UnsafeRawPointer?, _ cStr: UnsafePointer<CChar>?,
                                       _ encoding: CFStringEncoding) -> UnsafeRawPointer? {
    guard let cStr else { return nil }
    return cStr.withMemoryRebound(to: UInt8.self, capacity: strlen(cStr)) { bytes in
        decodeCFString(UnsafeBufferPointer(start: bytes, count: strlen(cStr)), encoding: encoding).map(cfNewString)
    }
}

/// `CFStringCreateWithBytes`.
@c(soundstage_CFStringCreateWithBytes)
public func _CFStringCreateWithBytes(_ alloc: UnsafeRawPointer?, _ bytes: UnsafePointer<UInt8>?, _ numBytes: CFIndex,
                                     _ encoding: CFStringEncoding, _ isExternalRepresentation: UInt8) -> UnsafeRawPointer? {
    guard numBytes >= 0, bytes != nil || numBytes == 0 else { return nil }
    return decodeCFString(UnsafeBufferPointer(start: bytes, count: numBytes), encoding: encoding).map(cfNewString)
}

/// `CFStringCreateCopy`: strings are immutable, so the same string, retained.
@c(soundstage_CFStringCreateCopy)
public func _CFStringCreateCopy(_ alloc: UnsafeRawPointer?, _ theString: UnsafeRawPointer?) -> UnsafeRawPointer? {
    guard cfObject(theString) is CFStringStorage else { return nil }
    return _CFRetain(theString)
}

/// `CFStringGetLength`: UTF-16 code units.
@c(soundstage_CFStringGetLength)
public func _CFStringGetLength(_ theString: UnsafeRawPointer?) -> CFIndex {
    (cfObject(theString) as? CFStringStorage)?.utf16Count ?? 0
}

/// `CFStringGetCString`.
@c(soundstage_CFStringGetCString)
public func _CFStringGetCString(_ theString: UnsafeRawPointer?, _ buffer: UnsafeMutablePointer<CChar>?,
                                _ bufferSize: CFIndex, _ encoding: CFStringEncoding) -> UInt8 {
    guard let buffer, bufferSize > 0 else { return 0 }
    guard let value = cfString(theString), let bytes = encodeCFString(value, encoding: encoding),
          bytes.count < bufferSize else {
        buffer[0] = 0
        return 0
    }
    for (index, byte) in bytes.enumerated() { buffer[index] = CChar(bitPattern: byte) }
    buffer[bytes.count] = 0
    return 1
}

/// `CFStringGetCStringPtr`: the string's own bytes for UTF-8 (and ASCII when it is ASCII), else NULL.
@c(soundstage_CFStringGetCStringPtr)
public func _CFStringGetCStringPtr(_ theString: UnsafeRawPointer?, _ encoding: CFStringEncoding) -> UnsafePointer<CChar>? {
    guard let storage = cfObject(theString) as? CFStringStorage else { return nil }
    switch encoding {
    case CFStringBuiltInEncodings.UTF8.rawValue:
        return UnsafePointer(storage.cString)
    case CFStringBuiltInEncodings.ASCII.rawValue:
        return storage.value.utf8.allSatisfy({ $0 < 0x80 }) ? UnsafePointer(storage.cString) : nil
    default:
        return nil
    }
}

/// `CFStringGetMaximumSizeForEncoding`: 3 bytes a UTF-16 unit in UTF-8, 1 in the single-byte encodings.
@c(soundstage_CFStringGetMaximumSizeForEncoding)
public func _CFStringGetMaximumSizeForEncoding(_ length: CFIndex, _ encoding: CFStringEncoding) -> CFIndex {
    guard length >= 0 else { return 0 }
    switch encoding {
    case CFStringBuiltInEncodings.UTF8.rawValue: return length.multipliedReportingOverflow(by: 3).overflow ? CFIndex.max : length * 3
    case CFStringBuiltInEncodings.UTF16.rawValue, CFStringBuiltInEncodings.UTF16BE.rawValue,
         CFStringBuiltInEncodings.UTF16LE.rawValue: return length.multipliedReportingOverflow(by: 2).overflow ? CFIndex.max : length * 2
    case CFStringBuiltInEncodings.UTF32.rawValue, CFStringBuiltInEncodings.UTF32BE.rawValue,
         CFStringBuiltInEncodings.UTF32LE.rawValue: return length.multipliedReportingOverflow(by: 4).overflow ? CFIndex.max : length * 4
    default: return length
    }
}

/// `CFStringCompare`: by Unicode scalars; `kCFCompareCaseInsensitive` folds ASCII letters.
@c(soundstage_CFStringCompare)
public func _CFStringCompare(_ theString1: UnsafeRawPointer?, _ theString2: UnsafeRawPointer?,
                             _ compareOptions: CFStringCompareFlags) -> CFComparisonResult {
    var a = Array((cfString(theString1) ?? "").unicodeScalars.map(\.value))
    var b = Array((cfString(theString2) ?? "").unicodeScalars.map(\.value))
    if compareOptions.contains(.compareCaseInsensitive) {
        func fold(_ v: UInt32) -> UInt32 { (0x41...0x5A).contains(v) ? v + 0x20 : v }
        a = a.map(fold)
        b = b.map(fold)
    }
    if a.lexicographicallyPrecedes(b) { return .compareLessThan }
    if b.lexicographicallyPrecedes(a) { return .compareGreaterThan }
    return .compareEqualTo
}
