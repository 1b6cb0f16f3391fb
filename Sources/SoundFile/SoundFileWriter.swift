import CSndFile
#if canImport(Glibc)
import Glibc
#endif
import SoundstageErrors

/// Writes interleaved float audio to a file in an ``OutputFormat``.
///
/// The file goes where ``OutputDestination`` says: a regular file is written under a temporary
/// name and renamed into place by ``finish()`` (a failed or abandoned write never leaves half a
/// file, nor clobbers what was there); a symbolic link is followed (its target is written, the
/// link stays); a special file — `/dev/null`, a FIFO — is written in place and never replaced.
public final class SoundFileWriter {
    /// The final path.
    public let path: String
    /// What is being written.
    public let format: OutputFormat
    /// Frames per second.
    public let sampleRate: Int
    /// Channels per frame.
    public let channels: Int
    /// Frames written so far.
    public private(set) var framesWritten: Int64 = 0

    /// Where the bytes go: a temporary file beside the target, or a special file itself.
    private let destination: OutputDestination
    private var sndfile: OpaquePointer?
    private var ima4: (fd: Int32, states: [IMA4.ChannelState], pending: [Float])?
    /// iLBC in CAF: Soundstage's encoder, the temporary file's descriptor, what makes the input
    /// 8 kHz mono, and the frames coded (at 8 kHz).
    private var ilbc: (fd: Int32, encoder: ILBCEncoder, input: ILBCInput, frames: Int64)?
    /// AAC or ALAC in M4A, through FFmpeg, and the temporary file's descriptor.
    private var mpeg4: (fd: Int32, encoder: FFmpegEncoder)?
    private var finished = false

    /// Creates the (temporary) file and prepares to write.
    ///
    /// - Parameter bitRate: bits per second for AAC (default 128 000); for iLBC above 14 000
    ///   picks 20 ms frames (15.2 kbit/s), otherwise 30 ms (13.33 kbit/s); ignored by other formats.
    /// - Throws: `.invalidArgument` for a bad rate, channel count or bit rate, `.unsupportedFormat`
    ///   when the format cannot hold this audio (e.g. Opus at 44.1 kHz), `.notFound`/
    ///   `.permissionDenied`/`.io` when the file cannot be created, `.codecUnavailable` for M4A
    ///   without FFmpeg.
    public init(path: String, format: OutputFormat, sampleRate: Int, channels: Int, bitRate: Int? = nil) throws {
        guard SampleRateLimits.decoded.contains(sampleRate) else {
            throw SoundstageError(.invalidArgument, "sample rate \(sampleRate) is out of range "
                                  + SampleRateLimits.describe(SampleRateLimits.decoded), subject: path)
        }
        guard channels > 0, channels <= 64 else {
            throw SoundstageError(.invalidArgument, "channel count \(channels) is out of range 1...64", subject: path)
        }
        self.path = path
        self.format = format
        self.sampleRate = sampleRate
        self.channels = channels
        destination = OutputDestination(path)

        if format == .cafIMA4 {
            let fd = try destination.create()
            let header = CAFIMA4.header(sampleRate: sampleRate, channels: channels, frames: 0)
            ima4 = (fd, Array(repeating: IMA4.ChannelState(), count: channels), [])
            try writeRaw(header)
            return
        }
        if format == .cafILBC {
            // iLBC codes 8 kHz mono: other audio is mixed and resampled to it as it comes (the
            // file says 8 kHz mono; `sampleRate` and `channels` describe what `write` is given).
            let encoder = ILBCEncoder(mode: (bitRate ?? 0) > 14_000 ? .ms20 : .ms30)
            let fd = try destination.create()
            ilbc = (fd, encoder, ILBCInput(sampleRate: sampleRate, channels: channels), 0)
            try writeRaw(Self.ilbcHeader(encoder.mode, frames: 0))
            return
        }
        if format.container == .mp4 || format.container == .adts {
            try FFmpeg.requireAvailable()
            let fd = try destination.create()
            do {
                mpeg4 = (fd, try FFmpegEncoder(fd: fd, container: format.container, encoding: format.encoding, sampleRate: sampleRate,
                                               channels: channels, bitRate: bitRate, subject: path))
            } catch {
                close(fd)
                removeTemporary()
                throw error
            }
            return
        }
        if format == .cafAAC {
            throw SoundstageError(.unsupportedFormat, "caf-aac cannot be written: FFmpeg's CAF writer does not take AAC "
                                  + "(\"muxing codec currently unsupported\"); write m4a-aac, which iOS reads as well", subject: path)
        }
        guard let code = SndFileFormat.code(container: format.container, encoding: format.encoding) else {
            throw SoundstageError(.unsupportedFormat, "cannot write \(format.name)", subject: path)
        }
        var info = SF_INFO()
        info.samplerate = Int32(sampleRate)
        info.channels = Int32(channels)
        info.format = Int32(code)
        guard sf_format_check(&info) != 0 else {
            throw SoundstageError(.unsupportedFormat,
                                  "\(format.name) cannot hold \(channels)-channel audio at \(sampleRate) Hz", subject: path)
        }
        let fd = try destination.create()
        let opened = SndFileOpenLock.holding { () -> Result<OpaquePointer, SoundstageError> in
            sf_open_fd(fd, Int32(SFM_WRITE), &info, 1).map { .success($0) }
                ?? .failure(SoundstageError(.unsupportedFormat, "cannot write \(format.name)", subject: path,
                                            cause: .libsndfile(code: Int(sf_error(nil)), message: String(cString: sf_strerror(nil)))))
        }
        let handle: OpaquePointer
        switch opened {
        case .success(let opened):
            handle = opened
        case .failure(let error):
            // libsndfile has closed `fd` already (close_desc = 1 holds on failure too): closing it
            // again could close a descriptor another thread just opened.
            removeTemporary()
            throw error
        }
        // Samples beyond ±1 (a hot mix, a Vorbis overshoot) are clipped to full scale in integer
        // encodings: without this libsndfile wraps them around (PCM) or fails the write (FLAC).
        if format.encoding != .float32 { sf_command(handle, Int32(SFC_SET_CLIPPING), nil, Int32(SF_TRUE)) }
        sndfile = handle
    }

