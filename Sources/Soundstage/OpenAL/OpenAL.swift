import COpenAL
import Synchronization

/// An OpenAL `ALCcontext *` that may cross threads. Only dereferenced by OpenAL itself, and
/// only under ``OpenAL``'s lock, which is what makes sharing it safe.
struct ContextHandle: @unchecked Sendable, Equatable {
    let raw: OpaquePointer
}

/// An OpenAL `ALCdevice *` that may cross threads. ALC device calls are thread-safe in
/// OpenAL Soft; calls that need a current context go through ``OpenAL/withContext(_:_:)``.
struct DeviceHandle: @unchecked Sendable, Equatable {
    let raw: OpaquePointer
}

/// The one chokepoint for OpenAL: every `al*` call runs inside ``withContext(_:_:)`` and every
/// `alc*` call is checked by ``checkALC(_:_:)``.
///
/// The current context is process-wide (`alcMakeContextCurrent`), so one lock guards
/// "make current + call + read the error". The lock remembers which context is current and
/// switches only when needed, so a game with one scene pays for the lock and nothing else.
/// Soundstage owns the current context: code that links Soundstage must not call
/// `alcMakeContextCurrent` itself.
enum OpenAL {
    /// The context this process has made current, or nil.
    private static let current = Mutex<ContextHandle?>(nil)

    /// Runs `body` with `context` current, under the process-wide OpenAL lock.
    static func withContext<R>(_ context: ContextHandle, _ body: (borrowing ALCalls) throws(SoundstageError) -> R)
        throws(SoundstageError) -> R {
        try current.withLock { (current: inout ContextHandle?) throws(SoundstageError) -> R in
            if current != context {
                guard alcMakeContextCurrent(context.raw) != 0 else {
                    throw SoundstageError(.openAL, "cannot make the scene's context current",
                                          cause: .openAL(function: "alcMakeContextCurrent", error: alcGetError(nil),
                                                         name: alcErrorName(alcGetError(nil))))
                }
                current = context
            }
            _ = alGetError() // start from a clean error state
            return try body(ALCalls())
        }
    }

    /// Destroys `context`, un-making it current first if it is.
    static func destroy(_ context: ContextHandle) {
        current.withLock { current in
            if current == context {
                alcMakeContextCurrent(nil)
                current = nil
            }
            alcDestroyContext(context.raw)
        }
    }

    /// Forgets which context is current (after outside code changed it).
    static func resynchronize() {
        current.withLock { current in
            current = alcGetCurrentContext().map(ContextHandle.init(raw:))
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
