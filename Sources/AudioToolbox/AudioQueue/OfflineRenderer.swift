#if canImport(Glibc)
import Glibc
#endif

// AudioQueueOfflineRender: the queue's packets through its decoder into Float32 at the render
// format's rate and channels, the volume (ramped) and pan applied and the meters read there, then
// written in the render format. Deterministic: the same buffers give the same bytes every run.

/// What the input procedure returns when the queue has nothing enqueued and is neither stopping
/// nor flushing: the decoder keeps its state and the render fills the rest with silence.
private let queueStarved: OSStatus = 0x7374_7276   // 'strv', never returned to the program

/// Hands the decoder the front buffer's packets (the queue's lock is held by the render).
private func queueInput(_ converter: AudioConverterRef, _ ioPackets: UnsafeMutablePointer<UInt32>, _ ioData: UnsafeMutablePointer<AudioBufferList>,
                        _ outDescriptions: UnsafeMutablePointer<UnsafeMutablePointer<AudioStreamPacketDescription>?>?,
                        _ userData: UnsafeMutableRawPointer?) -> OSStatus {
    guard let userData else { return kAudio_ParamError }
    let queue = Unmanaged<AudioQueueObject>.fromOpaque(userData).takeUnretainedValue()
    return queue.supply(ioPackets, ioData, outDescriptions)
}

extension AudioQueueObject {
    /// The input procedure's work: the next packets of the front buffer.
    func supply(_ ioPackets: UnsafeMutablePointer<UInt32>, _ ioData: UnsafeMutablePointer<AudioBufferList>,
                _ outDescriptions: UnsafeMutablePointer<UnsafeMutablePointer<AudioStreamPacketDescription>?>?) -> OSStatus {
        if frontExhausted, !queued.isEmpty {
            finished.append(queued.removeFirst().buffer)
            frontPacketsTaken = 0
            frontExhausted = false
        }
        let list = UnsafeMutableAudioBufferListPointer(ioData)
        guard let front = queued.first, list.count >= 1, !front.waitsForStart(taken: frontPacketsTaken) else {
            ioPackets.pointee = 0
            if list.count >= 1 { list[0].mDataByteSize = 0 }
            return stopping || flushing ? noErr : queueStarved
        }
        let wanted = max(1, Int(ioPackets.pointee))
        let data = front.buffer.pointee.mAudioData
        if front.packets.isEmpty {
            // Packets of one size: hand the rest of the buffer, in whole packets.
            let size = max(1, bytesPerPacket)
            let start = frontPacketsTaken * size
            let count = min(wanted, (front.bytes - start) / size)
            list[0].mData = data + start
            list[0].mDataByteSize = UInt32(count * size)
            list[0].mNumberChannels = format.mChannelsPerFrame
            ioPackets.pointee = UInt32(count)
            outDescriptions?.pointee = nil
            frontPacketsTaken += count
            frontExhausted = (frontPacketsTaken + 1) * size > front.bytes
        } else {
            // Packets described one by one: one a call, so their order in the buffer does not matter.
            let packet = front.packets[frontPacketsTaken]
            list[0].mData = data + Int(packet.mStartOffset)
            list[0].mDataByteSize = packet.mDataByteSize
            list[0].mNumberChannels = format.mChannelsPerFrame
            renderDescription.pointee = AudioStreamPacketDescription(mStartOffset: 0, mVariableFramesInPacket: packet.mVariableFramesInPacket,
                                                                     mDataByteSize: packet.mDataByteSize)
            outDescriptions?.pointee = renderDescription
            ioPackets.pointee = 1
            frontPacketsTaken += 1
            frontExhausted = frontPacketsTaken == front.packets.count
        }
        return noErr
    }

