#if canImport(Glibc)
import Glibc
#endif
import SoundstageErrors

/// A decoded frame's samples, valid only inside the closure that receives them
/// (``FFmpegPacketDecoder/decode(_:_:)``): FFmpeg reuses the memory for the next frame.
public struct FFmpegDecodedAudio {
    /// Frames in each channel.
    public let frames: Int
    /// Channels.
    public let channels: Int
    /// The decoder's output rate (HE-AAC's is the SBR rate, known from the first frame).
    public let sampleRate: Int
    let planes: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    let format: Int32

    /// Writes channel `channel`'s samples to `out`, one every `stride` elements, as numbers in
    /// -1...1 (integers divided by 2^(bits-1), so 16- and 32-bit samples convert exactly).
    public func write(channel: Int, to out: UnsafeMutablePointer<Double>, stride: Int = 1) throws {
        let planar = format >= SampleFormatConversion.u8p && format <= SampleFormatConversion.dblp
        let packed = planar ? format - SampleFormatConversion.u8p : format
        guard channel >= 0, channel < channels, let plane = planes[planar ? channel : 0] else {
            throw SoundstageError(.corruptData, "the decoder returned a frame without channel \(channel)")
        }
        let step = planar ? 1 : channels
        let first = planar ? 0 : channel
        switch packed {
        case SampleFormatConversion.flt:
            let p = plane.assumingMemoryBound(to: Float.self)
            for i in 0..<frames { out[i * stride] = Double(p[first + i * step]) }
        case SampleFormatConversion.dbl:
            let p = plane.assumingMemoryBound(to: Double.self)
            for i in 0..<frames { out[i * stride] = p[first + i * step] }
        case SampleFormatConversion.s16:
            let p = plane.assumingMemoryBound(to: Int16.self)
            for i in 0..<frames { out[i * stride] = Double(p[first + i * step]) / 32_768 }
        case SampleFormatConversion.s32:
            let p = plane.assumingMemoryBound(to: Int32.self)
            for i in 0..<frames { out[i * stride] = Double(p[first + i * step]) / 2_147_483_648 }
        case SampleFormatConversion.u8:
            let p = plane.assumingMemoryBound(to: UInt8.self)
            for i in 0..<frames { out[i * stride] = (Double(p[first + i * step]) - 128) / 128 }
        default:
            throw SoundstageError(.unsupportedFormat, "the decoder returns samples in FFmpeg format \(format), which Soundstage does not convert")
        }
    }
}

/// Decodes one stream's packets (access units) as they come, through FFmpeg: no container, the
/// codec chosen by name and set up from the codec's configuration (`extradata`: AAC's
/// AudioSpecificConfig, ALAC's 36-byte `alac` atom). What Audio Converter Services' decoders use.
///
/// Nothing is trimmed: the output is every frame the decoder makes, the encoder's priming
/// included, as Core Audio's decoders give it (the caller trims with the file's packet table).
public final class FFmpegPacketDecoder {
    private let ff: FFmpegLibrary
    private var context: UnsafeMutableRawPointer?
    private var packet: OpaquePointer?
    private var frame: OpaquePointer?
    /// The codec's name (`aac`, `mp3float`, `alac`, `ilbc`, ...).
    public let codecName: String

