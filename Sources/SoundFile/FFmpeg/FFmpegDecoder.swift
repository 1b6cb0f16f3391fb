#if canImport(Glibc)
import Glibc
#endif
import SoundstageErrors

/// Decodes AAC, HE-AAC and ALAC from MPEG-4, CAF and ADTS through FFmpeg, trimmed gaplessly:
/// the encoder's priming frames before the audio and its remainder frames after it are cut, so
/// frame 0 is the first frame of the audio and the count is the audio's own.
///
/// Positions are tracked from the packets' timestamps, so ``seek(toFrame:)`` is exact to the
/// sample: it seeks a little before the target (AAC needs the frames before to rebuild the
/// first one), decodes, and drops what comes before.
final class FFmpegDecoder: FrameDecoder {
    private(set) var format: AudioFormat
    private(set) var details: CodecDetails
    private let ff: FFmpegLibrary
    private let subject: String
    private let input: FFmpegInput
    private var formatContext: UnsafeMutableRawPointer?
    private var codecContext: UnsafeMutableRawPointer?
    private var packet: OpaquePointer?
    private var frame: OpaquePointer?
    private let streamIndex: Int32
    /// The decoder and the stream's codec parameters, to make a fresh codec context on a seek.
    private let codec: OpaquePointer
    private let parameters: UnsafeRawPointer?
    private let timeBase: (num: Int64, den: Int64)
    private let isAAC: Bool
    /// iLBC's frame length, whose packets are checked before FFmpeg sees them.
    private var ilbcMode: ILBCMode?
    /// Frames FFmpeg does not trim itself at the start (a CAF's priming), in output frames.
    private let leadingTrim: Int64
    /// The audio's length in output frames when the container states it (the end is cut there).
    private var audioFrames: Int64?
    /// The output's channels once known (0 before the first frame).
    private var channels = 0

    /// Decoded frames not yet handed out, interleaved, and the output index of the first.
    private var pending: [Float] = []
    private var pendingRead = 0
    /// The output index of the next sample the decoder will produce (nil until a packet says).
    private var nextIndex: Int64?
    /// Frames before this index are dropped (a seek's target; 0 drops the priming).
    private var dropBefore: Int64 = 0
    private var draining = false
    private var finished = false
    private var lengthChecked = false

