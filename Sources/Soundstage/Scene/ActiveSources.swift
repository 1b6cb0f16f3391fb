/// The sources of a scene that hold an OpenAL source (playing or paused), by identity — and the
/// same sources in an array of unretained references, so the meter update can visit every one
/// without retaining and releasing each (two atomic operations per source every 100 ms: a
/// tenth of a source meter's cost). The dictionary holds them strongly, so the array's
/// references stay valid while they are in it. Kept under the scene's lock.
struct ActiveSources: ExpressibleByDictionaryLiteral {
    /// The sources by identity.
    private(set) var byID: [ObjectIdentifier: Source] = [:]
    /// The same sources, unretained, and where each sits in that array.
    private var unretained: [Unmanaged<Source>] = []
    private var slots: [ObjectIdentifier: Int] = [:]

    /// An empty set (`[:]`).
    init(dictionaryLiteral elements: (ObjectIdentifier, Source)...) {
        for (id, source) in elements { self[id] = source }
    }

    /// The sources, in no particular order.
    var values: Dictionary<ObjectIdentifier, Source>.Values { byID.values }
    var count: Int { byID.count }
    var isEmpty: Bool { byID.isEmpty }

    /// The source with identity `id`; setting one adds it (nil removes it).
    subscript(id: ObjectIdentifier) -> Source? {
        get { byID[id] }
        set {
            guard let source = newValue else {
                removeValue(forKey: id)
                return
            }
            if byID.updateValue(source, forKey: id) == nil {
                slots[id] = unretained.count
                unretained.append(.passUnretained(source))
            } else if let slot = slots[id] {
                unretained[slot] = .passUnretained(source)
            }
        }
    }

    /// Removes the source with identity `id`, if it is here.
    mutating func removeValue(forKey id: ObjectIdentifier) {
        guard byID.removeValue(forKey: id) != nil, let slot = slots.removeValue(forKey: id) else { return }
        let last = unretained.removeLast()
        guard slot < unretained.count else { return }
        unretained[slot] = last
        slots[ObjectIdentifier(last.takeUnretainedValue())] = slot
    }

    /// Removes every source.
    mutating func removeAll() {
        byID.removeAll()
        unretained.removeAll()
        slots.removeAll()
    }

    /// Calls `body` with each source, borrowed: none is retained or released.
    func forEachBorrowed(_ body: (Source) throws -> Void) rethrows {
        for source in unretained {
            try source._withUnsafeGuaranteedRef(body)
        }
    }
}
