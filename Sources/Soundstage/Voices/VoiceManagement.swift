import Foundation

/// At most `maxVoices` sources that share this limit play at once ("at most 4 footsteps"); a
/// play beyond it steals a voice by `policy`. Create with ``Scene/makeVoiceLimit(_:maxVoices:steal:)``
/// and put sources under it with ``Source/voiceLimit``. Counts real and virtual voices alike.
public final class VoiceLimit: Sendable {
    /// Which playing source a new play replaces when the limit is full.
    public enum StealPolicy: String, Sendable, CaseIterable {
        /// The one that started first.
        case oldest
        /// The one with the lowest ``Source/audibility``.
        case quietest
        /// The one farthest from the listener.
        case farthest
        /// None: the new play is refused with `.voiceLimitReached`.
        case none
    }

    /// A name for people.
    public let name: String
    /// How many may play at once (≥ 1).
    public let maxVoices: Int
    /// What a play beyond the limit does.
    public let policy: StealPolicy

    init(name: String, maxVoices: Int, policy: StealPolicy) {
        self.name = name
        self.maxVoices = maxVoices
        self.policy = policy
    }
}

/// Something the voice manager did to a source.
public struct VoiceEvent: Sendable {
    /// What happened.
    public enum Kind: String, Sendable {
        /// A new play under a full ``VoiceLimit`` stopped it.
        case stolen
        /// It lost its OpenAL source to louder or more important ones; its clock runs on.
        case virtualized
        /// It got an OpenAL source back and plays on at its clock's offset.
        case realized
    }

    /// What happened.
    public let kind: Kind
    /// To which source.
    public let source: Source
}

/// Counters of a scene's voice manager (``Scene/voiceStatistics``).
public struct VoiceStatistics: Sendable, Equatable {
    /// Playing sources that hold an OpenAL source now.
    public var realVoices = 0
    /// Playing sources without one (their clocks run).
    public var virtualVoices = 0
    /// Voices stolen by ``VoiceLimit``s.
    public var steals = 0
    /// Times a real voice became virtual.
    public var virtualizations = 0
    /// Times a virtual voice became real.
    public var realizations = 0
    /// Engine updates that ranked voices, and the time they took.
    public var updates = 0
    /// The last ranking's cost, in microseconds.
    public var lastUpdateMicroseconds = 0.0
    /// The costliest ranking so far.
    public var peakUpdateMicroseconds = 0.0
    /// All rankings together, in microseconds (divide by ``updates`` for the mean).
    public var totalUpdateMicroseconds = 0.0
    /// Of ``totalUpdateMicroseconds``, the part spent choosing (computing every voice's key and
    /// selecting the top ones); the rest is OpenAL work for the voices that changed.
    public var totalSelectionMicroseconds = 0.0

    /// Zeroes.
    public init() {}
}

/// A virtual voice's playback clock: the offset it had when it last resumed (or started) and
/// the mix time then (nil while paused).
struct VirtualClock {
    var offset: Double
    var since: Double?

    func offset(at now: Double, rate: Double) -> Double {
        offset + (since.map { max(0, now - $0) } ?? 0) * rate
    }
}

/// A managed voice's ranking inputs, as ``Source/syncVoiceLocked(_:)`` hands them to the table.
struct VoiceRow {
    var properties: Source.Properties
    var priority: Int
    var spatialized: Bool
    var playing: Bool
    var virtual: Bool
    /// Mix time at which a playing virtual voice's clock passes the end of its sound (infinity
    /// when it loops, is paused or is real).
    var endsAt: Double
}

/// The managed voices — sources of a voice-managing scene that hold an OpenAL source or a
/// virtual clock, except streams — with their ranking inputs in columns (one contiguous array
/// per value), so a ranking of thousands of voices streams through memory in order instead of
/// visiting thousands of `Source` objects (a cache miss each: most of the cost it used to have).
/// A source's row is rewritten from its state (``Source/syncVoiceLocked(_:)``) whenever that
/// state changes under the scene's lock.
struct VoiceTable {
    struct Flags: OptionSet {
        let rawValue: UInt8
        static let playing = Flags(rawValue: 1)
        static let virtual = Flags(rawValue: 2)
        static let spatialized = Flags(rawValue: 4)
        static let headRelative = Flags(rawValue: 8)
        /// A cone that can change its level: ranked through the full formula.
        static let cone = Flags(rawValue: 16)
    }

