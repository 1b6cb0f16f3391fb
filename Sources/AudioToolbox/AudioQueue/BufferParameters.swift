// What AudioQueueEnqueueBufferWithParameters adds to a buffer — frames trimmed at its start and
// end, parameter events applied when it starts to play, a start time on the queue's clock — and
// the pull that honours them for the device and for offline renders:
//
//   decoder output → ledger (trims dropped, events applied at each buffer's first frame) → out
//
// The ledger counts the decoder's output frames buffer by buffer, in order: a buffer of linear
// PCM is its frames, a compressed one its packets' frames (mVariableFramesInPacket, else the
// format's mFramesPerPacket), as the decoder makes them (AAC's priming included). A buffer with a
// start time is not handed to the decoder before the queue's clock reaches it: what was decoded
// before plays out, then silence, then the buffer on its sample.

/// An enqueued buffer: its bytes, its packets' descriptions, and its start time, if it has one.
struct QueuedBuffer {
    let buffer: AudioQueueBufferRef
    let bytes: Int
    let packets: [AudioStreamPacketDescription]
    /// The sample of the queue's clock it starts on (AudioQueueEnqueueBufferWithParameters).
    var startSample: Double?
    /// The clock has reached `startSample`: its packets may go to the decoder.
    var started = false

    init(buffer: AudioQueueBufferRef, bytes: Int, packets: [AudioStreamPacketDescription], startSample: Double? = nil) {
        self.buffer = buffer
        self.bytes = bytes
        self.packets = packets
        self.startSample = startSample
    }

    /// Whether it waits for its start time (nothing of it taken yet).
    func waitsForStart(taken: Int) -> Bool { startSample != nil && !started && taken == 0 }
}

/// One enqueued buffer's frames as the decoder will make them, and what to do with them.
struct LedgerEntry {
    /// Its frames at the queue's rate, and how many of them have come out.
    let frames: Int
    var position = 0
    let trimStart: Int
    let trimEnd: Int
    let events: [AudioQueueParameterEvent]

    /// Nothing to drop or apply: its frames only advance the count.
    var isPlain: Bool { trimStart == 0 && trimEnd == 0 && events.isEmpty }
}

extension AudioQueueObject {
    /// The frames a buffer of `bytes` with `packets` decodes to, at the queue's rate.
    func framesOf(bytes: Int, packets: [AudioStreamPacketDescription]) -> Int {
        let framesPerPacket = max(1, Int(format.mFramesPerPacket))
        if packets.isEmpty { return bytes / max(1, bytesPerPacket) * framesPerPacket }
        return packets.reduce(0) { $0 + ($1.mVariableFramesInPacket > 0 ? Int($1.mVariableFramesInPacket) : framesPerPacket) }
    }

    /// Decodes up to `frames` frames into `samples` (the lock held), honouring start times,
    /// trims and parameter events. `clock` is the queue's output frame at `samples[0]`, `ratio`
    /// the output frames a frame of the queue's rate makes (1 on the device).
    func pull(frames: Int, channels: Int, into samples: UnsafeMutablePointer<Float>, clock: Int64, ratio: Double) -> Int {
        var produced = 0
        let layout = offlineFormat == nil ? pcm : nil
        while produced < frames {
            let out = samples + produced * channels
            let made = layout.map { readPCM($0, frames: frames - produced, into: out) } ?? decode(frames: frames - produced, channels: channels, into: out)
            produced += applyLedger(out, count: made, channels: channels, ratio: ratio)
            if made > 0 { continue }
            // The decoder is starved: a buffer waiting for its start time gets silence up to it.
            guard let front = queued.first, front.waitsForStart(taken: frontPacketsTaken), let start = front.startSample else { break }
            // In Doubles: a far start time at a high render ratio is beyond Int64.
            let now = Double(clock) + Double(produced)
            let target = (start * ratio).rounded()
            if now < target {
                let silence = Int(min(Double(frames - produced), target - now))
                (samples + produced * channels).update(repeating: 0, count: silence * channels)
                if offlineFormat != nil { applyVolumeAndPan(samples + produced * channels, frames: silence, channels: channels) }
                produced += silence
                if now + Double(silence) < target { break }
            }
            queued[0].started = true
        }
        return produced
    }

    /// Drops the trimmed frames among the `count` just decoded into `samples` and applies the
    /// events of buffers whose first frame came; the frames kept, moved to the front. Offline,
    /// the volume and pan are applied here, frame by frame as the events change them.
    private func applyLedger(_ samples: UnsafeMutablePointer<Float>, count: Int, channels: Int, ratio: Double) -> Int {
        var read = 0, write = 0
        let gains = offlineFormat != nil
        while read < count {
            let written = write
            defer { if gains, write > written { applyVolumeAndPan(samples + written * channels, frames: write - written, channels: channels) } }
            guard !ledger.isEmpty else {
                // Frames past every buffer (the decoder's tail at a flush): kept.
                if write != read { (samples + write * channels).update(from: samples + read * channels, count: (count - read) * channels) }
                write += count - read
                break
            }
            var entry = ledger[0]
            let total = Self.outputFrames(entry.frames, ratio)
            if entry.position == 0 { for event in entry.events { try? setParameter(event.mID, event.mValue) } }
            let step = min(total - entry.position, count - read)
            if entry.isPlain {
                if write != read { (samples + write * channels).update(from: samples + read * channels, count: step * channels) }
                write += step
            } else {
                let keepFrom = Self.outputFrames(entry.trimStart, ratio), keepTo = total - Self.outputFrames(entry.trimEnd, ratio)
                for index in 0..<step where (keepFrom..<max(keepFrom, keepTo)).contains(entry.position + index) {
                    if write != read + index { (samples + write * channels).update(from: samples + (read + index) * channels, count: channels) }
                    write += 1
                }
            }
            read += step
            entry.position += step
            if entry.position >= total { ledger.removeFirst() } else { ledger[0] = entry }
        }
        return write
    }

