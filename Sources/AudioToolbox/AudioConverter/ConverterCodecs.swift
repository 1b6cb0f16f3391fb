import SoundFile

// The codecs behind a converter: µ-law and A-law (G.711, here), IMA4 (SoundFile's), and FFmpeg's
// decoders for AAC, MPEG audio, Apple Lossless, iLBC and GSM and encoders for AAC and Apple Lossless,
// fed one packet at a time, and SoundFile's iLBC encoder.

/// Turns packets of a compressed format into frames.
protocol PacketDecoder: AnyObject {
    /// The decoded frames waiting, at ``sampleRate`` with ``channels`` channels.
    var output: FrameQueue { get set }
    /// The decoded stream's channels (what the description says until the first frame says otherwise).
    var channels: Int { get }
    /// Its rate, likewise.
    var sampleRate: Double { get }
    /// Whether ``channels`` and ``sampleRate`` are the decoder's own word (after its first frame).
    var isConfigured: Bool { get }
    /// Decodes one packet.
    func decode(_ packet: UnsafeRawBufferPointer) throws(ConverterStatus)
    /// The stream has ended: what the decoder still holds goes to ``output``.
    func finish() throws(ConverterStatus)
    /// Forgets the stream.
    func reset()
}

/// Turns frames into packets of a compressed format.
protocol PacketEncoder: AnyObject {
    /// Frames a packet holds (the last may hold fewer when the format allows).
    var framesPerPacket: Int { get }
    /// Bytes a packet takes when constant; 0 when packets vary.
    var bytesPerPacket: Int { get }
    /// The largest packet it makes.
    var maximumPacketSize: Int { get }
    /// What a decoder needs to know (`kAudioConverterCompressionMagicCookie`), if the format has it.
    func magicCookie() throws(ConverterStatus) -> [UInt8]?
    /// Frames of priming before the audio, and of padding after it (once the stream has ended).
    var primeInfo: AudioConverterPrimeInfo { get }
    /// Encodes as many whole packets as `input` holds (at the end, the rest too), consuming them,
    /// and hands each to `emit` with its frames.
    func encode(_ input: inout FrameQueue, endOfStream: Bool, _ emit: (UnsafeRawBufferPointer, Int) -> Void) throws(ConverterStatus)
    /// Forgets the stream.
    func reset()
}

// MARK: - G.711

/// µ-law and A-law, one byte a sample (ITU-T G.711, decoded to and encoded from 16-bit values).
enum G711 {
    static func decodeULaw(_ code: UInt8) -> Int16 {
        let u = ~code
        var t = (Int(u & 0x0F) << 3) + 0x84
        t <<= Int((u & 0x70) >> 4)
        return Int16(u & 0x80 != 0 ? 0x84 - t : t - 0x84)
    }

    static func encodeULaw(_ sample: Int16) -> UInt8 {
        var value = Int(sample) >> 2
        let mask: UInt8
        if value < 0 { value = -value; mask = 0x7F } else { mask = 0xFF }
        value = min(value, 8159) + 33
        var segment = 0
        while segment < 8 && value > (0x40 << segment) - 1 { segment += 1 }
        if segment >= 8 { return 0x7F ^ mask }
        return UInt8((segment << 4) | ((value >> (segment + 1)) & 0x0F)) ^ mask
    }

    static func decodeALaw(_ code: UInt8) -> Int16 {
        let a = code ^ 0x55
        var t = Int(a & 0x0F) << 4
        let segment = Int((a & 0x70) >> 4)
        switch segment {
        case 0: t += 8
        case 1: t += 0x108
        default: t = (t + 0x108) << (segment - 1)
        }
        return Int16(a & 0x80 != 0 ? t : -t)
    }

    static func encodeALaw(_ sample: Int16) -> UInt8 {
        var value = Int(sample) >> 3
        let mask: UInt8
        if value >= 0 { mask = 0xD5 } else { mask = 0x55; value = -value - 1 }
        var segment = 0
        while segment < 8 && value > (0x20 << segment) - 1 { segment += 1 }
        if segment >= 8 { return 0x7F ^ mask }
        var code = segment << 4
        code |= segment < 2 ? (value >> 1) & 0x0F : (value >> segment) & 0x0F
        return UInt8(code) ^ mask
    }

