#if canImport(Glibc)
import Glibc
#endif
import SoundstageErrors

/// Encodes interleaved float audio to AAC-LC or ALAC in an MPEG-4 audio file (`.m4a`), or AAC
/// in ADTS, through FFmpeg, writing to a descriptor (``SoundFileWriter`` gives it the temporary
/// file).
///
/// The file is gapless: FFmpeg's MPEG-4 writer records the encoder's priming in an edit list,
/// and the stream's length is the frames written, so a decoder trims both ends.
final class FFmpegEncoder {
    /// AAC's default bit rate, for `--bitrate` left out: 128 kb/s, as iTunes and the seeds use.
    static let defaultAACBitRate = 128_000

    private let ff: FFmpegLibrary
    private let subject: String
    private let fd: Int32
    private let channels: Int
    private let sampleRate: Int
    private var position: Int64 = 0
    private var ioContext: UnsafeMutableRawPointer?
    private var formatContext: UnsafeMutableRawPointer?
    private var codecContext: UnsafeMutableRawPointer?
    private var stream: UnsafeMutableRawPointer?
    private var streamTimeBase: (num: Int64, den: Int64) = (1, 1)
    private var frame: OpaquePointer?
    private var packet: OpaquePointer?
    /// Samples waiting for a whole encoder frame, interleaved.
    private var pending: [Float] = []
    private let frameSize: Int
    private let sampleFormat: Int32
    private var framesSent: Int64 = 0
    /// The descriptor's write error, if a write failed (FFmpeg sees only "I/O error").
    private var writeError: SoundstageError?

    /// `AVCodecContext.sample_rate` and `.sample_fmt` in libavcodec 59 (FFmpeg 5.1): the sample
    /// format has no AVOption. Checked before use: the rate must read back as set by `ar`, the
    /// format as its default (none).
    static let codecContextSampleRate59 = 352
    static let codecContextSampleFormat59 = 360
    /// `AVFrame.sample_rate` and `AVFrame.ch_layout` in libavutil 57 (FFmpeg 5.1), read from
    /// Debian 12's headers. Later versions moved these fields; encoding refuses there (decoding
    /// does not need them).
    static let frameSampleRate57 = 208
    static let frameChannelLayout57 = 448