    /// Opens `bytes`, which ``MPEG4Detection`` found to be `kind`.
    init(_ bytes: RandomAccessBytes, kind: MPEG4Detection.Kind, subject: String) throws {
        let ff = try FFmpegLibrary.load()
        self.ff = ff
        self.subject = subject
        input = try FFmpegInput(bytes, library: ff)
        FFmpegLog.clearLastLine()
        let cafTable = kind == .caf ? MPEG4Detection.cafPacketTable(in: bytes) : nil

        guard let context = ff.avformat_alloc_context() else { throw SoundstageError(.tooLarge, "out of memory", subject: subject) }
        context.storeBytes(of: input.context, toByteOffset: FFmpegLayout.formatContextPB, as: UnsafeMutableRawPointer?.self)
        var opened: UnsafeMutableRawPointer? = context
        // The demuxer is chosen from the content; FFmpeg may not probe its way to another (a
        // playlist demuxer would open other files and URLs).
        let status = ff.avformat_open_input(&opened, "", ff.av_find_input_format(kind.demuxer), nil)
        guard status >= 0, let opened else {
            // avformat_open_input frees the context on failure.
            throw Self.error(ff, status, "avformat_open_input", kind: .corruptData,
                             "not a readable \(kind.container.rawValue.uppercased()) file", subject: subject)
        }
        formatContext = opened
        // Until every stored property is set, a throw does not run deinit: the opened context is
        // closed here instead (a file refused after opening leaked FFmpeg's demuxer state; found
        // by the sound-file fuzzer).
        var closeOnThrow: UnsafeMutableRawPointer? = opened
        defer { if closeOnThrow != nil { ff.avformat_close_input(&closeOnThrow) } }
        // ADTS states its format only in its frames; MPEG-4 and CAF in their headers.
        if kind == .adts {
            let found = ff.avformat_find_stream_info(opened, nil)
            if found < 0 {
                throw Self.error(ff, found, "avformat_find_stream_info", kind: .corruptData, "no decodable AAC stream", subject: subject)
            }
        }
        var decoder: OpaquePointer?
        let best = ff.av_find_best_stream(opened, FFmpegLayout.mediaTypeAudio, -1, -1, &decoder, 0)
        guard best >= 0, let decoder else {
            throw Self.error(ff, best, "av_find_best_stream", kind: best == AVError.decoderNotFound ? .unsupportedFormat : .corruptData,
                             "holds no audio stream FFmpeg can decode", subject: subject)
        }
        streamIndex = best
        let codecID = UnsafeRawPointer(decoder).load(fromByteOffset: FFmpegLayout.codecID, as: Int32.self)
        let codecName = ff.avcodec_get_name(codecID).map { String(cString: $0) } ?? "codec \(codecID)"
        guard codecName == "aac" || codecName == "alac" || (codecName == "ilbc" && kind == .caf) else {
            throw SoundstageError(.unsupportedFormat, "holds \(codecName) audio; Soundstage reads AAC and ALAC from "
                                  + "\(kind.container.rawValue.uppercased()) files, and iLBC from CAF", subject: subject)
        }
        isAAC = codecName == "aac"
        let streamCount = opened.load(fromByteOffset: FFmpegLayout.formatContextStreamCount, as: UInt32.self)
        guard UInt32(best) < streamCount,
              let streams = opened.load(fromByteOffset: FFmpegLayout.formatContextStreams, as: UnsafeMutablePointer<UnsafeMutableRawPointer?>?.self),
              let stream = streams[Int(best)],
              let layout = FFmpegLayout.AVStreamLayout.locate(stream, index: best, codecID: codecID, formatMajor: ff.formatMajor) else {
            throw SoundstageError(.codecUnavailable, "FFmpeg's libraries (\(ff.versionDescription)) lay out their streams in a way "
                                  + "this Soundstage does not know; FFmpeg 5.1, 6 and 7 are supported", subject: subject)
        }
        let base = stream.load(fromByteOffset: layout.timeBase, as: (Int32, Int32).self)
        timeBase = (Int64(base.0), Int64(base.1))
        let streamDuration = stream.load(fromByteOffset: layout.duration, as: Int64.self)
        let packetCount = stream.load(fromByteOffset: layout.frameCount, as: Int64.self)
        let parameters = stream.load(fromByteOffset: layout.codecParameters, as: UnsafeRawPointer?.self)
        leadingTrim = cafTable?.primingFrames ?? 0
        format = AudioFormat(container: kind.container, encoding: .aac, sampleRate: 0, channels: 0, frames: 0)
        details = CodecDetails(codec: codecName, profile: nil, bitRate: nil, primingFrames: nil, remainderFrames: nil,
                               gapless: false, decoder: "FFmpeg (\(ff.versionDescription))")

        codec = decoder
        self.parameters = parameters
        // That was the last stored property without a default: from here on a throw runs deinit,
        // which closes the context (closing it here too would free it twice).
        closeOnThrow = nil
        codecContext = try Self.openCodec(ff, decoder, parameters: parameters, name: codecName, subject: subject)
        if codecName == "ilbc" {
            guard let mode = ILBCMode(bytesPerFrame: Int(option("block_align"))) else {
                throw SoundstageError(.corruptData, "states \(option("block_align")) bytes per iLBC packet (a frame is 38 or 50)",
                                      subject: subject)
            }
            ilbcMode = mode
        }
        packet = ff.av_packet_alloc()
        frame = ff.av_frame_alloc()
        guard packet != nil, frame != nil else { throw SoundstageError(.tooLarge, "out of memory", subject: subject) }

        // Decode the first frame now: HE-AAC states its real rate and channels (SBR doubles
        // the rate, PS makes stereo) only in the audio, and the first packet says the priming.
        var firstSkip: Int64?
        var firstPacketTicks: Int64 = 0
        let observed = try fillPending(minimum: 1, firstPacket: { skip, ticks in firstSkip = skip; firstPacketTicks = ticks })
        guard observed else {
            throw SoundstageError(.corruptData, "contains no decodable audio", subject: subject, cause: Self.lastLogCause(ff, "avcodec_receive_frame"))
        }
        let rate = Int(option("ar"))
        channels = channelCount()
        guard rate > 0, rate <= 768_000, channels > 0, channels <= 64 else {
            throw SoundstageError(.corruptData, "the decoder reports \(channels) channels at \(rate) Hz", subject: subject)
        }
        // The stream's duration (MPEG-4: from its edit list) is the audio without priming and
        // remainder; a CAF's packet table says it in frames.
        var length: Int64?
        if let cafTable {
            length = cafTable.validFrames
        } else if kind == .mpeg4, streamDuration > 0, streamDuration != FFmpegLayout.noTimestamp {
            length = Self.rescale(streamDuration, from: timeBase, to: rate)
        }
        let estimated = length ?? (streamDuration > 0 && streamDuration != FFmpegLayout.noTimestamp
                                   ? Self.rescale(streamDuration, from: timeBase, to: rate) : 0)
        let bitsPerSample = Int(option("bits_per_raw_sample"))
        let encoding: SampleEncoding
        switch (isAAC, bitsPerSample) {
        case _ where ilbcMode != nil: encoding = .ilbc
        case (true, _): encoding = .aac
        case (false, 20): encoding = .alac20
        case (false, 24): encoding = .alac24
        case (false, 32): encoding = .alac32
        default: encoding = .alac16
        }
        let profileName = isAAC ? ff.avcodec_profile_name(codecID, Int32(truncatingIfNeeded: option("profile"))).map { String(cString: $0) } : nil
        var priming: Int64? = nil, remainder: Int64? = nil
        switch kind {
        case .caf:
            priming = cafTable?.primingFrames
            remainder = cafTable?.remainderFrames
        case .mpeg4 where !isAAC:
            // ALAC has no encoder delay, and its last packet holds just what is left.
            priming = 0
            remainder = 0
        case .mpeg4:
            priming = firstSkip ?? 0
            // AAC's packets all hold the same number of frames; the last one is padded.
            let perPacket = Self.rescale(firstPacketTicks, from: timeBase, to: rate)
            if let length, perPacket > 0, packetCount > 0 {
                let spare = packetCount * perPacket - (priming ?? 0) - length
                remainder = spare >= 0 && spare < perPacket * 2 ? spare : nil
            }
        case .adts:
            break
        }
        let bitRate = option("b")
        format = AudioFormat(container: kind.container, encoding: encoding, sampleRate: rate, channels: channels, frames: max(0, estimated))
        details = CodecDetails(codec: codecName, profile: profileName, bitRate: bitRate > 0 ? Int(bitRate) : nil,
                               primingFrames: priming, remainderFrames: remainder, gapless: length != nil,
                               decoder: details.decoder)
        audioFrames = length
        // The first frame was decoded before the end was known: cut it now if the audio is shorter.
        if let length, pending.count / channels > Int(length) { pending.removeSubrange((Int(length) * channels)...) }
    }

