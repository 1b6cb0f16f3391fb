import CSoundstage
import NIOConcurrencyHelpers
import Soundstage
import Synchronization

// The library as a whole: its version, live handles and objects.

/// The library's version; keep in step with SS_VERSION_* in include/soundstage.h (a C test
/// compares them).
let libraryVersion = (major: 0, minor: 2, patch: 0)

private let versionString: StaticString = "0.2.0"

@c @implementation
public func ss_version() -> UnsafePointer<CChar>? {
    UnsafeRawPointer(versionString.utf8Start).assumingMemoryBound(to: CChar.self)
}

@c @implementation
public func ss_version_number() -> Int32 {
    Int32(libraryVersion.major * 10000 + libraryVersion.minor * 100 + libraryVersion.patch)
}

@c @implementation
public func ss_thread_detach() {
    Soundstage.detachCurrentThread()
}

@c @implementation
public func ss_live_handles() -> Int {
    HandleTable.shared.liveCount
}

@c @implementation
public func ss_get_live_objects(_ out: UnsafeMutablePointer<ss_live_objects>?) -> ss_result {
    capi {
        let out = try require(out)
        let live = Soundstage.liveObjects
        out.pointee = ss_live_objects(devices: Int32(live.devices), contexts: Int32(live.contexts),
                                      buffers: Int32(live.buffers), sources: Int32(live.sources),
                                      effect_slots: Int32(live.effectSlots), effects: Int32(live.effects),
                                      filters: Int32(live.filters))
    }
}

// MARK: Shared helpers of the C API

/// Publishes `object` as a new handle and writes it to `out` (checked non-NULL beforehand by
/// the caller); if no handle can be had, `object` is destroyed again.
func publish(_ object: HandleObject, _ kind: HandleKind, parent: OpaquePointer? = nil,
             to out: UnsafeMutablePointer<OpaquePointer?>) throws {
    do {
        out.pointee = try HandleTable.shared.insert(object, kind: kind, parent: parent)
    } catch {
        object.handleDestroyed()
        throw error
    }
}

/// A C callback and its user data, carried into Swift closures. Sendable because the library
/// only passes both back to C: what user_data points to is the caller's business (the header
/// says on which thread each callback runs).
struct CCallback<Function>: @unchecked Sendable {
    let function: Function
    let userData: UnsafeMutableRawPointer?
}

/// Levels of a meter into an ss_levels (channels 0 when there is no reading).
func fill(_ levels: LevelMeter?, _ out: UnsafeMutablePointer<ss_levels>) {
    var result = ss_levels()
    if let levels {
        let count = min(8, levels.averagePower.count, levels.peakPower.count)
        result.channels = Int32(count)
        result.frames = Int32(clamping: levels.frames)
        withUnsafeMutableBytes(of: &result.average_power) { raw in
            let floats = raw.bindMemory(to: Float.self)
            for i in 0..<count { floats[i] = levels.averagePower[i] }
        }
        withUnsafeMutableBytes(of: &result.peak_power) { raw in
            let floats = raw.bindMemory(to: Float.self)
            for i in 0..<count { floats[i] = levels.peakPower[i] }
        }
    }
    out.pointee = result
}

/// Copies `text` into a fixed C char array (a tuple), cut to fit and always terminated.
func copy<Tuple>(_ text: String, into tuple: inout Tuple) {
    withUnsafeMutableBytes(of: &tuple) { raw in
        let bytes = Array(text.utf8.prefix(raw.count - 1))
        raw.copyBytes(from: bytes)
        raw[bytes.count] = 0
    }
}

/// A Swift Bool from a C int flag.
@inline(__always)
func flag(_ value: Int32) -> Bool { value != 0 }

/// A handle known only after the object behind it is published (for callbacks made before that).
final class HandleBox: Sendable {
    private let bits = Synchronization.Atomic<UInt>(0)
    func set(_ handle: OpaquePointer?) { bits.store(UInt(bitPattern: Int(bitPattern: handle.map(UnsafeRawPointer.init))), ordering: .releasing) }
    var pointer: OpaquePointer? { OpaquePointer(bitPattern: bits.load(ordering: .acquiring)) }
}

/// The token of one observer that a C callback setter replaces: the old observer is removed
/// after the new one is added, outside the lock.
final class ObserverToken: Sendable {
    private let token = NIOLockedValueBox<Int?>(nil)

    /// Adds an observer with `add` (nil: none) and removes the previous one with `remove`.
    func replace(_ add: (() -> Int)?, remove: (Int) -> Void) {
        let old = token.withLockedValue { token -> Int? in
            let old = token
            token = add?()
            return old
        }
        if let old { remove(old) }
    }
}
