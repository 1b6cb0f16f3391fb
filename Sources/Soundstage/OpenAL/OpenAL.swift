import COpenAL
import NIOConcurrencyHelpers
#if canImport(Glibc)
import Glibc
#endif

/// An OpenAL `ALCcontext *` and the one lock that guards it.
///
/// The lock serializes "make current + call + read the error" for the context, and it also
/// guards the Swift state of everything living in that context (a scene's bookkeeping, its
/// listener and all its sources): one lock per scene, so a per-frame property change takes one
/// lock, and there is no lock order to get wrong inside a scene.
///
/// `@unchecked Sendable`: `raw` and `destroyed` are only read or written with `mutex` held
/// (migration to another device replaces `raw`).
final class ContextHandle: @unchecked Sendable {
    fileprivate var raw: OpaquePointer
    private let mutex = NIOLock()
    private var destroyed = false
    /// Whether `raw` is the device's own context, lent to a scene: destroying this handle only
    /// lets go of it (the device destroys it). See ``Device/makeScene(sourceBudget:)``.
    fileprivate var borrowed: Bool

    init(raw: OpaquePointer, borrowed: Bool = false) {
        self.raw = raw
        self.borrowed = borrowed
    }

    /// Runs `body` holding the context's lock.
    @inline(__always)
    func withLock<R, E: Error>(_ body: (borrowing ContextLock) throws(E) -> R) throws(E) -> R {
        mutex.lock()
        defer { mutex.unlock() }
        return try body(ContextLock(handle: self))
    }

    /// Called by ``ContextLock`` only, with the lock held.
    fileprivate var isDestroyedLocked: Bool {
        get { destroyed }
        set { destroyed = newValue }
    }
}

/// An OpenAL `ALCdevice *` that may cross threads. ALC device calls are thread-safe in OpenAL Soft.
struct DeviceHandle: @unchecked Sendable, Equatable {
    let raw: OpaquePointer
}

/// Proof that a context's lock is held, handed to closures run under it (never stored: its
/// initializer is private to this file). Gives access to the context (``current()``) while it
/// exists. (Copyable only because Swift 6.3's optimizer crashes inlining a ~Copyable one.)
struct ContextLock {
    fileprivate let handle: ContextHandle

    /// Whether the context still exists (not destroyed by a scene or device close), and OpenAL
    /// Soft too (not once the process exits: ``ProcessExit``).
    var isOpen: Bool { !handle.isDestroyedLocked && !ProcessExit.isExiting }

    /// Makes the context current on this thread and returns the token through which `al*`
    /// calls are made.
    ///
    /// Contexts are made current per thread (`alcSetThreadContext`, ALC_EXT_thread_local_context),
    /// never process-wide, so scenes on different threads do not contend. The thread's context is
    /// read back (`alcGetThreadContext`, a plain thread-local read in OpenAL Soft) and set only
    /// when it differs — so code outside Soundstage that calls `alcMakeContextCurrent` (which
    /// clears the calling thread's context) cannot redirect Soundstage's next call.
    /// - Throws: `.released` once the context is destroyed.
    @inline(__always)
    func current() throws(SoundstageError) -> ALCalls {
        guard isOpen else { throw SoundstageError(.released, "the scene is closed") }
        if alcGetThreadContext() != handle.raw {
            guard alcSetThreadContext(handle.raw) != 0 else {
                let error = alcGetError(nil)
                throw SoundstageError(.openAL, "cannot make the scene's context current",
                                      cause: .openAL(function: "alcSetThreadContext", error: error,
                                                     name: OpenAL.alcErrorName(error)))
            }
        }
        return ALCalls()
    }

    /// Runs `body` with the context current, if it is still open; otherwise does nothing.
    @inline(__always)
    func ifOpen<E: Error>(_ body: (borrowing ALCalls) throws(E) -> Void) throws(E) {
        guard isOpen else { return }
        let al: ALCalls
        do { al = try current() } catch { return }
        try body(al)
    }

    /// The device of the current context (`alcGetContextsDevice`).
    var deviceOfContext: OpaquePointer? { alcGetContextsDevice(handle.raw) }

    /// The `ALCcontext` itself (to lend it to a scene).
    var rawContext: OpaquePointer { handle.raw }

