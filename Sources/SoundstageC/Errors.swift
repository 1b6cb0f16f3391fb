import CSoundstage
import SoundstageErrors
import SoundstageProtocol

/// A failure of a C API call: the code it returns and the message `ss_error_message()` gives.
struct CAPIError: Error {
    let code: ss_result
    let message: String

    init(_ code: ss_result, _ message: String) {
        self.code = code
        self.message = message
    }

    /// A handle that did not resolve.
    static func problem(_ problem: HandleProblem, _ expected: HandleKind) -> CAPIError {
        switch problem {
        case .null: CAPIError(SS_ERROR_NULL_ARGUMENT, "the \(expected.cName) handle is NULL")
        case .invalid: CAPIError(SS_ERROR_INVALID_HANDLE, "not a handle of this library (expected \(expected.cName))")
        case .stale: CAPIError(SS_ERROR_STALE_HANDLE, "the \(expected.cName) handle was destroyed (or its parent was)")
        case let .wrongKind(kind): CAPIError(SS_ERROR_WRONG_HANDLE_KIND, "expected \(expected.cName), got \(kind.cName)")
        }
    }

    /// A required pointer argument was NULL.
    static func null(_ argument: String) -> CAPIError { CAPIError(SS_ERROR_NULL_ARGUMENT, "\(argument) is NULL") }

    /// An engine error, with its code mapped and its whole description as the message.
    init(_ error: SoundstageError) {
        self.init(Self.code(of: error.code), error.description)
    }

    private static let codes: [SoundstageError.Code: ss_result] = [
        .notFound: SS_ERROR_NOT_FOUND, .permissionDenied: SS_ERROR_PERMISSION_DENIED,
        .unsupportedFormat: SS_ERROR_UNSUPPORTED_FORMAT, .corruptData: SS_ERROR_CORRUPT_DATA, .io: SS_ERROR_IO,
        .invalidArgument: SS_ERROR_INVALID_ARGUMENT, .tooLarge: SS_ERROR_TOO_LARGE,
        .noOutputDevice: SS_ERROR_NO_OUTPUT_DEVICE, .extensionMissing: SS_ERROR_EXTENSION_MISSING,
        .openAL: SS_ERROR_OPENAL, .exceededMaximumDuration: SS_ERROR_EXCEEDED_MAXIMUM_DURATION,
        .unknownSoundID: SS_ERROR_UNKNOWN_SOUND_ID, .sessionNotActive: SS_ERROR_SESSION_NOT_ACTIVE,
        .sessionUnavailable: SS_ERROR_SESSION_UNAVAILABLE, .invalidScene: SS_ERROR_INVALID_SCENE,
        .sourceBudgetExhausted: SS_ERROR_SOURCE_BUDGET_EXHAUSTED, .voiceLimitReached: SS_ERROR_VOICE_LIMIT_REACHED,
        .audioServer: SS_ERROR_AUDIO_SERVER, .noInputDevice: SS_ERROR_NO_INPUT_DEVICE,
        .categoryForbids: SS_ERROR_CATEGORY_FORBIDS, .released: SS_ERROR_RELEASED, .codecUnavailable: SS_ERROR_CODEC_UNAVAILABLE, .invalidState: SS_ERROR_INVALID_STATE,
        .connection: SS_ERROR_CONNECTION, .internalError: SS_ERROR_INTERNAL,
    ]

    /// The C code of an engine or daemon error code (the daemon's refusals are SS_ERROR_DAEMON).
    static func code(of code: SoundstageError.Code) -> ss_result {
        if let mapped = codes[code] { return mapped }
        return SoundstageError.Code.protocolCodes.contains(code) ? SS_ERROR_DAEMON : SS_ERROR_INTERNAL
    }
}

extension HandleKind {
    /// The C type's name, for messages.
    var cName: String {
        switch self {
        case .device: "ss_device"
        case .scene: "ss_scene"
        case .buffer: "ss_buffer"
        case .source: "ss_source"
        case .group: "ss_group"
        case .reverbZone: "ss_reverb_zone"
        case .voiceLimit: "ss_voice_limit"
        case .session: "ss_session"
        case .soundRegistry: "ss_sound_registry"
        case .recorder: "ss_recorder"
        case .sceneFile: "ss_scene_file"
        case .client: "ss_client"
        }
    }
}