    /// Opens FFmpeg's decoder `name` (`"aac"`, `"mp3float"`, `"mp2float"`, `"mp1float"`, `"alac"`,
    /// `"ilbc"`) with the stream's configuration. `sampleRate` and `channels` are hints (0 when
    /// unknown): AAC and MPEG audio state their own; `blockAlign` picks iLBC's mode (38 or 50).
    /// - Throws: `.codecUnavailable` when FFmpeg or the decoder is missing, naming what to
    ///   install; `.unsupportedFormat` when the decoder refuses the configuration.
    public init(codec name: String, extradata: [UInt8], sampleRate: Int, channels: Int, blockAlign: Int = 0) throws {
        let ff = try FFmpegLibrary.load()
        self.ff = ff
        codecName = name
        guard let decoder = ff.avcodec_find_decoder_by_name(name) else {
            throw SoundstageError(.codecUnavailable, "this FFmpeg (\(ff.versionDescription)) has no \(name) decoder; "
                                  + "on Debian 12: sudo apt-get install \(FFmpegLibrary.debianPackages)")
        }
        FFmpegLog.clearLastLine()
        context = ff.avcodec_alloc_context3(decoder)
        guard let context else { throw SoundstageError(.tooLarge, "out of memory") }
        // The configuration goes in through AVCodecParameters, whose extradata fields sit at the
        // same place in FFmpeg 5.1, 6 and 7 (the codec context's moved).
        var parameters = ff.avcodec_parameters_alloc()
        guard let params = parameters else { throw SoundstageError(.tooLarge, "out of memory") }
        defer { ff.avcodec_parameters_free(&parameters) }
        params.storeBytes(of: FFmpegLayout.mediaTypeAudio, toByteOffset: FFmpegLayout.parametersMediaType, as: Int32.self)
        params.storeBytes(of: UnsafeRawPointer(decoder).load(fromByteOffset: FFmpegLayout.codecID, as: Int32.self),
                          toByteOffset: FFmpegLayout.parametersCodecID, as: Int32.self)
        if !extradata.isEmpty {
            guard let copy = ff.av_malloc(extradata.count + FFmpegLayout.inputPadding) else { throw SoundstageError(.tooLarge, "out of memory") }
            copy.initializeMemory(as: UInt8.self, repeating: 0, count: extradata.count + FFmpegLayout.inputPadding)
            extradata.withUnsafeBytes { copy.copyMemory(from: $0.baseAddress!, byteCount: extradata.count) }
            params.storeBytes(of: copy, toByteOffset: FFmpegLayout.parametersExtradata, as: UnsafeMutableRawPointer?.self)
            params.storeBytes(of: Int32(extradata.count), toByteOffset: FFmpegLayout.parametersExtradataSize, as: Int32.self)
        }
        var status = ff.avcodec_parameters_to_context(context, params)
        if status >= 0 { status = ff.av_opt_set_int(context, "threads", 1, 0) }
        if status >= 0, sampleRate > 0 { status = ff.av_opt_set_int(context, "ar", Int64(sampleRate), 0) }
        if status >= 0, channels > 0 {
            status = ff.av_opt_set(context, "ch_layout", FFmpegEncoder.layoutNames[channels] ?? "\(channels)c", 0)
        }
        if status >= 0, blockAlign > 0 { status = ff.av_opt_set_int(context, "block_align", Int64(blockAlign), 0) }
        if status >= 0 { status = ff.avcodec_open2(context, decoder, nil) }
        if status < 0 {
            throw FFmpegDecoder.error(ff, status, "avcodec_open2", kind: .unsupportedFormat, "the \(name) decoder refused the stream's configuration",
                                      subject: name)
        }
        packet = ff.av_packet_alloc()
        frame = ff.av_frame_alloc()
        guard packet != nil, frame != nil else { throw SoundstageError(.tooLarge, "out of memory") }
    }

    deinit {
        if frame != nil { ff.av_frame_free(&frame) }
        if packet != nil { ff.av_packet_free(&packet) }
        if context != nil { ff.avcodec_free_context(&context) }
    }

    /// Decodes one packet (nil: the end of the stream, which drains the decoder) and hands each
    /// frame it yields to `body`. Returns false when the decoder refused the packet as damaged
    /// (nothing was decoded from it; the next packet may decode).
    @discardableResult
    public func decode(_ bytes: UnsafeRawBufferPointer?, _ body: (FFmpegDecodedAudio) throws -> Void) throws -> Bool {
        let raw = UnsafeMutableRawPointer(packet!)
        var accepted = true
        while true {
            let sent: Int32
            if let bytes {
                // Not reference counted: avcodec_send_packet copies the bytes (into a padded buffer).
                raw.storeBytes(of: UnsafeMutableRawPointer(mutating: bytes.baseAddress), toByteOffset: FFmpegLayout.packetData, as: UnsafeMutableRawPointer?.self)
                raw.storeBytes(of: Int32(clamping: bytes.count), toByteOffset: FFmpegLayout.packetSize, as: Int32.self)
                sent = ff.avcodec_send_packet(context, packet)
                raw.storeBytes(of: nil, toByteOffset: FFmpegLayout.packetData, as: UnsafeMutableRawPointer?.self)
                raw.storeBytes(of: Int32(0), toByteOffset: FFmpegLayout.packetSize, as: Int32.self)
            } else {
                sent = ff.avcodec_send_packet(context, nil)
            }
            if sent == AVError.again {
                try receive(body)   // full: empty it, then send again
                continue
            }
            if sent == AVError.invalidData { accepted = false; break }
            if sent < 0 && !(bytes == nil && sent == AVError.endOfFile) {
                throw FFmpegDecoder.error(ff, sent, "avcodec_send_packet", kind: .corruptData, "decoding failed", subject: codecName)
            }
            break
        }
        try receive(body)
        return accepted
    }