    /// The decoder into Float32 at the render format's rate and channels, and the writer into the
    /// render format (nil when that is the decoder's own Float32).
    func makeRenderConverters(_ render: AudioStreamBasicDescription) throws(QueueStatus) {
        if decoder != nil { return }
        var floats = Self.float32(rate: render.mSampleRate, channels: render.mChannelsPerFrame)
        var source = format
        var made: AudioConverterRef?
        var status = AudioConverterNew(&source, &floats, &made)
        guard status == noErr, let made else { throw QueueStatus(status: status) }
        if let cookie, !cookie.isEmpty {
            status = cookie.withUnsafeBytes {
                AudioConverterSetProperty(made, kAudioConverterDecompressionMagicCookie, UInt32($0.count), $0.baseAddress!)
            }
            guard status == noErr else {
                _ = AudioConverterDispose(made)
                throw QueueStatus(status: status)
            }
        }
        decoder = made
        guard !Self.isFloat32(render) else { return }
        var target = render
        var written: AudioConverterRef?
        status = AudioConverterNew(&floats, &target, &written)
        guard status == noErr, let written else { throw QueueStatus(status: status) }
        writer = written
    }

    /// Renders `frames` frames into `buffer` (a buffer of this queue); the lock is held.
    func renderOffline(frames: Int, into buffer: AudioQueueBufferRef) throws(QueueStatus) {
        guard let render = offlineFormat else { throw .invalidOfflineMode }
        guard isRunning else {
            buffer.pointee.mAudioDataByteSize = 0
            return
        }
        let bytesPerFrame = Int(render.mBytesPerFrame)
        let (bytes, overflow) = frames.multipliedReportingOverflow(by: bytesPerFrame)
        guard !overflow, bytes <= Int(buffer.pointee.mAudioDataBytesCapacity) else { throw .invalidPropertySize }
        buffer.pointee.mAudioDataByteSize = 0
        guard frames > 0 else { return }
        try makeRenderConverters(render)
        let channels = Int(render.mChannelsPerFrame)
        var samples = [Float](repeating: 0, count: frames * channels)
        var produced = 0
        if !isPaused {
            let ratio = render.mSampleRate / format.mSampleRate
            produced = samples.withUnsafeMutableBufferPointer {
                pull(frames: frames, channels: channels, into: $0.baseAddress!, clock: renderedFrames, ratio: ratio)
            }
        }
        let drained = produced < frames && queued.isEmpty && (stopping || flushing)
        if drained {
            // Everything enqueued has played: the decoder starts afresh for what comes next.
            if let decoder { _ = AudioConverterReset(decoder) }
            flushing = false
        }
        // A running queue that is starved or paused plays silence for the time asked; a stopping
        // one that has played everything ends (the program sees 0 bytes).
        let length = drained && stopping ? produced : frames
        if drained && stopping {
            stopping = false
            isRunning = false
            runningChanged = true
        }
        // The decoded frames had their gains in the pull (an event changes them at its frame);
        // the silence after them moves a volume ramp on.
        if length > produced {
            samples.withUnsafeMutableBufferPointer {
                // What the pull left there (trimmed frames) is not heard: silence.
                ($0.baseAddress! + produced * channels).update(repeating: 0, count: (length - produced) * channels)
                applyVolumeAndPan($0.baseAddress! + produced * channels, frames: length - produced, channels: channels)
            }
        }
        if metering { samples.withUnsafeBufferPointer { measure($0, frames: length, channels: channels) } }
        try write(samples, frames: length, render: render, into: buffer)
        renderedFrames += Int64(length)
    }

