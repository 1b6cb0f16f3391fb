import Dispatch

// Audio Queue Services' functions for output queues (AudioToolbox/AudioQueue.h), for C and Swift
// at once: `@c @implementation` where the signature holds no Core Foundation type, `@c(Name)` for
// AudioQueueNewOutput (its run loop and mode). Nothing here traps on what a caller passes.

/// An Audio Queue Services error on its way out.
struct QueueStatus: StatusError, Equatable {
    /// The code the C function returns.
    let status: OSStatus

    static let parameter = QueueStatus(status: kAudio_ParamError)
    static let invalidBuffer = QueueStatus(status: kAudioQueueErr_InvalidBuffer)
    static let bufferEmpty = QueueStatus(status: kAudioQueueErr_BufferEmpty)
    static let bufferInQueue = QueueStatus(status: kAudioQueueErr_BufferInQueue)
    static let invalidProperty = QueueStatus(status: kAudioQueueErr_InvalidProperty)
    static let invalidPropertySize = QueueStatus(status: kAudioQueueErr_InvalidPropertySize)
    static let invalidPropertyValue = QueueStatus(status: kAudioQueueErr_InvalidPropertyValue)
    static let invalidParameter = QueueStatus(status: kAudioQueueErr_InvalidParameter)
    static let invalidOfflineMode = QueueStatus(status: kAudioQueueErr_InvalidOfflineMode)
    static let cannotStart = QueueStatus(status: kAudioQueueErr_CannotStart)
    static let invalidRunState = QueueStatus(status: kAudioQueueErr_InvalidRunState)
}

/// The live queues, by AudioQueueRef (a ``HandleTable``, tag 6).
enum AudioQueueTable {
    static let table = HandleTable<AudioQueueObject>(tag: 6)

    /// How many queues are live (for tests: nothing leaks).
    static var liveCount: Int { table.count }
}

/// Runs `body` on the queue behind `handle` with its lock held, then hands back the buffers the
/// call finished and tells the IsRunning listeners, outside the lock.
private func withQueue(_ handle: AudioQueueRef?, _ body: (AudioQueueObject) throws(QueueStatus) -> Void) -> OSStatus {
    guard let handle, let queue = AudioQueueTable.table.object(handle) else { return kAudio_ParamError }
    var failure: QueueStatus?
    let (done, filled, listeners, offline) = queue.lock.withLock {
        () -> ([AudioQueueBufferRef], [FilledBuffer], [CCallback<AudioQueuePropertyListenerProc>], Bool) in
        do throws(QueueStatus) { try body(queue) } catch { failure = error }
        defer {
            queue.runningChanged = false
            queue.filledInput = []
        }
        return (queue.takeFinished(), queue.filledInput, queue.runningChanged ? queue.listeners : [], queue.offlineFormat != nil)
    }
    queue.handBack(done, now: offline)
    queue.handBackFilled(filled)
    queue.announceRunning(listeners, now: offline)
    return failure?.status ?? noErr
}

/// A description a queue can play: linear PCM of whole frames, or any format with a rate and channels.
private func checkFormat(_ format: AudioStreamBasicDescription) throws(QueueStatus) {
    guard format.mSampleRate.isFinite, format.mSampleRate > 0, format.mSampleRate <= 768_000,
          (1...64).contains(format.mChannelsPerFrame) else { throw QueueStatus(status: kAudioFormatUnsupportedDataFormatError) }
    // The decoder it will need must exist (the cookie comes later: a converter takes it then).
    var source = format
    var floats = AudioQueueObject.float32(rate: format.mSampleRate, channels: format.mChannelsPerFrame)
    var probe: AudioConverterRef?
    let status = AudioConverterNew(&source, &floats, &probe)
    if let probe { _ = AudioConverterDispose(probe) }
    guard status == noErr else { throw QueueStatus(status: status) }
}