    /// Prepares to write `format` (`.aac` or an ALAC encoding) to `fd`, which stays the caller's.
    init(fd: Int32, container: Container, encoding: SampleEncoding, sampleRate: Int, channels: Int, bitRate: Int?, subject: String) throws {
        ff = try FFmpegLibrary.load()
        self.fd = fd
        self.subject = subject
        self.channels = channels
        self.sampleRate = sampleRate
        guard ff.utilMajor == 57 else {
            throw SoundstageError(.codecUnavailable, "writing AAC and ALAC needs FFmpeg 5.1 (libavutil 57, Debian 12); "
                                  + "this is \(ff.versionDescription), which Soundstage reads but does not yet write", subject: subject)
        }
        let isAAC = encoding == .aac
        guard isAAC || (container == .mp4 && [.alac16, .alac20, .alac24, .alac32].contains(encoding)) else {
            throw SoundstageError(.unsupportedFormat, "cannot write \(encoding.rawValue) in \(container.rawValue)", subject: subject)
        }
        let encoderName = isAAC ? "aac" : "alac"
        guard let encoder = ff.avcodec_find_encoder_by_name(encoderName) else {
            throw SoundstageError(.codecUnavailable, "this FFmpeg (\(ff.versionDescription)) has no \(encoderName) encoder", subject: subject)
        }
        if isAAC && !Self.aacRates.contains(sampleRate) {
            throw SoundstageError(.unsupportedFormat, "AAC cannot be written at \(sampleRate) Hz; it takes "
                                  + Self.aacRates.map(String.init).joined(separator: ", ") + " Hz", subject: subject)
        }
        guard let layoutName = Self.layoutNames[channels] else {
            throw SoundstageError(.unsupportedFormat, "\(encoderName) cannot be written with \(channels) channels (1 to 8)", subject: subject)
        }
        if let bitRate, isAAC, !(8_000...512_000).contains(bitRate) {
            throw SoundstageError(.invalidArgument, "AAC bit rate \(bitRate) b/s is out of range 8k...512k", subject: subject)
        }
        sampleFormat = isAAC ? SampleFormatConversion.fltp : (encoding == .alac16 ? SampleFormatConversion.s16p : SampleFormatConversion.s32p)
        FFmpegLog.clearLastLine()

        guard let codec = ff.avcodec_alloc_context3(encoder) else { throw SoundstageError(.tooLarge, "out of memory", subject: subject) }
        codecContext = codec
        var status = ff.av_opt_set_int(codec, "ar", Int64(sampleRate), 0)
        if status >= 0 { status = ff.av_opt_set(codec, "time_base", "1/\(sampleRate)", 0) }
        if status >= 0 { status = ff.av_opt_set(codec, "ch_layout", layoutName, 0) }
        guard status >= 0,
              codec.load(fromByteOffset: Self.codecContextSampleRate59, as: Int32.self) == Int32(sampleRate),
              codec.load(fromByteOffset: Self.codecContextSampleFormat59, as: Int32.self) == -1 else {
            throw SoundstageError(.codecUnavailable, "FFmpeg's codec context (\(ff.versionDescription)) is not laid out as expected", subject: subject)
        }
        codec.storeBytes(of: sampleFormat, toByteOffset: Self.codecContextSampleFormat59, as: Int32.self)
        if status >= 0 && isAAC { status = ff.av_opt_set_int(codec, "b", Int64(bitRate ?? Self.defaultAACBitRate), 0) }
        if status >= 0 && !isAAC && encoding != .alac16 {
            status = ff.av_opt_set_int(codec, "bits_per_raw_sample", encoding == .alac20 ? 20 : 24, 0)
        }
        // MPEG-4 keeps the codec's configuration in its header; ADTS in each frame's.
        if status >= 0 && container == .mp4 { status = ff.av_opt_set(codec, "flags", "+global_header", 0) }
        if status < 0 { throw FFmpegDecoder.error(ff, status, "av_opt_set", kind: .unsupportedFormat, "cannot set up the \(encoderName) encoder", subject: subject) }
        status = ff.avcodec_open2(codec, encoder, nil)
        if status < 0 { throw FFmpegDecoder.error(ff, status, "avcodec_open2", kind: .unsupportedFormat, "the \(encoderName) encoder refused the format", subject: subject) }
        var size: Int64 = 0
        _ = ff.av_opt_get_int(codec, "frame_size", 0, &size)
        frameSize = size > 0 ? Int(size) : 1024

        var output: UnsafeMutableRawPointer?
        status = ff.avformat_alloc_output_context2(&output, nil, container == .mp4 ? "ipod" : "adts", nil)
        guard status >= 0, let output else {
            throw FFmpegDecoder.error(ff, status, "avformat_alloc_output_context2", kind: .codecUnavailable, "FFmpeg has no M4A writer", subject: subject)
        }
        formatContext = output
        try openOutput()
        output.storeBytes(of: ioContext, toByteOffset: FFmpegLayout.formatContextPB, as: UnsafeMutableRawPointer?.self)
        guard let newStream = ff.avformat_new_stream(output, nil),
              let layout = FFmpegLayout.AVStreamLayout.locateNew(newStream, formatMajor: ff.formatMajor),
              let parameters = newStream.load(fromByteOffset: layout.codecParameters, as: UnsafeMutableRawPointer?.self) else {
            throw SoundstageError(.codecUnavailable, "FFmpeg's streams (\(ff.versionDescription)) are not laid out as expected", subject: subject)
        }
        stream = newStream
        newStream.storeBytes(of: (Int32(1), Int32(sampleRate)), toByteOffset: layout.timeBase, as: (Int32, Int32).self)
        status = ff.avcodec_parameters_from_context(parameters, codec)
        if status >= 0 && container == .mp4 {
            // The edit list that makes the file gapless counts in the movie's time scale, 1000
            // by default: the length would round to the millisecond (±24 frames at 48 kHz).
            // At the sample rate it is exact. (AV_OPT_SEARCH_CHILDREN: the muxer's own option.)
            status = ff.av_opt_set(output, "movie_timescale", "\(sampleRate)", 1)
        }
        if status >= 0 { status = ff.avformat_write_header(output, nil) }
        if status < 0 { throw failure(status, "avformat_write_header", "cannot write the M4A header") }
        let base = newStream.load(fromByteOffset: layout.timeBase, as: (Int32, Int32).self)
        streamTimeBase = (Int64(base.0), Int64(base.1))
        frame = ff.av_frame_alloc()
        packet = ff.av_packet_alloc()
        guard frame != nil, packet != nil else { throw SoundstageError(.tooLarge, "out of memory", subject: subject) }
    }