    /// Forgets everything in flight (a discontinuity): `avcodec_flush_buffers`.
    public func reset() { ff.avcodec_flush_buffers(context) }

    private func receive(_ body: (FFmpegDecodedAudio) throws -> Void) throws {
        while true {
            let status = ff.avcodec_receive_frame(context, frame)
            if status == AVError.again || status == AVError.endOfFile { return }
            if status == AVError.invalidData { continue }
            if status < 0 { throw FFmpegDecoder.error(ff, status, "avcodec_receive_frame", kind: .corruptData, "decoding failed", subject: codecName) }
            defer { ff.av_frame_unref(frame) }
            let raw = UnsafeMutableRawPointer(frame!)
            let count = Int(raw.load(fromByteOffset: FFmpegLayout.frameSampleCount, as: Int32.self))
            let format = raw.load(fromByteOffset: FFmpegLayout.frameFormat, as: Int32.self)
            guard count > 0, let planes = raw.load(fromByteOffset: FFmpegLayout.frameExtendedData,
                                                   as: UnsafeMutablePointer<UnsafeMutableRawPointer?>?.self) else { continue }
            // The frame's own channel count and rate where FFmpeg 5.1's AVFrame has them at known
            // places (no AVOption looked up by name, no allocation, for every frame); the codec
            // context's options otherwise, and when a field says nothing.
            var channels = 0
            var rate: Int64 = 0
            if ff.utilMajor == 57 {
                channels = Int(raw.load(fromByteOffset: FFmpegEncoder.frameChannelLayout57 + FFmpegLayout.channelLayoutCount, as: Int32.self))
                rate = Int64(raw.load(fromByteOffset: FFmpegEncoder.frameSampleRate57, as: Int32.self))
            }
            if channels <= 0 || channels > 64 { channels = channelCount() }
            guard channels > 0, channels <= 64 else {
                throw SoundstageError(.corruptData, "the \(codecName) decoder reports \(channels) channels")
            }
            if rate <= 0 { _ = ff.av_opt_get_int(context, "ar", 0, &rate) }
            try body(FFmpegDecodedAudio(frames: count, channels: channels, sampleRate: Int(rate), planes: planes, format: format))
        }
    }

    /// The channels the decoder now reports.
    public func channelCount() -> Int {
        var layout = [UInt8](repeating: 0, count: FFmpegLayout.channelLayoutSize)
        return layout.withUnsafeMutableBytes { raw -> Int in
            guard ff.av_opt_get_chlayout(context, "ch_layout", 0, raw.baseAddress) >= 0 else { return 0 }
            defer { ff.av_channel_layout_uninit(raw.baseAddress) }
            return Int(raw.load(fromByteOffset: FFmpegLayout.channelLayoutCount, as: Int32.self))
        }
    }
}

/// Encodes PCM to one stream's packets through FFmpeg, without a container: AAC-LC (`"aac"`) or
/// Apple Lossless (`"alac"`). What Audio Converter Services' encoders use. Needs FFmpeg 5.1 (as
/// ``SoundFileWriter``'s AAC and ALAC do): the sample format and a frame's rate are fields this
/// code sets by their place in that version.
public final class FFmpegPacketEncoder {
    private let ff: FFmpegLibrary
    private var context: UnsafeMutableRawPointer?
    private var frame: OpaquePointer?
    private var packet: OpaquePointer?
    private let sampleFormat: Int32
    private let sampleRate: Int
    /// Channels.
    public let channels: Int
    /// Frames the encoder takes at a time (1024 for AAC, 4096 for ALAC); the last may be fewer.
    public let frameSize: Int
    /// The codec's configuration: AAC's AudioSpecificConfig, ALAC's 36-byte `alac` atom.
    public let extradata: [UInt8]
    private var framesSent: Int64 = 0