    /// The 256 decoded values of each law.
    static let uLawTable: [Double] = (0...255).map { Double(decodeULaw(UInt8($0))) / 32_768 }
    static let aLawTable: [Double] = (0...255).map { Double(decodeALaw(UInt8($0))) / 32_768 }
}

/// A number in -1...1 as a 16-bit sample, as the PCM writer rounds it.
@inline(__always)
func sixteenBit(_ value: Double) -> Int16 {
    value.isNaN ? 0 : Int16((value * 32_768).rounded(.toNearestOrEven).clamped(-32_768, 32_767))
}

final class G711Decoder: PacketDecoder {
    var output: FrameQueue
    let channels: Int
    let sampleRate: Double
    var isConfigured: Bool { true }
    private let table: [Double]

    init(aLaw: Bool, channels: Int, sampleRate: Double) {
        self.channels = channels
        self.sampleRate = sampleRate
        table = aLaw ? G711.aLawTable : G711.uLawTable
        output = FrameQueue(channels: channels)
    }

    func decode(_ packet: UnsafeRawBufferPointer) throws(ConverterStatus) {
        let frames = packet.count / channels
        output.append(frames: frames) { channel, out in
            for i in 0..<frames { out[i] = table[Int(packet[i * channels + channel])] }
        }
    }

    func finish() {}
    func reset() { output.removeAll() }
}

final class G711Encoder: PacketEncoder {
    let channels: Int
    let aLaw: Bool
    var framesPerPacket: Int { 1 }
    var bytesPerPacket: Int { channels }
    var maximumPacketSize: Int { channels }
    var primeInfo: AudioConverterPrimeInfo { AudioConverterPrimeInfo(leadingFrames: 0, trailingFrames: 0) }

    init(aLaw: Bool, channels: Int) {
        self.aLaw = aLaw
        self.channels = channels
    }

    func magicCookie() -> [UInt8]? { nil }

    func encode(_ input: inout FrameQueue, endOfStream: Bool, _ emit: (UnsafeRawBufferPointer, Int) -> Void) {
        let frames = input.count
        guard frames > 0 else { return }
        var bytes = [UInt8](repeating: 0, count: frames * channels)
        for c in 0..<channels {
            input.withFront(channel: c) { source in
                for i in 0..<frames {
                    let sample = sixteenBit(source[i])
                    bytes[i * channels + c] = aLaw ? G711.encodeALaw(sample) : G711.encodeULaw(sample)
                }
            }
        }
        input.consume(frames)
        bytes.withUnsafeBytes { all in
            for i in 0..<frames { emit(UnsafeRawBufferPointer(rebasing: all[(i * channels)..<((i + 1) * channels)]), 1) }
        }
    }

    func reset() {}
}

// MARK: - IMA4

final class IMA4Decoder: PacketDecoder {
    var output: FrameQueue
    let channels: Int
    let sampleRate: Double
    var isConfigured: Bool { true }
    private var samples = [Int16](repeating: 0, count: IMA4.framesPerPacket)

    init(channels: Int, sampleRate: Double) {
        self.channels = channels
        self.sampleRate = sampleRate
        output = FrameQueue(channels: channels)
    }

    func decode(_ packet: UnsafeRawBufferPointer) throws(ConverterStatus) {
        guard packet.count == IMA4.bytesPerChannelPacket * channels else { throw .invalidInputSize }
        output.append(frames: IMA4.framesPerPacket) { channel, out in
            let block = UnsafeRawBufferPointer(rebasing: packet[(channel * IMA4.bytesPerChannelPacket)..<((channel + 1) * IMA4.bytesPerChannelPacket)])
            samples.withUnsafeMutableBufferPointer { IMA4.decodePacket(block, into: $0.baseAddress!, stride: 1) }
            for i in 0..<IMA4.framesPerPacket { out[i] = Double(samples[i]) / 32_768 }
        }
    }

    func finish() {}
    func reset() { output.removeAll() }
}

final class IMA4Encoder: PacketEncoder {
    let channels: Int
    private var states: [IMA4.ChannelState]
    private var remainder = 0
    var framesPerPacket: Int { IMA4.framesPerPacket }
    var bytesPerPacket: Int { IMA4.bytesPerChannelPacket * channels }
    var maximumPacketSize: Int { bytesPerPacket }
    var primeInfo: AudioConverterPrimeInfo { AudioConverterPrimeInfo(leadingFrames: 0, trailingFrames: UInt32(remainder)) }

