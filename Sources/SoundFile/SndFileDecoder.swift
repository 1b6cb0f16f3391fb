import CSndFile
#if canImport(Glibc)
import Glibc
#endif
import SoundstageErrors
import NumberText

/// A source of decoded frames behind ``SoundFile``: libsndfile, or a built-in codec for what
/// libsndfile lacks (Apple IMA4 in CAF).
protocol FrameDecoder: AnyObject {
    /// The stream description as the container states it.
    var format: AudioFormat { get }
    /// Decodes up to `frames` frames into `destination` (interleaved); returns how many, 0 at the end.
    func read(into destination: UnsafeMutablePointer<Float>, frames: Int) throws -> Int
    /// Moves the read position to `frame`.
    func seek(toFrame frame: Int64) throws
}

/// Bytes held in memory, read by libsndfile through its virtual I/O callbacks.
final class MemoryStream {
    let bytes: [UInt8]
    var position: Int64 = 0
    init(bytes: [UInt8]) { self.bytes = bytes }

    static func from(_ pointer: UnsafeMutableRawPointer?) -> MemoryStream {
        Unmanaged<MemoryStream>.fromOpaque(pointer!).takeUnretainedValue()
    }

    /// The callbacks libsndfile calls; `user_data` is an unretained `MemoryStream`.
    static let virtualIO = SF_VIRTUAL_IO(
        get_filelen: { user in Int64(MemoryStream.from(user).bytes.count) },
        seek: { offset, whence, user in
            let stream = MemoryStream.from(user)
            let base: Int64
            switch whence {
            case SEEK_CUR: base = stream.position
            case SEEK_END: base = Int64(stream.bytes.count)
            default: base = 0
            }
            let target = base + offset
            guard target >= 0 else { return -1 }
            stream.position = target
            return target
        },
        read: { destination, count, user in
            let stream = MemoryStream.from(user)
            let available = max(0, Int64(stream.bytes.count) - stream.position)
            let n = min(max(count, 0), available)
            if n > 0, let destination {
                stream.bytes.withUnsafeBytes { raw in
                    destination.copyMemory(from: raw.baseAddress! + Int(stream.position), byteCount: Int(n))
                }
                stream.position += n
            }
            return n
        },
        write: { _, _, _ in 0 },
        tell: { user in MemoryStream.from(user).position }
    )
}

/// Decodes through libsndfile. Every `sf_*` call goes through this type, which reads the
/// error state right after a failing call.
final class SndFileDecoder: FrameDecoder {
    private let handle: OpaquePointer
    private let subject: String
    /// Keeps the memory or pipe stream alive while libsndfile holds a pointer to it.
    private let stream: AnyObject?
    let format: AudioFormat

    /// Opens an already-open file descriptor; libsndfile takes ownership and closes it (on failure too).
    init(fileDescriptor fd: Int32, subject: String) throws {
        var info = SF_INFO()
        // The first bytes, for an error that says what was found (libsndfile may close `fd` on failure).
        var prefix = [UInt8](repeating: 0, count: 12)
        let got = prefix.withUnsafeMutableBytes { pread(fd, $0.baseAddress, 12, 0) }
        prefix = Array(prefix.prefix(max(0, got)))
        let opened = SndFileOpenLock.holding { () -> Result<OpaquePointer, SoundstageError> in
            // libsndfile has closed `fd` already on failure (close_desc = 1 holds on failure too):
            // closing it again could close a descriptor another thread just opened.
            sf_open_fd(fd, Int32(SFM_READ), &info, 1).map { .success($0) } ?? .failure(Self.openError(subject: subject, prefix: prefix))
        }
        let handle = try opened.get()
        self.handle = handle
        self.subject = subject
        self.stream = nil
        self.format = try Self.describe(info, subject: subject, handle: handle)
    }