    /// Whether the context is the device's, lent to this handle's scene.
    var isBorrowed: Bool { handle.borrowed }

    /// Replaces the context with `newContext` (on another device, or a fresh one): the old one
    /// is destroyed (or only let go of, if it was borrowed); the new one is this handle's own, or
    /// borrowed from its device.
    func rebind(to newContext: OpaquePointer, borrowed: Bool = false) {
        destroy()
        handle.raw = newContext
        handle.isDestroyedLocked = false
        handle.borrowed = borrowed
    }

    /// Destroys the context (`alcDestroyContext`); a borrowed one is only let go of. This thread
    /// lets go of it first; other threads that last used it keep a reference inside OpenAL Soft
    /// until they switch, so its address cannot be reused while any thread still has it as its
    /// context.
    func destroy() {
        guard isOpen else { return }
        if !handle.borrowed {
            if alcGetThreadContext() == handle.raw { alcSetThreadContext(nil) }
            alcDestroyContext(handle.raw)
        }
        handle.isDestroyedLocked = true
    }
}

/// The one chokepoint for OpenAL: every `al*` call is made through ``ALCalls``, obtained from a
/// held ``ContextLock``; `alc*` calls that may fail go through ``alc(_:_:_:)`` or
/// ``createContext(on:_:for:around:)``. ``OpenALFaults`` can make any of them fail, for tests.
enum OpenAL {
    /// Runs `body` with `context` locked and current: the common case of ``ContextHandle/withLock(_:)``.
    @inline(__always)
    static func withContext<R>(_ context: ContextHandle, _ body: (borrowing ALCalls) throws(SoundstageError) -> R)
        throws(SoundstageError) -> R {
        try context.withLock { lock throws(SoundstageError) -> R in try body(try lock.current()) }
    }

    /// Creates a context on `device` (`alcCreateContext`); `what` says what it was for, in the
    /// error. `around` wraps the call (a device keeps it from overlapping a render).
    /// - Throws: `.openAL` with ALC's error when OpenAL refuses.
    static func createContext(on device: OpaquePointer, _ attributes: [ALCint], for what: String,
                              around: (() -> OpaquePointer?) -> OpaquePointer? = { $0() })
        throws(SoundstageError) -> OpaquePointer {
        let failure = { (error: ALCenum) in
            SoundstageError(.openAL, "cannot create \(what)",
                            cause: .openAL(function: "alcCreateContext", error: error, name: alcErrorName(error)))
        }
        if let injected = OpenALFaults.refusal("alcCreateContext") { throw failure(injected) }
        guard let context = around({ alcCreateContext(device, attributes) }) else { throw failure(alcGetError(device)) }
        return context
    }

    /// Makes one `alc*` call on `device` and throws if ALC reports an error after it.
    /// - Throws: `.openAL` naming `function` and ALC's error.
    static func alc<R>(_ device: OpaquePointer?, _ function: StaticString, _ body: () -> R) throws(SoundstageError) -> R {
        if let injected = OpenALFaults.refusal(function) { throw alcFailure(function, injected) }
        let result = body()
        let error = alcGetError(device)
        if error != ALC_NO_ERROR { throw alcFailure(function, error) }
        return result
    }

    private static func alcFailure(_ function: StaticString, _ error: ALCenum) -> SoundstageError {
        SoundstageError(.openAL, "\(function) failed",
                        cause: .openAL(function: "\(function)", error: error, name: alcErrorName(error)))
    }

    static func alErrorName(_ error: ALenum) -> String {
        switch error {
        case AL_INVALID_NAME: "AL_INVALID_NAME"
        case AL_INVALID_ENUM: "AL_INVALID_ENUM"
        case AL_INVALID_VALUE: "AL_INVALID_VALUE"
        case AL_INVALID_OPERATION: "AL_INVALID_OPERATION"
        case AL_OUT_OF_MEMORY: "AL_OUT_OF_MEMORY"
        default: "AL error"
        }
    }

    static func alcErrorName(_ error: ALCenum) -> String {
        switch error {
        case ALC_INVALID_DEVICE: "ALC_INVALID_DEVICE"
        case ALC_INVALID_CONTEXT: "ALC_INVALID_CONTEXT"
        case ALC_INVALID_ENUM: "ALC_INVALID_ENUM"
        case ALC_INVALID_VALUE: "ALC_INVALID_VALUE"
        case ALC_OUT_OF_MEMORY: "ALC_OUT_OF_MEMORY"
        default: "ALC error"
        }
    }
}

