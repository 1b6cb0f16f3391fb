import NIOConcurrencyHelpers
import CSoundstage
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The kinds of object a C handle can name; stored in the handle's bits and in its slot.
enum HandleKind: UInt8, CaseIterable {
    case device = 1, scene, buffer, source, group, reverbZone, voiceLimit, session, soundRegistry, recorder, sceneFile, client
}

/// Why a handle did not resolve.
enum HandleProblem: Error {
    case null, invalid, stale, wrongKind(HandleKind)
}

/// An object behind a handle, and what destroying the handle does to it.
protocol HandleObject: AnyObject, Sendable {
    /// Called once, when the handle is destroyed and no call is using it any more.
    func handleDestroyed()
}

/// The table that turns C handles into Swift objects: generation-counted slots, so a destroyed
/// handle (or one whose slot was reused) is an error, never a use-after-free.
///
/// A handle's bits are `kind (8) | generation (24) | index (32)`; it is never dereferenced. Each
/// slot has one atomic word, `generation (24) | kind (8) | pins (31) | dead (1)`. A call *pins*
/// the slot (one compare-and-swap that also checks generation, kind and liveness), uses the
/// object, and unpins it (one atomic subtract). Destroying marks the slot dead: new pins fail at
/// once, and whoever drops the last pin — the destroyer itself when nobody uses it — frees the
/// object. So a handle destroyed on one thread while another thread is inside a call with it
/// is safe, and a callback may destroy the very object it was called for.
///
/// Creating and destroying take one mutex (they also maintain the parent/child links that make
/// destroying a device destroy its scenes); calls on existing handles take no lock.
final class HandleTable: @unchecked Sendable {
    // @unchecked: `objects[i]` is written only while slot i is unpublished (before the release
    // store that publishes its word) or dead with no pins (after the acquire that saw the last
    // unpin), and read only while pinned; `words` are atomics; the rest is under `lock`.

    static let shared = HandleTable()

    static let capacity = 1 << 20
    fileprivate static let deadBit: UInt64 = 1
    private static let pinUnit: UInt64 = 2
    private static let pinMask: UInt64 = 0xFFFF_FFFE

    fileprivate let words: UnsafeMutablePointer<Synchronization.Atomic<UInt64>>
    private let objects: UnsafeMutablePointer<Unmanaged<AnyObject>?>
    /// Slots below this are initialized (readers check it before touching a word).
    private let highWater = Synchronization.Atomic<Int>(0)

    fileprivate struct Links {
        var parent: Int32 = -1
        var children: Set<Int32> = []
        var generation: UInt32 = 0
        var kind: HandleKind = .device
    }

    fileprivate struct State {
        var free: [Int32] = []
        var freeHead = 0
        var links: [Int32: Links] = [:]
        var live = 0
        /// The slot of each object's latest handle (for callbacks that hear of an object, not a handle).
        var byObject: [ObjectIdentifier: Int32] = [:]
    }

    fileprivate let lock = NIOLockedValueBox(State())

    private init() {
        // calloc: untouched pages cost nothing; each slot is initialized before first use.
        words = calloc(Self.capacity, MemoryLayout<UInt64>.stride)!.bindMemory(to: Synchronization.Atomic<UInt64>.self, capacity: Self.capacity)
        objects = calloc(Self.capacity, MemoryLayout<Unmanaged<AnyObject>?>.stride)!
            .bindMemory(to: Unmanaged<AnyObject>?.self, capacity: Self.capacity)
    }

    // MARK: Handles as bits

    @inline(__always)
    static func bits(kind: HandleKind, generation: UInt32, index: Int32) -> UInt64 {
        UInt64(kind.rawValue) << 56 | UInt64(generation & 0xFF_FFFF) << 32 | UInt64(UInt32(bitPattern: index))
    }

    @inline(__always)
    static func pointer(_ bits: UInt64) -> OpaquePointer { OpaquePointer(bitPattern: UInt(bits))! }

    // MARK: Creating and destroying

