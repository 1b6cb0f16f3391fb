import AudioToolbox
import Foundation

// What the converter tests share: an input procedure written as iOS code writes one (its state
// behind the user-data pointer, the buffers pointed at its own memory), and a loop that drains a
// converter as iOS code does.

/// Input for a converter: PCM bytes (one array a buffer) or packets, served a call at a time.
final class ConverterFeed {
    /// PCM: the bytes of each buffer; packets: one array.
    let buffers: [[UInt8]]
    /// PCM: bytes a frame takes in each buffer (packets: unused).
    let bytesPerFrame: Int
    /// Variable packets: each one's bytes.
    let packets: [[UInt8]]?
    /// Constant packets: their size (0 for PCM or variable packets).
    let bytesPerPacket: Int
    /// At most this many packets a call (the procedure's own limit).
    var maximumPerCall = Int.max
    /// Returns this status (with no packets) on the call after this many packets were given.
    var failAfter: (packets: Int, status: OSStatus)?
    var lie: Lie?
    private(set) var position = 0
    private(set) var calls = 0
    /// What the procedure hands out stays here until the next call.
    private var storage: [UnsafeMutableRawPointer] = []
    private var descriptions: UnsafeMutablePointer<AudioStreamPacketDescription>

    enum Lie {
        case morePacketsThanTheBuffer
        case descriptionPastTheBuffer
        case hugeCount
        case noDescriptions
        case wrongBufferCount
    }

    init(pcm buffers: [[UInt8]], bytesPerFrame: Int) {
        self.buffers = buffers
        self.bytesPerFrame = bytesPerFrame
        packets = nil
        bytesPerPacket = 0
        descriptions = .allocate(capacity: 1)
    }

    init(packets: [[UInt8]]) {
        buffers = []
        bytesPerFrame = 0
        self.packets = packets
        bytesPerPacket = 0
        descriptions = .allocate(capacity: max(1, packets.count))
    }

    init(constantPackets bytes: [UInt8], bytesPerPacket: Int) {
        buffers = [bytes]
        bytesPerFrame = bytesPerPacket
        packets = nil
        self.bytesPerPacket = bytesPerPacket
        descriptions = .allocate(capacity: 1)
    }

    deinit {
        for pointer in storage { pointer.deallocate() }
        descriptions.deallocate()
    }

    private var total: Int {
        if let packets { return packets.count }
        return bytesPerFrame == 0 ? 0 : (buffers.first?.count ?? 0) / bytesPerFrame
    }

    private func keep(_ bytes: some Collection<UInt8>) -> UnsafeMutableRawPointer {
        let pointer = UnsafeMutableRawPointer.allocate(byteCount: max(1, bytes.count), alignment: 16)
        pointer.copyMemory(from: Array(bytes), byteCount: bytes.count)
        storage.append(pointer)
        return pointer
    }

    /// The input procedure's work.
    func supply(_ ioNumberDataPackets: UnsafeMutablePointer<UInt32>, _ ioData: UnsafeMutablePointer<AudioBufferList>,
                _ outDataPacketDescription: UnsafeMutablePointer<UnsafeMutablePointer<AudioStreamPacketDescription>?>?) -> OSStatus {
        calls += 1
        for pointer in storage { pointer.deallocate() }
        storage.removeAll()
        if let failAfter, position >= failAfter.packets {
            self.failAfter = nil
            ioNumberDataPackets.pointee = 0
            return failAfter.status
        }
        let count = min(Int(ioNumberDataPackets.pointee), total - position, maximumPerCall)
        guard count > 0 else {
            ioNumberDataPackets.pointee = 0
            return noErr
        }
        let list = UnsafeMutableAudioBufferListPointer(ioData)
        if let packets {
            let chosen = packets[position..<(position + count)]
            let bytes = chosen.flatMap { $0 }
            list[0].mData = keep(bytes)
            list[0].mDataByteSize = UInt32(bytes.count)
            var offset: Int64 = 0
            for (i, packet) in chosen.enumerated() {
                descriptions[i] = AudioStreamPacketDescription(mStartOffset: offset, mVariableFramesInPacket: 0, mDataByteSize: UInt32(packet.count))
                offset += Int64(packet.count)
            }
            if lie == .descriptionPastTheBuffer { descriptions[0].mDataByteSize += 100 }
            if lie != .noDescriptions { outDataPacketDescription?.pointee = descriptions } else { outDataPacketDescription?.pointee = nil }
        } else {
            if lie == .wrongBufferCount { list.count = buffers.count + 1; ioNumberDataPackets.pointee = UInt32(count); return noErr }
            for (i, buffer) in buffers.enumerated() {
                let slice = buffer[(position * bytesPerFrame)..<((position + count) * bytesPerFrame)]
                list[i].mData = keep(slice)
                list[i].mDataByteSize = UInt32(slice.count)
                list[i].mNumberChannels = 1
            }
        }
        position += count
        switch lie {
        case .morePacketsThanTheBuffer: ioNumberDataPackets.pointee = UInt32(count + 5)
        case .hugeCount: ioNumberDataPackets.pointee = UInt32.max
        default: ioNumberDataPackets.pointee = UInt32(count)
        }
        return noErr
    }
}

