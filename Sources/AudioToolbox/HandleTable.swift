// The handles Apple's C interfaces give out (AudioFileID, AudioFileStreamID) are pointers to
// opaque structs in Apple's headers. Here they point at nothing: each is a slot's index and a
// generation count in a table under a lock, so a closed (or never opened) handle is an error code,
// never a use after free. One table per kind of object, each with its own tag in the handle's bits,
// so that one kind's handle given where another's is wanted is not found either; the functions of
// each service map the table's "not found" to their own code.
import NIOConcurrencyHelpers

/// Objects by generation-counted handle. (NIO's lock, not `Mutex`: ThreadSanitizer does not see
/// `Mutex`'s contended path on Linux and reported a race between two bodies of one `withLock`.)
final class HandleTable<Object: AnyObject & Sendable>: Sendable {
    private struct Slot {
        var object: Object?
        var generation: UInt16 = 1
    }

    private struct Table {
        var slots: [Slot] = []
        var free: [Int] = []
    }

    private let table = NIOLockedValueBox(Table())
    /// The kind's tag (1 to 255), in the handle's bits 40 to 47.
    private let tag: UInt

    init(tag: UInt8) { self.tag = UInt(tag) }

    /// A new handle for `object`.
    func insert(_ object: Object) -> OpaquePointer {
        table.withLockedValue { table in
            let index: Int
            if let reused = table.free.popLast() {
                index = reused
            } else {
                index = table.slots.count
                table.slots.append(Slot())
            }
            table.slots[index].object = object
            let bits = tag << 40 | UInt(index + 1) << 16 | UInt(table.slots[index].generation)
            return OpaquePointer(bitPattern: bits)!
        }
    }

    /// The object behind `handle`, or nil when it was removed or never given out.
    func object(_ handle: OpaquePointer) -> Object? {
        table.withLockedValue { table -> Object? in
            guard let (index, generation) = slot(handle), index < table.slots.count,
                  table.slots[index].generation == generation else { return nil }
            return table.slots[index].object
        }
    }

    /// Removes `handle`'s object and returns it (nil when there was none): the slot's generation
    /// moves on, so the handle is stale from now on.
    @discardableResult
    func remove(_ handle: OpaquePointer) -> Object? {
        table.withLockedValue { table -> Object? in
            guard let (index, generation) = slot(handle), index < table.slots.count,
                  table.slots[index].generation == generation, let object = table.slots[index].object else { return nil }
            table.slots[index].object = nil
            table.slots[index].generation = table.slots[index].generation &+ 1 == 0 ? 1 : table.slots[index].generation &+ 1
            table.free.append(index)
            return object
        }
    }

    /// How many objects the table holds (for tests: nothing leaks).
    var count: Int { table.withLockedValue { $0.slots.filter { $0.object != nil }.count } }

    private func slot(_ handle: OpaquePointer) -> (Int, UInt16)? {
        let bits = UInt(bitPattern: handle)
        guard bits >> 40 == tag else { return nil }
        let index = Int((bits >> 16) & 0xFF_FFFF) - 1
        guard index >= 0 else { return nil }
        return (index, UInt16(truncatingIfNeeded: bits))
    }
}