    /// Pulls up to `frames` frames from the decoder into `samples` (room for `frames` × `channels`
    /// floats); how many came. The lock is held.
    func decode(frames: Int, channels: Int, into samples: UnsafeMutablePointer<Float>) -> Int {
        guard let decoder else { return 0 }
        var produced = 0
        while produced < frames {
            var packets = UInt32(frames - produced)
            var list = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(
                mNumberChannels: UInt32(channels), mDataByteSize: UInt32((frames - produced) * channels * 4),
                mData: UnsafeMutableRawPointer(samples + produced * channels)))
            let status = AudioConverterFillComplexBuffer(decoder, queueInput, Unmanaged.passUnretained(self).toOpaque(), &packets, &list, nil)
            produced += Int(packets)
            if status == queueStarved { break }
            if status != noErr {
                converterError = status
                returnEverything()
                break
            }
            if packets == 0 { break }   // the end of what is enqueued
        }
        // A front buffer whose last packet was handed out is done: Soundstage's converter decodes a
        // packet in the input call that receives it and keeps no pointer into it once it returns.
        if frontExhausted, !queued.isEmpty {
            finished.append(queued.removeFirst().buffer)
            frontPacketsTaken = 0
            frontExhausted = false
        }
        return produced
    }

    /// Applies the volume (moving its ramp on) and the pan to `frames` frames of an offline render.
    func applyVolumeAndPan(_ samples: UnsafeMutablePointer<Float>, frames: Int, channels: Int) {
        let (left, right): (Float, Float) = channels == 2 ? (pan > 0 ? 1 - pan : 1, pan < 0 ? 1 + pan : 1) : (1, 1)
        for frame in 0..<frames {
            if ramp.frames > 0 {
                volume += ramp.step
                ramp.frames -= 1
                if ramp.frames == 0 { volume = volumeTarget }
            }
            for channel in 0..<channels {
                let gain = volume * (channels == 2 ? (channel == 0 ? left : right) : 1)
                samples[frame * channels + channel] *= gain
            }
        }
    }

    /// Sets the levels the meters read to those of `frames` interleaved frames of `channels`.
    func measure(_ samples: UnsafeBufferPointer<Float>, frames: Int, channels: Int) {
        levels = Self.levels(of: samples, frames: frames, channels: channels)
    }

    /// Each channel's RMS and peak over `frames` interleaved frames (zeros for none).
    static func levels(of samples: UnsafeBufferPointer<Float>, frames: Int, channels: Int) -> [AudioQueueLevelMeterState] {
        var states = [AudioQueueLevelMeterState](repeating: AudioQueueLevelMeterState(), count: channels)
        guard frames > 0 else { return states }
        for channel in 0..<channels {
            var sum: Float = 0, peak: Float = 0
            for frame in 0..<frames {
                let value = abs(samples[frame * channels + channel])
                sum += value * value
                peak = max(peak, value)
            }
            states[channel] = AudioQueueLevelMeterState(mAveragePower: min(1, (sum / Float(frames)).squareRoot()), mPeakPower: min(1, peak))
        }
        return states
    }

    private func write(_ samples: [Float], frames: Int, render: AudioStreamBasicDescription, into buffer: AudioQueueBufferRef) throws(QueueStatus) {
        let bytes = frames * Int(render.mBytesPerFrame)
        guard frames > 0 else { return }
        let data = buffer.pointee.mAudioData
        if let writer {
            var samples = samples
            let status = samples.withUnsafeMutableBytes { raw -> OSStatus in
                var input = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(
                    mNumberChannels: render.mChannelsPerFrame, mDataByteSize: UInt32(frames * Int(render.mChannelsPerFrame) * 4),
                    mData: raw.baseAddress))
                var output = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(
                    mNumberChannels: render.mChannelsPerFrame, mDataByteSize: UInt32(bytes), mData: data))
                return AudioConverterConvertComplexBuffer(writer, UInt32(frames), &input, &output)
            }
            guard status == noErr else { throw QueueStatus(status: status) }
        } else {
            samples.withUnsafeBytes { data.copyMemory(from: $0.baseAddress!, byteCount: bytes) }
        }
        buffer.pointee.mAudioDataByteSize = UInt32(bytes)
    }

    /// Interleaved native Float32 at `rate` with `channels` channels.
    static func float32(rate: Double, channels: UInt32) -> AudioStreamBasicDescription {
        AudioStreamBasicDescription(mSampleRate: rate, mFormatID: kAudioFormatLinearPCM,
                                    mFormatFlags: kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked,
                                    mBytesPerPacket: 4 * channels, mFramesPerPacket: 1, mBytesPerFrame: 4 * channels,
                                    mChannelsPerFrame: channels, mBitsPerChannel: 32, mReserved: 0)
    }

    static func isFloat32(_ format: AudioStreamBasicDescription) -> Bool {
        let wanted = float32(rate: format.mSampleRate, channels: format.mChannelsPerFrame)
        return format.mFormatID == kAudioFormatLinearPCM && format.mFormatFlags & ~kAudioFormatFlagIsPacked == kAudioFormatFlagIsFloat
            && format.mBitsPerChannel == 32 && format.mBytesPerFrame == wanted.mBytesPerFrame
    }
}
