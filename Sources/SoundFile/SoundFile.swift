#if canImport(Glibc)
import Glibc
#endif
import NumberText
@_exported import SoundstageErrors

/// An audio file open for decoding: from a path or from bytes in memory.
///
/// Reads every format libsndfile 1.2 reads (WAV, AIFF, AU, CAF, FLAC, Ogg Vorbis/Opus, MP3, ...)
/// plus Apple IMA4 in CAF, and — through FFmpeg, when installed — AAC, HE-AAC and ALAC in
/// MPEG-4 (`.m4a`, `.mp4`), AAC in CAF, and ADTS `.aac`. The decoder is chosen from the
/// file's first bytes, never from its name. Decode in chunks with ``read(frames:)`` (for streaming) or all at once
/// with ``readAll(maxFrames:)``. A `SoundFile` keeps a read position, so use one per thread.
public final class SoundFile {
    /// The stream description from the file's header.
    public let format: AudioFormat
    /// The path it was opened from, or the name given for in-memory data.
    public let name: String
    private let decoder: FrameDecoder
    /// Whether it can seek: false for audio read from a pipe, a socket or a terminal.
    public let isSeekable: Bool
    /// The codec's own details (profile, bit rate, priming and remainder frames) for files
    /// FFmpeg decodes; nil for the formats libsndfile reads.
    public let codecDetails: CodecDetails?
    /// Whether anything was decoded or sought since opening.
    private var moved = false

