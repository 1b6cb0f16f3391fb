#if canImport(Glibc)
import Glibc
#endif

// The linear PCM an Audio Unit element takes (its StreamFormat), and the moves between a buffer
// list of it and the Float32 planes every unit works on inside. Units take what iOS's do: packed
// linear PCM, native-endian, interleaved or not — Float32, Float64, 16- and 32-bit integers and
// 8.24 fixed point (AudioUnitSampleType when CA_PREFER_FIXED_POINT) — one frame a packet.

/// An element's stream format, checked.
struct UnitFormat: Equatable {
    /// A sample's encoding.
    enum Sample: Equatable {
        case float32, float64, int16, int32, fixed(fractionBits: Int)
    }

    let description: AudioStreamBasicDescription
    let sample: Sample
    let channels: Int
    let nonInterleaved: Bool
    let bytesPerSample: Int

    var rate: Double { description.mSampleRate }
    /// Bytes a frame takes in one buffer (a channel's sample when non-interleaved).
    var bytesPerFrame: Int { nonInterleaved ? bytesPerSample : bytesPerSample * channels }
    /// Buffers a list of this format holds.
    var bufferCount: Int { nonInterleaved ? channels : 1 }

    static func == (a: UnitFormat, b: UnitFormat) -> Bool {
        a.sample == b.sample && a.channels == b.channels && a.nonInterleaved == b.nonInterleaved && a.rate == b.rate
    }

    /// The most channels an element takes.
    static let maximumChannels = 32

    /// `description` if a unit can take it; `kAudioUnitErr_FormatNotSupported` if not.
    init(_ description: AudioStreamBasicDescription) throws(UnitStatus) {
        let flags = description.mFormatFlags
        guard description.mFormatID == kAudioFormatLinearPCM, description.mSampleRate.isFinite,
              description.mSampleRate >= 1, description.mSampleRate <= 768_000,
              (1...UInt32(Self.maximumChannels)).contains(description.mChannelsPerFrame),
              description.mFramesPerPacket == 1, flags & kAudioFormatFlagIsBigEndian == 0 else { throw .formatNotSupported }
        let channels = Int(description.mChannelsPerFrame)
        let nonInterleaved = flags & kAudioFormatFlagIsNonInterleaved != 0
        let fraction = Int((flags & kLinearPCMFormatFlagsSampleFractionMask) >> kLinearPCMFormatFlagsSampleFractionShift)
        let sample: Sample
        switch (flags & kAudioFormatFlagIsFloat != 0, description.mBitsPerChannel) {
        case (true, 32): sample = .float32
        case (true, 64): sample = .float64
        case (false, 16) where fraction == 0 && flags & kAudioFormatFlagIsSignedInteger != 0: sample = .int16
        case (false, 32) where flags & kAudioFormatFlagIsSignedInteger != 0:
            sample = fraction == 0 ? .int32 : .fixed(fractionBits: fraction)
        default: throw .formatNotSupported
        }
        let bytes = Int(description.mBitsPerChannel) / 8
        let frameBytes = nonInterleaved ? bytes : bytes * channels
        guard Int(description.mBytesPerFrame) == frameBytes, Int(description.mBytesPerPacket) == frameBytes else {
            throw .formatNotSupported
        }
        self.description = description
        self.sample = sample
        self.channels = channels
        self.nonInterleaved = nonInterleaved
        bytesPerSample = bytes
    }

    /// iOS's canonical Audio Unit format (``canonical(rate:channels:)``) at `rate` with `channels`
    /// (1...``maximumChannels``), which needs no checking.
    init(canonicalRate rate: Double, channels: Int) {
        description = Self.canonical(rate: rate, channels: channels)
        sample = .float32
        self.channels = channels
        nonInterleaved = true
        bytesPerSample = 4
    }