    /// Opens FFmpeg's encoder `name` (`"aac"`, `"alac"`). `bitsPerSample` is ALAC's source depth
    /// (16, 20, 24 or 32); `bitRate` AAC's (bits a second).
    public init(codec name: String, sampleRate: Int, channels: Int, bitRate: Int?, bitsPerSample: Int = 16) throws {
        let ff = try FFmpegLibrary.load()
        self.ff = ff
        self.sampleRate = sampleRate
        self.channels = channels
        guard ff.utilMajor == 57 else {
            throw SoundstageError(.codecUnavailable, "encoding AAC and ALAC needs FFmpeg 5.1 (libavutil 57, Debian 12); this is \(ff.versionDescription)")
        }
        guard let encoder = ff.avcodec_find_encoder_by_name(name) else {
            throw SoundstageError(.codecUnavailable, "this FFmpeg (\(ff.versionDescription)) has no \(name) encoder")
        }
        guard let layoutName = FFmpegEncoder.layoutNames[channels] else {
            throw SoundstageError(.unsupportedFormat, "\(name) cannot be encoded with \(channels) channels (1 to 8)")
        }
        let isAAC = name == "aac"
        sampleFormat = isAAC ? SampleFormatConversion.fltp : (bitsPerSample == 16 ? SampleFormatConversion.s16p : SampleFormatConversion.s32p)
        FFmpegLog.clearLastLine()
        context = ff.avcodec_alloc_context3(encoder)
        guard let codec = context else { throw SoundstageError(.tooLarge, "out of memory") }
        var status = ff.av_opt_set_int(codec, "ar", Int64(sampleRate), 0)
        if status >= 0 { status = ff.av_opt_set(codec, "time_base", "1/\(sampleRate)", 0) }
        if status >= 0 { status = ff.av_opt_set(codec, "ch_layout", layoutName, 0) }
        guard status >= 0,
              codec.load(fromByteOffset: FFmpegEncoder.codecContextSampleRate59, as: Int32.self) == Int32(sampleRate),
              codec.load(fromByteOffset: FFmpegEncoder.codecContextSampleFormat59, as: Int32.self) == -1 else {
            throw SoundstageError(.codecUnavailable, "FFmpeg's codec context (\(ff.versionDescription)) is not laid out as expected")
        }
        codec.storeBytes(of: sampleFormat, toByteOffset: FFmpegEncoder.codecContextSampleFormat59, as: Int32.self)
        if status >= 0, isAAC, let bitRate { status = ff.av_opt_set_int(codec, "b", Int64(bitRate), 0) }
        if status >= 0, !isAAC, bitsPerSample != 16 { status = ff.av_opt_set_int(codec, "bits_per_raw_sample", Int64(bitsPerSample), 0) }
        // The configuration in extradata (a muxer's "global header"), not in each packet.
        if status >= 0 { status = ff.av_opt_set(codec, "flags", "+global_header", 0) }
        if status >= 0 { status = ff.av_opt_set_int(codec, "threads", 1, 0) }
        if status >= 0 { status = ff.avcodec_open2(codec, encoder, nil) }
        if status < 0 {
            throw FFmpegDecoder.error(ff, status, "avcodec_open2", kind: .unsupportedFormat, "the \(name) encoder refused the format", subject: name)
        }
        var size: Int64 = 0
        _ = ff.av_opt_get_int(codec, "frame_size", 0, &size)
        frameSize = size > 0 ? Int(size) : (isAAC ? 1024 : 4096)
        var parameters = ff.avcodec_parameters_alloc()
        defer { ff.avcodec_parameters_free(&parameters) }
        var configuration: [UInt8] = []
        if let parameters, ff.avcodec_parameters_from_context(parameters, codec) >= 0,
           let bytes = parameters.load(fromByteOffset: FFmpegLayout.parametersExtradata, as: UnsafeRawPointer?.self) {
            let count = Int(parameters.load(fromByteOffset: FFmpegLayout.parametersExtradataSize, as: Int32.self))
            if count > 0 && count < 1 << 20 { configuration = Array(UnsafeRawBufferPointer(start: bytes, count: count)) }
        }
        extradata = configuration
        frame = ff.av_frame_alloc()
        packet = ff.av_packet_alloc()
        guard frame != nil, packet != nil else { throw SoundstageError(.tooLarge, "out of memory") }
    }

    deinit {
        if frame != nil { ff.av_frame_free(&frame) }
        if packet != nil { ff.av_packet_free(&packet) }
        if context != nil { ff.avcodec_free_context(&context) }
    }