    /// `frames` of the queue's rate in output frames, bounded so that no rate pair traps.
    static func outputFrames(_ frames: Int, _ ratio: Double) -> Int {
        let value = (Double(frames) * ratio).rounded()
        return value.isFinite ? Int(min(max(value, 0), 1e15)) : 0
    }

    /// Sets a parameter (the lock held): the volume ramps over VolumeRampTime; what the device's
    /// run plays is told.
    func setParameter(_ id: AudioQueueParameterID, _ value: AudioQueueParameterValue) throws(QueueStatus) {
        guard value.isFinite else { throw .invalidParameter }
        switch id {
        case kAudioQueueParam_Volume:
            let target = min(1, max(0, value))
            let rate = offlineFormat?.mSampleRate ?? format.mSampleRate
            let frames = Int((Double(volumeRampTime) * rate).rounded())
            volumeTarget = target
            if frames > 0 {
                ramp = (frames, (target - volume) / Float(frames))
            } else {
                volume = target
                ramp = (0, 0)
            }
        case kAudioQueueParam_VolumeRampTime:
            volumeRampTime = min(60, max(0, value))
            return
        case kAudioQueueParam_Pan:
            pan = min(1, max(-1, value))
        case kAudioQueueParam_PlayRate:
            playRate = min(2, max(0.5, value))
            applyDeviceSpeed()
            return
        case kAudioQueueParam_Pitch:
            pitchCents = min(2400, max(-2400, value))
            applyDeviceSpeed()
            return
        default:
            throw .invalidParameter
        }
        applyDeviceParameters(ramp: Double(volumeRampTime))
    }
}

@c @implementation
public func AudioQueueEnqueueBufferWithParameters(_ inAQ: AudioQueueRef?, _ inBuffer: AudioQueueBufferRef?, _ inNumPacketDescs: UInt32,
                                                  _ inPacketDescs: UnsafePointer<AudioStreamPacketDescription>?,
                                                  _ inTrimFramesAtStart: UInt32, _ inTrimFramesAtEnd: UInt32,
                                                  _ inNumParamValues: UInt32, _ inParamValues: UnsafePointer<AudioQueueParameterEvent>?,
                                                  _ inStartTime: UnsafePointer<AudioTimeStamp>?,
                                                  _ outActualStartTime: UnsafeMutablePointer<AudioTimeStamp>?) -> OSStatus {
    guard let inAQ, let queue = AudioQueueTable.table.object(inAQ) else { return kAudio_ParamError }
    var events: [AudioQueueParameterEvent] = []
    if inNumParamValues > 0 {
        guard let inParamValues, inNumParamValues <= 64 else { return kAudio_ParamError }
        events = Array(UnsafeBufferPointer(start: inParamValues, count: Int(inNumParamValues)))
        let known = [kAudioQueueParam_Volume, kAudioQueueParam_VolumeRampTime, kAudioQueueParam_Pan, kAudioQueueParam_PlayRate,
                     kAudioQueueParam_Pitch]
        guard events.allSatisfy({ known.contains($0.mID) && $0.mValue.isFinite }) else { return kAudioQueueErr_InvalidParameter }
    }
    var start: Double?
    if let stamp = inStartTime?.pointee {
        guard stamp.mFlags.contains(.sampleTimeValid), stamp.mSampleTime.isFinite, stamp.mSampleTime >= 0,
              stamp.mSampleTime < 1e15 else { return kAudio_ParamError }
        start = stamp.mSampleTime
    }
    let isInput = queue.lock.withLock { queue.isInput }
    guard !isInput || (inTrimFramesAtStart == 0 && inTrimFramesAtEnd == 0 && events.isEmpty && start == nil) else {
        return kAudioQueueErr_InvalidQueueType
    }
    let status = enqueue(inAQ, inBuffer, inNumPacketDescs, inPacketDescs, startSample: start) { queue, entry throws(QueueStatus) in
        let frames = queue.framesOf(bytes: entry.bytes, packets: entry.packets)
        guard Int(inTrimFramesAtStart) + Int(inTrimFramesAtEnd) <= frames else { throw .parameter }
        if let outActualStartTime {
            var stamp = AudioTimeStamp()
            stamp.mSampleTime = max(start ?? 0, queue.scheduledEnd)
            stamp.mFlags = .sampleTimeValid
            outActualStartTime.pointee = stamp
        }
        queue.ledger.append(LedgerEntry(frames: frames, trimStart: Int(inTrimFramesAtStart), trimEnd: Int(inTrimFramesAtEnd), events: events))
    }
    return status
}
