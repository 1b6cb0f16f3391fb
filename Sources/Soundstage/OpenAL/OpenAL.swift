import COpenAL
import NIOConcurrencyHelpers
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// An OpenAL `ALCcontext *` with the lock that serializes calls into it.
///
/// `@unchecked Sendable`: `raw` is immutable and only passed to OpenAL, which is thread-safe
/// per call; `lock` makes "make current + call + read the error" atomic per context.
final class ContextHandle: @unchecked Sendable, Equatable {
    let raw: OpaquePointer
    let lock = NIOLockedValueBox<Void>(())

    init(raw: OpaquePointer) { self.raw = raw }

    static func == (a: ContextHandle, b: ContextHandle) -> Bool { a.raw == b.raw }
}

/// An OpenAL `ALCdevice *` that may cross threads. ALC device calls are thread-safe in
/// OpenAL Soft; calls that need a current context go through ``OpenAL/withContext(_:_:)``.
struct DeviceHandle: @unchecked Sendable, Equatable {
    let raw: OpaquePointer
}

/// The one chokepoint for OpenAL: every `al*` call runs inside ``withContext(_:_:)`` and every
/// `alc*` call is checked by ``checkALC(_:_:)``.
///
/// Contexts are made current per thread (`alcSetThreadContext`, ALC_EXT_thread_local_context),
/// never process-wide, so scenes on different threads do not contend and code outside
/// Soundstage that calls `alcMakeContextCurrent` cannot redirect Soundstage's calls. Each
/// thread remembers which context it last made current and switches only when needed; each
/// context has a lock, so its error state (`alGetError`) is read by the call that caused it.
enum OpenAL {
    /// Per-thread record of the context this thread made current with `alcSetThreadContext`.
    private static let currentKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// Runs `body` with `context` current on this thread, holding the context's lock.
    @inline(__always)
    static func withContext<R>(_ context: ContextHandle, _ body: (borrowing ALCalls) throws(SoundstageError) -> R)
        throws(SoundstageError) -> R {
        try context.lock.withLock { _ throws(SoundstageError) -> R in
            let raw = UnsafeMutableRawPointer(context.raw)
            if pthread_getspecific(currentKey) != raw {
                guard alcSetThreadContext(context.raw) != 0 else {
                    let error = alcGetError(nil)
                    throw SoundstageError(.openAL, "cannot make the scene's context current",
                                          cause: .openAL(function: "alcSetThreadContext", error: error,
                                                         name: alcErrorName(error)))
                }
                pthread_setspecific(currentKey, raw)
            }
            return try body(ALCalls())
        }
    }

    /// Destroys `context`. This thread lets go of it first; other threads that last used it
    /// hold a reference inside OpenAL Soft until they switch, so its address cannot be reused
    /// while any thread's record still names it.
    static func destroy(_ context: ContextHandle) {
        context.lock.withLock { _ in
            if pthread_getspecific(currentKey) == UnsafeMutableRawPointer(context.raw) {
                alcSetThreadContext(nil)
                pthread_setspecific(currentKey, nil)
            }
            alcDestroyContext(context.raw)
        }
    }

    /// Throws if `alcGetError(device)` reports an error after `function`.
    static func checkALC(_ device: OpaquePointer?, _ function: String) throws(SoundstageError) {
        let error = alcGetError(device)
        if error != ALC_NO_ERROR {
            throw SoundstageError(.openAL, "\(function) failed",
                                  cause: .openAL(function: function, error: error, name: alcErrorName(error)))
        }
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

/// Proof that the OpenAL lock is held and a context is current: `al*` calls are made
/// through it so each one's error is read right after the call.
struct ALCalls: ~Copyable {
    fileprivate init() {}

    /// Makes one `al*` call and throws if it raised an error.
    @inline(__always)
    func call<R>(_ function: StaticString, _ body: () -> R) throws(SoundstageError) -> R {
        let result = body()
        let error = alGetError()
        if error != AL_NO_ERROR { throw Self.failure(function, error) }
        return result
    }

    /// Makes one `al*` call whose failure can only mean an engine bug (valid name, validated
    /// value): traps with the function and error, in release builds too.
    @inline(__always)
    func must(_ function: StaticString, _ body: () -> Void) {
        body()
        let error = alGetError()
        if error != AL_NO_ERROR {
            fatalError("Soundstage internal error: \(function) raised \(OpenAL.alErrorName(error))")
        }
    }

    private static func failure(_ function: StaticString, _ error: ALenum) -> SoundstageError {
        let code: SoundstageError.Code = error == AL_OUT_OF_MEMORY ? .sourceBudgetExhausted : .openAL
        return SoundstageError(code, "\(function) failed",
                               cause: .openAL(function: "\(function)", error: error, name: OpenAL.alErrorName(error)))
    }
}
