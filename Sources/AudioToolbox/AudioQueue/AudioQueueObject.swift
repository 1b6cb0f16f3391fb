import NIOConcurrencyHelpers
#if canImport(Glibc)
import Glibc
#endif

// One output audio queue: the buffers it allocated, those enqueued in play order, its transport,
// parameters and properties, and the offline renderer (AudioQueueOfflineRender) that pulls its
// packets through an audio converter of part 1:
//
//   enqueued buffers → input procedure → decoder (AudioConverter, to Float32 at the render rate)
//                    → volume (ramped), pan, meters → PCM writer (AudioConverter, to the render format)
//
// A buffer goes back to the program (its callback) once the decoder has asked past its last
// packet: the converter may read a packet until its next call of the input procedure. Callbacks
// and listeners run outside the queue's lock, after the call that freed them, so they may enqueue,
// stop or dispose of the queue.

/// A buffer of a queue, as the program sees it (AudioQueueBuffer), and what backs it.
struct QueueBuffer {
    let pointer: AudioQueueBufferRef
}

/// An output or input queue and its state; every field is touched with ``lock`` held.
final class AudioQueueObject: @unchecked Sendable {
    let lock = QueueLock()
    let format: AudioStreamBasicDescription
    /// The program's callback: an output queue's (buffers to refill), or an input queue's (buffers filled).
    let callback: CCallback<AudioQueueOutputCallback>?
    let inputCallback: CCallback<AudioQueueInputCallback>?
    /// Where the callbacks and listeners run: a run loop and its mode (nil: the queue's thread).
    let loop: CFRunLoopStorage?
    let mode: String
    /// The block a …WithDispatchQueue form was given, kept for the queue's life.
    var block: AnyObject?
    /// An input queue's capture and encoder (InputQueue.swift); nil for an output queue.
    var input: QueueInput?
    var isInput: Bool { inputCallback != nil }
    /// The handle the program holds (set once, right after the table gives it).
    var handle: AudioQueueRef?

    /// Every buffer allocated and not freed.
    var buffers: Set<UnsafeMutableRawPointer> = []
    /// What is enqueued, in play order: the buffer, its bytes, its packets, its start time.
    var queued: [QueuedBuffer] = []
    /// The enqueued buffers' frames as the decoder makes them, with their trims and parameter
    /// events (BufferParameters.swift); an entry goes once its last frame has come out.
    var ledger: [LedgerEntry] = []
    /// Frames the device's run has produced since its start (its clock for start times).
    var producedFrames: Int64 = 0
    /// Packets of the front buffer already handed to the decoder.
    var frontPacketsTaken = 0
    /// The front buffer's last packets were handed out: it goes back at the next input call.
    var frontExhausted = false
    /// An input queue's buffers filled during the current call, for its callback once the lock is let go.
    var filledInput: [FilledBuffer] = []
    /// Buffers to hand back to the program once the current call lets go of the lock.
    var finished: [AudioQueueBufferRef] = []

    var isRunning = false
    var isPaused = false
    /// AudioQueueStop(false): play what is enqueued, then stop.
    var stopping = false
    /// AudioQueueFlush: decode to the end of what is enqueued (the decoder's tail included).
    var flushing = false
    var disposed = false
    /// The threads running a callback or listener of this queue now (one entry a call).
    var callbackThreads: [pthread_t] = []

    var cookie: [UInt8]?
    /// kAudioQueueProperty_ChannelLayout as set (nil: the format's standard layout).
    var channelLayout: [UInt8]?
    var volume: Float = 1
    var volumeTarget: Float = 1
    var volumeRampTime: Float = 0
    /// Frames left of a volume ramp, and the change a frame.
    var ramp = (frames: 0, step: Float(0))
    var pan: Float = 0
    var metering = false
    var levels: [AudioQueueLevelMeterState] = []
    /// On the device: the levels of what was decoded and is not heard yet.
    var heardLevels = HeardLevels()
    var decodeBufferFrames: UInt32 = 2048
    /// The time-pitch unit: whether it is in (set before the first start), its algorithm, bypass,
    /// and the PlayRate and Pitch (cents) parameters it applies.
    var timePitch = (enabled: false, algorithm: kAudioQueueTimePitchAlgorithm_TimeDomain, bypass: false)
    var playRate: Float = 1
    var pitchCents: Float = 0
    var converterError: OSStatus = noErr