    init(channels: Int) {
        self.channels = channels
        states = Array(repeating: IMA4.ChannelState(), count: channels)
    }

    func magicCookie() -> [UInt8]? { nil }

    func encode(_ input: inout FrameQueue, endOfStream: Bool, _ emit: (UnsafeRawBufferPointer, Int) -> Void) {
        var packet = [UInt8](repeating: 0, count: bytesPerPacket)
        var block = [Int16](repeating: 0, count: IMA4.framesPerPacket)
        while input.count >= IMA4.framesPerPacket || (endOfStream && input.count > 0) {
            let frames = min(IMA4.framesPerPacket, input.count)
            for c in 0..<channels {
                input.withFront(channel: c) { source in
                    for i in 0..<IMA4.framesPerPacket { block[i] = i < frames ? sixteenBit(source[i]) : 0 }
                }
                packet.withUnsafeMutableBytes { out in
                    block.withUnsafeBufferPointer {
                        IMA4.encodePacket($0.baseAddress!, stride: 1, state: &states[c], into: out.baseAddress! + c * IMA4.bytesPerChannelPacket)
                    }
                }
            }
            input.consume(frames)
            remainder = IMA4.framesPerPacket - frames
            packet.withUnsafeBytes { emit($0, IMA4.framesPerPacket) }
        }
    }

    func reset() {
        states = Array(repeating: IMA4.ChannelState(), count: channels)
        remainder = 0
    }
}

// MARK: - iLBC

/// iLBC, coded by SoundFile's own encoder (RFC 3951): 8 kHz mono, 160 frames in 38 bytes or 240 in 50.
final class ILBCConverterEncoder: PacketEncoder {
    private var encoder: ILBCEncoder
    private var remainder = 0
    var framesPerPacket: Int { encoder.mode.samplesPerFrame }
    var bytesPerPacket: Int { encoder.mode.bytesPerFrame }
    var maximumPacketSize: Int { bytesPerPacket }
    var primeInfo: AudioConverterPrimeInfo { AudioConverterPrimeInfo(leadingFrames: 0, trailingFrames: UInt32(remainder)) }

    init(mode: ILBCMode) { encoder = ILBCEncoder(mode: mode) }

    func magicCookie() -> [UInt8]? { nil }

    func encode(_ input: inout FrameQueue, endOfStream: Bool, _ emit: (UnsafeRawBufferPointer, Int) -> Void) {
        let n = framesPerPacket
        var block = [Float](repeating: 0, count: n)
        while input.count >= n || (endOfStream && input.count > 0) {
            let frames = min(n, input.count)
            input.withFront(channel: 0) { source in
                for i in 0..<n { block[i] = i < frames ? Float(source[i]) : 0 }
            }
            input.consume(frames)
            remainder = n - frames
            encoder.encode(block).withUnsafeBytes { emit($0, n) }
        }
    }

    func reset() {
        encoder = ILBCEncoder(mode: encoder.mode)
        remainder = 0
    }
}

// MARK: - FFmpeg

/// A decoder of FFmpeg's, for AAC (LC, HE, HE v2), MPEG layers 1–3, Apple Lossless, iLBC and GSM.
final class FFmpegConverterDecoder: PacketDecoder {
    var output: FrameQueue
    private(set) var channels: Int
    private(set) var sampleRate: Double
    private(set) var isConfigured = false
    /// Frames a packet decodes to, for the silence that stands in for a damaged one (0: unknown).
    private let framesPerPacket: Int
    private let codecName: String
    private let extradata: [UInt8]
    private let blockAlign: Int
    private let declaredRate: Int
    private var decoder: FFmpegPacketDecoder
    private var scratch: [Double] = []
    /// Whether a packet may go to FFmpeg: iLBC's are checked first (``ILBCPacket/validate(_:mode:)``),
    /// as FFmpeg decodes a damaged or lost frame to noise rather than refuse it.
    private let packetIsSound: ((UnsafeRawBufferPointer) -> Bool)?