/// Runs the body of a C API function: SS_OK, or the failure's code with its message stored as
/// the thread's last error. Nothing thrown gets past it.
@inline(__always)
func capi(_ body: () throws -> Void) -> ss_result {
    do {
        try body()
        return SS_OK
    } catch {
        return fail(error)
    }
}

/// Stores `error`'s message and returns its code.
@inline(never)
func fail(_ error: any Error) -> ss_result {
    let failure: CAPIError
    switch error {
    case let error as CAPIError: failure = error
    case let error as SoundstageError: failure = CAPIError(error)
    case let error as ServerError: failure = CAPIError(CAPIError.code(of: error.code), error.description)
    default: failure = CAPIError(SS_ERROR_INTERNAL, "\(error)")
    }
    soundstage_internal_set_error(failure.message)
    return failure.code
}

/// Throws the refusal a setter just met on this thread (see `Scene.installCRefusalHandler`):
/// NaN and infinities are SS_ERROR_NOT_FINITE, other refused values SS_ERROR_OUT_OF_RANGE. The
/// message was stored when the value was refused.
@inline(__always)
func checkRefusal(finite: Bool) throws {
    if soundstage_internal_take_refusal() != 0 { throw refusal(finite: finite) }
}

@inline(never)
private func refusal(finite: Bool) -> CAPIError {
    CAPIError(finite ? SS_ERROR_OUT_OF_RANGE : SS_ERROR_NOT_FINITE, String(cString: ss_error_message()))
}

// MARK: Argument helpers

/// A C string argument as a Swift string; NULL is an error naming `argument`.
func string(_ pointer: UnsafePointer<CChar>?, _ argument: String) throws -> String {
    guard let pointer else { throw CAPIError.null(argument) }
    return String(cString: pointer)
}

/// An optional C string argument (NULL: nil).
func optionalString(_ pointer: UnsafePointer<CChar>?) -> String? { pointer.map { String(cString: $0) } }

/// Writes `value` through an output pointer; NULL is an error naming `argument`.
@inline(__always)
func write<T>(_ value: T, to pointer: UnsafeMutablePointer<T>?, _ argument: String = "the output pointer") throws {
    guard let pointer else { throw CAPIError.null(argument) }
    pointer.pointee = value
}

/// Checks that a pointer argument is not NULL before anything happens.
@inline(__always)
func require<T>(_ pointer: UnsafeMutablePointer<T>?, _ argument: String = "the output pointer") throws -> UnsafeMutablePointer<T> {
    guard let pointer else { throw CAPIError.null(argument) }
    return pointer
}

/// A getter: writes what `get` reads to `out` (NULL: SS_ERROR_NULL_ARGUMENT), only on success.
func reading<T>(_ out: UnsafeMutablePointer<T>?, _ get: () throws -> T) -> ss_result {
    capi {
        let out = try require(out)
        out.pointee = try get()
    }
}

/// A getter of a switch: writes 1 or 0 to `out`, only on success.
func readingFlag(_ out: UnsafeMutablePointer<Int32>?, _ get: () throws -> Bool) -> ss_result {
    reading(out) { try get() ? 1 : 0 }
}

/// A finite double argument in `range`.
func checked(_ value: Double, _ range: ClosedRange<Double>, _ argument: String) throws -> Double {
    guard value.isFinite else { throw CAPIError(SS_ERROR_NOT_FINITE, "\(argument) = \(value) (must be finite)") }
    guard range.contains(value) else { throw CAPIError(SS_ERROR_OUT_OF_RANGE, "\(argument) = \(value) (must be in \(range))") }
    return value
}

/// A float argument that must be finite and in `range`.
func checked(_ value: Float, _ range: ClosedRange<Float>, _ argument: String) throws -> Float {
    Float(try checked(Double(value), Double(range.lowerBound)...Double(range.upperBound), argument))
}

/// An integer argument in `range`.
func checked<I: BinaryInteger>(_ value: I, _ range: ClosedRange<Int>, _ argument: String) throws -> Int {
    guard let int = Int(exactly: value), range.contains(int) else {
        throw CAPIError(SS_ERROR_OUT_OF_RANGE, "\(argument) = \(value) (must be in \(range))")
    }
    return int
}