    /// The run on the app's device, from AudioQueueStart to the end of its sound (DeviceOutput.swift).
    var playback: QueuePlayback?
    /// The queue's timeline (AudioQueueCreateTimeline), if one was made.
    var timeline: QueueTimeline?

    /// Offline rendering: the format, and the converters into it (nil until the first render).
    var offlineFormat: AudioStreamBasicDescription?
    var decoder: AudioConverterRef?
    var writer: AudioConverterRef?
    /// Frames rendered since the start.
    var renderedFrames: Int64 = 0

    var listeners: [CCallback<AudioQueuePropertyListenerProc>] = []
    /// IsRunning changed during the current call: its listeners run once the lock is let go.
    var runningChanged = false
    /// The description handed with a packet to the decoder (valid until its next input call).
    let renderDescription = UnsafeMutablePointer<AudioStreamPacketDescription>.allocate(capacity: 1)

    /// An output queue's interleaved linear PCM, which its device run reads without a converter.
    var pcm: PCMLayout? {
        guard format.mFormatID == kAudioFormatLinearPCM, let layout = PCMLayout(format), !layout.nonInterleaved else { return nil }
        return layout
    }

    init(format: AudioStreamBasicDescription, callback: CCallback<AudioQueueOutputCallback>) {
        self.format = format
        self.callback = callback
        inputCallback = nil
        loop = callback.loop
        mode = callback.mode
    }

    init(format: AudioStreamBasicDescription, inputCallback: CCallback<AudioQueueInputCallback>) {
        self.format = format
        callback = nil
        self.inputCallback = inputCallback
        loop = inputCallback.loop
        mode = inputCallback.mode
    }

    deinit {
        playback?.end()
        for buffer in buffers { Self.free(buffer.assumingMemoryBound(to: AudioQueueBuffer.self)) }
        if let decoder { _ = AudioConverterDispose(decoder) }
        if let writer { _ = AudioConverterDispose(writer) }
        callback?.detach()
        inputCallback?.detach()
        input?.close()
        renderDescription.deallocate()
    }

    // MARK: Buffers

    /// A new buffer: the struct, then its bytes and its packet descriptions, one allocation each.
    static func allocate(bytes: Int, packets: Int) -> AudioQueueBufferRef {
        let data = UnsafeMutableRawPointer.allocate(byteCount: max(bytes, 1), alignment: 16)
        let descriptions = packets > 0 ? UnsafeMutablePointer<AudioStreamPacketDescription>.allocate(capacity: packets) : nil
        descriptions?.initialize(repeating: AudioStreamPacketDescription(), count: packets)
        let buffer = UnsafeMutablePointer<AudioQueueBuffer>.allocate(capacity: 1)
        buffer.initialize(to: AudioQueueBuffer(mAudioDataBytesCapacity: UInt32(bytes), mAudioData: data, mAudioDataByteSize: 0,
                                               mUserData: nil, mPacketDescriptionCapacity: UInt32(packets),
                                               mPacketDescriptions: descriptions, mPacketDescriptionCount: 0))
        return buffer
    }

    static func free(_ buffer: AudioQueueBufferRef) {
        buffer.pointee.mAudioData.deallocate()
        buffer.pointee.mPacketDescriptions?.deallocate()
        buffer.deinitialize(count: 1)
        buffer.deallocate()
    }

    func owns(_ buffer: AudioQueueBufferRef) -> Bool { buffers.contains(UnsafeMutableRawPointer(buffer)) }

    func isQueued(_ buffer: AudioQueueBufferRef) -> Bool { queued.contains { $0.buffer == buffer } }

    /// Where on the queue's clock a buffer enqueued now would start: the output so far and the
    /// frames still to come out of what is enqueued.
    var scheduledEnd: Double {
        let clock = offlineFormat != nil ? renderedFrames : producedFrames
        return Double(clock) + Double(ledger.reduce(0) { $0 + $1.frames - $1.position })
    }