    deinit {
        if frame != nil { ff.av_frame_free(&frame) }
        if packet != nil { ff.av_packet_free(&packet) }
        if codecContext != nil { ff.avcodec_free_context(&codecContext) }
        if formatContext != nil { ff.avformat_close_input(&formatContext) }
    }

    func read(into destination: UnsafeMutablePointer<Float>, frames: Int) throws -> Int {
        let channels = format.channels
        var written = 0
        while written < frames {
            if pendingRead * channels >= pending.count {
                guard try fillPending(minimum: 1) else { break }
                continue
            }
            let available = pending.count / channels - pendingRead
            let n = min(available, frames - written)
            pending.withUnsafeBufferPointer { source in
                (destination + written * channels).update(from: source.baseAddress! + pendingRead * channels, count: n * channels)
            }
            pendingRead += n
            written += n
        }
        return written
    }

    func seek(toFrame target: Int64) throws {
        guard target >= 0 else { throw SoundstageError(.invalidArgument, "cannot seek to frame \(target)", subject: subject) }
        let rate = format.sampleRate
        // AAC rebuilds a frame from the one before it (overlapping transforms, SBR): start two
        // long frames early. ALAC frames stand alone.
        let preroll: Int64 = isAAC ? 4096 : 0
        let start = target - preroll + leadingTrim
        let timestamp = start <= 0 ? Int64.min : Self.rescale(start, from: (1, Int64(rate)), toTimeBase: timeBase)
        let status = ff.avformat_seek_file(formatContext, streamIndex, Int64.min, timestamp, timestamp, 0)
        if status < 0 {
            // Some streams (ADTS without an index yet) seek only forward from the start.
            let again = ff.avformat_seek_file(formatContext, streamIndex, Int64.min, Int64.min, Int64.min, 0)
            if again < 0 {
                throw Self.error(ff, status, "avformat_seek_file", kind: .io, "cannot seek to frame \(target)", subject: subject)
            }
        }
        // A fresh decoder rather than a flushed one: FFmpeg's AAC decoder draws substituted noise
        // (PNS) from a generator that a flush does not rewind, so only a fresh one decodes the
        // start exactly as the first time.
        let fresh = try Self.openCodec(ff, codec, parameters: parameters, name: details.codec, subject: subject)
        ff.avcodec_free_context(&codecContext)
        codecContext = fresh
        pending.removeAll(keepingCapacity: true)
        pendingRead = 0
        nextIndex = nil
        anchor = nil
        dropBefore = target
        draining = false
        finished = false
    }