    deinit {
        if frame != nil { ff.av_frame_free(&frame) }
        if packet != nil { ff.av_packet_free(&packet) }
        if codecContext != nil { ff.avcodec_free_context(&codecContext) }
        if let formatContext { ff.avformat_free_context(formatContext) }
        if let ioContext {
            ff.av_free(ioContext.load(fromByteOffset: FFmpegLayout.ioContextBuffer, as: UnsafeMutableRawPointer?.self))
            var pointer: UnsafeMutableRawPointer? = ioContext
            ff.avio_context_free(&pointer)
        }
    }

    /// Encodes interleaved samples (a whole number of frames).
    func write(_ samples: UnsafeBufferPointer<Float>) throws {
        pending.append(contentsOf: samples)
        let whole = pending.count / (frameSize * channels)
        guard whole > 0 else { return }
        for index in 0..<whole { try encode(from: index * frameSize, frames: frameSize) }
        pending.removeFirst(whole * frameSize * channels)
    }

    /// Encodes what is left, drains the encoder and writes the file's index (`moov`).
    func finish() throws {
        let left = pending.count / channels
        if left > 0 { try encode(from: 0, frames: left) }
        pending.removeAll()
        var status = ff.avcodec_send_frame(codecContext, nil)
        if status < 0 { throw failure(status, "avcodec_send_frame", "cannot finish encoding") }
        try drain()
        status = ff.av_write_trailer(formatContext)
        if status < 0 { throw failure(status, "av_write_trailer", "cannot write the M4A index") }
    }

    /// Sends `frames` frames of `pending` from frame `start` to the encoder and writes its packets.
    private func encode(from start: Int, frames: Int) throws {
        let raw = UnsafeMutableRawPointer(frame!)
        ff.av_frame_unref(frame)
        raw.storeBytes(of: Int32(frames), toByteOffset: FFmpegLayout.frameSampleCount, as: Int32.self)
        raw.storeBytes(of: sampleFormat, toByteOffset: FFmpegLayout.frameFormat, as: Int32.self)
        raw.storeBytes(of: Int32(sampleRate), toByteOffset: Self.frameSampleRate57, as: Int32.self)
        ff.av_channel_layout_default(raw + Self.frameChannelLayout57, Int32(channels))
        var status = ff.av_frame_get_buffer(frame, 0)
        if status < 0 { throw failure(status, "av_frame_get_buffer", "out of memory for a frame") }
        raw.storeBytes(of: framesSent, toByteOffset: FFmpegLayout.framePTS, as: Int64.self)
        guard let planes = raw.load(fromByteOffset: FFmpegLayout.frameExtendedData, as: UnsafeMutablePointer<UnsafeMutableRawPointer?>?.self) else {
            throw SoundstageError(.tooLarge, "FFmpeg gave a frame without samples", subject: subject)
        }
        pending.withUnsafeBufferPointer { source in
            let base = source.baseAddress! + start * channels
            for channel in 0..<channels {
                guard let plane = planes[channel] else { continue }
                switch sampleFormat {
                case SampleFormatConversion.fltp:
                    let out = plane.assumingMemoryBound(to: Float.self)
                    for i in 0..<frames { out[i] = base[i * channels + channel] }
                case SampleFormatConversion.s16p:
                    let out = plane.assumingMemoryBound(to: Int16.self)
                    // Scaled as libsndfile writes 16-bit PCM (×32768, clipped), so ALAC and WAV
                    // made from the same floats hold the same integers.
                    for i in 0..<frames {
                        let value = base[i * channels + channel]
                        out[i] = value.isNaN ? 0 : Int16(clamping: Int((Double(value) * 32_768).rounded(.toNearestOrEven)))
                    }
                default:
                    let out = plane.assumingMemoryBound(to: Int32.self)
                    for i in 0..<frames {
                        let value = base[i * channels + channel]
                        out[i] = value.isNaN ? 0 : Int32(clamping: Int64((Double(value) * 2_147_483_648).rounded(.toNearestOrEven)))
                    }
                }
            }
        }
        framesSent += Int64(frames)
        status = ff.avcodec_send_frame(codecContext, frame)
        if status < 0 { throw failure(status, "avcodec_send_frame", "encoding failed") }
        try drain()
    }