    deinit {
        if !finished { abandon() }
    }

    /// Appends a buffer; its channel count must match the writer's.
    public func write(_ buffer: AudioBuffer) throws {
        guard buffer.channels == channels else {
            throw SoundstageError(.invalidArgument, "buffer has \(buffer.channels) channels, file has \(channels)", subject: path)
        }
        try buffer.samples.withUnsafeBufferPointer { try write(interleaved: $0) }
    }

    /// Appends interleaved samples (a whole number of frames).
    public func write(interleaved samples: UnsafeBufferPointer<Float>) throws {
        guard !finished else { throw SoundstageError(.invalidArgument, "write after finish()", subject: path) }
        guard samples.count % channels == 0 else {
            throw SoundstageError(.invalidArgument, "\(samples.count) samples are not a whole number of \(channels)-channel frames",
                                  subject: path)
        }
        let frames = samples.count / channels
        if let mpeg4 {
            try mpeg4.encoder.write(samples)
        } else if ilbc != nil {
            let mono = ilbc!.input.convert(samples)
            ilbc!.frames += Int64(mono.count)
            let packets = ilbc!.encoder.encode(mono)
            try writeRaw(packets)
        } else if let handle = sndfile {
            // In slices: libvorbis takes a stack buffer the size of the first write (alloca in its
            // pre-extrapolation), so one call with two million frames overflowed the stack.
            var done = 0
            while done < frames {
                let slice = min(Self.writeSlice, frames - done)
                let wrote = Int(sf_writef_float(handle, samples.baseAddress! + done * channels, sf_count_t(slice)))
                done += max(0, wrote)
                guard wrote == slice else {
                    throw SoundstageError(.io, "write failed after \(framesWritten + Int64(done)) frames", subject: path,
                                          cause: .libsndfile(code: Int(sf_error(handle)), message: String(cString: sf_strerror(handle))))
                }
            }
        } else if var state = ima4 {
            state.pending.append(contentsOf: samples)
            let packetSamples = IMA4.framesPerPacket * channels
            let whole = state.pending.count / packetSamples
            var out: [UInt8] = []
            out.reserveCapacity(whole * IMA4.bytesPerChannelPacket * channels)
            state.pending.withUnsafeBufferPointer { pending in
                for packet in 0..<whole {
                    for channel in 0..<channels {
                        IMA4.encodePacket(pending.baseAddress! + packet * packetSamples + channel, stride: channels,
                                          state: &state.states[channel], into: &out)
                    }
                }
            }
            state.pending.removeFirst(whole * packetSamples)
            ima4 = state
            try writeRaw(out)
        }
        framesWritten += Int64(frames)
    }