/// The input procedure, as iOS code writes one: its state is the user data.
let feedProc: AudioConverterComplexInputDataProc = { _, ioNumberDataPackets, ioData, outDataPacketDescription, inUserData in
    let feed = Unmanaged<ConverterFeed>.fromOpaque(inUserData!).takeUnretainedValue()
    return feed.supply(ioNumberDataPackets, ioData, outDataPacketDescription)
}

/// What draining a converter gave: PCM bytes a buffer, or packets.
struct Drained {
    var buffers: [[UInt8]]
    var packets: [[UInt8]] = []
    var descriptions: [AudioStreamPacketDescription] = []
    var statuses: [OSStatus] = []
    /// Bytes the first buffer received, call by call.
    var sizes: [Int] = []
    var calls = 0
}

/// Calls AudioConverterFillComplexBuffer until it gives no more, `chunk` output packets at a time,
/// into `bufferCount` buffers of `bytesPerPacket × chunk` bytes (for a compressed output:
/// `bytesPerPacket` is its maximum packet size and descriptions are collected).
func drain(_ converter: AudioConverterRef, _ feed: ConverterFeed, bufferCount: Int, bytesPerPacket: Int, chunk: Int = 1000,
           compressed: Bool = false, stopOnError: Bool = true) -> Drained {
    var result = Drained(buffers: Array(repeating: [], count: bufferCount))
    let list = AudioBufferList.allocate(maximumBuffers: bufferCount)
    defer { free(list.unsafeMutablePointer) }
    let room = bytesPerPacket * chunk
    let memory = (0..<bufferCount).map { _ in UnsafeMutableRawPointer.allocate(byteCount: max(1, room), alignment: 16) }
    defer { memory.forEach { $0.deallocate() } }
    var descriptions = [AudioStreamPacketDescription](repeating: AudioStreamPacketDescription(), count: chunk)
    let userData = Unmanaged.passUnretained(feed).toOpaque()
    for _ in 0..<100_000 {
        var ioPackets = UInt32(chunk)
        for i in 0..<bufferCount { list[i] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(room), mData: memory[i]) }
        let status = descriptions.withUnsafeMutableBufferPointer { descriptions in
            AudioConverterFillComplexBuffer(converter, feedProc, userData, &ioPackets, list.unsafeMutablePointer,
                                            compressed ? descriptions.baseAddress : nil)
        }
        result.calls += 1
        result.statuses.append(status)
        result.sizes.append(Int(list[0].mDataByteSize))
        for i in 0..<bufferCount { result.buffers[i] += UnsafeRawBufferPointer(start: memory[i], count: Int(list[i].mDataByteSize)) }
        if compressed {
            for d in descriptions.prefix(Int(ioPackets)) {
                result.packets.append(Array(UnsafeRawBufferPointer(start: memory[0] + Int(d.mStartOffset), count: Int(d.mDataByteSize))))
                result.descriptions.append(d)
            }
        }
        if status != noErr && stopOnError { break }
        if ioPackets == 0 && status == noErr { break }
    }
    return result
}