    /// Opens bytes arriving on `fd`, which cannot seek (the decoder owns `fd` from now on),
    /// through a ``PipeInput``: FLAC and MPEG through its kept-bytes reader (libsndfile's own
    /// pipe reading drops the bytes its detection read, and libFLAC then "lost sync"; for MPEG it
    /// over-reads a buffer), the rest through a relay pipe libsndfile reads itself, front to back.
    /// Either way ``cancelReads()`` ends a wait.
    init(pipe fd: Int32, subject: String) throws {
        let input = try PipeInput(fd: fd, subject: subject)
        var info = SF_INFO()
        let opened: OpaquePointer?
        if let stream = input.kept {
            var io = PipeStream.virtualIO
            opened = sf_open_virtual(&io, Int32(SFM_READ), &info, Unmanaged.passUnretained(stream).toOpaque())
        } else {
            opened = sf_open_fd(input.relayed, Int32(SFM_READ), &info, 1)
        }
        guard let handle = opened else {
            input.cancel()
            throw Self.openError(subject: subject, prefix: input.prefix)
        }
        self.handle = handle
        self.subject = subject
        self.stream = input
        self.format = try Self.describe(info, subject: subject, handle: handle)
    }

    /// Opens bytes in memory.
    init(bytes: [UInt8], subject: String) throws {
        let stream = MemoryStream(bytes: bytes)
        var info = SF_INFO()
        var io = MemoryStream.virtualIO
        let user = Unmanaged.passUnretained(stream).toOpaque()
        let opened = SndFileOpenLock.holding { () -> Result<OpaquePointer, SoundstageError> in
            sf_open_virtual(&io, Int32(SFM_READ), &info, user).map { .success($0) }
                ?? .failure(Self.openError(subject: subject, prefix: Array(bytes.prefix(12))))
        }
        let handle = try opened.get()
        self.handle = handle
        self.subject = subject
        self.stream = stream
        self.format = try Self.describe(info, subject: subject, handle: handle)
    }

    deinit { sf_close(handle) }

    /// Ends a read waiting on a pipe's writer (see ``PipeStream/cancel()``).
    func cancelReads() { (stream as? PipeInput)?.cancel() }

    func read(into destination: UnsafeMutablePointer<Float>, frames: Int) throws -> Int {
        let got = sf_readf_float(handle, destination, sf_count_t(frames))
        if got <= 0 {
            let code = sf_error(handle)
            if code != 0 {
                throw SoundstageError(.corruptData, "decoding failed", subject: subject,
                                      cause: .libsndfile(code: Int(code), message: String(cString: sf_strerror(handle))))
            }
            return 0
        }
        return Int(got)
    }

    func seek(toFrame frame: Int64) throws {
        if sf_seek(handle, frame, SEEK_SET) < 0 {
            throw SoundstageError(.invalidArgument, "cannot seek to frame \(frame)", subject: subject,
                                  cause: .libsndfile(code: Int(sf_error(handle)), message: String(cString: sf_strerror(handle))))
        }
    }

    /// The error for a failed `sf_open*`, read from libsndfile's global error state at once
    /// (under ``SndFileOpenLock`` but for pipes). `prefix`, the file's first bytes, says what was
    /// found when libsndfile's own message would mislead (it blames "a pipe" for a regular file
    /// it cannot parse), and decides when the global was reset by another thread's call before it
    /// was read (a code of 0 after a failure): data that begins like no container libsndfile
    /// reads is an unsupported format, anything else malformed.
    private static func openError(subject: String, prefix: [UInt8]) -> SoundstageError {
        var code = Int(sf_error(nil))
        var message = String(cString: sf_strerror(nil))
        let shown = prefix.map { (0x20..<0x7F).contains($0) ? String(UnicodeScalar($0)) : "\\x" + $0.hex(digits: 2) }.joined()
        if code == 0 {
            code = Self.beginsLikeAContainer(prefix) ? Int(SF_ERR_MALFORMED_FILE) : Int(SF_ERR_UNRECOGNISED_FORMAT)
            message = "libsndfile's error was overwritten by another thread before it was read; "
                + (code == Int(SF_ERR_MALFORMED_FILE) ? "the data begins like an audio container." : "no container libsndfile reads begins this way.")
        }
        if message.contains("not a regular file") {
            // libsndfile's message for a regular file none of its parsers could read.
            message = "no format libsndfile reads matches the data, which begins \"\(shown)\""
            return SoundstageError(.unsupportedFormat, "not an audio format Soundstage can read", subject: subject,
                                   cause: .libsndfile(code: code, message: message))
        }
        if code == Int(SF_ERR_UNRECOGNISED_FORMAT) { message += " The data begins \"\(shown)\"." }
        let kind: SoundstageError.Code
        let text: String
        switch code {
        case Int(SF_ERR_UNRECOGNISED_FORMAT), Int(SF_ERR_UNSUPPORTED_ENCODING):
            kind = .unsupportedFormat; text = "not an audio format Soundstage can read"
        case Int(SF_ERR_SYSTEM):
            kind = .io; text = "could not be read"
        default:
            kind = .corruptData; text = "malformed or truncated audio data"
        }
        return SoundstageError(kind, text, subject: subject, cause: .libsndfile(code: code, message: message))
    }