    /// Publishes `object` under a new handle of `kind`, a child of `parent` (destroyed with it).
    func insert(_ object: HandleObject, kind: HandleKind, parent: OpaquePointer? = nil) throws(CAPIError) -> OpaquePointer {
        let retained = Unmanaged<AnyObject>.passRetained(object)
        let result: Result<OpaquePointer, CAPIError> = lock.withLockedValue { state in
            // A child whose parent died while it was being made is never published: destroying
            // the parent has already destroyed every child it had, and this one would be orphaned.
            var parentIndex: Int32 = -1
            if let parent {
                guard let live = liveIndex(parent, &state) else { return .failure(Self.deadParent(parent)) }
                parentIndex = live
            }
            let index: Int32
            if state.freeHead < state.free.count {
                index = state.free[state.freeHead]
                state.freeHead += 1
                if state.freeHead > 4096 && state.freeHead * 2 > state.free.count {
                    state.free.removeFirst(state.freeHead)
                    state.freeHead = 0
                }
            } else {
                let next = highWater.load(ordering: .relaxed)
                guard next < Self.capacity else {
                    return .failure(CAPIError(SS_ERROR_OUT_OF_HANDLES, "more than \(Self.capacity) live handles"))
                }
                (words + next).initialize(to: Synchronization.Atomic(0))
                highWater.store(next + 1, ordering: .releasing)
                index = Int32(next)
            }
            var links = state.links[index] ?? Links()
            // Generation 0 is never used, so a zeroed word never matches a handle.
            links.generation = links.generation & 0xFF_FFFF == 0xFF_FFFF ? 1 : links.generation + 1
            links.kind = kind
            links.parent = -1
            links.children = []
            if parentIndex >= 0 {
                links.parent = parentIndex
                state.links[parentIndex]?.children.insert(index)
            }
            state.links[index] = links
            state.live += 1
            state.byObject[ObjectIdentifier(object)] = index
            objects[Int(index)] = retained
            let word = UInt64(links.generation) << 40 | UInt64(kind.rawValue) << 32
            words[Int(index)].store(word, ordering: .releasing)
            return .success(Self.pointer(Self.bits(kind: kind, generation: links.generation, index: index)))
        }
        switch result {
        case let .success(handle): return handle
        case let .failure(error):
            retained.release()
            throw error
        }
    }