    init(codecName: String, extradata: [UInt8], channels: Int, sampleRate: Double, framesPerPacket: Int, blockAlign: Int) throws(ConverterStatus) {
        self.codecName = codecName
        self.extradata = extradata
        self.blockAlign = blockAlign
        self.framesPerPacket = framesPerPacket
        self.channels = max(1, channels)
        self.sampleRate = sampleRate
        declaredRate = sampleRate.isFinite && sampleRate >= 1 && sampleRate <= 768_000 ? Int(sampleRate) : 0
        packetIsSound = codecName != "ilbc" ? nil : { packet in
            guard let mode = [ILBCMode.ms20, .ms30].first(where: { $0.bytesPerFrame == packet.count }) else { return false }
            return (try? ILBCPacket.validate(packet, mode: mode)) != nil
        }
        do {
            decoder = try FFmpegPacketDecoder(codec: codecName, extradata: extradata, sampleRate: declaredRate, channels: channels, blockAlign: blockAlign)
        } catch {
            throw .formatNotSupported
        }
        output = FrameQueue(channels: self.channels)
    }

    func decode(_ packet: UnsafeRawBufferPointer) throws(ConverterStatus) {
        guard packet.count > 0 else { return }   // an empty packet would tell FFmpeg the stream ended
        if let packetIsSound, !packetIsSound(packet) {
            concealDamagedPacket()
            return
        }
        do {
            let accepted = try decoder.decode(packet) { audio in try take(audio) }
            if !accepted { concealDamagedPacket() }
        } catch let status as ConverterStatus {
            throw status
        } catch {
            throw .unspecified
        }
    }

    /// Keeps the timeline: a damaged packet is silence, as long as a packet decodes to (twice the
    /// description's when SBR doubles the rate the description states); nothing when unknown.
    private func concealDamagedPacket() {
        guard framesPerPacket > 0 else { return }
        let ratio = isConfigured && declaredRate > 0 ? sampleRate / Double(declaredRate) : 1
        let frames = (0.25...4).contains(ratio) ? Int((Double(framesPerPacket) * ratio).rounded()) : framesPerPacket
        output.appendSilence(frames: frames)
    }

    func finish() throws(ConverterStatus) {
        do {
            try decoder.decode(nil) { audio in try take(audio) }
        } catch let status as ConverterStatus {
            throw status
        } catch {
            throw .unspecified
        }
    }

    func reset() {
        // A fresh decoder, not a flushed one: AAC's noise substitution draws from a generator a
        // flush does not rewind, and a reset stream must decode as the first time did.
        if let fresh = try? FFmpegPacketDecoder(codec: codecName, extradata: extradata, sampleRate: declaredRate, channels: channels,
                                                blockAlign: blockAlign) {
            decoder = fresh
        } else {
            decoder.reset()
        }
        output.removeAll()
    }

    private func take(_ audio: FFmpegDecodedAudio) throws {
        if !isConfigured {
            isConfigured = true
            if audio.sampleRate > 0 { sampleRate = Double(audio.sampleRate) }
            if audio.channels != channels {
                channels = audio.channels
                output = FrameQueue(channels: channels)
            }
        }
        let frames = audio.frames
        if scratch.count < frames { scratch = [Double](repeating: 0, count: frames) }
        try output.append(frames: frames) { channel, out in
            if channel < audio.channels {
                try audio.write(channel: channel, to: out)   // (the PCM writer makes every sample finite)
            } else {
                out.update(repeating: 0, count: frames)
            }
        }
    }
}

/// FFmpeg's AAC-LC and Apple Lossless encoders.
final class FFmpegConverterEncoder: PacketEncoder {
    /// AAC's priming as Apple's encoders make it: FFmpeg's encoder primes 1024 frames; 1088 frames
    /// of silence before the audio make the 2112 that players assume for AAC without an edit list.
    static let aacPriming = 2112
    private let codecName: String
    private let channels: Int
    private let sampleRate: Int
    private let bitsPerSample: Int
    var bitRate: Int
    private var encoder: FFmpegPacketEncoder?
    private var started = false
    private var framesIn = 0
    private var framesOut = 0
    private var packetsOut = 0
    private var finished = false
    private var planes: [[Double]]

