import struct SoundFile.FrameQueue
import class SoundFile.Resampler
import struct SoundFile.ResamplerDesign
import NIOConcurrencyHelpers
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

// One converter: what it converts from and to, and the stages between. Frames flow
//
//   input procedure → decoder (or PCM reader) → channel map → resampler → PCM writer (or encoder)
//
// as planes of Doubles, pulled by AudioConverterFillComplexBuffer: the output asks for frames,
// the resampler for the input frames those need, the decoder for packets, the input procedure
// for the packets. What a stage makes beyond what was asked waits in its queue for the next call.

/// One side of a conversion.
enum ConverterFormat {
    case pcm(PCMLayout)
    case coded(AudioStreamBasicDescription)

    var sampleRate: Double {
        switch self {
        case .pcm(let layout): layout.sampleRate
        case .coded(let asbd): asbd.mSampleRate
        }
    }

    var channels: Int {
        switch self {
        case .pcm(let layout): layout.channels
        case .coded(let asbd): Int(asbd.mChannelsPerFrame)
        }
    }

    var isPCM: Bool { if case .pcm = self { true } else { false } }
}

/// A converter and its state. Only the thread that holds ``lock`` touches the state (every
/// function takes it for the whole call); ``owner`` says which thread that is, so a call an input
/// procedure makes on its own converter is refused instead of waiting for itself.
final class AudioConverterObject: @unchecked Sendable {
    let lock = NIOLock()
    /// The thread inside a call (pthread_self as bits), 0 when none.
    let owner = Atomic<UInt>(0)
    /// Set by AudioConverterDispose from inside the converter's own input procedure: the running
    /// call stops after the procedure returns.
    let disposed = Atomic<Bool>(false)

    let source: ConverterFormat
    var destination: ConverterFormat
    let sourceDescription: AudioStreamBasicDescription
    var destinationDescription: AudioStreamBasicDescription

    // Properties.
    var quality: UInt32 = kAudioConverterQuality_High
    var complexity: UInt32 = kAudioConverterSampleRateConverterComplexity_Normal
    var initialPhase: Double = 0
    var primeMethod: UInt32 = kConverterPrimeMethod_Normal
    var primeLeadingFrames: Int?
    var codecQuality: UInt32 = kAudioConverterQuality_High
    var channelMap: [Int32]?
    var inputLayout: [UInt8]?
    var outputLayout: [UInt8]?
    var bitDepthHint: Int32 = 0
    var decompressionCookie: [UInt8]?

    // Stages.
    var decoder: PacketDecoder?
    var encoder: PacketEncoder?
    private var resampler: Resampler?
    /// Frames after the channel map, at the source's rate.
    private var mapped: FrameQueue
    /// Frames at the destination's rate and channels (``mapped`` itself when there is no resampler).
    private var ready: FrameQueue
    private var configured = false
    private var sourceChannels = 0
    private var sourceRate = 0.0
    private var inputEnded = false
    private var finished = false
    /// Encoded packets not yet handed out, and the frames each holds.
    private var packets: [(bytes: [UInt8], frames: Int)] = []
    private var packetStart = 0
    /// Whether any input has been taken since the start or the last reset.
    private(set) var started = false

    // Extended Audio File Services' trimming (ExtAudioFileObject sets these; no property of
    // Apple's names them, and AudioConverterReset leaves them).
    /// Frames of the source (decoded, or PCM read) at its rate to drop before the channel map: a
    /// file's priming, and the frames between a seek's packet and its frame.
    var discardFrames = 0
    /// Frames of the source still to let through (nil: every one): a file's valid frames left.
    /// When they have passed, the input has ended (the remainder is never decoded).
    var remainingFrames: Int?
    /// The most silence ``remainingFrames`` may stand for when the input ends short of it (a
    /// packet table promising a short last packet as full); 0: none.
    var maximumPadding = 0
    /// Whether the three above were scaled to the decoder's rate (``configure(channels:rate:)``);
    /// cleared by a reset, after which Extended Audio File Services sets them again.
    private var trimmingScaled = false
    /// Frames the encoder has taken since the start or the last reset: the frames a file written
    /// through this converter holds, before the encoder's priming and padding.
    private(set) var encodedFrames = 0