    /// Encodes `frames` frames (at most ``frameSize``) given as one plane of numbers in -1...1 per
    /// channel, and hands each packet the encoder has ready to `emit` (its bytes and its frames).
    public func encode(_ planes: [UnsafePointer<Double>], frames: Int, _ emit: (UnsafeRawBufferPointer, Int) throws -> Void) throws {
        guard planes.count == channels, frames > 0, frames <= frameSize else {
            throw SoundstageError(.invalidArgument, "\(planes.count) planes of \(frames) frames for an encoder of \(channels) channels, \(frameSize) frames a call")
        }
        let raw = UnsafeMutableRawPointer(frame!)
        ff.av_frame_unref(frame)
        raw.storeBytes(of: Int32(frames), toByteOffset: FFmpegLayout.frameSampleCount, as: Int32.self)
        raw.storeBytes(of: sampleFormat, toByteOffset: FFmpegLayout.frameFormat, as: Int32.self)
        raw.storeBytes(of: Int32(sampleRate), toByteOffset: FFmpegEncoder.frameSampleRate57, as: Int32.self)
        ff.av_channel_layout_default(raw + FFmpegEncoder.frameChannelLayout57, Int32(channels))
        var status = ff.av_frame_get_buffer(frame, 0)
        if status < 0 { throw FFmpegDecoder.error(ff, status, "av_frame_get_buffer", kind: .tooLarge, "out of memory for a frame", subject: "encoder") }
        raw.storeBytes(of: framesSent, toByteOffset: FFmpegLayout.framePTS, as: Int64.self)
        guard let out = raw.load(fromByteOffset: FFmpegLayout.frameExtendedData, as: UnsafeMutablePointer<UnsafeMutableRawPointer?>?.self) else {
            throw SoundstageError(.tooLarge, "FFmpeg gave a frame without samples")
        }
        for channel in 0..<channels {
            guard let plane = out[channel] else { continue }
            let source = planes[channel]
            switch sampleFormat {
            case SampleFormatConversion.fltp:
                let p = plane.assumingMemoryBound(to: Float.self)
                for i in 0..<frames { p[i] = Float(source[i]) }
            case SampleFormatConversion.s16p:
                let p = plane.assumingMemoryBound(to: Int16.self)
                for i in 0..<frames { p[i] = Int16(clamping: Int64((source[i] * 32_768).rounded(.toNearestOrEven))) }
            default:
                let p = plane.assumingMemoryBound(to: Int32.self)
                for i in 0..<frames { p[i] = Int32(clamping: Int64((source[i] * 2_147_483_648).rounded(.toNearestOrEven))) }
            }
        }
        framesSent += Int64(frames)
        status = ff.avcodec_send_frame(context, frame)
        if status < 0 { throw FFmpegDecoder.error(ff, status, "avcodec_send_frame", kind: .corruptData, "encoding failed", subject: "encoder") }
        try drain(emit)
    }

    /// Ends the stream: hands out the packets the encoder still holds.
    public func finish(_ emit: (UnsafeRawBufferPointer, Int) throws -> Void) throws {
        let status = ff.avcodec_send_frame(context, nil)
        if status < 0 && status != AVError.endOfFile {
            throw FFmpegDecoder.error(ff, status, "avcodec_send_frame", kind: .corruptData, "cannot finish encoding", subject: "encoder")
        }
        try drain(emit)
    }

    private func drain(_ emit: (UnsafeRawBufferPointer, Int) throws -> Void) throws {
        while true {
            let status = ff.avcodec_receive_packet(context, packet)
            if status == AVError.again || status == AVError.endOfFile { return }
            if status < 0 { throw FFmpegDecoder.error(ff, status, "avcodec_receive_packet", kind: .corruptData, "encoding failed", subject: "encoder") }
            defer { ff.av_packet_unref(packet) }
            let raw = UnsafeMutableRawPointer(packet!)
            let data = raw.load(fromByteOffset: FFmpegLayout.packetData, as: UnsafeRawPointer?.self)
            let size = Int(raw.load(fromByteOffset: FFmpegLayout.packetSize, as: Int32.self))
            let duration = raw.load(fromByteOffset: FFmpegLayout.packetDuration, as: Int64.self)
            try emit(UnsafeRawBufferPointer(start: data, count: max(0, size)), Int(clamping: duration))
        }
    }
}