/// `AudioQueueNewOutput` from C: a new output queue.
@c(AudioQueueNewOutput)
public func _AudioQueueNewOutput(_ inFormat: UnsafePointer<AudioStreamBasicDescription>?, _ inCallbackProc: AudioQueueOutputCallback?,
                                 _ inUserData: UnsafeMutableRawPointer?, _ inCallbackRunLoop: UnsafeRawPointer?,
                                 _ inCallbackRunLoopMode: UnsafeRawPointer?, _ inFlags: UInt32,
                                 _ outAQ: UnsafeMutablePointer<AudioQueueRef?>?) -> OSStatus {
    _AudioQueueNewOutput(inFormat, inCallbackProc, inUserData, inCallbackRunLoop, inCallbackRunLoopMode, inFlags, outAQ, dispatch: nil)
}

/// ``_AudioQueueNewOutput(_:_:_:_:_:_:_:)``, its callbacks on `dispatch` when one is given.
func _AudioQueueNewOutput(_ inFormat: UnsafePointer<AudioStreamBasicDescription>?, _ inCallbackProc: AudioQueueOutputCallback?,
                          _ inUserData: UnsafeMutableRawPointer?, _ inCallbackRunLoop: UnsafeRawPointer?,
                          _ inCallbackRunLoopMode: UnsafeRawPointer?, _ inFlags: UInt32,
                          _ outAQ: UnsafeMutablePointer<AudioQueueRef?>?, dispatch: DispatchQueue?) -> OSStatus {
    makeQueue(inFormat, inCallbackProc, inUserData, inCallbackRunLoop, inCallbackRunLoopMode, inFlags, outAQ,
              dispatch: dispatch) { format, callback throws(QueueStatus) in
        try checkFormat(format)
        return AudioQueueObject(format: format, callback: callback)
    }
}

/// What `AudioQueueNewOutput` and `AudioQueueNewInput` share: `outAQ` cleared first, the arguments
/// checked (`kAudio_ParamError`), the callback with its run loop or dispatch queue, the queue
/// `make` builds from the format, the audio system on the main run loop, and the new handle.
func makeQueue<Callback>(_ inFormat: UnsafePointer<AudioStreamBasicDescription>?, _ inCallbackProc: Callback?,
                         _ inUserData: UnsafeMutableRawPointer?, _ inCallbackRunLoop: UnsafeRawPointer?,
                         _ inCallbackRunLoopMode: UnsafeRawPointer?, _ inFlags: UInt32,
                         _ outAQ: UnsafeMutablePointer<AudioQueueRef?>?, dispatch: DispatchQueue?,
                         _ make: (AudioStreamBasicDescription, CCallback<Callback>) throws(QueueStatus) -> AudioQueueObject) -> OSStatus {
    osStatus { () throws(QueueStatus) in
        guard let outAQ else { throw .parameter }
        outAQ.pointee = nil
        guard let inFormat, let inCallbackProc, inFlags == 0 else { throw .parameter }
        var callback = CCallback(inCallbackProc, inUserData, runLoop: inCallbackRunLoop, mode: inCallbackRunLoopMode)
        callback.dispatch = dispatch
        let queue = try make(inFormat.pointee, callback)
        CFRunLoopStorage.attachAudioSystem()
        callback.attach()
        let handle = AudioQueueTable.table.insert(queue)
        queue.lock.withLock { queue.handle = handle }
        outAQ.pointee = handle
    }
}

@c @implementation
public func AudioQueueDispose(_ inAQ: AudioQueueRef?, _ inImmediate: Bool) -> OSStatus {
    guard let inAQ, let queue = AudioQueueTable.table.remove(inAQ) else { return kAudio_ParamError }
    // The object lives on while a call on another thread still holds it; its buffers are freed
    // when the last reference goes. Enqueued buffers are not handed back (Apple's Dispose).
    queue.lock.withLock {
        queue.disposed = true
        queue.queued.removeAll()
        queue.isRunning = false
        queue.endDeviceRun()
        queue.input?.close()
        // No callback comes after this returns (the program frees what its callbacks use).
        queue.waitForCallbacksElsewhere()
    }
    _ = inImmediate
    return noErr
}

@c @implementation
public func AudioQueueAllocateBuffer(_ inAQ: AudioQueueRef?, _ inBufferByteSize: UInt32,
                                     _ outBuffer: UnsafeMutablePointer<AudioQueueBufferRef?>?) -> OSStatus {
    AudioQueueAllocateBufferWithPacketDescriptions(inAQ, inBufferByteSize, 0, outBuffer)
}