    /// The most frames handed to libsndfile in one call.
    static let writeSlice = 65_536

    /// Completes the file and moves it to ``path``. Call exactly once.
    public func finish() throws {
        guard !finished else { throw SoundstageError(.invalidArgument, "finish() called twice", subject: path) }
        finished = true
        if let mpeg4 {
            do {
                try mpeg4.encoder.finish()
                guard fsync(mpeg4.fd) == 0 || errno == EINVAL else {
                    throw SoundstageError.posix("fsync", errno: errno, path: path, action: "write")
                }
                close(mpeg4.fd)
                self.mpeg4 = nil
            } catch {
                abandon()
                throw error
            }
        } else if let handle = sndfile {
            sf_write_sync(handle)
            let result = sf_close(handle)
            sndfile = nil
            guard result == 0 else {
                removeTemporary()
                throw SoundstageError(.io, "closing the file failed", subject: path,
                                      cause: .libsndfile(code: Int(result), message: String(cString: sf_error_number(result))))
            }
        } else if ilbc != nil {
            do {
                let tail = ilbc!.input.finish()
                ilbc!.frames += Int64(tail.count)
                try writeRaw(ilbc!.encoder.encode(tail) + ilbc!.encoder.flush())
                guard let state = ilbc else { return }
                try completeRaw(state.fd, header: Self.ilbcHeader(state.encoder.mode, frames: state.frames))
                ilbc = nil
            } catch {
                abandon()
                throw error
            }
        } else if var state = ima4 {
            do {
                let packetSamples = IMA4.framesPerPacket * channels
                if !state.pending.isEmpty {
                    state.pending += [Float](repeating: 0, count: packetSamples - state.pending.count)
                    var out: [UInt8] = []
                    state.pending.withUnsafeBufferPointer { pending in
                        for channel in 0..<channels {
                            IMA4.encodePacket(pending.baseAddress! + channel, stride: channels,
                                              state: &state.states[channel], into: &out)
                        }
                    }
                    ima4 = state
                    try writeRaw(out)
                }
                try completeRaw(state.fd, header: CAFIMA4.header(sampleRate: sampleRate, channels: channels, frames: framesWritten))
                ima4 = nil
            } catch {
                abandon()
                throw error
            }
        }
        try destination.commit()
    }

    /// Writes a whole buffer to `path` in one call (for iLBC, mixed to mono and resampled to 8 kHz).
    public static func write(_ buffer: AudioBuffer, to path: String, format: OutputFormat) throws {
        let writer = try SoundFileWriter(path: path, format: format, sampleRate: buffer.sampleRate, channels: buffer.channels)
        try writer.write(buffer)
        try writer.finish()
    }

    private func abandon() {
        if let handle = sndfile { sf_close(handle); sndfile = nil }
        if let state = ima4 { close(state.fd); ima4 = nil }
        if let state = ilbc { close(state.fd); ilbc = nil }
        if let mpeg4 { close(mpeg4.fd); self.mpeg4 = nil }
        removeTemporary()
    }

    /// The CAF header of iLBC packets, as iOS writes them: `'ilbc'`, 8 kHz mono, 160 frames in
    /// 38 bytes or 240 in 50 a packet, no flags, no bits per channel.
    static func ilbcHeader(_ mode: ILBCMode, frames: Int64) -> [UInt8] {
        CAFHeader.constantBitRate(formatID: "ilbc", sampleRate: ILBCMode.sampleRate, channels: 1,
                                  bytesPerPacket: mode.bytesPerFrame, framesPerPacket: mode.samplesPerFrame, frames: frames)
    }

    /// Writes the final `header` over the start of a file written by Soundstage's own codecs,
    /// syncs it and closes it.
    private func completeRaw(_ fd: Int32, header: [UInt8]) throws {
        let n = header.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        guard n == header.count else { throw SoundstageError.posix("pwrite", errno: errno, path: path, action: "write") }
        guard fsync(fd) == 0 || errno == EINVAL else {
            throw SoundstageError.posix("fsync", errno: errno, path: path, action: "write")
        }
        close(fd)
    }

    private func writeRaw(_ bytes: [UInt8]) throws {
        guard !bytes.isEmpty, let fd = ima4?.fd ?? ilbc?.fd else { return }
        try OutputDestination.writeAll(fd, bytes[...], path: path)
    }

    /// Deletes the temporary file (never a special file written directly).
    private func removeTemporary() { destination.discard() }
}
