#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif

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