    private(set) var members: [Source] = []
    private(set) var flags: [Flags] = []
    private(set) var x: [Float] = [], y: [Float] = [], z: [Float] = []
    /// gain × groups × fade.
    private(set) var level: [Float] = []
    private(set) var reference: [Float] = [], maxDistance: [Float] = [], rolloff: [Float] = []
    private(set) var minGain: [Float] = [], maxGain: [Float] = []
    /// 1 where the position is in the world (the listener's is subtracted), 0 where head-relative.
    private(set) var world: [Float] = []
    /// 1 where the distance model and cone apply (mono sources), 0 elsewhere.
    private(set) var spatial: [Float] = []
    /// The priority (exact as a float: priorities are within ±1,000,000) and "playing" (1/0).
    private(set) var priority: [Float] = [], playing: [Float] = []
    /// Playing rows, and of those the real and the virtual ones (kept as rows change).
    private(set) var playingCount = 0, realPlayingCount = 0, virtualPlayingCount = 0
    private(set) var endsAt: [Double] = []
    /// Everything, for the rare rows with a cone.
    private(set) var properties: [Source.Properties] = []

    var count: Int { members.count }
    /// Rows with a finite ``endsAt`` (virtual voices that will end): none → no scan for ends.
    private(set) var endingCount = 0

    /// Appends a row; returns its index.
    mutating func append(_ row: VoiceRow, for source: Source) -> Int {
        members.append(source)
        flags.append([]); x.append(0); y.append(0); z.append(0); level.append(0)
        reference.append(0); maxDistance.append(0); rolloff.append(0); minGain.append(0); maxGain.append(0)
        priority.append(0); playing.append(0); endsAt.append(.infinity); properties.append(row.properties)
        world.append(1); spatial.append(1)
        update(members.count - 1, row)
        return members.count - 1
    }

    mutating func update(_ index: Int, _ row: VoiceRow) {
        let p = row.properties
        count(flags[index], -1)
        var f: Flags = []
        if row.playing { f.insert(.playing) }
        if row.virtual { f.insert(.virtual) }
        if row.spatialized { f.insert(.spatialized) }
        if p.headRelative { f.insert(.headRelative) }
        if Source.hasCone(p) { f.insert(.cone) }
        flags[index] = f
        count(f, 1)
        playing[index] = row.playing ? 1 : 0
        priority[index] = Float(row.priority)
        x[index] = p.position.x; y[index] = p.position.y; z[index] = p.position.z
        level[index] = p.openALGain
        reference[index] = p.referenceDistance; maxDistance[index] = p.maxDistance; rolloff[index] = p.rolloffFactor
        minGain[index] = p.minGain; maxGain[index] = p.maxGain
        world[index] = p.headRelative ? 0 : 1
        spatial[index] = row.spatialized ? 1 : 0
        endingCount += (row.endsAt.isFinite ? 1 : 0) - (endsAt[index].isFinite ? 1 : 0)
        endsAt[index] = row.endsAt
        properties[index] = p
    }

    /// Removes row `index` by moving the last row into it; returns the source that moved (whose
    /// index is now `index`), if any.
    mutating func remove(at index: Int) -> Source? {
        let last = members.count - 1
        count(flags[index], -1)
        if endsAt[index].isFinite { endingCount -= 1 }
        func move<T>(_ column: inout [T]) {
            if index != last { column[index] = column[last] }
            column.removeLast()
        }
        move(&members); move(&flags); move(&x); move(&y); move(&z); move(&level)
        move(&reference); move(&maxDistance); move(&rolloff); move(&minGain); move(&maxGain)
        move(&priority); move(&playing); move(&endsAt); move(&properties); move(&world); move(&spatial)
        return index != last ? members[index] : nil
    }

    /// Adds (`sign` 1) or takes away (−1) a row's flags from the playing counts.
    private mutating func count(_ f: Flags, _ sign: Int) {
        guard f.contains(.playing) else { return }
        playingCount += sign
        if f.contains(.virtual) { virtualPlayingCount += sign } else { realPlayingCount += sign }
    }