/// Proof that a context's lock is held and the context is current: `al*` calls are made
/// through it so each one's error is read right after the call.
struct ALCalls: ~Copyable {
    fileprivate init() {}

    /// Makes one `al*` call and throws if it raised an error.
    @inline(__always)
    func call<R>(_ function: StaticString, _ body: () -> R) throws(SoundstageError) -> R {
        if let injected = OpenALFaults.refusal(function) { throw Self.failure(function, injected) }
        let result = body()
        let error = alGetError()
        if error != AL_NO_ERROR { throw Self.failure(function, error) }
        return result
    }

    /// Makes one `al*` call whose failure would mean an engine bug (a valid name, a value
    /// validated before the call). It never traps: a failure is counted and kept as a typed
    /// error (``Soundstage/unexpectedOpenALErrors``), reported once per function on stderr, and
    /// the game plays on without that one change.
    @inline(__always)
    func must(_ function: StaticString, _ body: () -> Void) {
        body()
        let error = alGetError()
        if error != AL_NO_ERROR { UnexpectedOpenALErrors.record(Self.failure(function, error)) }
    }

    /// Makes calls that free or stop objects on the way out (`alDeleteSources`, `alSourceStopv`
    /// over names some of which a lost device already took): whatever OpenAL reports, the
    /// objects are gone and there is nothing to do about it. The error is read — so it is not
    /// blamed on the next call — and dropped: the one place an OpenAL error is discarded.
    @inline(__always)
    func freeing(_ body: () -> Void) {
        body()
        _ = alGetError()
    }

    /// What an error OpenAL raised means to a caller: out of memory while making a source is a
    /// spent source budget, while storing samples audio too large to hold; the rest `.openAL`.
    private static func failure(_ function: StaticString, _ error: ALenum) -> SoundstageError {
        let code: SoundstageError.Code = switch (error, "\(function)") {
        case (AL_OUT_OF_MEMORY, "alGenSources"): .sourceBudgetExhausted
        case (AL_OUT_OF_MEMORY, "alBufferData"): .tooLarge
        default: .openAL
        }
        return SoundstageError(code, "\(function) failed",
                               cause: .openAL(function: "\(function)", error: error, name: OpenAL.alErrorName(error)))
    }
}

/// OpenAL errors no valid call should raise, recorded instead of trapping.
enum UnexpectedOpenALErrors {
    private static let state = NIOLockedValueBox((count: 0, last: SoundstageError?.none, reported: Set<String>()))

    static func record(_ error: SoundstageError) {
        let function: String
        if case .openAL(let name, _, _) = error.cause { function = name } else { function = error.message }
        let first = state.withLockedValue { state in
            state.count += 1
            state.last = error
            return state.reported.insert(function).inserted
        }
        if first { Diagnostics.emit("soundstage: unexpected OpenAL error (\(error)); the call had no effect") }
    }

    static var snapshot: (count: Int, last: SoundstageError?) { state.withLockedValue { ($0.count, $0.last) } }
}

extension Soundstage {
    /// How many OpenAL calls failed that no valid call should fail — an engine bug or a broken
    /// OpenAL — since the process started. They never trap: each is counted, the first of each
    /// function is reported on stderr, and the call has no effect.
    public static var unexpectedOpenALErrors: Int { UnexpectedOpenALErrors.snapshot.count }

    /// The last of ``unexpectedOpenALErrors``, as a typed error (code `.openAL`, with the cause).
    public static var lastUnexpectedOpenALError: SoundstageError? { UnexpectedOpenALErrors.snapshot.last }

    /// Clears the OpenAL context Soundstage left current on the calling thread
    /// (`alcSetThreadContext(NULL)`). Call it on a thread that used Soundstage before the thread
    /// ends (a thread pool's, an event loop's): OpenAL Soft otherwise warns that a context was
    /// current for a thread being destroyed and keeps that context's memory until then.
    public static func detachCurrentThread() {
        if !ProcessExit.isExiting, alcGetThreadContext() != nil { _ = alcSetThreadContext(nil) }
    }
}