    // MARK: - Decoding

    /// Decodes until at least `minimum` frames are pending; false at the end of the audio.
    /// `firstPacket` hears the first packet's skip (priming) and length, in output frames.
    @discardableResult
    private func fillPending(minimum: Int, firstPacket: ((Int64?, Int64) -> Void)? = nil) throws -> Bool {
        if pendingRead > 0 {
            pending.removeFirst(pendingRead * max(1, channels == 0 ? channelCount() : channels))
            pendingRead = 0
        }
        var reportFirst = firstPacket
        while pending.count < minimum * max(1, channels == 0 ? channelCount() : channels) {
            if finished {
                try checkLength()
                return !pending.isEmpty
            }
            // Empty the decoder first.
            let received = ff.avcodec_receive_frame(codecContext, frame)
            if received >= 0 {
                try take(frame!)
                continue
            }
            if received == AVError.endOfFile { finished = true; continue }
            guard received == AVError.again else {
                throw Self.error(ff, received, "avcodec_receive_frame", kind: .corruptData, "decoding failed", subject: subject)
            }
            if draining { finished = true; continue }
            let read = ff.av_read_frame(formatContext, packet)
            if read < 0 {
                guard read == AVError.endOfFile else {
                    throw Self.error(ff, read, "av_read_frame", kind: .corruptData, "reading the file failed", subject: subject)
                }
                draining = true
                _ = ff.avcodec_send_packet(codecContext, nil)
                continue
            }
            defer { ff.av_packet_unref(packet) }
            let raw = UnsafeMutableRawPointer(packet!)
            guard raw.load(fromByteOffset: FFmpegLayout.packetStreamIndex, as: Int32.self) == streamIndex else { continue }
            var skip: Int64?
            var size = 0
            if let side = ff.av_packet_get_side_data(packet, FFmpegLayout.sideDataSkipSamples, &size), size >= 4 {
                skip = Int64(UInt32(side[0]) | UInt32(side[1]) << 8 | UInt32(side[2]) << 16 | UInt32(side[3]) << 24)
            }
            if let report = reportFirst {
                report(skip, raw.load(fromByteOffset: FFmpegLayout.packetDuration, as: Int64.self))
                reportFirst = nil
            }
            if nextIndex == nil && anchor == nil {
                let pts = raw.load(fromByteOffset: FFmpegLayout.packetPTS, as: Int64.self)
                if pts != FFmpegLayout.noTimestamp { anchor = (pts, skip ?? 0) }
            }
            if let ilbcMode { try Self.checkILBC(raw, mode: ilbcMode, subject: subject) }
            let sent = ff.avcodec_send_packet(codecContext, packet)
            if sent < 0 && sent != AVError.again {
                // A damaged packet: FFmpeg has said why in its log; the next one may decode.
                if sent == AVError.invalidData { continue }
                throw Self.error(ff, sent, "avcodec_send_packet", kind: .corruptData, "decoding failed", subject: subject)
            }
        }
        return true
    }