    /// How many rows play as real voices, how many play at all, and whether any plays virtually.
    func census() -> (realPlaying: Int, playing: Int, anyVirtual: Bool) {
        (realPlayingCount, playingCount, virtualPlayingCount > 0)
    }

    /// Appends every playing row whose key is at least `threshold` to `chosen`, comparing eight
    /// rows at a time: a key is `priority × 1024 + min(audibility, 1000)`, so it is at least the
    /// threshold's exactly when its priority is higher, or equal with an audibility at least the
    /// threshold's — the same answer as comparing the keys.
    func gather(atLeast threshold: Double, _ audibility: [Float], into chosen: inout [VoiceSelection.Entry]) {
        let n = members.count
        let thresholdPriority = (threshold / 1_024).rounded(.down)
        let thresholdAudibility = threshold - thresholdPriority * 1_024
        let tp = SIMD8<Float>(repeating: Float(thresholdPriority)), ta = SIMD8<Float>(repeating: Float(thresholdAudibility))
        let cap = SIMD8<Float>(repeating: 1_000), zero = SIMD8<Float>(repeating: 0)
        func load(_ column: [Float], _ i: Int) -> SIMD8<Float> {
            column.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<Float>.self) }
        }
        func take(_ index: Int) {
            let key = Source.rankKey(priority: Double(priority[index]), audibility: audibility[index])
            if key >= threshold { chosen.append(VoiceSelection.Entry(key: key, row: index)) }
        }
        var i = 0
        while i + 8 <= n {
            let p = load(priority, i)
            let a = load(audibility, i)
            let capped = a.replacing(with: cap, where: cap .< a)
            let above = (p .> tp) .| ((p .== tp) .& (capped .>= ta))
            let hit = above .& (load(playing, i) .> zero)
            if any(hit) {
                for lane in 0..<8 where hit[lane] { take(i + lane) }
            }
            i += 8
        }
        for index in i..<n where flags[index].contains(.playing) { take(index) }
    }

    /// Every row's ``Source/audibility`` into `out` (resized to the table), eight rows at a time
    /// with SIMD for the distance models whose gain is plain arithmetic — the same operations in
    /// the same order as ``Source/audibility(level:distance:reference:maxDistance:rolloff:coneFactor:minGain:maxGain:model:listenerGain:)``,
    /// so the results are identical — and row by row for the exponent models and rows with a cone.
    func audibilities(_ model: DistanceModel, _ listener: Listener.Properties, into out: inout [Float]) {
        let n = members.count
        out.removeAll(keepingCapacity: true)
        out.append(contentsOf: repeatElement(0, count: n))
        let listenerGain = listener.gain * listener.duck
        let vectorized: Bool
        switch model {
        case .none, .inverse, .inverseClamped, .linear, .linearClamped: vectorized = true
        case .exponent, .exponentClamped: vectorized = false
        }
        var start = 0
        if vectorized {
            let lx = SIMD8<Float>(repeating: listener.position.x), ly = SIMD8<Float>(repeating: listener.position.y)
            let lz = SIMD8<Float>(repeating: listener.position.z), lg = SIMD8<Float>(repeating: listenerGain)
            let one = SIMD8<Float>(repeating: 1), zero = SIMD8<Float>(repeating: 0)
            func load(_ column: [Float], _ i: Int) -> SIMD8<Float> {
                column.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<Float>.self) }
            }
            out.withUnsafeMutableBytes { result in
                var i = 0
                while i + 8 <= n {
                    let w = load(world, i)
                    let dx = load(x, i) - w * lx, dy = load(y, i) - w * ly, dz = load(z, i) - w * lz
                    var d = (dx * dx + dy * dy + dz * dz).squareRoot()
                    let ref = load(reference, i), far = load(maxDistance, i), roll = load(rolloff, i)
                    var gain = one
                    switch model {
                    case .none:
                        break
                    case .inverse, .inverseClamped:
                        if model == .inverseClamped { d = ref.replacing(with: d.replacing(with: far, where: far .< d), where: ref .< d.replacing(with: far, where: far .< d)) }
                        let denominator = ref + roll * (d - ref)
                        gain = (ref / denominator).replacing(with: one, where: .!(denominator .> zero))
                    case .linear, .linearClamped:
                        if model == .linearClamped { d = ref.replacing(with: d.replacing(with: far, where: far .< d), where: ref .< d.replacing(with: far, where: far .< d)) }
                        let dd = d.replacing(with: far, where: far .< d)
                        let linear = one - roll * (dd - ref) / (far - ref)
                        gain = linear.replacing(with: zero, where: linear .< zero).replacing(with: one, where: far .== ref)
                    case .exponent, .exponentClamped:
                        break
                    }
                    var level = load(self.level, i)
                    level = level.replacing(with: level * gain, where: load(spatial, i) .> zero)
                    let clamped = level.replacing(with: load(minGain, i), where: level .< load(minGain, i))
                    let audible = clamped.replacing(with: load(maxGain, i), where: load(maxGain, i) .< clamped) * lg
                    result.storeBytes(of: audible, toByteOffset: i * 4, as: SIMD8<Float>.self)
                    i += 8
                }
                start = i
            }
        }
        for index in start..<n { out[index] = scalarAudibility(index, model, listener, listenerGain: listenerGain) }
        for index in 0..<start where flags[index].contains(.cone) {
            out[index] = scalarAudibility(index, model, listener, listenerGain: listenerGain)
        }
    }

    /// One row's audibility, the scalar way.
    private func scalarAudibility(_ index: Int, _ model: DistanceModel, _ listener: Listener.Properties, listenerGain: Float) -> Float {
        let f = flags[index]
        if f.contains(.cone) {
            return Source.audibility(properties[index], spatialized: f.contains(.spatialized), model, listener)
        }
        var distance: Float?
        if f.contains(.spatialized) {
            let w = world[index]
            let dx = x[index] - w * listener.position.x, dy = y[index] - w * listener.position.y, dz = z[index] - w * listener.position.z
            distance = (dx * dx + dy * dy + dz * dz).squareRoot()
        }
        return Source.audibility(level: level[index], distance: distance, reference: reference[index], maxDistance: maxDistance[index],
                                 rolloff: rolloff[index], coneFactor: 1, minGain: minGain[index], maxGain: maxGain[index],
                                 model: model, listenerGain: listenerGain)
    }

    /// Which playing rows rank among the top `count` — priority first, then audibility; ties go
    /// to the earlier row — marked in `kept` (resized to the table). The real voices change little
    /// from one ranking to the next, so `selection.threshold` keeps the key a little below the
    /// last cut: only rows at or above it are gathered and sorted (a few hundred instead of
    /// thousands). When fewer than `count` reach it (the listener jumped), a min-heap pass over
    /// every row chooses them and sets a new threshold. Either way the choice is exact.
    func top(_ count: Int, _ model: DistanceModel, _ listener: Listener.Properties, selection: inout VoiceSelection,
             kept: inout [Bool]) {
        audibilities(model, listener, into: &selection.audibility)
        let n = members.count
        kept.removeAll(keepingCapacity: true)
        kept.append(contentsOf: repeatElement(false, count: n))
        guard count > 0 else { return }
        let margin = max(16, count / 4)
        var chosen = selection.chosen
        selection.chosen = []
        chosen.removeAll(keepingCapacity: true)
        let threshold = selection.threshold
        if threshold > -.infinity { gather(atLeast: threshold, selection.audibility, into: &chosen) }
        if chosen.count < count {
            // Not enough above the old threshold: the best count + margin of every row, by heap.
            chosen.removeAll(keepingCapacity: true)
            chosen.append(contentsOf: repeatElement(VoiceSelection.Entry(key: 0, row: 0), count: count + margin))
            var size = 0
            chosen.withUnsafeMutableBufferPointer { heap in
                flags.withUnsafeBufferPointer { flags in
                    selection.audibility.withUnsafeBufferPointer { audibility in
                        priority.withUnsafeBufferPointer { priority in
                            for index in 0..<n where flags[index].contains(.playing) {
                                let entry = VoiceSelection.Entry(
                                    key: Source.rankKey(priority: Double(priority[index]), audibility: audibility[index]), row: index)
                                if size < heap.count {
                                    heap[size] = entry
                                    size += 1
                                    Self.siftUp(heap, from: size - 1)
                                } else if entry.ranksAbove(heap[0]) {
                                    heap[0] = entry
                                    Self.siftDown(heap, size: size, from: 0)
                                }
                            }
                        }
                    }
                }
            }
            chosen.removeLast(chosen.count - size)
        }
        chosen.sort { $0.ranksAbove($1) }
        for entry in chosen.prefix(count) { kept[entry.row] = true }
        // Next time, gather from a little below this cut (or everything, if there were too few).
        selection.threshold = chosen.count >= count + margin ? chosen[count + margin - 1].key
            : (chosen.count > count ? chosen[chosen.count - 1].key : -.infinity)
        selection.chosen = chosen
    }

    /// A min-heap by rank (the weakest entry on top).
    private static func siftUp(_ heap: UnsafeMutableBufferPointer<VoiceSelection.Entry>, from start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[parent].ranksAbove(heap[child]) else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private static func siftDown(_ heap: UnsafeMutableBufferPointer<VoiceSelection.Entry>, size: Int, from start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1, right = left + 1
            var weakest = parent
            if left < size && heap[weakest].ranksAbove(heap[left]) { weakest = left }
            if right < size && heap[weakest].ranksAbove(heap[right]) { weakest = right }
            guard weakest != parent else { return }
            heap.swapAt(parent, weakest)
            parent = weakest
        }
    }

    func isVirtual(_ index: Int) -> Bool { flags[index].contains(.virtual) }
    func isPlaying(_ index: Int) -> Bool { flags[index].contains(.playing) }

    /// Rows whose virtual clocks ran out by `now`.
    func ended(by now: Double) -> [Source] {
        guard endingCount > 0 else { return [] }
        var sources: [Source] = []
        for index in 0..<members.count where endsAt[index] <= now { sources.append(members[index]) }
        return sources
    }
}