    /// The error for a parent handle that is no longer live (destroyed, or never one of ours).
    private static func deadParent(_ parent: OpaquePointer) -> CAPIError {
        let bits = UInt64(UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(parent))))
        let kind = HandleKind(rawValue: UInt8(truncatingIfNeeded: bits >> 56)) ?? .device
        return CAPIError(SS_ERROR_STALE_HANDLE,
                         "the \(kind.cName) was destroyed while this object was being made in it (nothing was created)")
    }

    /// The slot of a live handle (lock held), or nil.
    private func liveIndex(_ handle: OpaquePointer, _ state: inout State) -> Int32? {
        let bits = UInt64(UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(handle))))
        let index = Int32(truncatingIfNeeded: bits & 0xFFFF_FFFF)
        guard index >= 0, let links = state.links[index],
              UInt64(links.generation) == (bits >> 32) & 0xFF_FFFF, links.kind.rawValue == UInt8(bits >> 56),
              words[Int(index)].load(ordering: .relaxed) & Self.deadBit == 0 else { return nil }
        return index
    }

    /// Destroys the handle and every handle made under it. Each object's `handleDestroyed()`
    /// runs once its last pin is gone (here, unless another thread is inside a call with it);
    /// children go before their parents.
    func destroy(_ handle: OpaquePointer?, kind: HandleKind) throws(CAPIError) {
        let resolved = try resolveIndex(handle, kind: kind)
        let toFree: [Int32]? = lock.withLockedValue { state in
            // Another thread destroyed it between the check above and this lock: that thread's
            // destroy did the work, this one is a use of a stale handle.
            guard liveIndex(handle!, &state) == resolved else { return nil }
            // Depth first: children before parents.
            var order: [Int32] = []
            func visit(_ index: Int32) {
                for child in (state.links[index]?.children ?? []).sorted(by: >) { visit(child) }
                order.append(index)
            }
            visit(resolved)
            if let parent = state.links[resolved]?.parent, parent >= 0 {
                state.links[parent]?.children.remove(resolved)
            }
            var freeNow: [Int32] = []
            for index in order {
                // Cut the links now: a slot freed later (by its last unpin) must not touch a
                // parent slot that may hold another object by then.
                state.links[index]?.parent = -1
                state.links[index]?.children = []
                // Mark dead; free now if unpinned, else the last unpin frees it.
                var word = words[Int(index)].load(ordering: .relaxed)
                while word & Self.deadBit == 0 {
                    let (done, seen) = words[Int(index)].compareExchange(expected: word, desired: word | Self.deadBit,
                                                                         ordering: .acquiringAndReleasing)
                    if done { if word & Self.pinMask == 0 { freeNow.append(index) }; break }
                    word = seen
                }
            }
            return freeNow
        }
        guard let toFree else { throw CAPIError.problem(.stale, kind) }
        for index in toFree { free(index) }
    }

    /// Releases slot `index`'s object (dead, unpinned) and returns the slot to the free list.
    private func free(_ index: Int32) {
        let object = objects[Int(index)]
        objects[Int(index)] = nil
        lock.withLockedValue { state in
            state.free.append(index)
            state.live -= 1
            if let object, state.byObject[ObjectIdentifier(object.takeUnretainedValue())] == index {
                state.byObject[ObjectIdentifier(object.takeUnretainedValue())] = nil
            }
        }
        if let object {
            (object.takeUnretainedValue() as? HandleObject)?.handleDestroyed()
            object.release()
        }
    }

    /// Live handles of every kind.
    var liveCount: Int { lock.withLockedValue { $0.live } }

    // MARK: Using a handle

    /// The slot index of a handle of `kind`, without pinning (for `destroy`).
    @inline(__always)
    private func resolveIndex(_ handle: OpaquePointer?, kind: HandleKind) throws(CAPIError) -> Int32 {
        guard let handle else { throw CAPIError.problem(.null, kind) }
        let bits = UInt64(UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(handle))))
        let index = Int(bits & 0xFFFF_FFFF)
        guard let handleKind = HandleKind(rawValue: UInt8(bits >> 56)) else { throw CAPIError.problem(.invalid, kind) }
        guard handleKind == kind else { throw CAPIError.problem(.wrongKind(handleKind), kind) }
        guard index < highWater.load(ordering: .acquiring), (bits >> 32) & 0xFF_FFFF != 0 else { throw CAPIError.problem(.invalid, kind) }
        let word = words[index].load(ordering: .acquiring)
        guard word >> 40 == (bits >> 32) & 0xFF_FFFF, word & Self.deadBit == 0 else { throw CAPIError.problem(.stale, kind) }
        guard UInt8(truncatingIfNeeded: word >> 32) == kind.rawValue else { throw CAPIError.problem(.invalid, kind) }
        return Int32(index)
    }

    /// Runs `body` with the object behind `handle`, which must be of `kind` and type `T`; the
    /// object cannot be freed while `body` runs.
    @inline(__always)
    func with<T: AnyObject, R>(_ handle: OpaquePointer?, _ kind: HandleKind, as type: T.Type,
                               _ body: (T) throws -> R) throws -> R {
        guard let handle else { throw CAPIError.problem(.null, kind) }
        let bits = UInt64(UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(handle))))
        let index = Int(bits & 0xFFFF_FFFF)
        let expected = ((bits >> 32) & 0xFF_FFFF) << 40 | UInt64(kind.rawValue) << 32
        guard UInt8(truncatingIfNeeded: bits >> 56) == kind.rawValue, index < highWater.load(ordering: .acquiring) else {
            throw slowProblem(bits, kind)
        }
        let slot = words + index
        var word = slot.pointee.load(ordering: .relaxed)
        while true {
            guard word & 0xFFFF_FFFF_0000_0001 == expected else { throw slowProblem(bits, kind) }
            let (done, seen) = slot.pointee.compareExchange(expected: word, desired: word &+ Self.pinUnit, ordering: .acquiring)
            if done { break }
            word = seen
        }
        defer { unpin(index) }
        return try objects[index]!._withUnsafeGuaranteedRef { object in try body(unsafeDowncast(object, to: T.self)) }
    }

    @inline(__always)
    private func unpin(_ index: Int) {
        // Acquire-release, not release plus a separate acquire fence: the thread that frees must
        // see every other user's reads of the slot, and ThreadSanitizer does not model fences
        // (it reported the free racing an earlier user's read).
        let after = words[index].subtract(Self.pinUnit, ordering: .acquiringAndReleasing).newValue
        if after & (Self.pinMask | Self.deadBit) == Self.deadBit {
            // Dead and no pins left: this call was the last user. Only one thread sees this.
            free(Int32(index))
        }
    }

    /// Which problem a handle that failed the fast check has.
    private func slowProblem(_ bits: UInt64, _ kind: HandleKind) -> CAPIError {
        guard let handleKind = HandleKind(rawValue: UInt8(truncatingIfNeeded: bits >> 56)) else { return .problem(.invalid, kind) }
        guard handleKind == kind else { return .problem(.wrongKind(handleKind), kind) }
        let index = Int(bits & 0xFFFF_FFFF)
        guard index < highWater.load(ordering: .acquiring), (bits >> 32) & 0xFF_FFFF != 0 else { return .problem(.invalid, kind) }
        // The slot's generation matches but it holds another kind: the kind byte was forged.
        let word = words[index].load(ordering: .acquiring)
        if word >> 40 == (bits >> 32) & 0xFF_FFFF, UInt8(truncatingIfNeeded: word >> 32) != kind.rawValue {
            return .problem(.invalid, kind)
        }
        return .problem(.stale, kind)
    }
}

extension HandleTable {
    /// The live handle of `object` (its latest, if it has several), or nil when it has none.
    func handle(of object: AnyObject) -> OpaquePointer? {
        lock.withLockedValue { state in
            guard let index = state.byObject[ObjectIdentifier(object)], let links = state.links[index],
                  words[Int(index)].load(ordering: .relaxed) & Self.deadBit == 0 else { return nil }
            return Self.pointer(Self.bits(kind: links.kind, generation: links.generation, index: index))
        }
    }

    /// Whether `handle` names a live object of `kind` (for long calls that stop when their handle is destroyed).
    func isLive(_ handle: OpaquePointer?, _ kind: HandleKind) -> Bool {
        (try? with(handle, kind, as: AnyObject.self) { _ in true }) ?? false
    }
}
