import CFFmpegSupport
import NIOConcurrencyHelpers
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Where FFmpeg's own log lines go once its libraries are loaded: to ``FFmpeg/logHandler`` if
/// one is set, never raw to stderr. The last warning or error on each thread is kept, so an
/// error Soundstage throws can quote what FFmpeg said about it.
enum FFmpegLog {
    /// `AV_LOG_WARNING`: this and more severe lines are kept for errors.
    static let warningLevel: Int32 = 24

    /// Gives FFmpeg the C callback (Sources/CFFmpegSupport), which formats each line and hands
    /// it to ``receive(context:level:line:)``.
    static func install(_ setCallback: @convention(c) (UnsafeRawPointer?) -> Void) {
        soundstage_ffmpeg_set_line_handler { context, level, line in
            guard let line else { return }
            FFmpegLog.receive(context: context, level: level, line: String(cString: line))
        }
        setCallback(soundstage_ffmpeg_log_callback())
    }

    private static let handler = NIOLockedValueBox<(@Sendable (FFmpeg.LogMessage) -> Void)?>(nil)

    static var currentHandler: (@Sendable (FFmpeg.LogMessage) -> Void)? {
        get { handler.withLockedValue { $0 } }
        set { handler.withLockedValue { $0 = newValue } }
    }

    /// The thread's last warning or error from FFmpeg since ``clearLastLine()``.
    static var lastLine: String? {
        guard let raw = pthread_getspecific(key) else { return nil }
        return Unmanaged<LineBox>.fromOpaque(raw).takeUnretainedValue().line
    }

    /// Forgets the thread's last line (before a call whose failure should quote only its own).
    static func clearLastLine() {
        if let raw = pthread_getspecific(key) { Unmanaged<LineBox>.fromOpaque(raw).takeUnretainedValue().line = nil }
    }

    private final class LineBox { var line: String? }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { raw in if let raw { Unmanaged<LineBox>.fromOpaque(raw).release() } }
        return key
    }()

    private static func remember(_ line: String) {
        if let raw = pthread_getspecific(key) {
            Unmanaged<LineBox>.fromOpaque(raw).takeUnretainedValue().line = line
        } else {
            let box = LineBox()
            box.line = line
            pthread_setspecific(key, Unmanaged.passRetained(box).toOpaque())
        }
    }

    /// One line from FFmpeg. `context` points at a struct whose first member is an
    /// `AVClass *`, whose `item_name` names the component ("aac", "mov,mp4,...").
    private static func receive(context: UnsafeMutableRawPointer?, level: Int32, line text: String) {
        var line = text
        while line.last == "\n" || line.last == "\r" { line.removeLast() }
        guard !line.isEmpty else { return }
        var component = ""
        if let context, let avClass = context.load(as: UnsafeRawPointer?.self) {
            // AVClass: const char *class_name; const char *(*item_name)(void *ctx); ...
            typealias ItemName = @convention(c) (UnsafeMutableRawPointer?) -> UnsafePointer<CChar>?
            if let itemName = avClass.load(fromByteOffset: MemoryLayout<UnsafeRawPointer>.size, as: ItemName?.self),
               let name = itemName(context) {
                component = String(cString: name)
            }
        }
        let message = FFmpeg.LogMessage(level: FFmpeg.LogMessage.Level(ffmpegLevel: level), component: component,
                                         text: SoundstageError.escapingControlCharacters(line))
        if level <= FFmpegLog.warningLevel { remember(message.description) }
        FFmpegLog.currentHandler?(message)
    }
}

/// FFmpeg, the optional decoder and encoder for AAC, HE-AAC and ALAC in MPEG-4 and CAF, and ADTS
/// AAC: whether it is installed, its versions, and where its log goes.
public enum FFmpeg {
    /// Whether FFmpeg's libraries could be loaded (they are loaded on first use, once a process).
    public static var isAvailable: Bool { FFmpegLibrary.isAvailable }

    /// The loaded versions (`libavformat 59.27.100, libavcodec 59.37.100, libavutil 57.28.100`),
    /// or nil when FFmpeg is not installed.
    public static var versionDescription: String? { try? FFmpegLibrary.load().versionDescription }

    /// Throws the error that AAC files meet when FFmpeg is missing (`.codecUnavailable`, naming
    /// the Debian packages to install); returns when it is installed.
    public static func requireAvailable() throws { _ = try FFmpegLibrary.load() }

    /// Whether the loaded FFmpeg has a decoder of this name (`"aac"`, `"alac"`, `"ilbc"`):
    /// `avcodec_find_decoder_by_name`. False when FFmpeg is not installed.
    public static func hasDecoder(named name: String) -> Bool {
        guard let ff = try? FFmpegLibrary.load() else { return false }
        return ff.avcodec_find_decoder_by_name(name) != nil
    }

    /// Whether the loaded FFmpeg has an encoder of this name (`"aac"`, `"alac"`):
    /// `avcodec_find_encoder_by_name`. False when FFmpeg is not installed.
    public static func hasEncoder(named name: String) -> Bool {
        guard let ff = try? FFmpegLibrary.load() else { return false }
        return ff.avcodec_find_encoder_by_name(name) != nil
    }

    /// Receives FFmpeg's own log lines (warnings about damaged packets and the like), on the
    /// thread that decodes. Nil (the default) drops them; either way they never reach stderr,
    /// and the last warning or error of a failed call is quoted in the error thrown.
    public static var logHandler: (@Sendable (LogMessage) -> Void)? {
        get { FFmpegLog.currentHandler }
        set { FFmpegLog.currentHandler = newValue }
    }

    /// One line of FFmpeg's log.
    public struct LogMessage: Sendable, CustomStringConvertible {
        /// How severe it is.
        public enum Level: Int, Sendable, Comparable {
            /// Debug detail (FFmpeg's info level and below).
            case info
            /// Something odd that decoding survived (`AV_LOG_WARNING`).
            case warning
            /// A failure (`AV_LOG_ERROR` and worse).
            case error

            init(ffmpegLevel: Int32) {
                self = ffmpegLevel <= 16 ? .error : ffmpegLevel <= 24 ? .warning : .info
            }

            /// Orders by severity.
            public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
        }

        /// Its severity.
        public let level: Level
        /// The FFmpeg component that wrote it: `aac`, `mov,mp4,m4a,3gp,3g2,mj2`, ... (may be empty).
        public let component: String
        /// The line, control characters escaped.
        public let text: String

        /// `[aac] Reserved bit set.`
        public var description: String { component.isEmpty ? text : "[\(component)] \(text)" }
    }
}