/// The ranking's scratch space and memory, kept between rankings.
struct VoiceSelection {
    /// A row and its ranking key.
    struct Entry {
        var key: Double
        var row: Int
        /// Higher key first; on equal keys, the earlier row.
        @inline(__always)
        func ranksAbove(_ other: Entry) -> Bool { key > other.key || (key == other.key && row < other.row) }
    }

    var audibility: [Float] = []
    var chosen: [Entry] = []
    /// Rows at or above this key are gathered first (see ``VoiceTable/top(_:_:_:selection:kept:)``).
    var threshold = -Double.infinity
}

/// The scene's voice-manager state (present when ``Scene/virtualizesVoices`` is on).
struct VoiceManagerState {
    var virtual: [ObjectIdentifier: Source] = [:]
    var table = VoiceTable()
    /// Scratch space of the ranking, kept between rankings.
    var selection = VoiceSelection()
    var kept: [Bool] = []
    /// Mix time of the last ranking, and how often to rank.
    var lastRanking: Double?
    var rankingInterval = 0.05
    var statistics = VoiceStatistics()
    var handler: (@Sendable (VoiceEvent) -> Void)?
    /// Events waiting to be delivered outside the lock.
    var pending: [VoiceEvent] = []
}

extension Scene {
    /// Whether the scene manages voices: games create as many sources as they like; at most
    /// ``sourceBudget`` of the playing ones hold OpenAL sources, chosen at every engine update by
    /// ``Source/priority`` and then ``Source/audibility``; the others are *virtual* — silent, their
    /// clocks running — and come back at the right offset when they rank high enough again.
    /// `play()` then never throws `.sourceBudgetExhausted`. Streaming sources always stay real.
    /// Off by default; turn it on before playing.
    public var virtualizesVoices: Bool {
        get { withState { state, _ in state.voices != nil } }
        set { withState { state, _ in
            if newValue {
                guard state.voices == nil else { return }
                state.voices = VoiceManagerState()
                for source in state.active.values { source.syncVoiceLocked(&state) }
            } else {
                for source in state.voices?.table.members ?? [] { source.forgetVoiceRowLocked() }
                state.voices = nil
            }
        } }
    }

