#if canImport(Glibc)
import Glibc
#endif

/// The one error type of Soundstage: what went wrong (``code``), a sentence saying so
/// (``message``), the file or object concerned (``subject``) and the underlying cause.
///
/// Its ``Code``s are the one error vocabulary from the engine to the wire: the daemon answers
/// with them (`error.code`) and ``ServerError`` carries them back to a client.
///
/// Every failing libsndfile, OpenAL or system call surfaces as a `SoundstageError` whose
/// ``cause`` carries the library's own code and message, captured right after the call.
public struct SoundstageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable, machine-readable kind of failure. Compare against the static members.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's stable name, e.g. `"notFound"`.
        public let rawValue: String
        /// Creates a code from its stable name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The name, as `rawValue`.
        public var description: String { rawValue }

        /// The file does not exist (`ENOENT`).
        public static let notFound = Code(rawValue: "notFound")
        /// The file exists but may not be read or written (`EACCES`, `EPERM`).
        public static let permissionDenied = Code(rawValue: "permissionDenied")
        /// The data is not audio in a format Soundstage can decode or encode
        /// (libsndfile's `SF_ERR_UNRECOGNISED_FORMAT`, `SF_ERR_UNSUPPORTED_ENCODING`).
        public static let unsupportedFormat = Code(rawValue: "unsupportedFormat")
        /// The data claims to be audio but is malformed or truncated
        /// (libsndfile's `SF_ERR_MALFORMED_FILE`, or a decode error part-way through).
        public static let corruptData = Code(rawValue: "corruptData")
        /// Reading or writing failed at the operating-system level (disk full, a directory, ...).
        public static let io = Code(rawValue: "io")
        /// A caller passed a value outside what the call accepts.
        public static let invalidArgument = Code(rawValue: "invalidArgument")
        /// The audio is larger than the call can hold (for example an OpenAL buffer over 2 GiB).
        public static let tooLarge = Code(rawValue: "tooLarge")
        /// No audio output device could be opened (e.g. a machine without a sound card).
        public static let noOutputDevice = Code(rawValue: "noOutputDevice")
        /// The device lacks an OpenAL extension the call needs.
        public static let extensionMissing = Code(rawValue: "extensionMissing")
        /// An OpenAL call reported an error; ``SoundstageError/cause`` names the function and error.
        public static let openAL = Code(rawValue: "openAL")
        /// A system sound is longer than the registry allows (30 s).
        public static let exceededMaximumDuration = Code(rawValue: "exceededMaximumDuration")
        /// A system sound ID that was never registered, or was disposed.
        public static let unknownSoundID = Code(rawValue: "unknownSoundID")
        /// The scene's audio session is not sounding (inactive or interrupted), so it may not play.
        public static let sessionNotActive = Code(rawValue: "sessionNotActive")
        /// A session cannot activate: a session of higher priority that does not mix holds the output.
        public static let sessionUnavailable = Code(rawValue: "sessionUnavailable")
        /// A scene file is malformed: the message starts with the JSON path of the problem.
        public static let invalidScene = Code(rawValue: "invalidScene")
        /// A source was asked to play but its scene's source budget is used up.
        public static let sourceBudgetExhausted = Code(rawValue: "sourceBudgetExhausted")
        /// A source's ``voice limit`` is full and its steal policy is `none`: the new play was refused.
        public static let voiceLimitReached = Code(rawValue: "voiceLimitReached")
        /// The desktop audio server (PulseAudio or PipeWire) refused or dropped the output stream;
        /// ``SoundstageError/cause`` carries libpulse's error.
        public static let audioServer = Code(rawValue: "audioServer")
        /// No audio input (capture) device exists, or the one named does not: recording needs a
        /// desktop audio server (PulseAudio or PipeWire) with a source.
        public static let noInputDevice = Code(rawValue: "noInputDevice")
        /// The audio session's category does not allow the call: recording needs the `record`
        /// or `playAndRecord` category.
        public static let categoryForbids = Code(rawValue: "categoryForbids")
        /// The object was used after being released (or its device/scene was released).
        public static let released = Code(rawValue: "released")
        /// The audio needs an optional codec library that is not installed (FFmpeg, for AAC and
        /// MPEG-4 files); the message names the packages to install.
        public static let codecUnavailable = Code(rawValue: "codecUnavailable")
        /// Not now: the call cannot run in the state the object is in (e.g. rendering a device
        /// from a completion handler that its own render is running).
        public static let invalidState = Code(rawValue: "invalidState")

        // The daemon's protocol (docs/protocol.md#errors): the same vocabulary on the wire.

        /// A request line is not JSON (or names a member twice).
        public static let badJSON = Code(rawValue: "badJSON")
        /// A request is not valid: not an object, no `id` or `command`, an argument of the wrong
        /// type or out of range, an unknown argument.
        public static let badRequest = Code(rawValue: "badRequest")
        /// A request's `command` names no command.
        public static let unknownCommand = Code(rawValue: "unknownCommand")
        /// A request's `version` names a protocol this daemon does not speak.
        public static let unsupportedVersion = Code(rawValue: "unsupportedVersion")
        /// A request line was longer than 64 KiB; it was skipped.
        public static let lineTooLong = Code(rawValue: "lineTooLong")
        /// Too many of the client's requests are waiting; this one was not run.
        public static let busy = Code(rawValue: "busy")
        /// The request would take the client past one of its quotas; nothing was changed.
        public static let quotaExceeded = Code(rawValue: "quotaExceeded")
        /// The daemon is shutting down.
        public static let shuttingDown = Code(rawValue: "shuttingDown")
        /// Something failed inside the daemon.
        public static let internalError = Code(rawValue: "internalError")
        /// The daemon could not be reached, or the connection to it ended (client side only).
        public static let connection = Code(rawValue: "connection")

        /// The engine's codes, as a library call throws them.
        public static let engineCodes: [Code] = [.notFound, .permissionDenied, .unsupportedFormat, .corruptData, .io, .invalidArgument, .tooLarge, .noOutputDevice, .extensionMissing, .openAL, .exceededMaximumDuration, .unknownSoundID, .sessionNotActive, .sessionUnavailable, .invalidScene, .sourceBudgetExhausted, .voiceLimitReached, .audioServer, .noInputDevice, .categoryForbids, .released, .codecUnavailable, .invalidState]
        /// The daemon's own codes: a request it refused before or instead of the engine.
        public static let protocolCodes: [Code] = [.badJSON, .badRequest, .unknownCommand, .unsupportedVersion, .lineTooLong, .busy, .quotaExceeded, .shuttingDown, .internalError, .connection]
    }

    /// What a failure came from, with the library's own words.
    public enum Cause: Sendable, Equatable, CustomStringConvertible {
        /// libsndfile's error number (`sf_error`) and message (`sf_strerror`).
        case libsndfile(code: Int, message: String)
        /// An OpenAL (`al*`) or ALC (`alc*`) function and the error enum it raised.
        case openAL(function: String, error: Int32, name: String)
        /// A system call and the `errno` it set.
        case posix(function: String, errno: Int32)
        /// Another C library's function (libpulse's `pa_*`), its error number and message.
        case library(function: String, code: Int, message: String)
        /// An FFmpeg function (`avformat_open_input`, `avcodec_send_packet`, ...), its `AVERROR`
        /// code and message, and the last line FFmpeg logged on the thread, if any.
        case ffmpeg(function: String, code: Int32, message: String)

        /// A short text naming the library, the function and its message.
        public var description: String {
            switch self {
            case let .libsndfile(code, message):
                return "libsndfile error \(code): \(message)"
            case let .openAL(function, error, name):
                return "\(function) failed with \(name) (0x\(String(error, radix: 16, uppercase: true)))"
            case let .posix(function, errno):
                return "\(function): \(String(cString: strerror(errno)))"
            case let .library(function, code, message):
                return "\(function) failed with error \(code): \(message)"
            case let .ffmpeg(function, code, message):
                return "FFmpeg's \(function) failed with error \(code): \(message)"
            }
        }
    }

    /// The kind of failure.
    public let code: Code
    /// A sentence saying what happened, without the subject (see ``description``).
    public let message: String
    /// The file path or object the failure concerns, if any.
    public let subject: String?
    /// The underlying library or system error, if any.
    public let cause: Cause?

    /// Creates an error. Library users rarely need this; it is public for extensions.
    public init(_ code: Code, _ message: String, subject: String? = nil, cause: Cause? = nil) {
        self.code = code
        self.message = message
        self.subject = subject
        self.cause = cause
    }

    /// One line: `subject: message (cause)`. Control characters — from a file's bytes or a file
    /// name: a newline, an escape sequence — are written as `\xNN`, so the line stays one line
    /// and cannot drive a terminal.
    public var description: String {
        var text = subject.map { "\($0): \(message)" } ?? message
        if let cause { text += " (\(cause))" }
        return Self.escapingControlCharacters(text)
    }

    /// `text` with every C0 control character and DEL written as `\xNN`.
    public static func escapingControlCharacters(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7F {
                let hex = String(scalar.value, radix: 16)
                out += "\\x" + (hex.count < 2 ? "0" + hex : hex)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