    /// Writes every packet the encoder has ready.
    private func drain() throws {
        while true {
            let status = ff.avcodec_receive_packet(codecContext, packet)
            if status == AVError.again || status == AVError.endOfFile { return }
            if status < 0 { throw failure(status, "avcodec_receive_packet", "encoding failed") }
            let raw = UnsafeMutableRawPointer(packet!)
            // Encoder time (1/rate) to the stream's time base.
            for offset in [FFmpegLayout.packetPTS, FFmpegLayout.packetPTS + 8, FFmpegLayout.packetDuration] {
                let value = raw.load(fromByteOffset: offset, as: Int64.self)
                guard value != FFmpegLayout.noTimestamp else { continue }
                raw.storeBytes(of: FFmpegDecoder.rescale(value, from: (1, Int64(sampleRate)), toTimeBase: streamTimeBase),
                               toByteOffset: offset, as: Int64.self)
            }
            raw.storeBytes(of: Int32(0), toByteOffset: FFmpegLayout.packetStreamIndex, as: Int32.self)
            let written = ff.av_interleaved_write_frame(formatContext, packet)
            if written < 0 { throw failure(written, "av_interleaved_write_frame", "writing the file failed") }
        }
    }

    /// A write error (the descriptor's own, if that is what failed) or FFmpeg's.
    private func failure(_ status: Int32, _ function: String, _ message: String) -> SoundstageError {
        writeError ?? FFmpegDecoder.error(ff, status, function, kind: .io, message, subject: subject)
    }

    /// An `AVIOContext` that writes (and seeks in) ``fd``.
    private func openOutput() throws {
        guard let buffer = ff.av_malloc(32_768)?.assumingMemoryBound(to: UInt8.self) else {
            throw SoundstageError(.tooLarge, "out of memory", subject: subject)
        }
        let opaque = Unmanaged.passUnretained(self).toOpaque()
        ioContext = ff.avio_alloc_context(buffer, 32_768, 1, opaque, nil, { opaque, bytes, length in
            let encoder = Unmanaged<FFmpegEncoder>.fromOpaque(opaque!).takeUnretainedValue()
            guard let bytes, length > 0 else { return 0 }
            var done = 0
            while done < Int(length) {
                let n = pwrite(encoder.fd, bytes + done, Int(length) - done, off_t(encoder.position + Int64(done)))
                if n < 0 {
                    if errno == EINTR { continue }
                    encoder.writeError = SoundstageError.posix("pwrite", errno: errno, path: encoder.subject, action: "write")
                    return -errno
                }
                done += n
            }
            encoder.position += Int64(done)
            return length
        }, { opaque, offset, whence in
            let encoder = Unmanaged<FFmpegEncoder>.fromOpaque(opaque!).takeUnretainedValue()
            var info = stat()
            let size: Int64 = fstat(encoder.fd, &info) == 0 ? Int64(info.st_size) : encoder.position
            if whence & 0x10000 != 0 { return size }
            let base: Int64 = switch whence & 0xFFFF {
            case SEEK_CUR: encoder.position
            case SEEK_END: size
            default: 0
            }
            guard base + offset >= 0 else { return Int64(-EINVAL) }
            encoder.position = base + offset
            return encoder.position
        })
        if ioContext == nil {
            ff.av_free(buffer)
            throw SoundstageError(.tooLarge, "out of memory", subject: subject)
        }
    }

    /// The sample rates AAC takes (its sampling-frequency table).
    static let aacRates = [96_000, 88_200, 64_000, 48_000, 44_100, 32_000, 24_000, 22_050, 16_000, 12_000, 11_025, 8_000, 7_350]
    /// FFmpeg's name of the usual layout of 1 to 8 channels.
    static let layoutNames = [1: "mono", 2: "stereo", 3: "3.0", 4: "quad", 5: "5.0", 6: "5.1", 7: "6.1", 8: "7.1"]
}

extension FFmpegLayout.AVStreamLayout {
    /// The layout of a stream just made by `avformat_new_stream` (index 0, empty parameters).
    static func locateNew(_ stream: UnsafeMutableRawPointer, formatMajor: Int) -> FFmpegLayout.AVStreamLayout? {
        candidates(formatMajor: formatMajor).first { layout in
            guard stream.load(fromByteOffset: layout.index, as: Int32.self) == 0,
                  let parameters = stream.load(fromByteOffset: layout.codecParameters, as: UnsafeRawPointer?.self) else { return false }
            // AVMEDIA_TYPE_UNKNOWN (-1) and AV_CODEC_ID_NONE (0) until filled.
            return parameters.load(fromByteOffset: FFmpegLayout.parametersMediaType, as: Int32.self) == -1
                && parameters.load(fromByteOffset: FFmpegLayout.parametersCodecID, as: Int32.self) == 0
        }
    }
}