    /// How often the voice manager re-ranks the playing sources, in seconds of mix time (default
    /// 0.05: every fifth 10 ms update). A new play that outranks the weakest real voice takes its
    /// OpenAL source at once; otherwise it waits, virtual, for the next ranking.
    public var voiceRankingInterval: Double {
        get { withState { state, _ in state.voices?.rankingInterval ?? 0.05 } }
        set {
            guard refusals.admits(newValue.isFinite && newValue >= 0, "Scene.voiceRankingInterval", newValue, "finite and >= 0") else { return }
            withState { state, _ in state.voices?.rankingInterval = newValue }
        }
    }

    /// Called with each ``VoiceEvent``, outside Soundstage's locks.
    public var voiceEventHandler: (@Sendable (VoiceEvent) -> Void)? {
        get { withState { state, _ in state.voices?.handler } }
        set { withState { state, _ in state.voices?.handler = newValue } }
    }

    /// The voice manager's counters, and the voices playing now (real ones even when voice
    /// management is off).
    public var voiceStatistics: VoiceStatistics {
        withState { state, _ in
            // Real voices are counted with voice management off too (every playing source is one).
            var statistics = state.voices?.statistics ?? VoiceStatistics()
            statistics.virtualVoices = state.voices?.virtual.values.filter(\.isPlayingLocked).count ?? 0
            statistics.realVoices = state.active.values.filter(\.isPlayingLocked).count
            return statistics
        }
    }