    /// Whether `prefix` begins with the magic of a container libsndfile reads (WAV, RF64, W64,
    /// AIFF, AU, CAF, FLAC, Ogg, MPEG audio, AVR, VOC, NIST): only used when libsndfile's own
    /// verdict was lost.
    static func beginsLikeAContainer(_ prefix: [UInt8]) -> Bool {
        let magics = ["RIFF", "RIFX", "RF64", "riff", "FORM", ".snd", "dns.", "caff", "fLaC", "OggS", "ID3", "2BIT", "Crea", "NIST"]
        if magics.contains(where: { prefix.starts(with: Array($0.utf8)) }) { return true }
        return prefix.count >= 2 && prefix[0] == 0xFF && prefix[1] & 0xE0 == 0xE0   // an MPEG audio frame
    }

    private static func describe(_ info: SF_INFO, subject: String, handle: OpaquePointer) throws -> AudioFormat {
        guard info.channels > 0, info.samplerate > 0, info.frames >= 0 else {
            sf_close(handle)
            throw SoundstageError(.corruptData, "header states \(info.channels) channels at \(info.samplerate) Hz",
                                  subject: subject)
        }
        if let truncation = truncation(in: log(handle)) {
            sf_close(handle)
            throw SoundstageError(.corruptData, "truncated: \(truncation)", subject: subject)
        }
        // libsndfile reports Int64.max frames when an Ogg header does not say: 0 means "unknown".
        let frames = info.frames == Int64.max ? 0 : info.frames
        return AudioFormat(container: SndFileFormat.container(of: Int(info.format)),
                           encoding: SndFileFormat.encoding(of: Int(info.format)),
                           sampleRate: Int(info.samplerate), channels: Int(info.channels), frames: frames)
    }

    /// libsndfile's parse log for an open file (`SFC_GET_LOG_INFO`).
    private static func log(_ handle: OpaquePointer) -> String {
        var text = [CChar](repeating: 0, count: 8192)
        _ = sf_command(handle, Int32(SFC_GET_LOG_INFO), &text, Int32(text.count))
        let bytes = text.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Finds a data chunk whose declared size exceeds what the file holds, in libsndfile's log
    /// (lines like `data : 96000 (should be 49956)`). Streaming writers' placeholders
    /// (0, 0x7FFFFFFF, 0xFFFFFFFF) are not truncation; nor is a wrong RIFF/FORM size alone.
    static func truncation(in log: String) -> String? {
        for line in log.split(separator: "\n") {
            let trimmed = line.trimmingPrefix(while: { $0 == " " })
            guard ["data", "SSND", "Data Size"].contains(where: { trimmed.hasPrefix($0) }),
                  let should = trimmed.firstRange(of: "(should be ") else { continue }
            let declaredText = trimmed[..<should.lowerBound].split(separator: ":").last?
                .trimmingPrefix(while: { $0 == " " }).split(separator: " ").first ?? ""
            let actualText = trimmed[should.upperBound...].prefix(while: { $0.isNumber })
            let declared = declaredText.hasPrefix("0x") ? Int64(declaredText.dropFirst(2), radix: 16) : Int64(declaredText)
            guard let declared, let actual = Int64(actualText) else { continue }
            if declared > actual && ![0, 0x7FFF_FFFF, 0xFFFF_FFFF].contains(declared) {
                return "the audio data should be \(declared) bytes but the file holds \(actual)"
            }
        }
        return nil
    }
}

/// Conversions between libsndfile's format constants and ``Container`` / ``SampleEncoding``.
enum SndFileFormat {
    static func container(of format: Int) -> Container {
        switch format & SF_FORMAT_TYPEMASK {
        case SF_FORMAT_WAV, SF_FORMAT_WAVEX: .wav
        case SF_FORMAT_AIFF: .aiff
        case SF_FORMAT_AU: .au
        case SF_FORMAT_CAF: .caf
        case SF_FORMAT_FLAC: .flac
        case SF_FORMAT_OGG: .ogg
        case SF_FORMAT_MPEG: .mpeg
        case SF_FORMAT_W64, SF_FORMAT_RF64: .wav64
        default: .other
        }
    }

