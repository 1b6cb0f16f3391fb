// The table that turns Apple's opaque handles (AudioFileID, AudioConverterRef) into Swift objects.
// A handle is not a pointer to anything: it is a table's tag, a slot's index and a generation
// count, so a closed, disposed or never-given handle is an error code, never a use after free,
// and a handle of one kind is never taken for another.
import NIOConcurrencyHelpers

/// Objects by handle, under a lock. One table a kind of handle, each with its own `tag`.
final class HandleTable<Object: AnyObject & Sendable>: Sendable {
    private struct Slot {
        var object: Object?
        var generation: UInt16 = 1
    }

    private struct Table {
        var slots: [Slot] = []
        var free: [Int] = []
    }

    /// The kind's tag, in the handle's bits 48–55 (never 0, so no handle is NULL).
    private let tag: UInt
    // NIO's lock, not `Mutex`: ThreadSanitizer does not see `Mutex`'s contended path on Linux and
    // reported a race between two bodies of one `withLock` (8 threads on the AudioFileID table).
    private let table = NIOLockedValueBox(Table())

    init(tag: UInt8) {
        precondition(tag != 0)
        self.tag = UInt(tag)
    }

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
            let bits = tag << 48 | UInt(index + 1) << 16 | UInt(table.slots[index].generation)
            return OpaquePointer(bitPattern: bits)!
        }
    }

    /// The object behind `handle`, or nil for one that was removed or never given out.
    func object(_ handle: OpaquePointer) -> Object? {
        table.withLockedValue { table -> Object? in
            guard let (index, generation) = slot(handle), index < table.slots.count,
                  table.slots[index].generation == generation else { return nil }
            return table.slots[index].object
        }
    }

    /// Removes `handle`'s object (returned; nil if there was none): the slot's generation moves
    /// on, so the handle is stale from now on.
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

    /// How many handles are live (for tests: nothing leaks).
    var count: Int { table.withLockedValue { $0.slots.filter { $0.object != nil }.count } }

    private func slot(_ handle: OpaquePointer) -> (Int, UInt16)? {
        let bits = UInt(bitPattern: handle)
        guard bits >> 48 == tag else { return nil }
        let index = Int((bits >> 16) & 0xFFFF_FFFF) - 1
        guard index >= 0 else { return nil }
        return (index, UInt16(truncatingIfNeeded: bits))
    }
}