    var isAAC: Bool { codecName == "aac" }
    var framesPerPacket: Int { isAAC ? 1024 : 4096 }
    var bytesPerPacket: Int { 0 }
    var maximumPacketSize: Int {
        // AAC: 6144 bits a channel an access unit; ALAC: the samples uncompressed, plus headers.
        isAAC ? 768 * channels : framesPerPacket * channels * ((bitsPerSample + 7) / 8) + 8 * channels + 64
    }
    var primeInfo: AudioConverterPrimeInfo {
        guard isAAC else { return AudioConverterPrimeInfo(leadingFrames: 0, trailingFrames: 0) }
        // Every AAC packet decodes to 1024 frames, the last one padded.
        let trailing = finished ? max(0, packetsOut * 1024 - Self.aacPriming - framesIn) : 0
        return AudioConverterPrimeInfo(leadingFrames: UInt32(Self.aacPriming), trailingFrames: UInt32(trailing))
    }

    init(codecName: String, channels: Int, sampleRate: Int, bitRate: Int, bitsPerSample: Int) throws(ConverterStatus) {
        self.codecName = codecName
        self.channels = channels
        self.sampleRate = sampleRate
        self.bitRate = bitRate
        self.bitsPerSample = bitsPerSample
        planes = Array(repeating: [], count: channels)
        _ = try open()   // fail now, at AudioConverterNew, when FFmpeg or the codec is missing
    }

    private func open() throws(ConverterStatus) -> FFmpegPacketEncoder {
        if let encoder { return encoder }
        do {
            let made = try FFmpegPacketEncoder(codec: codecName, sampleRate: sampleRate, channels: channels,
                                               bitRate: isAAC ? bitRate : nil, bitsPerSample: bitsPerSample)
            encoder = made
            return made
        } catch {
            throw .formatNotSupported
        }
    }

    /// A new bit rate: taken at once when nothing has been encoded yet, else from the next Reset.
    func setBitRate(_ rate: Int) {
        bitRate = rate
        if !started { encoder = nil }
    }

    func magicCookie() throws(ConverterStatus) -> [UInt8]? {
        let extradata = try open().extradata
        if isAAC { return MagicCookie.esDescriptor(audioSpecificConfig: extradata, bitRate: bitRate, maximumPacketSize: maximumPacketSize) }
        // FFmpeg's 36-byte 'alac' atom: size, 'alac', version, then the ALACSpecificConfig, which is
        // what Apple's encoder gives (and its channel layout info beyond two channels).
        guard extradata.count >= 36 else { return nil }
        var cookie = Array(extradata[12..<36])
        if channels > 2 { cookie += ALACSpecificConfig.channelLayoutInfo(channels: channels) }
        return cookie
    }

    func encode(_ input: inout FrameQueue, endOfStream: Bool, _ emit: (UnsafeRawBufferPointer, Int) -> Void) throws(ConverterStatus) {
        guard !finished else { input.consume(input.count); return }
        let encoder = try open()
        if !started {
            started = true
            if isAAC {
                for c in 0..<channels { planes[c].append(contentsOf: repeatElement(0, count: Self.aacPriming - 1024)) }
            }
        }
        // Move the input into the encoder's planes.
        let frames = input.count
        if frames > 0 {
            for c in 0..<channels { input.withFront(channel: c) { planes[c].append(contentsOf: UnsafeBufferPointer(start: $0, count: frames)) } }
            input.consume(frames)
            framesIn += frames
        }
        let size = encoder.frameSize
        var done = 0
        let available = planes.first?.count ?? 0
        func forward(_ packet: UnsafeRawBufferPointer, _ duration: Int) {
            framesOut += duration
            packetsOut += 1
            emit(packet, duration)
        }
        var block = [Double](repeating: 0, count: channels * size)
        do {
            while available - done >= size || (endOfStream && available - done > 0) {
                let n = min(size, available - done)
                for c in 0..<channels {
                    planes[c].withUnsafeBufferPointer { source in
                        block.withUnsafeMutableBufferPointer { $0.baseAddress!.advanced(by: c * size).update(from: source.baseAddress! + done, count: n) }
                    }
                }
                try block.withUnsafeBufferPointer { base in
                    try encoder.encode((0..<channels).map { base.baseAddress! + $0 * size }, frames: n, forward)
                }
                done += n
            }
            if endOfStream {
                try encoder.finish(forward)
                finished = true
            }
        } catch {
            throw .unspecified
        }
        for c in 0..<channels { planes[c].removeSubrange(0..<done) }
    }

    func reset() {
        encoder = nil
        started = false
        finished = false
        framesIn = 0
        framesOut = 0
        packetsOut = 0
        planes = Array(repeating: [], count: channels)
    }
}