    /// iOS's canonical Audio Unit format: Float32, non-interleaved, packed.
    static func canonical(rate: Double, channels: Int) -> AudioStreamBasicDescription {
        AudioStreamBasicDescription(mSampleRate: rate, mFormatID: kAudioFormatLinearPCM,
                                    mFormatFlags: kAudioFormatFlagsNativeFloatPacked | kAudioFormatFlagIsNonInterleaved,
                                    mBytesPerPacket: 4, mFramesPerPacket: 1, mBytesPerFrame: 4,
                                    mChannelsPerFrame: UInt32(channels), mBitsPerChannel: 32, mReserved: 0)
    }

    /// Whether `list` can carry `frames` frames of this format: its buffer count, and each buffer's
    /// data and size (nil data is allowed where `allowNilData`: the unit then lends its own).
    func fits(_ list: UnsafeMutablePointer<AudioBufferList>, frames: Int, allowNilData: Bool = false) -> Bool {
        let buffers = UnsafeMutableAudioBufferListPointer(list)
        guard buffers.count == bufferCount else { return false }
        for buffer in buffers {
            if buffer.mData == nil {
                guard allowNilData else { return false }
                continue
            }
            guard Int(buffer.mDataByteSize) >= frames * bytesPerFrame else { return false }
        }
        return true
    }

    /// Reads `frames` frames of `list` into `planes` (one a channel, from `offset`): non-finite
    /// samples become silence, so nothing a callback makes can poison a mix.
    func read(_ list: UnsafeMutablePointer<AudioBufferList>, frames: Int, into planes: PlaneBuffer, at offset: Int = 0) {
        let buffers = UnsafeMutableAudioBufferListPointer(list)
        for channel in 0..<channels {
            let buffer = buffers[nonInterleaved ? channel : 0]
            let plane = planes.plane(channel) + offset
            guard let data = buffer.mData else {
                plane.update(repeating: 0, count: frames)
                continue
            }
            let stride = nonInterleaved ? 1 : channels
            let first = nonInterleaved ? 0 : channel
            switch sample {
            case .float32:
                let samples = data.assumingMemoryBound(to: Float.self)
                for frame in 0..<frames {
                    let value = samples[first + frame * stride]
                    plane[frame] = value.isFinite ? value : 0
                }
            case .float64:
                let samples = data.assumingMemoryBound(to: Double.self)
                for frame in 0..<frames {
                    let value = Float(samples[first + frame * stride])
                    plane[frame] = value.isFinite ? value : 0
                }
            case .int16:
                let samples = data.assumingMemoryBound(to: Int16.self)
                for frame in 0..<frames { plane[frame] = Float(samples[first + frame * stride]) / 32_768 }
            case .int32:
                let samples = data.assumingMemoryBound(to: Int32.self)
                for frame in 0..<frames { plane[frame] = Float(Double(samples[first + frame * stride]) / 2_147_483_648) }
            case .fixed(let bits):
                let samples = data.assumingMemoryBound(to: Int32.self)
                let scale = Double(1 << bits)
                for frame in 0..<frames { plane[frame] = Float(Double(samples[first + frame * stride]) / scale) }
            }
        }
    }

    /// Writes `frames` frames of `planes` (from `offset`) into `list`, clipping for integer
    /// formats, and sets each buffer's size.
    func write(_ planes: PlaneBuffer, frames: Int, to list: UnsafeMutablePointer<AudioBufferList>, at offset: Int = 0) {
        let buffers = UnsafeMutableAudioBufferListPointer(list)
        for index in 0..<bufferCount {
            buffers[index].mDataByteSize = UInt32(frames * bytesPerFrame)
            if !nonInterleaved { buffers[index].mNumberChannels = UInt32(channels) }
        }
        for channel in 0..<channels {
            guard let data = buffers[nonInterleaved ? channel : 0].mData else { continue }
            let plane = planes.plane(channel) + offset
            let stride = nonInterleaved ? 1 : channels
            let first = nonInterleaved ? 0 : channel
            switch sample {
            case .float32:
                let samples = data.assumingMemoryBound(to: Float.self)
                for frame in 0..<frames { samples[first + frame * stride] = plane[frame] }
            case .float64:
                let samples = data.assumingMemoryBound(to: Double.self)
                for frame in 0..<frames { samples[first + frame * stride] = Double(plane[frame]) }
            case .int16:
                let samples = data.assumingMemoryBound(to: Int16.self)
                for frame in 0..<frames {
                    samples[first + frame * stride] = Int16(max(-32_768, min(32_767, (Double(plane[frame]) * 32_768).rounded())))
                }
            case .int32:
                let samples = data.assumingMemoryBound(to: Int32.self)
                for frame in 0..<frames {
                    samples[first + frame * stride] = Int32(max(-2_147_483_648, min(2_147_483_647, (Double(plane[frame]) * 2_147_483_648).rounded())))
                }
            case .fixed(let bits):
                let samples = data.assumingMemoryBound(to: Int32.self)
                let scale = Double(1 << bits)
                let limit = Double(Int32.max)
                for frame in 0..<frames {
                    samples[first + frame * stride] = Int32(max(-limit - 1, min(limit, (Double(plane[frame]) * scale).rounded())))
                }
            }
        }
    }
}

