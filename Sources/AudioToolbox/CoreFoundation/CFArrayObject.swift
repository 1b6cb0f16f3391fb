// CFArray: an immutable list of objects, which it keeps alive (Audio File Services' lists of strings).

/// The object behind a CFArrayRef.
final class CFArrayStorage: CFObject {
    /// The items, retained by the array.
    let items: [any CFObject]

    init(_ items: [any CFObject]) { self.items = items }

    var cfDescription: String {
        "(\n" + items.map { "    " + $0.cfDescription }.joined(separator: ",\n") + "\n)"
    }

    func cfEquals(_ other: any CFObject) -> Bool {
        guard let other = other as? CFArrayStorage, other.items.count == items.count else { return false }
        return zip(items, other.items).allSatisfy { $0.cfEquals($1) }
    }
}

/// `CFArrayGetCount`.
@c(soundstage_CFArrayGetCount)
public func _CFArrayGetCount(_ theArray: UnsafeRawPointer?) -> CFIndex {
    (cfObject(theArray) as? CFArrayStorage)?.items.count ?? 0
}

/// `CFArrayGetValueAtIndex`: not retained for the caller; NULL out of range (Apple traps).
@c(soundstage_CFArrayGetValueAtIndex)
public func _CFArrayGetValueAtIndex(_ theArray: UnsafeRawPointer?, _ idx: CFIndex) -> UnsafeRawPointer? {
    guard let array = cfObject(theArray) as? CFArrayStorage, array.items.indices.contains(idx) else { return nil }
    return cfUnretained(array.items[idx])
}