@c @implementation
public func AudioQueueAllocateBufferWithPacketDescriptions(_ inAQ: AudioQueueRef?, _ inBufferByteSize: UInt32,
                                                           _ inNumberPacketDescriptions: UInt32,
                                                           _ outBuffer: UnsafeMutablePointer<AudioQueueBufferRef?>?) -> OSStatus {
    withQueue(inAQ) { queue throws(QueueStatus) in
        guard let outBuffer else { throw .parameter }
        outBuffer.pointee = nil
        // 64 MB of bytes and a million descriptions at most: a game's buffers are a few KB.
        guard inBufferByteSize > 0, inBufferByteSize <= 64 << 20, inNumberPacketDescriptions <= 1 << 20 else { throw .parameter }
        let buffer = AudioQueueObject.allocate(bytes: Int(inBufferByteSize), packets: Int(inNumberPacketDescriptions))
        queue.buffers.insert(UnsafeMutableRawPointer(buffer))
        outBuffer.pointee = buffer
    }
}

@c @implementation
public func AudioQueueFreeBuffer(_ inAQ: AudioQueueRef?, _ inBuffer: AudioQueueBufferRef?) -> OSStatus {
    withQueue(inAQ) { queue throws(QueueStatus) in
        guard let inBuffer, queue.owns(inBuffer) else { throw .invalidBuffer }
        guard !queue.isQueued(inBuffer) else { throw .bufferInQueue }
        queue.buffers.remove(UnsafeMutableRawPointer(inBuffer))
        AudioQueueObject.free(inBuffer)
    }
}

@c @implementation
public func AudioQueueEnqueueBuffer(_ inAQ: AudioQueueRef?, _ inBuffer: AudioQueueBufferRef?, _ inNumPacketDescs: UInt32,
                                    _ inPacketDescs: UnsafePointer<AudioStreamPacketDescription>?) -> OSStatus {
    enqueue(inAQ, inBuffer, inNumPacketDescs, inPacketDescs, startSample: nil) { queue, entry throws(QueueStatus) in
        queue.ledger.append(LedgerEntry(frames: queue.framesOf(bytes: entry.bytes, packets: entry.packets), trimStart: 0, trimEnd: 0,
                                        events: []))
    }
}

/// Enqueues a buffer (AudioQueueEnqueueBuffer and …WithParameters): checks it, then `account`
/// adds its ledger entry (which may refuse it) before it joins the queue.
func enqueue(_ inAQ: AudioQueueRef?, _ inBuffer: AudioQueueBufferRef?, _ inNumPacketDescs: UInt32,
             _ inPacketDescs: UnsafePointer<AudioStreamPacketDescription>?, startSample: Double?,
             account: (AudioQueueObject, QueuedBuffer) throws(QueueStatus) -> Void) -> OSStatus {
    withQueue(inAQ) { queue throws(QueueStatus) in
        guard let inBuffer, queue.owns(inBuffer) else { throw .invalidBuffer }
        guard !queue.isQueued(inBuffer) else { throw QueueStatus(status: kAudioQueueErr_BufferEnqueuedTwice) }
        if let input = queue.input {
            // An input queue fills the buffer: what it holds now does not matter, its room does.
            let packet = queue.format.mBytesPerPacket > 0 ? Int(queue.format.mBytesPerPacket) : input.maximumPacket
            guard Int(inBuffer.pointee.mAudioDataBytesCapacity) >= packet else { throw .parameter }
            queue.queued.append(QueuedBuffer(buffer: inBuffer, bytes: 0, packets: []))
            if queue.queued.count == 1 { input.frontStart = input.encodedFrames }
            return
        }
        let bytes = Int(inBuffer.pointee.mAudioDataByteSize)
        guard bytes > 0 else { throw .bufferEmpty }
        guard bytes <= Int(inBuffer.pointee.mAudioDataBytesCapacity) else { throw .parameter }
        // The descriptions given here, else the buffer's own.
        var packets: [AudioStreamPacketDescription] = []
        if inNumPacketDescs > 0 {
            guard let inPacketDescs else { throw .parameter }
            packets = Array(UnsafeBufferPointer(start: inPacketDescs, count: Int(min(inNumPacketDescs, 1 << 20))))
        } else if inBuffer.pointee.mPacketDescriptionCount > 0, let own = inBuffer.pointee.mPacketDescriptions {
            guard inBuffer.pointee.mPacketDescriptionCount <= inBuffer.pointee.mPacketDescriptionCapacity else { throw .parameter }
            packets = Array(UnsafeBufferPointer(start: own, count: Int(inBuffer.pointee.mPacketDescriptionCount)))
        }
        if queue.bytesPerPacket == 0 {
            // Packets of varying size: every one described, inside the buffer.
            guard !packets.isEmpty else { throw .parameter }
            for packet in packets {
                guard packet.mStartOffset >= 0, packet.mDataByteSize > 0,
                      packet.mStartOffset + Int64(packet.mDataByteSize) <= Int64(bytes) else { throw .parameter }
            }
        } else {
            packets = []   // packets of one size need no descriptions (any given are not needed)
            guard bytes >= queue.bytesPerPacket else { throw .bufferEmpty }
        }
        let entry = QueuedBuffer(buffer: inBuffer, bytes: bytes, packets: packets, startSample: startSample)
        try account(queue, entry)
        queue.queued.append(entry)
        queue.lock.wake()
    }
}