    /// Packets a buffer's bytes hold when the format's packets are all one size.
    var bytesPerPacket: Int { Int(format.mBytesPerPacket) }

    /// Every enqueued buffer handed back (a reset, an immediate stop); the decoder starts afresh.
    func returnEverything() {
        finished.append(contentsOf: queued.map(\.buffer))
        queued.removeAll()
        ledger.removeAll()
        frontPacketsTaken = 0
        frontExhausted = false
        flushing = false
        if let decoder { _ = AudioConverterReset(decoder) }
    }

    // MARK: Callbacks, outside the lock

    /// The buffers to hand back and the listeners to call, taken under the lock.
    func takeFinished() -> [AudioQueueBufferRef] {
        defer { finished.removeAll() }
        return finished
    }

    /// Hands each buffer back to the program's callback: on the calling thread when `now` (offline
    /// rendering, whose caller waits for its callbacks, as Apple's offline-render pattern does),
    /// else where the program asked. None once the queue is disposed of.
    func handBack(_ done: [AudioQueueBufferRef], now: Bool) {
        guard !done.isEmpty, let handle = lock.withLock({ handle }), let callback else { return }
        let queue = UInt(bitPattern: handle)
        for buffer in done {
            let address = UInt(bitPattern: buffer)
            let call: @Sendable () -> Void = { [self] in
                guard beginCallback() else { return }
                callback.function(callback.clientData, OpaquePointer(bitPattern: queue)!, UnsafeMutablePointer(bitPattern: address)!)
                endCallback()
            }
            if now { call() } else { callback.deliver(call) }
        }
    }

    /// Hands each filled buffer to an input queue's callback, with its start time and packet
    /// descriptions, where the program asked (on the capturing thread for a NULL run loop).
    func handBackFilled(_ filled: [FilledBuffer]) {
        guard !filled.isEmpty, let handle = lock.withLock({ handle }), let callback = inputCallback else { return }
        let queue = UInt(bitPattern: handle)
        for entry in filled {
            let call: @Sendable () -> Void = { [self] in
                guard beginCallback() else { return }
                var time = entry.time
                entry.packets.withUnsafeBufferPointer { packets in
                    callback.function(callback.clientData, OpaquePointer(bitPattern: queue)!, UnsafeMutablePointer(bitPattern: entry.buffer)!,
                                      &time, UInt32(packets.count), packets.isEmpty ? nil : packets.baseAddress)
                }
                endCallback()
            }
            callback.deliver(call)
        }
    }

    /// Tells the IsRunning listeners: at once when `now` (offline rendering), else where the callback runs.
    func announceRunning(_ listeners: [CCallback<AudioQueuePropertyListenerProc>], now: Bool) {
        guard !listeners.isEmpty, let handle = lock.withLock({ handle }) else { return }
        let queue = UInt(bitPattern: handle)
        for listener in listeners {
            let call: @Sendable () -> Void = { [self] in
                guard beginCallback() else { return }
                listener.function(listener.clientData, OpaquePointer(bitPattern: queue)!, kAudioQueueProperty_IsRunning)
                endCallback()
            }
            if now { call() } else { listener.deliver(call) }
        }
    }

    // MARK: Callbacks in flight

    /// Notes a callback about to run on this thread; false (and it must not run) once the queue is
    /// disposed of: as on iOS, no callback comes after AudioQueueDispose returns.
    private func beginCallback() -> Bool {
        lock.withLock {
            guard !disposed else { return false }
            callbackThreads.append(pthread_self())
            return true
        }
    }

    private func endCallback() {
        lock.withLock {
            if let index = callbackThreads.lastIndex(where: { pthread_equal($0, pthread_self()) != 0 }) { callbackThreads.remove(at: index) }
            lock.wake()
        }
    }

    /// Waits (the lock held) until no callback of this queue runs on another thread: a callback
    /// that disposes of its own queue does not wait for itself.
    func waitForCallbacksElsewhere() {
        while callbackThreads.contains(where: { pthread_equal($0, pthread_self()) == 0 }) { lock.wait() }
    }
}