    /// Zeroes the voice manager's counters (steals, virtualizations, rankings and their costs),
    /// e.g. to measure from a point on.
    public func resetVoiceStatistics() {
        withState { state, _ in state.voices?.statistics = VoiceStatistics() }
    }

    /// Creates a per-sound limit: at most `maxVoices` of the sources under it play at once.
    public func makeVoiceLimit(_ name: String, maxVoices: Int, steal policy: VoiceLimit.StealPolicy) -> VoiceLimit {
        var maxVoices = maxVoices
        if !refusals.admits(maxVoices >= 1, "Scene.makeVoiceLimit(maxVoices:)", maxVoices, ">= 1") { maxVoices = 1 }
        return VoiceLimit(name: name, maxVoices: maxVoices, policy: policy)
    }

    /// Whether an OpenAL source is free for a new real voice (scene lock held).
    func hasFreeSlotLocked(_ state: SceneState) -> Bool {
        !state.freeNames.isEmpty || state.allNames.count < sourceBudget
    }

    /// Makes room under `limit` for `newcomer` (scene lock held): steals by the policy, or refuses.
    func admitLocked(_ newcomer: Source, under limit: VoiceLimit, _ state: inout SceneState,
                     _ lock: borrowing ContextLock) throws(SoundstageError) {
        let members = (Array(state.active.values) + Array(state.voices?.virtual.values ?? [:].values)).filter {
            $0 !== newcomer && $0.voiceLimitLocked === limit && $0.isPlayingLocked
        }
        guard members.count >= limit.maxVoices else { return }
        let listener = listener.propertiesLocked
        let model = state.distanceModel
        let victim: Source?
        switch limit.policy {
        case .none:
            throw SoundstageError(.voiceLimitReached,
                                  "\(members.count) sounds of the limit '\(limit.name)' are playing (at most \(limit.maxVoices)); this one was refused")
        case .oldest: victim = members.min { $0.startedAtLocked < $1.startedAtLocked }
        case .quietest: victim = members.min { $0.audibilityLocked(model, listener) < $1.audibilityLocked(model, listener) }
        case .farthest: victim = members.max { $0.distanceLocked(listener) < $1.distanceLocked(listener) }
        }
        guard let victim else { return }
        victim.stopLocked(&state, lock)
        state.voices?.statistics.steals += 1
        state.voices?.pending.append(VoiceEvent(kind: .stolen, source: victim))
    }

