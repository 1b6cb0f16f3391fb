// CFDictionary: an immutable dictionary of objects, kept alive by it (Audio File Services' info
// dictionary). Keys are compared as CFEqual does; the entries keep the order they were made in.

/// The object behind a CFDictionaryRef.
final class CFDictionaryStorage: CFObject {
    /// The entries, retained by the dictionary.
    let entries: [(key: any CFObject, value: any CFObject)]

    init(_ entries: [(key: any CFObject, value: any CFObject)]) { self.entries = entries }

    /// A dictionary of strings.
    convenience init(strings: [(String, String)]) {
        self.init(strings.map { (CFStringStorage($0.0) as any CFObject, CFStringStorage($0.1) as any CFObject) })
    }

    var cfDescription: String {
        "{\n" + entries.map { "    " + $0.key.cfDescription + " = " + $0.value.cfDescription + ";" }.joined(separator: "\n") + "\n}"
    }

    func cfEquals(_ other: any CFObject) -> Bool {
        guard let other = other as? CFDictionaryStorage, other.entries.count == entries.count else { return false }
        return entries.allSatisfy { entry in other.value(for: entry.key).map { $0.cfEquals(entry.value) } ?? false }
    }

    /// The value whose key equals `key`.
    func value(for key: any CFObject) -> (any CFObject)? {
        entries.first { $0.key === key || $0.key.cfEquals(key) }?.value
    }
}

/// `CFDictionaryGetCount`.
@c(soundstage_CFDictionaryGetCount)
public func _CFDictionaryGetCount(_ theDict: UnsafeRawPointer?) -> CFIndex {
    (cfObject(theDict) as? CFDictionaryStorage)?.entries.count ?? 0
}

/// `CFDictionaryGetValue`: not retained for the caller.
@c(soundstage_CFDictionaryGetValue)
public func _CFDictionaryGetValue(_ theDict: UnsafeRawPointer?, _ key: UnsafeRawPointer?) -> UnsafeRawPointer? {
    guard let dictionary = cfObject(theDict) as? CFDictionaryStorage, let key = cfObject(key) else { return nil }
    return dictionary.value(for: key).map(cfUnretained)
}

/// `CFDictionaryContainsKey`.
@c(soundstage_CFDictionaryContainsKey)
public func _CFDictionaryContainsKey(_ theDict: UnsafeRawPointer?, _ key: UnsafeRawPointer?) -> UInt8 {
    _CFDictionaryGetValue(theDict, key) != nil ? 1 : 0
}

/// `CFDictionaryGetValueIfPresent`.
@c(soundstage_CFDictionaryGetValueIfPresent)
public func _CFDictionaryGetValueIfPresent(_ theDict: UnsafeRawPointer?, _ key: UnsafeRawPointer?,
                                           _ value: UnsafeMutablePointer<UnsafeRawPointer?>?) -> UInt8 {
    guard let found = _CFDictionaryGetValue(theDict, key) else { return 0 }
    value?.pointee = found
    return 1
}

/// `CFDictionaryGetKeysAndValues`: each array must hold CFDictionaryGetCount entries.
@c(soundstage_CFDictionaryGetKeysAndValues)
public func _CFDictionaryGetKeysAndValues(_ theDict: UnsafeRawPointer?, _ keys: UnsafeMutablePointer<UnsafeRawPointer?>?,
                                          _ values: UnsafeMutablePointer<UnsafeRawPointer?>?) {
    guard let dictionary = cfObject(theDict) as? CFDictionaryStorage else { return }
    for (index, entry) in dictionary.entries.enumerated() {
        keys?[index] = cfUnretained(entry.key)
        values?[index] = cfUnretained(entry.value)
    }
}
