// How Apple's OpenAL extensions report a bad input: in OpenAL Soft's own error state, so that the
// game's alGetError and alcGetError see it as they see OpenAL Soft's errors (the first error sticks
// until read; per context for AL, per device or the NULL device for ALC). OpenAL Soft has no call
// that sets an error, so each code is recorded by a call OpenAL Soft refuses with exactly that code
// and which changes nothing else. Nothing here calls alGetError: the game's pending error stays
// the game's.
import COpenAL

/// An OpenAL error an extension function reports.
struct ALError: Error, Equatable {
    /// The AL error code (`AL_INVALID_VALUE`, ...).
    let code: ALenum

    static let invalidName = ALError(code: AL_INVALID_NAME)
    static let invalidEnum = ALError(code: AL_INVALID_ENUM)
    static let invalidValue = ALError(code: AL_INVALID_VALUE)
    static let invalidOperation = ALError(code: AL_INVALID_OPERATION)

    /// Records the error for `alGetError` of the current context (nothing when none is current:
    /// OpenAL has no error state without a context).
    func record() {
        switch code {
        case AL_INVALID_NAME: alSourcef(0, AL_GAIN, 1)                 // source 0 is never a source
        case AL_INVALID_ENUM: alListenerf(0, 0)                        // no listener property 0
        case AL_INVALID_VALUE: alListenerf(AL_GAIN, -1)                // a negative gain
        default: _ = alIsBufferFormatSupportedSOFT(AL_FORMAT_MONO16)   // 1.19.1: always AL_INVALID_OPERATION
        }
    }
}

/// Records `ALC_INVALID_VALUE` for `alcGetError(NULL)`: a size of 0 is refused before anything is read.
func recordALCInvalidValue() {
    var value: ALCint = 0
    alcGetIntegerv(nil, ALC_MAJOR_VERSION, 0, &value)
}

/// Records `ALC_INVALID_CONTEXT` for `alcGetError(NULL)`: a pointer that is no context is refused
/// (OpenAL Soft compares it with its contexts and never reads through it).
func recordALCInvalidContext() {
    _ = alcGetContextsDevice(OpaquePointer(bitPattern: notAContext))
}

/// The address of a byte of our own, which no OpenAL context can have.
private let notAContext = UInt(bitPattern: UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1))

/// Runs `body` on the current context and returns `AL_NO_ERROR`, or records and returns what it
/// threw; with no context current, `AL_INVALID_OPERATION` (and `ALC_INVALID_CONTEXT` for
/// `alcGetError(NULL)`).
func alStatus(_ body: (OpaquePointer) throws(ALError) -> Void) -> ALenum {
    guard let context = alcGetCurrentContext() else {
        recordALCInvalidContext()
        return AL_INVALID_OPERATION
    }
    do {
        try body(context)
        return AL_NO_ERROR
    } catch {
        error.record()
        return error.code
    }
}