    /// The voice manager's part of the engine update (scene lock held), every
    /// ``voiceRankingInterval``: ends virtual voices whose clocks ran past their sound, then gives
    /// the OpenAL sources to the top-ranked playing sources (an O(n) selection, no sort), reading
    /// the ranking inputs from the contiguous ``VoiceTable`` and touching only the sources that
    /// change. Returns completions to run outside the lock.
    func manageVoicesLocked(_ state: inout SceneState, _ lock: borrowing ContextLock, now: Double) -> [() -> Void] {
        guard state.voices != nil, !state.suspended else { return [] }
        if let last = state.voices!.lastRanking, now - last < state.voices!.rankingInterval - 1e-9 { return [] }
        state.voices!.lastRanking = now
        let started = DispatchTime.now().uptimeNanoseconds
        var completions: [() -> Void] = []
        // Virtual voices whose clocks ran out end (each leaves the table).
        for source in state.voices!.table.ended(by: now) {
            state.voices!.virtual.removeValue(forKey: ObjectIdentifier(source))
            completions.append(source.finishVirtualLocked(&state))
        }
        // Paused real voices and streams keep their OpenAL sources; the rest go to the best ranked.
        let census = state.voices!.table.census()
        let slots = max(0, sourceBudget - (state.active.count - census.realPlaying))
        if census.anyVirtual || census.playing > slots {
            // The scratch space is taken out (not copied) so it stays unique and keeps its capacity.
            var selection = state.voices!.selection, kept = state.voices!.kept
            state.voices!.selection = VoiceSelection()
            state.voices!.kept = []
            state.voices!.table.top(slots, state.distanceModel, listener.propertiesLocked, selection: &selection, kept: &kept)
            state.voices!.statistics.totalSelectionMicroseconds += Double(DispatchTime.now().uptimeNanoseconds - started) / 1_000
            // Real voices that lost: virtual (making room), then the virtual ones that won: real.
            // Neither changes which row a source has.
            var losers: [Source] = [], winners: [Source] = []
            do {
                let table = state.voices!.table        // one copy (of array references), not one per row
                for index in 0..<table.count where table.isPlaying(index) {
                    let virtual = table.isVirtual(index)
                    if kept[index] && virtual { winners.append(table.members[index]) }
                    if !kept[index] && !virtual { losers.append(table.members[index]) }
                }
            }
            lock.ifOpen { al in
                for source in losers {
                    source.virtualizeLocked(&state, al, now: now)
                    state.voices!.virtual[ObjectIdentifier(source)] = source
                    state.voices!.statistics.virtualizations += 1
                    state.voices!.pending.append(VoiceEvent(kind: .virtualized, source: source))
                }
                for source in winners {
                    guard (try? source.realizeLocked(&state, al, now: now)) != nil else { continue }
                    state.voices!.virtual.removeValue(forKey: ObjectIdentifier(source))
                    state.voices!.statistics.realizations += 1
                    state.voices!.pending.append(VoiceEvent(kind: .realized, source: source))
                }
            }
            state.voices!.selection = selection
            state.voices!.kept = kept
        }
        let micros = Double(DispatchTime.now().uptimeNanoseconds - started) / 1_000
        state.voices!.statistics.updates += 1
        state.voices!.statistics.lastUpdateMicroseconds = micros
        state.voices!.statistics.totalUpdateMicroseconds += micros
        state.voices!.statistics.peakUpdateMicroseconds = max(state.voices!.statistics.peakUpdateMicroseconds, micros)
        return completions
    }

    /// When a new play (ranked `newcomerKey`) finds no free OpenAL source: if it outranks the weakest real voice, that
    /// one turns virtual and gives it its source (scene lock held). True if a source was freed.
    func preemptForLocked(newcomerKey: Double, _ state: inout SceneState, _ al: borrowing ALCalls, now: Double) -> Bool {
        guard state.voices != nil else { return false }
        let listener = listener.propertiesLocked
        let model = state.distanceModel
        var weakest: (source: Source, key: Double)?
        for source in state.active.values where source.isPlayingLocked && !source.isStreamingLocked {
            let key = source.rankKeyLocked(model, listener)
            if weakest == nil || key < weakest!.key { weakest = (source, key) }
        }
        guard let weakest, newcomerKey > weakest.key else { return false }
        weakest.source.virtualizeLocked(&state, al, now: now)
        state.voices!.virtual[ObjectIdentifier(weakest.source)] = weakest.source
        state.voices!.statistics.virtualizations += 1
        state.voices!.pending.append(VoiceEvent(kind: .virtualized, source: weakest.source))
        return true
    }

    /// Takes the voice events waiting for delivery (scene lock held).
    func takeVoiceEventsLocked(_ state: inout SceneState) -> (handler: (@Sendable (VoiceEvent) -> Void)?, events: [VoiceEvent]) {
        guard let voices = state.voices, !voices.pending.isEmpty else { return (nil, []) }
        state.voices!.pending = []
        return (voices.handler, voices.pending)
    }
}