    static func encoding(of format: Int) -> SampleEncoding {
        let container = format & SF_FORMAT_TYPEMASK
        switch format & SF_FORMAT_SUBMASK {
        case SF_FORMAT_PCM_S8: return .pcmS8
        case SF_FORMAT_PCM_U8: return .pcmU8
        case SF_FORMAT_PCM_16: return container == SF_FORMAT_FLAC ? .flac : .pcm16
        case SF_FORMAT_PCM_24: return container == SF_FORMAT_FLAC ? .flac : .pcm24
        case SF_FORMAT_PCM_32: return .pcm32
        case SF_FORMAT_FLOAT: return .float32
        case SF_FORMAT_DOUBLE: return .float64
        case SF_FORMAT_ULAW: return .ulaw
        case SF_FORMAT_ALAW: return .alaw
        case SF_FORMAT_IMA_ADPCM: return .imaADPCM
        case SF_FORMAT_MS_ADPCM: return .msADPCM
        case SF_FORMAT_GSM610: return .gsm610
        case SF_FORMAT_ALAC_16: return .alac16
        case SF_FORMAT_ALAC_20: return .alac20
        case SF_FORMAT_ALAC_24: return .alac24
        case SF_FORMAT_ALAC_32: return .alac32
        case SF_FORMAT_VORBIS: return .vorbis
        case SF_FORMAT_OPUS: return .opus
        case SF_FORMAT_MPEG_LAYER_I: return .mpegLayer1
        case SF_FORMAT_MPEG_LAYER_II: return .mpegLayer2
        case SF_FORMAT_MPEG_LAYER_III: return .mpegLayer3
        default: return .other
        }
    }

    /// The libsndfile major|minor format for writing, or nil when libsndfile cannot write it.
    static func code(container: Container, encoding: SampleEncoding) -> Int? {
        let major: Int
        switch container {
        case .wav: major = SF_FORMAT_WAV
        case .aiff: major = SF_FORMAT_AIFF
        case .au: major = SF_FORMAT_AU
        case .caf: major = SF_FORMAT_CAF
        case .flac: major = SF_FORMAT_FLAC
        case .ogg: major = SF_FORMAT_OGG
        case .mpeg: major = SF_FORMAT_MPEG
        case .wav64: major = SF_FORMAT_W64
        case .mp4, .adts, .other: return nil
        }
        let minor: Int
        switch encoding {
        case .pcmS8: minor = SF_FORMAT_PCM_S8
        case .pcmU8: minor = SF_FORMAT_PCM_U8
        case .pcm16, .flac: minor = SF_FORMAT_PCM_16
        case .pcm24: minor = SF_FORMAT_PCM_24
        case .pcm32: minor = SF_FORMAT_PCM_32
        case .float32: minor = SF_FORMAT_FLOAT
        case .float64: minor = SF_FORMAT_DOUBLE
        case .ulaw: minor = SF_FORMAT_ULAW
        case .alaw: minor = SF_FORMAT_ALAW
        case .imaADPCM: minor = SF_FORMAT_IMA_ADPCM
        case .msADPCM: minor = SF_FORMAT_MS_ADPCM
        case .gsm610: minor = SF_FORMAT_GSM610
        case .alac16: minor = SF_FORMAT_ALAC_16
        case .alac20: minor = SF_FORMAT_ALAC_20
        case .alac24: minor = SF_FORMAT_ALAC_24
        case .alac32: minor = SF_FORMAT_ALAC_32
        case .vorbis: minor = SF_FORMAT_VORBIS
        case .opus: minor = SF_FORMAT_OPUS
        case .mpegLayer1: minor = SF_FORMAT_MPEG_LAYER_I
        case .mpegLayer2: minor = SF_FORMAT_MPEG_LAYER_II
        case .mpegLayer3: minor = SF_FORMAT_MPEG_LAYER_III
        case .aac, .ilbc, .other: return nil
        }
        return major | minor
    }
}