    /// The first packet's timestamp (in the stream's time base) and skip after opening or
    /// seeking: the position of the next decoded frame, converted when it arrives, at the rate
    /// the decoder then reports (HE-AAC's output rate is known only from its first frame).
    private var anchor: (pts: Int64, skip: Int64)?

    /// Appends a decoded frame's samples (those inside the audio) to `pending`, interleaved floats.
    private func take(_ frame: OpaquePointer) throws {
        let raw = UnsafeMutableRawPointer(frame)
        let count = Int(raw.load(fromByteOffset: FFmpegLayout.frameSampleCount, as: Int32.self))
        let sampleFormat = raw.load(fromByteOffset: FFmpegLayout.frameFormat, as: Int32.self)
        let channels = channelCount()
        if nextIndex == nil, let anchor {
            let rate = format.sampleRate > 0 ? format.sampleRate : max(1, Int(option("ar")))
            nextIndex = Self.rescale(anchor.pts, from: timeBase, to: rate) - leadingTrim + anchor.skip
            self.anchor = nil
        }
        let start = nextIndex ?? 0
        nextIndex = start + Int64(count)
        guard count > 0 else { return }
        if self.channels != 0 && self.channels != channels {
            throw SoundstageError(.corruptData, "the stream changes from \(self.channels) to \(channels) channels part-way", subject: subject)
        }
        // Keep [from, to) of this frame: after the seek target and the priming, before the end.
        let from = Int(max(0, min(Int64(count), dropBefore - start)))
        var to = count
        if let end = audioFrames { to = Int(max(Int64(from), min(Int64(count), end - start))) }
        guard to > from else { return }
        guard let planes = raw.load(fromByteOffset: FFmpegLayout.frameExtendedData, as: UnsafeMutablePointer<UnsafeMutableRawPointer?>?.self) else {
            throw SoundstageError(.corruptData, "the decoder returned a frame without samples", subject: subject)
        }
        let base = pending.count
        pending.append(contentsOf: repeatElement(0, count: (to - from) * channels))
        try pending.withUnsafeMutableBufferPointer { out in
            let target = out.baseAddress! + base
            try SampleFormatConversion.interleave(planes: planes, format: sampleFormat, channels: channels,
                                                  range: from..<to, into: target, subject: subject)
        }
    }

    /// A codec context for `decoder`, set from the stream's parameters and opened.
    private static func openCodec(_ ff: FFmpegLibrary, _ decoder: OpaquePointer, parameters: UnsafeRawPointer?, name: String,
                                  subject: String) throws -> UnsafeMutableRawPointer {
        var context = ff.avcodec_alloc_context3(decoder)
        guard context != nil else { throw SoundstageError(.tooLarge, "out of memory", subject: subject) }
        var result = ff.avcodec_parameters_to_context(context, parameters)
        if result >= 0 {
            _ = ff.av_opt_set_int(context, "threads", 1, 0)
            result = ff.avcodec_open2(context, decoder, nil)
        }
        if result < 0 {
            ff.avcodec_free_context(&context)
            throw Self.error(ff, result, "avcodec_open2", kind: .corruptData, "the \(name) decoder refused the stream", subject: subject)
        }
        return context!
    }

    /// At the end: whether the audio fell short of the length the container states by more than
    /// a packet (a truncated file). Less is tolerated: FFmpeg's CAF writer counts a short last
    /// packet as full.
    private func checkLength() throws {
        guard !lengthChecked, let audioFrames, let reached = nextIndex, dropBefore == 0 else { return }
        lengthChecked = true
        let missing = audioFrames - reached
        if missing > 8192 {
            throw SoundstageError(.corruptData, "truncated: the container states \(audioFrames) frames but only \(reached) could be decoded",
                                  subject: subject, cause: Self.lastLogCause(ff, "av_read_frame"))
        }
    }

