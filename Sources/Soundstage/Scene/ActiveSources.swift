/// The sources of a scene that hold an OpenAL source (playing or paused), by identity — and the
/// same sources in an array of unretained references, so the meter update can visit every one
/// without retaining and releasing each (two atomic operations per source every 100 ms: a
/// tenth of a source meter's cost). The dictionary holds them strongly, so the array's
/// references stay valid while they are in it. Kept under the scene's lock.
///
/// It also lists which of them have properties set since the last mix and not yet written to
/// OpenAL (``noteUnwritten(_:_:)``, ``writeUnwritten(_:)``): a source leaves that list when it
/// leaves the set, so the list's unretained references are valid too.
struct ActiveSources: ExpressibleByDictionaryLiteral {
    /// The sources by identity.
    private(set) var byID: [ObjectIdentifier: Source] = [:]
    /// The same sources, unretained, and where each sits in that array.
    private var unretained: [Unmanaged<Source>] = []
    private var slots: [ObjectIdentifier: Int] = [:]
    /// The sources whose ``Source/unwrittenParameters`` are not empty, each once.
    private var unwritten: [Unmanaged<Source>] = []
    /// How many of them have two properties or more waiting.
    private var severalWaiting = 0

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
        guard let source = byID.removeValue(forKey: id), let slot = slots.removeValue(forKey: id) else { return }
        let waiting = source.unwrittenParameters
        if waiting != 0 {
            // Its OpenAL source goes back to the pool: nothing of it is left to write.
            if Self.several(waiting) { severalWaiting -= 1 }
            source.unwrittenParameters = 0
            if let index = unwritten.lastIndex(where: { $0.toOpaque() == Unmanaged.passUnretained(source).toOpaque() }) {
                unwritten.remove(at: index)
            }
        }
        let last = unretained.removeLast()
        guard slot < unretained.count else { return }
        unretained[slot] = last
        slots[ObjectIdentifier(last.takeUnretainedValue())] = slot
    }

    /// Removes every source.
    mutating func removeAll() {
        dropUnwritten()
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

    // MARK: Properties not yet written to OpenAL

    /// Whether some source has properties waiting for the next mix.
    var hasUnwritten: Bool { !unwritten.isEmpty }

    /// Notes that `source` (one of these: it holds an OpenAL source) has `bits` set since the last
    /// mix (``SourceParameter/bit``). Returns true when it is the first source since then.
    @inline(__always)
    mutating func noteUnwritten(_ source: Source, _ bits: UInt16) -> Bool {
        let waiting = source.unwrittenParameters, now = waiting | bits
        source.unwrittenParameters = now
        if !Self.several(waiting) && Self.several(now) { severalWaiting += 1 }
        guard waiting == 0 else { return false }
        unwritten.append(.passUnretained(source))
        return unwritten.count == 1
    }

    /// Whether `bits` holds two parameters or more (x & (x - 1) is x without its lowest bit).
    @inline(__always)
    private static func several(_ bits: UInt16) -> Bool { bits & (bits &- 1) != 0 }

    /// Whether the writes should be made inside OpenAL's own deferral (`alDeferUpdatesSOFT` …
    /// `alProcessUpdatesSOFT`): OpenAL Soft then prepares each source's mixing parameters once,
    /// not once per write — a gain when a quarter of the sources or more have several properties
    /// waiting (position and velocity: engine/raw 1.04 instead of 1.05). Its processing visits
    /// every voice, so with one property each it costs more (1.06 instead of 1.05).
    var writesCoalesce: Bool { severalWaiting * 4 >= byID.count && severalWaiting > 0 }

    /// Writes every waiting property of every listed source to its OpenAL source, and empties the
    /// list. OpenAL's error is read once, after them all.
    mutating func writeUnwritten(_ al: borrowing ALCalls) {
        guard !unwritten.isEmpty else { return }
        al.must("alSource* (the properties set since the last mix)") {
            for listed in unwritten {
                listed._withUnsafeGuaranteedRef { source in
                    let bits = source.unwrittenParameters
                    source.unwrittenParameters = 0
                    guard let name = source.state.name else { return }
                    // A moved source (what a frame mostly changes) is one call, not the table's walk.
                    if bits == SourceParameter.position.bit {
                        SourceParameter.sendPosition(to: name, source.state.properties.position)
                    } else {
                        SourceParameter.send(bits, to: name, source.state.properties)
                    }
                }
            }
        }
        unwritten.removeAll(keepingCapacity: true)
        severalWaiting = 0
    }

    /// Empties the list without writing (the scene's context is gone).
    mutating func dropUnwritten() {
        for listed in unwritten { listed._withUnsafeGuaranteedRef { $0.unwrittenParameters = 0 } }
        unwritten.removeAll()
        severalWaiting = 0
    }
}