@c @implementation
public func AudioQueueStart(_ inAQ: AudioQueueRef?, _ inStartTime: UnsafePointer<AudioTimeStamp>?) -> OSStatus {
    withQueue(inAQ) { queue throws(QueueStatus) in
        guard !queue.disposed else { throw .parameter }
        if let input = queue.input {
            try queue.startInput(input)
        } else if queue.offlineFormat == nil {
            // On the device: at the start time's sample (or host time) of the device's clock.
            try queue.startOnDevice(at: inStartTime.flatMap { deviceSeconds($0.pointee) })
        }
        // Offline, the render's own time stamps decide.
        queue.isPaused = false
        if !queue.isRunning {
            queue.isRunning = true
            queue.runningChanged = true
        }
    }
}

@c @implementation
public func AudioQueuePrime(_ inAQ: AudioQueueRef?, _ inNumberOfFramesToPrepare: UInt32,
                            _ outNumberOfFramesPrepared: UnsafeMutablePointer<UInt32>?) -> OSStatus {
    withQueue(inAQ) { queue throws(QueueStatus) in
        // Offline rendering decodes on demand: what is enqueued is what a start can play at once.
        let framesPerPacket = max(1, Int(queue.format.mFramesPerPacket))
        let enqueued = queue.queued.reduce(0) { total, entry in
            total + (entry.packets.isEmpty ? entry.bytes / max(1, queue.bytesPerPacket) * framesPerPacket : entry.packets.count * framesPerPacket)
        }
        let wanted = inNumberOfFramesToPrepare == 0 ? enqueued : min(enqueued, Int(inNumberOfFramesToPrepare))
        outNumberOfFramesPrepared?.pointee = UInt32(clamping: wanted)
    }
}

@c @implementation
public func AudioQueueStop(_ inAQ: AudioQueueRef?, _ inImmediate: Bool) -> OSStatus {
    withQueue(inAQ) { queue throws(QueueStatus) in
        if let input = queue.input {
            queue.filledInput += queue.stopInput(input, immediate: inImmediate)
            queue.isPaused = false
            if queue.isRunning {
                queue.isRunning = false
                queue.runningChanged = true
            }
        } else if inImmediate {
            queue.returnEverything()
            queue.endDeviceRun()
            queue.stopping = false
            queue.isPaused = false
            if queue.isRunning {
                queue.isRunning = false
                queue.runningChanged = true
            }
        } else {
            // IsRunning goes to 0 once what is enqueued has played. Asked before the start (a
            // file shorter than the buffers the program primes with), it holds for that start.
            queue.stopping = true
            queue.lock.wake()
        }
    }
}

@c @implementation
public func AudioQueuePause(_ inAQ: AudioQueueRef?) -> OSStatus {
    withQueue(inAQ) { queue throws(QueueStatus) in
        queue.isPaused = true
        queue.playback?.player.pause()
        queue.input?.capture?.pause()
    }
}