    // What the input procedure is given: a buffer list with room for every channel, and a
    // description array.
    private let inputList: UnsafeMutableRawPointer
    private let inputListCapacity: Int
    private var inputDescriptions: [AudioStreamPacketDescription] = []

    init(source: AudioStreamBasicDescription, destination: AudioStreamBasicDescription) throws(ConverterStatus) {
        sourceDescription = source
        destinationDescription = destination
        guard source.mSampleRate.isFinite, source.mSampleRate >= 0, source.mSampleRate <= 768_000 else { throw .inputRateOutOfRange }
        guard destination.mSampleRate.isFinite, destination.mSampleRate >= 0, destination.mSampleRate <= 768_000 else { throw .outputRateOutOfRange }
        guard let from = ConverterFormats.side(source, isSource: true) else { throw .formatNotSupported }
        guard var to = ConverterFormats.side(destination, isSource: false) else { throw .formatNotSupported }
        if case .coded = from, case .coded = to { throw .formatNotSupported }   // compressed to compressed: not even Apple's
        // Rates: 0 in the destination means the source's.
        let inRate = from.sampleRate
        guard inRate.isFinite, inRate >= 0, inRate <= 768_000 else { throw .inputRateOutOfRange }
        var outRate = to.sampleRate
        guard outRate.isFinite, outRate >= 0, outRate <= 768_000 else { throw .outputRateOutOfRange }
        if outRate == 0 { outRate = inRate }
        if inRate == 0 && outRate != 0 && !from.isPCM { /* the decoder will say */ } else if inRate == 0 && outRate != inRate {
            throw .inputRateOutOfRange
        }
        if case .pcm(let layout) = to, layout.sampleRate != outRate {
            var asbd = layout.description
            asbd.mSampleRate = outRate
            to = .pcm(PCMLayout(asbd)!)
        }
        self.source = from
        self.destination = to
        if case .coded(var asbd) = to {
            asbd.mSampleRate = outRate
            destinationDescription = asbd
        }
        let outChannels = to.channels
        mapped = FrameQueue(channels: outChannels)
        ready = FrameQueue(channels: outChannels)
        if case .pcm(let layout) = from, layout.nonInterleaved { inputListCapacity = layout.channels } else { inputListCapacity = 1 }
        let size = MemoryLayout<AudioBufferList>.size + max(0, inputListCapacity - 1) * MemoryLayout<AudioBuffer>.stride
        inputList = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: MemoryLayout<AudioBufferList>.alignment)
        inputList.initializeMemory(as: UInt8.self, repeating: 0, count: size)
        // The codecs, now: a missing FFmpeg or codec is kAudioConverterErr_FormatNotSupported at New.
        if case .coded(let asbd) = from { decoder = try ConverterFormats.decoder(for: asbd, cookie: nil) }
        if case .coded(let asbd) = to { encoder = try ConverterFormats.encoder(for: destinationDescription, sourceBits: Self.bits(of: from), asbd: asbd) }
    }

    deinit { inputList.deallocate() }

    private static func bits(of side: ConverterFormat) -> Int {
        if case .pcm(let layout) = side { return layout.kind == .float ? 32 : layout.bits }
        return 16
    }

    /// The destination's rate (the source's when the destination states none).
    var outputRate: Double {
        let rate = destination.sampleRate
        return rate > 0 ? rate : source.sampleRate
    }

    // MARK: - Reset

    /// Back to the start of a stream (AudioConverterReset).
    func reset() {
        decoder?.reset()
        encoder?.reset()
        resampler = nil
        configured = false
        mapped.removeAll()
        ready.removeAll()
        inputEnded = false
        finished = false
        packets.removeAll()
        packetStart = 0
        started = false
        encodedFrames = 0
        trimmingScaled = false
    }

    // MARK: - The stages

    /// Sets up the channel map and the resampler for the source's actual channels and rate.
    private func configure(channels: Int, rate: Double) {
        sourceChannels = channels
        sourceRate = rate > 0 ? rate : outputRate
        // A decoder whose stream runs at another rate than the description says gives that many
        // more (or fewer) frames a packet: AAC whose SBR the description does not state (HE-AAC
        // signalled implicitly, in the packets, or an 'aac ' description of an HE-AAC stream).
        // The trimming is set in the description's frames; it is counted in the decoder's.
        // (SBR doubles the rate, or halves it for a description at the SBR rate over a core the
        // decoder runs alone: ratios past 4 are no such thing, and are not believed.)
        if !trimmingScaled, case .coded(let asbd) = source, asbd.mSampleRate > 0, rate > 0, rate != asbd.mSampleRate,
           (0.25...4).contains(rate / asbd.mSampleRate) {
            let ratio = rate / asbd.mSampleRate
            discardFrames = Int((Double(discardFrames) * ratio).rounded())
            remainingFrames = remainingFrames.map { Int((Double($0) * ratio).rounded()) }
            maximumPadding = Int((Double(maximumPadding) * ratio).rounded())
        }
        trimmingScaled = true
        let outRate = outputRate
        if sourceRate != outRate && outRate > 0 {
            let design = ResamplerDesign.forQuality(quality, complexity: complexity)
            resampler = Resampler(inRate: sourceRate, outRate: outRate, channels: destination.channels, design: design,
                                  priming: Resampler.Priming(method: primeMethod, leadingFrames: primeLeadingFrames), initialPhase: initialPhase)
        } else {
            resampler = nil
        }
        configured = true
    }

    /// Which input channel each output channel takes (−1: silence), and whether channels mix.
    func effectiveMap(inputChannels: Int) -> (map: [Int], mixToMono: Bool) {
        let outputs = destination.channels
        if let channelMap, channelMap.count == outputs, channelMap.allSatisfy({ $0 >= -1 && Int($0) < inputChannels }) {
            return (channelMap.map(Int.init), false)
        }
        if inputChannels == outputs { return (Array(0..<outputs), false) }
        if inputChannels == 1 { return (Array(repeating: 0, count: outputs), false) }   // mono to every channel
        if outputs == 1 { return ([0], true) }                                            // many to mono: their mean
        return ((0..<outputs).map { $0 < inputChannels ? $0 : -1 }, false)               // the first ones, the rest silent
    }

    /// Moves `frames` frames of `decoded` (source channels) into ``mapped`` through the channel map.
    private func map(_ decoded: inout FrameQueue, frames: Int) {
        guard frames > 0 else { return }
        let (routes, mix) = effectiveMap(inputChannels: decoded.channels)
        if !mix, frames == decoded.count, routes == Array(0..<decoded.channels), mapped.takeAll(from: &decoded) { return }
        mapped.append(frames: frames) { channel, out in
            if mix {
                out.update(repeating: 0, count: frames)
                for c in 0..<decoded.channels { decoded.withFront(channel: c) { for i in 0..<frames { out[i] += $0[i] } } }
                let scale = 1 / Double(decoded.channels)
                for i in 0..<frames { out[i] *= scale }
            } else if routes[channel] >= 0 {
                decoded.withFront(channel: routes[channel]) { out.update(from: $0, count: frames) }
            } else {
                out.update(repeating: 0, count: frames)
            }
        }
        decoded.consume(frames)
    }

    /// Moves the source's frames in `decoded` into ``mapped``, less those ``discardFrames`` and
    /// ``remainingFrames`` keep out.
    private func admit(_ decoded: inout FrameQueue) {
        if discardFrames > 0 {
            let dropped = min(discardFrames, decoded.count)
            decoded.consume(dropped)
            discardFrames -= dropped
        }
        var frames = decoded.count
        if let remaining = remainingFrames {
            frames = min(frames, remaining)
            remainingFrames = remaining - frames
        }
        map(&decoded, frames: frames)
        if remainingFrames == 0 {
            decoded.removeAll()
            inputEnded = true
        }
    }

    /// Pulls from the input procedure until ``mapped`` holds `minimum` frames or the input ends.
    private func pull(minimum: Int, _ input: InputProcedure) throws(ConverterStatus) {
        if remainingFrames == 0 { inputEnded = true }
        while mapped.count < minimum && !inputEnded {
            // Decoded frames waiting in the decoder first.
            if let decoder, decoder.output.count > 0 {
                if !configured { configure(channels: decoder.channels, rate: decoder.sampleRate) }
                admit(&decoder.output)
                continue
            }
            let framesPerPacket: Int
            switch source {
            case .pcm: framesPerPacket = 1
            case .coded(let asbd): framesPerPacket = max(1, Int(asbd.mFramesPerPacket))
            }
            let asked = max(1, min(1 << 16, (minimum - mapped.count + framesPerPacket - 1) / framesPerPacket))
            try callInput(asking: asked, input)
            if disposed.load(ordering: .acquiring) { throw .parameter }
        }
        if inputEnded, let decoder, decoder.output.count > 0 {
            if !configured { configure(channels: decoder.channels, rate: decoder.sampleRate) }
            admit(&decoder.output)
        }
    }

    /// One call of the input procedure, and what it gave taken in.
    private func callInput(asking asked: Int, _ input: InputProcedure) throws(ConverterStatus) {
        let list = inputList.assumingMemoryBound(to: AudioBufferList.self)
        // Empty buffers: the procedure points them at its data.
        list.pointee.mNumberBuffers = UInt32(inputListCapacity)
        let buffers = UnsafeMutableAudioBufferListPointer(list)
        for i in 0..<inputListCapacity {
            buffers[i] = AudioBuffer(mNumberChannels: 0, mDataByteSize: 0, mData: nil)
        }
        let needsDescriptions: Bool
        if case .coded(let asbd) = source { needsDescriptions = asbd.mBytesPerPacket == 0 || asbd.mFramesPerPacket == 0 } else { needsDescriptions = false }
        if inputDescriptions.count < asked {
            inputDescriptions = Array(repeating: AudioStreamPacketDescription(), count: asked)
        } else {
            for i in 0..<asked { inputDescriptions[i] = AudioStreamPacketDescription() }
        }
        var count = UInt32(asked)
        var status: OSStatus = noErr
        var given: UnsafeMutablePointer<AudioStreamPacketDescription>?
        var givenIsOurs = false
        inputDescriptions.withUnsafeMutableBufferPointer { own in
            var descriptions: UnsafeMutablePointer<AudioStreamPacketDescription>? = own.baseAddress
            status = withUnsafeMutablePointer(to: &descriptions) { pointer in
                input.procedure(input.handle, &count, list, needsDescriptions ? pointer : nil, input.userData)
            }
            given = descriptions
            givenIsOurs = descriptions != nil && descriptions == own.baseAddress
            // The procedure's own array, or ours: copied out below before the next call either way.
        }
        if status != noErr { throw ConverterStatus(status: status) }   // stop now; what is done goes out
        if count == 0 {
            inputEnded = true
            try decoder?.finish()
            return
        }
        started = true
        guard list.pointee.mNumberBuffers == UInt32(inputListCapacity) else { throw .parameter }
        switch source {
        case .pcm(let layout):
            try takePCM(layout, frames: Int(count), buffers)
        case .coded(let asbd):
            guard let decoder else { throw .formatNotSupported }
            let buffer = buffers[0]
            let bytes = Int(buffer.mDataByteSize)
            guard bytes == 0 || buffer.mData != nil else { throw .parameter }
            let data = UnsafeRawBufferPointer(start: buffer.mData, count: buffer.mData == nil ? 0 : bytes)
            let packets = Int(count)
            if needsDescriptions {
                guard let given else { throw .requiresPacketDescriptions }
                // More packets than bytes cannot be: a count that says so is a lie (and would read
                // past the procedure's description array). More packets than asked come with the
                // procedure's own descriptions: ours hold the packets asked, no more.
                guard packets <= max(asked, bytes), packets <= 1 << 20, !givenIsOurs || packets <= asked else { throw .invalidInputSize }
                for i in 0..<packets {
                    let d = given[i]
                    guard d.mStartOffset >= 0, d.mStartOffset + Int64(d.mDataByteSize) <= Int64(bytes) else { throw .invalidInputSize }
                    try decoder.decode(UnsafeRawBufferPointer(rebasing: data[Int(d.mStartOffset)..<(Int(d.mStartOffset) + Int(d.mDataByteSize))]))
                }
            } else {
                let size = Int(asbd.mBytesPerPacket)
                guard size > 0, packets.multipliedReportingOverflow(by: size).partialValue <= bytes,
                      !packets.multipliedReportingOverflow(by: size).overflow else { throw .invalidInputSize }
                for i in 0..<packets { try decoder.decode(UnsafeRawBufferPointer(rebasing: data[(i * size)..<((i + 1) * size)])) }
            }
        }
    }

    /// Reads `frames` frames of PCM from the procedure's buffers into ``mapped``.
    private func takePCM(_ layout: PCMLayout, frames: Int, _ buffers: UnsafeMutableAudioBufferListPointer) throws(ConverterStatus) {
        let perBuffer = layout.bytesPerFrame
        let (needed, overflow) = frames.multipliedReportingOverflow(by: perBuffer)
        guard !overflow else { throw .invalidInputSize }
        for i in 0..<layout.bufferCount {
            guard Int(buffers[i].mDataByteSize) >= needed else { throw .invalidInputSize }
            guard buffers[i].mData != nil else { throw .parameter }
        }
        if !configured { configure(channels: layout.channels, rate: layout.sampleRate) }
        var decoded = FrameQueue(channels: layout.channels)
        decoded.append(frames: frames) { channel, out in
            let buffer = buffers[layout.nonInterleaved ? channel : 0]
            layout.read(channel: channel, from: buffer.mData!, frames: frames, into: out)
        }
        admit(&decoded)
    }

    /// Makes ``ready`` hold `wanted` frames, or as many as the stream has left. When the input
    /// procedure fails, what it gave before goes through first (it is output the caller is owed).
    private func produce(_ wanted: Int, _ input: InputProcedure) throws(ConverterStatus) {
        do {
            try produceFrames(wanted, input)
        } catch {
            if configured {
                if let resampler {
                    if mapped.count > 0 { resampler.append(&mapped, frames: mapped.count) }
                    resampler.produce(maximum: max(0, wanted - ready.count), into: &ready)
                } else {
                    move(min(mapped.count, max(0, wanted - ready.count)))
                }
            }
            throw error
        }
    }

    private func produceFrames(_ wanted: Int, _ input: InputProcedure) throws(ConverterStatus) {
        while ready.count < wanted && !finished {
            if !configured {
                // Nothing decoded yet: ask for a packet (PCM configures itself when it arrives).
                if case .pcm(let layout) = source { configure(channels: layout.channels, rate: layout.sampleRate) }
                try pull(minimum: 1, input)
                if !configured {
                    if inputEnded && !padShortInput(wanted - ready.count) { finished = true }
                    continue
                }
            }
            guard let resampler else {
                if mapped.count == 0 {
                    if inputEnded {
                        if padShortInput(wanted - ready.count) { continue }
                        finished = true
                        break
                    }
                    try pull(minimum: wanted - ready.count, input)
                }
                let n = min(mapped.count, wanted - ready.count)
                move(n)
                continue
            }
            if mapped.count > 0 { resampler.append(&mapped, frames: mapped.count) }
            if resampler.produce(maximum: wanted - ready.count, into: &ready) > 0 { continue }
            if resampler.isFinished { finished = true; break }
            let needed = max(1, resampler.inputNeeded(forOutput: wanted - ready.count))
            if inputEnded {
                if !padShortInput(needed) { resampler.endInput() }
                continue
            }
            try pull(minimum: needed, input)
            if inputEnded && mapped.count == 0 && !padShortInput(needed) { resampler.endInput() }
        }
    }

    /// The input has ended short of ``remainingFrames`` (a packet table that promises more frames
    /// than the packets decode to): silence stands in for the rest, at most `limit` frames (and
    /// 65,536) at a time, so that the frames read are the frames promised — when the shortfall is
    /// within ``maximumPadding``. False when nothing is owed.
    private func padShortInput(_ limit: Int) -> Bool {
        guard inputEnded, let remaining = remainingFrames, remaining > 0 else { return false }
        guard remaining <= maximumPadding else {
            remainingFrames = 0   // far more than a packet short: the file's claim is not believed
            return false
        }
        if !configured { configure(channels: decoder?.channels ?? source.channels, rate: decoder?.sampleRate ?? source.sampleRate) }
        let frames = min(remaining, max(1, min(limit, 1 << 16)))
        mapped.appendSilence(frames: frames)
        remainingFrames = remaining - frames
        return true
    }

    /// Moves `frames` frames from ``mapped`` to ``ready`` (no resampler).
    private func move(_ frames: Int) {
        guard frames > 0 else { return }
        if frames == mapped.count, ready.takeAll(from: &mapped) { return }
        ready.append(frames: frames) { channel, out in mapped.withFront(channel: channel) { out.update(from: $0, count: frames) } }
        mapped.consume(frames)
    }

    // MARK: - AudioConverterFillComplexBuffer

    /// Fills the caller's buffers; returns the packets written and the status to return.
    func fill(_ input: InputProcedure, packets wanted: Int, _ list: UnsafeMutablePointer<AudioBufferList>,
              _ descriptions: UnsafeMutablePointer<AudioStreamPacketDescription>?) throws(ConverterStatus) -> (Int, OSStatus) {
        let buffers = UnsafeMutableAudioBufferListPointer(list)
        switch destination {
        case .pcm(let layout):
            guard buffers.count == layout.bufferCount else { throw .parameter }
            var capacity = wanted
            for buffer in buffers {
                capacity = min(capacity, Int(buffer.mDataByteSize) / layout.bytesPerFrame)
                if buffer.mDataByteSize > 0 && buffer.mData == nil { throw .parameter }
            }
            guard capacity > 0 else {
                if wanted == 0 { return (0, noErr) }
                throw .invalidOutputSize
            }
            var status: OSStatus = noErr
            do { try produce(capacity, input) } catch { status = error.status }
            let frames = min(capacity, ready.count)
            for c in 0..<layout.channels where frames > 0 {
                let buffer = buffers[layout.nonInterleaved ? c : 0]
                ready.withFront(channel: c) { layout.write(channel: c, from: $0, frames: frames, to: buffer.mData!) }
            }
            ready.consume(frames)
            for i in 0..<buffers.count {
                buffers[i].mDataByteSize = UInt32(frames * layout.bytesPerFrame)
                buffers[i].mNumberChannels = UInt32(layout.nonInterleaved ? 1 : layout.channels)
            }
            return (frames, status)
        case .coded:
            guard let encoder else { throw .formatNotSupported }
            guard buffers.count == 1 else { throw .parameter }
            let room = Int(buffers[0].mDataByteSize)
            guard wanted > 0 else { return (0, noErr) }
            guard room > 0, let data = buffers[0].mData else { throw room > 0 ? .parameter : .invalidOutputSize }
            if encoder.bytesPerPacket == 0 && descriptions == nil { throw .requiresPacketDescriptions }
            var status: OSStatus = noErr
            do {
                while packets.count - packetStart < wanted && !finished {
                    try produce(encoder.framesPerPacket, input)
                    let end = finished
                    let before = ready.count
                    try encoder.encode(&ready, endOfStream: end) { bytes, frames in packets.append((Array(bytes), frames)) }
                    encodedFrames += before - ready.count
                }
            } catch {
                status = error.status
            }
            var written = 0, used = 0
            while written < wanted && packetStart < packets.count {
                let packet = packets[packetStart]
                guard used + packet.bytes.count <= room else { break }
                packet.bytes.withUnsafeBytes { (data + used).copyMemory(from: $0.baseAddress!, byteCount: packet.bytes.count) }
                if let descriptions {
                    let variable = packet.frames != encoder.framesPerPacket ? UInt32(packet.frames) : 0
                    descriptions[written] = AudioStreamPacketDescription(mStartOffset: Int64(used), mVariableFramesInPacket: variable,
                                                                         mDataByteSize: UInt32(packet.bytes.count))
                }
                used += packet.bytes.count
                written += 1
                packetStart += 1
            }
            if packetStart > 256 {
                packets.removeSubrange(0..<packetStart)
                packetStart = 0
            }
            if written == 0 && packetStart < packets.count && status == noErr { throw .invalidOutputSize }   // not even one fits
            buffers[0].mDataByteSize = UInt32(used)
            buffers[0].mNumberChannels = UInt32(destination.channels)
            return (written, status)
        }
    }

    // MARK: - AudioConverterConvertComplexBuffer, AudioConverterConvertBuffer

    /// Converts `frames` frames between PCM buffer lists at the same rate, with no state.
    func convert(frames: Int, from input: UnsafeMutableAudioBufferListPointer, to output: UnsafeMutableAudioBufferListPointer) throws(ConverterStatus) {
        guard case .pcm(let from) = source, case .pcm(let to) = destination, from.sampleRate == to.sampleRate || to.sampleRate == 0 || from.sampleRate == 0 else {
            throw .operationNotSupported
        }
        guard input.count == from.bufferCount, output.count == to.bufferCount else { throw .parameter }
        let (inBytes, o1) = frames.multipliedReportingOverflow(by: from.bytesPerFrame)
        let (outBytes, o2) = frames.multipliedReportingOverflow(by: to.bytesPerFrame)
        guard !o1, !o2 else { throw .invalidInputSize }
        for buffer in input { guard Int(buffer.mDataByteSize) >= inBytes else { throw .invalidInputSize }; guard frames == 0 || buffer.mData != nil else { throw .parameter } }
        for buffer in output { guard Int(buffer.mDataByteSize) >= outBytes else { throw .invalidOutputSize }; guard frames == 0 || buffer.mData != nil else { throw .parameter } }
        if frames > 0 {
            var decoded = FrameQueue(channels: from.channels)
            decoded.append(frames: frames) { channel, out in
                from.read(channel: channel, from: input[from.nonInterleaved ? channel : 0].mData!, frames: frames, into: out)
            }
            let saved = mapped
            mapped = FrameQueue(channels: to.channels)
            map(&decoded, frames: frames)
            for c in 0..<to.channels {
                mapped.withFront(channel: c) { to.write(channel: c, from: $0, frames: frames, to: output[to.nonInterleaved ? c : 0].mData!) }
            }
            mapped = saved
        }
        for i in 0..<output.count {
            output[i].mDataByteSize = UInt32(outBytes)
            output[i].mNumberChannels = UInt32(to.nonInterleaved ? 1 : to.channels)
        }
    }

    // MARK: - Facts the properties report

    /// The resampler's priming (input frames each side), or 0 when the rates match.
    var resamplerPrimeFrames: Int { resamplerPrimeFrames(from: nil) }

    /// The resampler's priming, or what it would be for input at `rate` (nil: the source's).
    func resamplerPrimeFrames(from rate: Double?) -> Int {
        if rate == nil, let resampler { return resampler.halfTaps }
        let inRate = rate ?? source.sampleRate, outRate = outputRate
        guard inRate > 0, outRate > 0, inRate != outRate else { return 0 }
        let design = ResamplerDesign.forQuality(quality, complexity: complexity)
        if design.linear { return 1 }
        return min(8192, Int((Double(design.zeroCrossings) / min(1, outRate / inRate)).rounded(.up)))
    }

    /// Whether a setting that shapes the resampler may change now (nothing converted since the start or a reset).
    var canReshape: Bool { !started }

    /// Applies a changed resampler setting (at once before the first conversion; else at the next reset).
    func reshape() {
        if !started { resampler = nil; configured = false }
    }
}

/// The input procedure of one AudioConverterFillComplexBuffer call.
struct InputProcedure {
    let procedure: AudioConverterComplexInputDataProc
    let handle: AudioConverterRef
    let userData: UnsafeMutableRawPointer?
}