    /// Opens the file at `path`.
    ///
    /// - Throws: ``SoundstageError`` with `.notFound`, `.permissionDenied`, `.io` (e.g. a directory),
    ///   `.unsupportedFormat` (not audio, or an encoding libsndfile lacks), `.corruptData`
    ///   (empty, malformed or truncated), carrying libsndfile's or FFmpeg's own message, or
    ///   `.codecUnavailable` for an AAC/MPEG-4 file when FFmpeg is not installed.
    public init(path: String) throws {
        // O_NONBLOCK: opening a FIFO must not wait for a writer; only regular files are read.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            throw SoundstageError.posix("open", errno: errno, path: path, action: "open")
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let error = SoundstageError.posix("fstat", errno: errno, path: path, action: "read")
            close(fd)
            throw error
        }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            close(fd)
            throw SoundstageError.posix("open", errno: EISDIR, path: path, action: "read")
        }
        if (info.st_mode & S_IFMT) != S_IFREG {
            close(fd)
            let kind = switch info.st_mode & S_IFMT {
            case S_IFIFO: "a FIFO"
            case S_IFCHR: "a character device"
            case S_IFBLK: "a block device"
            case S_IFSOCK: "a socket"
            default: "a special file"
            }
            throw SoundstageError(.io, "is \(kind), not a regular file; only files are read", subject: path)
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        if (info.st_mode & S_IFMT) == S_IFREG && info.st_size == 0 {
            close(fd)
            throw SoundstageError(.corruptData, "file is empty", subject: path)
        }
        (decoder, codecDetails) = try Self.openRegularFile(fd, size: Int64(info.st_size), subject: path)
        format = decoder.format
        name = path
        isSeekable = true
    }

    /// The containers that can be read front to back from a stream of bytes, without seeking.
    public static let streamableContainers: Set<Container> = [.wav, .wav64, .aiff, .au, .flac, .ogg, .mpeg]

    /// Opens audio arriving on a descriptor that may not seek — a pipe, a socket, standard input
    /// — reading it front to back. The descriptor is the file's from now on (closed with it).
    /// A regular file opens as ``init(path:)`` does. Reading the header waits for its bytes.
    ///
    /// - Throws: `.unsupportedFormat` naming the format when it cannot be read without seeking
    ///   (CAF: its header may follow the audio), or is not audio; `.corruptData` for a malformed header.
    public init(streamingFrom fd: Int32, name: String) throws {
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let error = SoundstageError.posix("fstat", errno: errno, path: name, action: "read")
            close(fd)
            throw error
        }
        let seekable = (info.st_mode & S_IFMT) == S_IFREG
        if seekable {
            // A regular file opens as a path does (MPEG-4 and IMA4 CAF included).
            (decoder, codecDetails) = try Self.openRegularFile(fd, size: Int64(info.st_size), subject: name)
            format = decoder.format
            self.name = name
            isSeekable = true
            return
        }
        codecDetails = nil
        let decoder = try SndFileDecoder(pipe: fd, subject: name)
        guard Self.streamableContainers.contains(decoder.format.container) else {
            throw SoundstageError(.unsupportedFormat, "\(decoder.format.container.rawValue.uppercased()) cannot be read from a "
                                  + "pipe: it needs seeking (its header may follow the audio); save it to a file, or send "
                                  + "WAV, AU, AIFF, W64, FLAC, Ogg or MP3", subject: name)
        }
        self.decoder = decoder
        var format = decoder.format
        // A pipe's header cannot promise a length the stream has not delivered (libsndfile says
        // 2^61 frames for a streamed W64): unknown, unless a PCM header states it.
        if format.frames > Int64(1) << 40 || !format.encoding.frameCountIsMeasured { format.frames = 0 }
        self.format = format
        self.name = name
        isSeekable = false
    }

    /// Whether a ``FrameProducer`` makes it while it plays (an audio queue's buffers), rather than a file or a pipe.
    public var isProduced: Bool { decoder is ProducedFrames }

    /// Whether its ``FrameProducer`` is starved now (``FrameProducer/isStarved``); false for a file or a pipe.
    public var isStarved: Bool { (decoder as? ProducedFrames)?.producer.isStarved ?? false }

    /// Audio a ``FrameProducer`` makes while it plays (``init(producer:sampleRate:channels:name:)``).
    init(produced: ProducedFrames, name: String) {
        decoder = produced
        format = produced.format
        codecDetails = nil
        self.name = name
        isSeekable = false
    }

    /// Opens audio held in memory (a whole file's bytes). `name` appears in errors.
    public init(data: [UInt8], name: String = "<memory>") throws {
        guard !data.isEmpty else { throw SoundstageError(.corruptData, "no data (0 bytes)", subject: name) }
        var details: CodecDetails?
        if let kind = MPEG4Detection.kind(of: Array(data.prefix(36))) {
            let ffmpeg = try FFmpegDecoder(RandomAccessBytes(bytes: data), kind: kind, subject: name)
            details = ffmpeg.details
            decoder = ffmpeg
        } else if data.count >= 36 && CAFIMA4.matches(Array(data.prefix(36))) {
            decoder = try CAFIMA4Decoder(bytes: data, subject: name)
        } else if MPEG4Detection.isCAF(Array(data.prefix(4))) {
            // As for a CAF file: what libsndfile refuses, FFmpeg may read.
            do {
                decoder = try SndFileDecoder(bytes: data, subject: name)
            } catch let error as SoundstageError where error.code == .unsupportedFormat && FFmpeg.isAvailable {
                guard let ffmpeg = try? FFmpegDecoder(RandomAccessBytes(bytes: data), kind: .caf, subject: name) else { throw error }
                details = ffmpeg.details
                decoder = ffmpeg
            }
        } else {
            decoder = try SndFileDecoder(bytes: data, subject: name)
        }
        format = decoder.format
        codecDetails = details
        self.name = name
        isSeekable = true
    }

    /// Decodes up to `frames` frames from the read position; an empty buffer means the end.
    public func read(frames: Int) throws -> AudioBuffer {
        guard frames >= 0 else { throw SoundstageError(.invalidArgument, "cannot read \(frames) frames", subject: name) }
        var samples = [Float](repeating: 0, count: frames * format.channels)
        let got = try samples.withUnsafeMutableBufferPointer { try decoder.read(into: $0.baseAddress!, frames: frames) }
        moved = true
        samples.removeSubrange((got * format.channels)...)
        return AudioBuffer(samples: samples, channels: format.channels, sampleRate: format.sampleRate)
    }

    /// Decodes up to `frames` frames as interleaved signed 16-bit samples; empty at the end.
    public func readInt16(frames: Int) throws -> [Int16] {
        try read(frames: frames).samples.map { Int16(clampingToInt16: $0) }
    }

    /// For audio read from a pipe or made by a ``FrameProducer``: ends a read that waits for the
    /// writer, and every read after it (they return the end). Callable from any thread, while
    /// another reads. No effect on files.
    public func cancelReads() {
        (decoder as? SndFileDecoder)?.cancelReads()
        (decoder as? ProducedFrames)?.producer.cancel()
    }

    /// Moves the read position to `frame` (0 is the start).
    public func seek(toFrame frame: Int64) throws {
        try decoder.seek(toFrame: frame)
        moved = true
    }

    /// The most decoded audio ``readAll(maxFrames:)`` and ``decode(path:maxFrames:)`` return by
    /// default: 1 GiB of float samples (about 93 minutes of 48 kHz stereo). Longer sounds are
    /// streamed, or decoded with an explicit `maxFrames`.
    public static let defaultMaxDecodedBytes = 1 << 30

    /// The frames of this file's format that fit in `bytes` of decoded float samples.
    public func frames(fittingIn bytes: Int) -> Int { bytes / (MemoryLayout<Float>.size * max(1, format.channels)) }

    /// Decodes everything from the read position to the end.
    ///
    /// Reads until the decoder reports the end, so the result has the exact frame count even where
    /// the header's count is approximate (Ogg, MP3). Memory is bounded: an uncompressed file whose
    /// header promises more than the limit is refused before anything is decoded, and any other
    /// stops at the limit.
    /// - Parameter maxFrames: fail with `.tooLarge` instead of decoding more than this; nil for
    ///   ``defaultMaxDecodedBytes``.
    /// - Throws: `.tooLarge` over the limit; `.corruptData` if a whole file yields no audio at all,
    ///   or decoding fails part-way.
    public func readAll(maxFrames: Int? = nil) throws -> AudioBuffer {
        let maxFrames = maxFrames ?? frames(fittingIn: Self.defaultMaxDecodedBytes)
        let fromStart = !moved
        moved = true
        let channels = format.channels
        if format.encoding.frameCountIsMeasured && format.frames > Int64(maxFrames) {
            throw SoundstageError(.tooLarge, "the header promises \(format.frames) frames "
                                  + "(\(Self.describe(bytes: Double(format.frames) * Double(channels) * 4)) decoded), "
                                  + "more than the \(maxFrames) frames that may be decoded at once; stream it instead", subject: name)
        }
        let chunk = 16_384
        var samples: [Float] = []
        // Reserve only what a PCM header says (libsndfile bounds it by the data chunk's size); a
        // FLAC, ALAC or lossy header's count is a claim, never reserved (a 5.6 KB FLAC may claim
        // 8 channels × 2^28 frames).
        if format.frames > 0 && format.encoding.frameCountIsMeasured {
            samples.reserveCapacity(Int(min(format.frames, Int64(maxFrames))) * channels)
        }
        var scratch = [Float](repeating: 0, count: chunk * channels)
        while true {
            let got = try scratch.withUnsafeMutableBufferPointer { try decoder.read(into: $0.baseAddress!, frames: chunk) }
            if got == 0 { break }
            guard samples.count / channels + got <= maxFrames else {
                throw SoundstageError(.tooLarge, "decodes to more than \(maxFrames) frames "
                                      + "(\(Self.describe(bytes: Double(maxFrames) * Double(channels) * 4))); stream it instead", subject: name)
            }
            samples.append(contentsOf: scratch[0..<(got * channels)])
        }
        if fromStart && samples.isEmpty {
            throw SoundstageError(.corruptData, "contains no decodable audio", subject: name)
        }
        let decoded = Int64(samples.count / channels)
        // (The FFmpeg decoder checks its own end: a CAF's packet table may count a short last packet as full.)
        if fromStart && !format.encoding.isCompressed && codecDetails == nil && decoded < format.frames {
            throw SoundstageError(.corruptData,
                                  "truncated: the header promises \(format.frames) frames but only \(decoded) could be decoded",
                                  subject: name)
        }
        return AudioBuffer(samples: samples, channels: channels, sampleRate: format.sampleRate)
    }

    /// Opens `path` and decodes all of it (at most `maxFrames`; nil for ``defaultMaxDecodedBytes``).
    public static func decode(path: String, maxFrames: Int? = nil) throws -> AudioBuffer {
        try SoundFile(path: path).readAll(maxFrames: maxFrames)
    }

    /// `1.3 GB`, `512 MB`.
    static func describe(bytes: Double) -> String {
        bytes >= 1e9 ? "\((bytes / 1e9).fixed(1)) GB" : "\((bytes / 1e6).fixed(0)) MB"
    }

    /// The decoder for the regular file `fd` of `size` bytes, chosen by its first bytes; `fd`
    /// is consumed (closed, or owned by the decoder) whether this throws or not.
    private static func openRegularFile(_ fd: Int32, size: Int64, subject: String) throws -> (FrameDecoder, CodecDetails?) {
        var prefix = [UInt8](repeating: 0, count: 36)
        let got = prefix.withUnsafeMutableBytes { pread(fd, $0.baseAddress, 36, 0) }
        prefix = Array(prefix.prefix(max(0, got)))
        if let kind = MPEG4Detection.kind(of: prefix) {
            defer { close(fd) }
            // FFmpeg reads through a duplicate the decoder owns.
            let own = dup(fd)
            guard own >= 0 else { throw SoundstageError.posix("dup", errno: errno, path: subject, action: "read") }
            let decoder = try FFmpegDecoder(RandomAccessBytes(fd: own, size: size, owned: true), kind: kind, subject: subject)
            return (decoder, decoder.details)
        }
        if prefix.count == 36 && CAFIMA4.matches(prefix) {
            defer { close(fd) }
            // Decoded in memory from its bytes: 4 bits a sample become 32.
            guard Int(size) <= Self.defaultMaxDecodedBytes / 8 else {
                throw SoundstageError(.tooLarge, "an IMA4 CAF of \(Self.describe(bytes: Double(size))) is more than "
                                      + "can be decoded at once", subject: subject)
            }
            let bytes = try Self.readWhole(fd: fd, size: Int(size), path: subject)
            return (try CAFIMA4Decoder(bytes: bytes, subject: subject), nil)
        }
        guard MPEG4Detection.isCAF(prefix) else { return (try SndFileDecoder(fileDescriptor: fd, subject: subject), nil) }
        // libsndfile reads CAF, but not every codec in it (ALAC as FFmpeg writes it): FFmpeg
        // may read what it refuses, through a descriptor of its own (libsndfile closes `fd`).
        let spare = dup(fd)
        do {
            let decoder = try SndFileDecoder(fileDescriptor: fd, subject: subject)
            if spare >= 0 { close(spare) }
            return (decoder, nil)
        } catch let error as SoundstageError where error.code == .unsupportedFormat && spare >= 0 && FFmpeg.isAvailable {
            let bytes = RandomAccessBytes(fd: spare, size: size, owned: true)
            guard let ffmpeg = try? FFmpegDecoder(bytes, kind: .caf, subject: subject) else { throw error }
            return (ffmpeg, ffmpeg.details)
        } catch {
            if spare >= 0 { close(spare) }
            throw error
        }
    }

    private static func readWhole(fd: Int32, size: Int, path: String) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: size)
        var done = 0
        while done < size {
            let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, size - done, off_t(done)) }
            if n < 0 { throw SoundstageError.posix("pread", errno: errno, path: path, action: "read") }
            if n == 0 { break }
            done += n
        }
        return Array(bytes[0..<done])
    }
}