/// Float32 planes a unit keeps (one a channel, `capacity` frames each), allocated once and grown
/// only when a larger slice comes.
final class PlaneBuffer {
    private(set) var channels: Int
    private(set) var capacity: Int
    private var storage: UnsafeMutablePointer<Float>

    init(channels: Int, capacity: Int) {
        self.channels = max(1, channels)
        self.capacity = max(1, capacity)
        storage = .allocate(capacity: self.channels * self.capacity)
        storage.initialize(repeating: 0, count: self.channels * self.capacity)
    }

    deinit { storage.deallocate() }

    /// Channel `channel`'s frames.
    func plane(_ channel: Int) -> UnsafeMutablePointer<Float> { storage + channel * capacity }

    /// Makes room for `channels` × `frames` (what was held is lost when it grows).
    func reserve(channels: Int, frames: Int) {
        guard channels > self.channels || frames > capacity else { return }
        storage.deallocate()
        self.channels = max(channels, self.channels)
        capacity = max(frames, capacity)
        storage = .allocate(capacity: self.channels * capacity)
        storage.initialize(repeating: 0, count: self.channels * capacity)
    }

    /// Silences `frames` frames of the first `channels` planes.
    func clear(channels: Int, frames: Int) {
        for channel in 0..<min(channels, self.channels) { plane(channel).update(repeating: 0, count: min(frames, capacity)) }
    }
}

/// A buffer list a unit owns, with room for `frames` frames of a format: what it hands a render
/// callback or a connected unit to fill.
final class OwnedBufferList {
    let list: UnsafeMutablePointer<AudioBufferList>
    private var data: UnsafeMutableRawPointer?
    private(set) var format: UnitFormat
    private(set) var frames: Int

    init(format: UnitFormat, frames: Int) {
        let size = AudioBufferList.sizeInBytes(maximumBuffers: UnitFormat.maximumChannels)
        list = calloc(1, size)!.bindMemory(to: AudioBufferList.self, capacity: 1)
        self.format = format
        self.frames = 0
        prepare(format: format, frames: frames)
    }

    deinit {
        free(data)
        free(list)
    }

    /// Points the list's buffers at room for `frames` frames of `format` (each buffer's size set
    /// to that), growing the memory when needed.
    func prepare(format: UnitFormat, frames: Int) {
        let bytes = max(1, frames) * format.bytesPerFrame
        if format != self.format || frames > self.frames || data == nil {
            free(data)
            data = calloc(format.bufferCount, max(bytes, self.frames * format.bytesPerFrame))
            self.format = format
            self.frames = max(frames, self.frames)
        }
        let stride = self.frames * format.bytesPerFrame
        list.pointee.mNumberBuffers = UInt32(format.bufferCount)
        let buffers = UnsafeMutableAudioBufferListPointer(list)
        for index in 0..<format.bufferCount {
            buffers[index] = AudioBuffer(mNumberChannels: UInt32(format.nonInterleaved ? 1 : format.channels),
                                         mDataByteSize: UInt32(bytes), mData: data! + index * stride)
        }
    }
}