/// A linear PCM description.
func pcmFormat(rate: Double = 44_100, channels: UInt32 = 2, bits: UInt32, container: UInt32? = nil, float: Bool = false, signed: Bool = true,
               bigEndian: Bool = false, alignedHigh: Bool = false, nonInterleaved: Bool = false, fractionBits: UInt32 = 0) -> AudioStreamBasicDescription {
    let bytes = (container ?? bits) / 8
    var flags: AudioFormatFlags = float ? kAudioFormatFlagIsFloat : (signed ? kAudioFormatFlagIsSignedInteger : 0)
    if bigEndian { flags |= kAudioFormatFlagIsBigEndian }
    if (container ?? bits) == bits { flags |= kAudioFormatFlagIsPacked } else if alignedHigh { flags |= kAudioFormatFlagIsAlignedHigh }
    if nonInterleaved { flags |= kAudioFormatFlagIsNonInterleaved }
    flags |= fractionBits << kLinearPCMFormatFlagsSampleFractionShift
    let frameBytes = nonInterleaved ? bytes : bytes * channels
    return AudioStreamBasicDescription(mSampleRate: rate, mFormatID: kAudioFormatLinearPCM, mFormatFlags: flags, mBytesPerPacket: frameBytes,
                                       mFramesPerPacket: 1, mBytesPerFrame: frameBytes, mChannelsPerFrame: channels, mBitsPerChannel: bits, mReserved: 0)
}

/// Interleaved Float32 samples as bytes, and back.
func bytes(of floats: [Float]) -> [UInt8] { floats.withUnsafeBytes { Array($0) } }
func floats(of bytes: [UInt8]) -> [Float] {
    bytes.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
}
func int16s(of bytes: [UInt8]) -> [Int16] {
    bytes.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
}
func bytes(of samples: [Int16]) -> [UInt8] { samples.withUnsafeBytes { Array($0) } }

/// Converts interleaved or planar PCM with a new converter, all at once; nil status on success.
func convertPCM(_ input: [[UInt8]], from: AudioStreamBasicDescription, to: AudioStreamBasicDescription,
                setUp: (AudioConverterRef) -> Void = { _ in }, chunk: Int = 1000) -> (status: OSStatus, output: [[UInt8]]) {
    var converter: AudioConverterRef?
    var source = from, destination = to
    let status = AudioConverterNew(&source, &destination, &converter)
    guard status == noErr, let converter else { return (status, []) }
    defer { AudioConverterDispose(converter) }
    setUp(converter)
    let feed = ConverterFeed(pcm: input, bytesPerFrame: Int(from.mBytesPerFrame))
    let nonInterleaved = to.mFormatFlags & kAudioFormatFlagIsNonInterleaved != 0
    let result = drain(converter, feed, bufferCount: nonInterleaved ? Int(to.mChannelsPerFrame) : 1, bytesPerPacket: Int(to.mBytesPerFrame), chunk: chunk)
    return (result.statuses.last ?? noErr, result.buffers)
}

/// A sine, interleaved, with `channels` identical channels.
func sine(frequency: Double, rate: Double, frames: Int, channels: Int = 1, amplitude: Double = 0.5) -> [Float] {
    var out = [Float](repeating: 0, count: frames * channels)
    for i in 0..<frames {
        let v = Float(amplitude * sin(2 * Double.pi * frequency * Double(i) / rate))
        for c in 0..<channels { out[i * channels + c] = v }
    }
    return out
}

/// The amplitude of the `frequency` component of `samples` (one channel), by least squares.
func amplitude(of samples: ArraySlice<Float>, frequency: Double, rate: Double) -> Double {
    var ss = 0.0, sc = 0.0, cc = 0.0, ys = 0.0, yc = 0.0
    for (i, y) in samples.enumerated() {
        let phase = 2 * Double.pi * frequency * Double(i) / rate
        let s = sin(phase), c = cos(phase)
        ss += s * s; sc += s * c; cc += c * c; ys += Double(y) * s; yc += Double(y) * c
    }
    let det = ss * cc - sc * sc
    let a = (ys * cc - yc * sc) / det, b = (yc * ss - ys * sc) / det
    return (a * a + b * b).squareRoot()
}

/// The root mean square of `samples`.
func rms(_ samples: some Collection<Float>) -> Double {
    guard !samples.isEmpty else { return 0 }
    return (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
}

/// The dominant frequency of a tone, from its zero crossings (upward), in Hz.
func zeroCrossingFrequency(_ samples: ArraySlice<Float>, rate: Double) -> Double {
    var crossings: [Double] = []
    var previous = samples.first ?? 0
    for (i, v) in samples.enumerated().dropFirst() {
        if previous < 0 && v >= 0 { crossings.append(Double(i - 1) + Double(-previous / (v - previous))) }
        previous = v
    }
    guard crossings.count > 2 else { return 0 }
    return Double(crossings.count - 1) / (crossings.last! - crossings.first!) * rate
}