@c @implementation
public func AudioQueueFlush(_ inAQ: AudioQueueRef?) -> OSStatus {
    withQueue(inAQ) { queue throws(QueueStatus) in
        queue.flushing = true
        queue.lock.wake()
    }
}

@c @implementation
public func AudioQueueReset(_ inAQ: AudioQueueRef?) -> OSStatus {
    withQueue(inAQ) { queue throws(QueueStatus) in
        if let input = queue.input {
            queue.filledInput += queue.returnInputBuffers(input)
            return
        }
        queue.returnEverything()
        // On the device, what was decoded ahead goes too: a running queue plays on from silence.
        guard queue.playback != nil else { return }
        queue.endDeviceRun()
        if queue.isRunning && !queue.isPaused { try queue.startOnDevice(at: nil) }
    }
}

@c @implementation
public func AudioQueueGetParameter(_ inAQ: AudioQueueRef?, _ inParamID: AudioQueueParameterID,
                                   _ outValue: UnsafeMutablePointer<AudioQueueParameterValue>?) -> OSStatus {
    withQueue(inAQ) { queue throws(QueueStatus) in
        guard let outValue else { throw .parameter }
        switch inParamID {
        case kAudioQueueParam_Volume: outValue.pointee = queue.volumeTarget
        case kAudioQueueParam_VolumeRampTime: outValue.pointee = queue.volumeRampTime
        case kAudioQueueParam_Pan: outValue.pointee = queue.pan
        case kAudioQueueParam_PlayRate: outValue.pointee = queue.playRate
        case kAudioQueueParam_Pitch: outValue.pointee = queue.pitchCents
        default: throw .invalidParameter
        }
    }
}

@c @implementation
public func AudioQueueSetParameter(_ inAQ: AudioQueueRef?, _ inParamID: AudioQueueParameterID, _ inValue: AudioQueueParameterValue) -> OSStatus {
    withQueue(inAQ) { queue throws(QueueStatus) in try queue.setParameter(inParamID, inValue) }
}

@c @implementation
public func AudioQueueSetOfflineRenderFormat(_ inAQ: AudioQueueRef?, _ inFormat: UnsafePointer<AudioStreamBasicDescription>?,
                                             _ inLayout: UnsafePointer<AudioChannelLayout>?) -> OSStatus {
    withQueue(inAQ) { queue throws(QueueStatus) in
        _ = inLayout
        guard !queue.isInput else { throw QueueStatus(status: kAudioQueueErr_InvalidQueueType) }
        if let decoder = queue.decoder { _ = AudioConverterDispose(decoder) }
        if let writer = queue.writer { _ = AudioConverterDispose(writer) }
        queue.decoder = nil
        queue.writer = nil
        guard let format = inFormat?.pointee else {
            queue.offlineFormat = nil
            return
        }
        guard format.mFormatID == kAudioFormatLinearPCM, format.mSampleRate.isFinite, format.mSampleRate > 0,
              format.mSampleRate <= 768_000, (1...8).contains(format.mChannelsPerFrame),
              format.mFramesPerPacket == 1, (1...64).contains(format.mBytesPerFrame),
              format.mFormatFlags & kAudioFormatFlagIsNonInterleaved == 0 else { throw QueueStatus(status: kAudioFormatUnsupportedDataFormatError) }
        // Only a format the converters take becomes the render format (a refused one leaves none).
        queue.offlineFormat = nil
        try queue.makeRenderConverters(format)
        queue.offlineFormat = format
    }
}

@c @implementation
public func AudioQueueOfflineRender(_ inAQ: AudioQueueRef?, _ inTimestamp: UnsafePointer<AudioTimeStamp>?,
                                    _ ioBuffer: AudioQueueBufferRef?, _ inNumberFrames: UInt32) -> OSStatus {
    withQueue(inAQ) { queue throws(QueueStatus) in
        guard !queue.isInput else { throw QueueStatus(status: kAudioQueueErr_InvalidQueueType) }
        guard inTimestamp != nil else { throw .parameter }
        guard let ioBuffer, queue.owns(ioBuffer) else { throw .invalidBuffer }
        guard !queue.isQueued(ioBuffer) else { throw .bufferInQueue }
        try queue.renderOffline(frames: Int(inNumberFrames), into: ioBuffer)
    }
}