    /// An integer AVOption of the codec context (`ar`, `b`, `profile`, ...); 0 if absent.
    /// Refuses a packet that is not whole iLBC frames of `mode`, each well formed: FFmpeg's
    /// decoder would decode a damaged frame into noise, or a short one into silence.
    private static func checkILBC(_ packet: UnsafeMutableRawPointer, mode: ILBCMode, subject: String) throws {
        let size = Int(packet.load(fromByteOffset: FFmpegLayout.packetSize, as: Int32.self))
        guard let data = packet.load(fromByteOffset: FFmpegLayout.packetData, as: UnsafePointer<UInt8>?.self),
              size > 0, size % mode.bytesPerFrame == 0 else {
            throw SoundstageError(.corruptData, "holds an iLBC packet of \(size) bytes, not whole \(mode.bytesPerFrame)-byte frames",
                                  subject: subject)
        }
        for start in stride(from: 0, to: size, by: mode.bytesPerFrame) {
            do {
                try ILBCPacket.validate(UnsafeBufferPointer(start: data + start, count: mode.bytesPerFrame), mode: mode)
            } catch let error as SoundstageError {
                throw SoundstageError(error.code, error.message, subject: subject)
            }
        }
    }

    private func option(_ name: String) -> Int64 {
        var value: Int64 = 0
        return ff.av_opt_get_int(codecContext, name, 0, &value) >= 0 ? value : 0
    }

    /// The codec context's channel count, from its `ch_layout` option.
    private func channelCount() -> Int {
        var layout = [UInt8](repeating: 0, count: FFmpegLayout.channelLayoutSize)
        return layout.withUnsafeMutableBytes { raw -> Int in
            guard ff.av_opt_get_chlayout(codecContext, "ch_layout", 0, raw.baseAddress) >= 0 else { return 0 }
            defer { ff.av_channel_layout_uninit(raw.baseAddress) }
            return Int(raw.load(fromByteOffset: FFmpegLayout.channelLayoutCount, as: Int32.self))
        }
    }

    // MARK: - Helpers

    /// `value` in `base` units as frames at `rate`, rounded to nearest, in exact integer
    /// arithmetic (saturating instead of overflowing).
    static func rescale(_ value: Int64, from base: (num: Int64, den: Int64), to rate: Int) -> Int64 {
        scale(value, times: base.num * Int64(rate), over: base.den, rounding: .toNearestOrAwayFromZero)
    }

    /// `value` frames at `from.den / from.num` Hz as a timestamp in `base` units, rounded down.
    static func rescale(_ value: Int64, from: (num: Int64, den: Int64), toTimeBase base: (num: Int64, den: Int64)) -> Int64 {
        scale(value, times: from.num * base.den, over: from.den * base.num, rounding: .down)
    }

    /// `value × numerator / denominator` with a 128-bit intermediate, rounded as asked.
    static func scale(_ value: Int64, times numerator: Int64, over denominator: Int64, rounding: FloatingPointRoundingRule) -> Int64 {
        guard denominator > 0, numerator >= 0 else { return 0 }
        let negative = value < 0
        let magnitude = value.magnitude
        let product = magnitude.multipliedFullWidth(by: UInt64(numerator))
        guard product.high < UInt64(denominator) else { return negative ? Int64.min / 2 : Int64.max / 2 }
        var (quotient, remainder) = UInt64(denominator).dividingFullWidth(product)
        switch rounding {
        case .down: if negative && remainder > 0 { quotient += 1 }
        default: if remainder * 2 >= UInt64(denominator) { quotient += 1 }
        }
        guard quotient <= UInt64(Int64.max / 2) else { return negative ? Int64.min / 2 : Int64.max / 2 }
        return negative ? -Int64(quotient) : Int64(quotient)
    }

    /// The error for a failed FFmpeg call, quoting FFmpeg's message and its last log line.
    static func error(_ ff: FFmpegLibrary, _ code: Int32, _ function: String, kind: SoundstageError.Code,
                      _ message: String, subject: String) -> SoundstageError {
        var text = ff.message(for: code)
        if let line = FFmpegLog.lastLine { text += "; FFmpeg said: \(line)" }
        let resolved: SoundstageError.Code = code == AVError.noMemory ? .tooLarge : kind
        return SoundstageError(resolved, message, subject: subject, cause: .ffmpeg(function: function, code: code, message: text))
    }

    /// FFmpeg's last log line on this thread as a cause, if it said anything.
    static func lastLogCause(_ ff: FFmpegLibrary, _ function: String) -> SoundstageError.Cause? {
        FFmpegLog.lastLine.map { .ffmpeg(function: function, code: 0, message: $0) }
    }
}
