import Dispatch
import Soundstage
#if canImport(Glibc)
import Glibc
#endif

// An input queue: the app's input (the desktop server's default input; on a loopback device, the
// device's own mix) captured as Float32, brought to the queue's rate and channels, encoded into the
// queue's format by an audio converter, and written packet by packet into the front enqueued
// buffer; a full buffer goes to the program's callback with its start time and packet
// descriptions:
//
//   capture → [resampler (AudioConverter, Float32)] → encoder (AudioConverter) → enqueued buffers → callback
//
// The conversion runs under the queue's lock on the capturing thread (the desktop input's
// thread, or the loopback device's render); the callbacks after it, outside the lock.

/// A buffer an input queue filled, on its way to the callback.
struct FilledBuffer: @unchecked Sendable {
    // @unchecked: the buffer's address, handed to the program's callback as C would.
    let buffer: UInt
    let time: AudioTimeStamp
    let packets: [AudioStreamPacketDescription]
}

/// Captured frames waiting for the encoder: interleaved Float32, in memory that stays put while a
/// conversion reads it.
final class PendingFrames {
    private(set) var storage = UnsafeMutablePointer<Float>.allocate(capacity: 1)
    private var capacity = 1
    /// Samples held, and how many of them the converter has taken.
    private(set) var count = 0
    var taken = 0

    deinit { storage.deallocate() }

    func append(_ samples: UnsafeBufferPointer<Float>) {
        compact()
        if count + samples.count > capacity {
            let grown = UnsafeMutablePointer<Float>.allocate(capacity: max(capacity * 2, count + samples.count))
            grown.update(from: storage, count: count)
            storage.deallocate()
            storage = grown
            capacity = max(capacity * 2, count + samples.count)
        }
        if let base = samples.baseAddress { (storage + count).update(from: base, count: samples.count) }
        count += samples.count
    }

    /// Drops what the converter took.
    func compact() {
        guard taken > 0 else { return }
        let left = count - taken
        if left > 0 { storage.update(from: storage + taken, count: left) }
        count = left
        taken = 0
    }

    func removeAll() {
        count = 0
        taken = 0
    }
}

/// An input queue's state beside the queue's (touched with the queue's lock held).
final class QueueInput {
    /// Float32 at the queue's rate and channels → the queue's format (made with the queue, so
    /// its magic cookie can be read before the start, as the Core Audio books' recorder does).
    let encoder: AudioConverterRef
    /// The capture's Float32 → Float32 at the queue's rate and channels, when they differ.
    var resampler: AudioConverterRef?
    var capture: InputCapture?
    /// The session observer that stops the queue for an interruption.
    var observer: (session: AudioSession, token: Int)?
    /// Captured, waiting for the resampler or the encoder; and what the resampler made.
    let captured = PendingFrames()
    let resampled = PendingFrames()
    /// The capture's channels, and the queue's.
    var captureChannels = 1
    let channels: Int
    /// Bytes and packets written into the front buffer, and its packets' descriptions.
    var frontBytes = 0
    var frontPackets: [AudioStreamPacketDescription] = []
    /// Frames of the queue's format encoded since the start, and where the front buffer began.
    var encodedFrames: Int64 = 0
    var frontStart: Int64 = 0
    /// The last capture's arrival: its host time, and where its last frame falls on the
    /// ``encodedFrames`` timeline (a buffer's host time is reckoned back from it).
    var arrival: (host: UInt64, frame: Double)?
    /// The capture's rate (frames a second).
    var captureRate = 0.0
    /// The input has ended (a deferred stop): the converters are told, and flush.
    var ending = false
    /// The largest packet the encoder makes.
    let maximumPacket: Int
    /// Scratch for the encoder's packet descriptions.
    var scratch: [AudioStreamPacketDescription] = []

    init(encoder: AudioConverterRef, channels: Int) {
        self.encoder = encoder
        self.channels = channels
        var size: UInt32 = 0
        var sizeSize = UInt32(4)
        if AudioConverterGetProperty(encoder, kAudioConverterPropertyMaximumOutputPacketSize, &sizeSize, &size) != noErr || size == 0 { size = 1 }
        maximumPacket = Int(size)
    }

    private var closed = false

    /// Lets the capture, the observer and the converters go (once).
    func close() {
        guard !closed else { return }
        closed = true
        capture?.stop()
        capture = nil
        if let observer { observer.session.removeObserver(observer.token) }
        observer = nil
        if let resampler { _ = AudioConverterDispose(resampler) }
        resampler = nil
        _ = AudioConverterDispose(encoder)
    }
}

/// What the input procedures return when the frames waiting run out before the input ends: the
/// converter keeps its state and the conversion goes on when more is captured.
private let inputStarved: OSStatus = 0x7374_7276   // 'strv', never returned to the program

/// Hands a converter the frames waiting in a ``PendingFrames`` (its user data) of `channels` channels
/// (the high bits of nothing: the channel count travels in the buffer list the converter reads).
private func pendingInput(_ converter: AudioConverterRef, _ ioPackets: UnsafeMutablePointer<UInt32>, _ ioData: UnsafeMutablePointer<AudioBufferList>,
                          _ outDescriptions: UnsafeMutablePointer<UnsafeMutablePointer<AudioStreamPacketDescription>?>?,
                          _ userData: UnsafeMutableRawPointer?) -> OSStatus {
    guard let userData else { return kAudio_ParamError }
    let source = Unmanaged<PendingSource>.fromOpaque(userData).takeUnretainedValue()
    let frames = source.frames
    let available = (frames.count - frames.taken) / source.channels
    let list = UnsafeMutableAudioBufferListPointer(ioData)
    guard available > 0, list.count >= 1 else {
        ioPackets.pointee = 0
        if list.count >= 1 { list[0].mDataByteSize = 0 }
        return source.ending ? noErr : inputStarved
    }
    let given = min(available, max(1, Int(ioPackets.pointee)))
    list[0].mData = UnsafeMutableRawPointer(frames.storage + frames.taken)
    list[0].mDataByteSize = UInt32(given * source.channels * 4)
    list[0].mNumberChannels = UInt32(source.channels)
    frames.taken += given * source.channels
    ioPackets.pointee = UInt32(given)
    return noErr
}

/// What ``pendingInput`` reads from.
private final class PendingSource {
    let frames: PendingFrames
    let channels: Int
    let ending: Bool
    init(frames: PendingFrames, channels: Int, ending: Bool) {
        self.frames = frames
        self.channels = channels
        self.ending = ending
    }
}

extension AudioQueueObject {
    /// Takes captured audio (the capturing thread): brings it to the queue's rate and channels,
    /// encodes it into the enqueued buffers, and hands the filled ones to the callback.
    func takeCaptured(_ samples: UnsafeBufferPointer<Float>) {
        let filled = lock.withLock { () -> [FilledBuffer] in
            guard let input, isRunning, !isPaused, !disposed else { return [] }
            input.captured.append(samples)
            input.arrival = (hostTimeNow(), arrivalFrame(input))
            if metering { measure(samples, frames: samples.count / max(1, input.captureChannels), channels: input.captureChannels) }
            return encodeCaptured(input)
        }
        handBackFilled(filled)
    }

    /// Where the last frame captured falls on the ``QueueInput/encodedFrames`` timeline: the
    /// frames encoded, plus those still waiting for the resampler (at the queue's rate) and the
    /// encoder (lock held; what a converter holds inside is not counted).
    private func arrivalFrame(_ input: QueueInput) -> Double {
        let waiting = Double((input.captured.count - input.captured.taken) / max(1, input.captureChannels))
        let ratio = input.captureRate > 0 ? format.mSampleRate / input.captureRate : 1
        let resampled = Double((input.resampled.count - input.resampled.taken) / max(1, input.channels))
        return Double(input.encodedFrames) + (input.resampler == nil ? waiting : waiting * ratio + resampled)
    }

    /// The host time of frame `frame` of the ``QueueInput/encodedFrames`` timeline, reckoned
    /// back from the last capture's arrival (lock held): when it reached this process (a
    /// server's capture latency before that is not known). Now, before anything arrived.
    private func hostTime(ofFrame frame: Int64, _ input: QueueInput) -> UInt64 {
        guard let arrival = input.arrival, format.mSampleRate > 0 else { return hostTimeNow() }
        let back = (arrival.frame - Double(frame)) / format.mSampleRate * 1e9
        guard back.isFinite else { return arrival.host }
        if back <= 0 { return arrival.host &+ UInt64(min(-back, 1e15)) }
        return back >= Double(arrival.host) ? 0 : arrival.host - UInt64(back)
    }

    /// Runs the captured frames through the converters into the enqueued buffers (lock held);
    /// the buffers filled.
    func encodeCaptured(_ input: QueueInput) -> [FilledBuffer] {
        var source = input.captured
        if let resampler = input.resampler {
            resample(input, resampler)
            source = input.resampled
        }
        var filled: [FilledBuffer] = []
        let variable = format.mBytesPerPacket == 0
        let bytesPerPacket = max(1, Int(format.mBytesPerPacket))
        let feed = PendingSource(frames: source, channels: input.channels, ending: input.ending)
        while let front = queued.first {
            let capacity = Int(front.buffer.pointee.mAudioDataBytesCapacity)
            let room = capacity - input.frontBytes
            // A variable-size format's buffer holds as many packets as it has room for at the
            // encoder's largest (the books' and SpeakHere's buffers are sized so: half a second of
            // packets at their maximum size), and comes back then, not once its bytes are full:
            // real packets are a fraction of the largest, and it would come back seconds late.
            let packetCapacity = capacity / max(1, input.maximumPacket)
            let wanted = variable ? min(room / max(1, input.maximumPacket), max(0, packetCapacity - input.frontPackets.count)) : room / bytesPerPacket
            if wanted == 0 {
                filled.append(finishFront(input))
                continue
            }
            if input.scratch.count < wanted { input.scratch = Array(repeating: AudioStreamPacketDescription(), count: wanted) }
            var packets = UInt32(wanted)
            var list = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(
                mNumberChannels: format.mChannelsPerFrame, mDataByteSize: UInt32(room),
                mData: front.buffer.pointee.mAudioData + input.frontBytes))
            let status = input.scratch.withUnsafeMutableBufferPointer { descriptions in
                AudioConverterFillComplexBuffer(input.encoder, pendingInput, Unmanaged.passUnretained(feed).toOpaque(), &packets, &list,
                                                variable ? descriptions.baseAddress : nil)
            }
            source.compact()
            let made = Int(packets)
            if made > 0 {
                let framesPerPacket = max(1, Int(format.mFramesPerPacket))
                for index in 0..<made {
                    var packet = variable ? input.scratch[index]
                        : AudioStreamPacketDescription(mStartOffset: Int64(index * bytesPerPacket), mVariableFramesInPacket: 0,
                                                       mDataByteSize: UInt32(bytesPerPacket))
                    packet.mStartOffset += Int64(input.frontBytes)
                    input.frontPackets.append(packet)
                    input.encodedFrames += Int64(packet.mVariableFramesInPacket > 0 ? Int(packet.mVariableFramesInPacket) : framesPerPacket)
                }
                input.frontBytes += Int(list.mBuffers.mDataByteSize)
            }
            if status != noErr && status != inputStarved {
                converterError = status
                break
            }
            if made < wanted {
                // The captured frames ran out (or the input ended and everything is out).
                if input.ending, input.frontBytes > 0 { filled.append(finishFront(input)) }
                break
            }
        }
        return filled
    }

    /// The capture's frames to the queue's rate and channels (lock held).
    private func resample(_ input: QueueInput, _ resampler: AudioConverterRef) {
        let feed = PendingSource(frames: input.captured, channels: input.captureChannels, ending: input.ending)
        var scratch = [Float](repeating: 0, count: 4_096 * input.channels)
        while true {
            var frames = UInt32(4_096)
            let status = scratch.withUnsafeMutableBytes { raw -> OSStatus in
                var list = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: UInt32(input.channels),
                                                                                      mDataByteSize: UInt32(raw.count), mData: raw.baseAddress))
                return AudioConverterFillComplexBuffer(resampler, pendingInput, Unmanaged.passUnretained(feed).toOpaque(), &frames, &list, nil)
            }
            input.captured.compact()
            if frames > 0 { scratch.withUnsafeBufferPointer { input.resampled.append(UnsafeBufferPointer(rebasing: $0[0..<(Int(frames) * input.channels)])) } }
            if status != noErr || frames < 4_096 { break }
        }
    }

    /// The front buffer, filled as far as it is, off the queue and on its way to the callback (lock held).
    func finishFront(_ input: QueueInput) -> FilledBuffer {
        let front = queued.removeFirst().buffer
        front.pointee.mAudioDataByteSize = UInt32(input.frontBytes)
        let packets = format.mBytesPerPacket == 0 ? input.frontPackets : []
        if let own = front.pointee.mPacketDescriptions {
            let count = min(packets.count, Int(front.pointee.mPacketDescriptionCapacity))
            for index in 0..<count { own[index] = packets[index] }
            front.pointee.mPacketDescriptionCount = UInt32(count)
        }
        var time = AudioTimeStamp()
        time.mSampleTime = Double(input.frontStart)
        time.mHostTime = hostTime(ofFrame: input.frontStart, input)
        time.mRateScalar = 1
        time.mFlags = [.sampleTimeValid, .hostTimeValid, .rateScalarValid]
        input.frontBytes = 0
        input.frontPackets = []
        input.frontStart = input.encodedFrames
        return FilledBuffer(buffer: UInt(bitPattern: front), time: time, packets: packets)
    }

    /// Every enqueued buffer back to the callback: the front one with what it holds, the others
    /// empty (a stop, a reset); the converters start afresh (lock held).
    func returnInputBuffers(_ input: QueueInput) -> [FilledBuffer] {
        var filled: [FilledBuffer] = []
        while !queued.isEmpty { filled.append(finishFront(input)) }
        input.captured.removeAll()
        input.resampled.removeAll()
        _ = AudioConverterReset(input.encoder)
        if let resampler = input.resampler { _ = AudioConverterReset(resampler) }
        input.ending = false
        return filled
    }

    /// Starts (or resumes) capturing from the app's input (lock held).
    func startInput(_ input: QueueInput) throws(QueueStatus) {
        let audio: ApplicationAudio
        do {
            audio = try ApplicationAudio.shared()
        } catch {
            throw QueueStatus(status: kAudioQueueErr_InvalidDevice)
        }
        // As on iOS: recording needs a session of category record or play-and-record.
        guard audio.session.category.allowsRecording else { throw .cannotStart }
        guard audio.session.isActive else { throw QueueStatus(status: OSStatus(kAudioSessionNotActiveError)) }
        if input.capture == nil {
            let channels = input.channels
            let capture: InputCapture
            do {
                // The input's own channels, mixed to the queue's here: the servers mix differently
                // (PipeWire gave a centred mono sound 3 dB louder than PulseAudio and a loopback device).
                capture = try InputCapture(device: audio.device, sampleRate: Int(format.mSampleRate.rounded()), channels: nil,
                                           applicationName: "audio queue") { [weak self] samples in self?.takeCaptured(samples) }
            } catch {
                throw QueueStatus(status: kAudioQueueErr_InvalidDevice)
            }
            input.captureChannels = capture.channels
            input.captureRate = Double(capture.sampleRate)
            input.arrival = nil
            if Double(capture.sampleRate) != format.mSampleRate || capture.channels != channels {
                var from = Self.float32(rate: Double(capture.sampleRate), channels: UInt32(capture.channels))
                var to = Self.float32(rate: format.mSampleRate, channels: UInt32(channels))
                var made: AudioConverterRef?
                guard AudioConverterNew(&from, &to, &made) == noErr, let made else {
                    capture.stop()
                    throw QueueStatus(status: kAudioQueueErr_InvalidDevice)
                }
                input.resampler = made
            }
            input.capture = capture
            let token = audio.session.addObserver { [weak self] event in
                guard case .interruptionBegan = event.kind else { return }
                self?.interruptInput()
            }
            input.observer = (audio.session, token)
            input.frontStart = input.encodedFrames
        }
        input.capture?.start()
    }

    /// An interruption stops an input queue, as iOS does (its listener hears IsRunning 0).
    private func interruptInput() {
        let told = lock.withLock { () -> [CCallback<AudioQueuePropertyListenerProc>] in
            guard let input, isRunning else { return [] }
            input.capture?.pause()
            isRunning = false
            return listeners
        }
        announceRunning(told, now: false)
    }

    /// Stops an input queue (lock held): at once, or after encoding what was captured (the
    /// encoder's last packets included); either way the buffers go back to the callback.
    func stopInput(_ input: QueueInput, immediate: Bool) -> [FilledBuffer] {
        input.capture?.stop()
        input.capture = nil
        var filled: [FilledBuffer] = []
        if !immediate {
            input.ending = true
            filled = encodeCaptured(input)
        }
        return filled + returnInputBuffers(input)
    }
}

@c(AudioQueueNewInput)
public func _AudioQueueNewInput(_ inFormat: UnsafePointer<AudioStreamBasicDescription>?, _ inCallbackProc: AudioQueueInputCallback?,
                                _ inUserData: UnsafeMutableRawPointer?, _ inCallbackRunLoop: UnsafeRawPointer?,
                                _ inCallbackRunLoopMode: UnsafeRawPointer?, _ inFlags: UInt32,
                                _ outAQ: UnsafeMutablePointer<AudioQueueRef?>?) -> OSStatus {
    _AudioQueueNewInput(inFormat, inCallbackProc, inUserData, inCallbackRunLoop, inCallbackRunLoopMode, inFlags, outAQ, dispatch: nil)
}

/// ``_AudioQueueNewInput(_:_:_:_:_:_:_:)``, its callbacks on `dispatch` when one is given.
func _AudioQueueNewInput(_ inFormat: UnsafePointer<AudioStreamBasicDescription>?, _ inCallbackProc: AudioQueueInputCallback?,
                         _ inUserData: UnsafeMutableRawPointer?, _ inCallbackRunLoop: UnsafeRawPointer?,
                         _ inCallbackRunLoopMode: UnsafeRawPointer?, _ inFlags: UInt32,
                         _ outAQ: UnsafeMutablePointer<AudioQueueRef?>?, dispatch: DispatchQueue?) -> OSStatus {
    makeQueue(inFormat, inCallbackProc, inUserData, inCallbackRunLoop, inCallbackRunLoopMode, inFlags, outAQ,
              dispatch: dispatch) { format, callback throws(QueueStatus) in
        guard format.mSampleRate.isFinite, format.mSampleRate >= 1_000, format.mSampleRate <= 384_000,
              (1...8).contains(format.mChannelsPerFrame) else { throw QueueStatus(status: kAudioFormatUnsupportedDataFormatError) }
        // The encoder from Float32 at the queue's rate and channels: one that does not exist is
        // the converter's code here, as iOS refuses a format it cannot record.
        var floats = AudioQueueObject.float32(rate: format.mSampleRate, channels: format.mChannelsPerFrame)
        var target = format
        var encoder: AudioConverterRef?
        let status = AudioConverterNew(&floats, &target, &encoder)
        guard status == noErr, let encoder else { throw QueueStatus(status: status == noErr ? kAudioFormatUnsupportedDataFormatError : status) }
        // The format as the encoder completed it (AAC asked for by ID, rate and channels has its
        // 1,024 frames a packet): what kAudioQueueProperty_StreamDescription reads back, as on iOS.
        var completed = format
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        if AudioConverterGetProperty(encoder, kAudioConverterCurrentOutputStreamDescription, &size, &completed) != noErr {
            completed = format
        }
        let queue = AudioQueueObject(format: completed, inputCallback: callback)
        queue.input = QueueInput(encoder: encoder, channels: Int(format.mChannelsPerFrame))
        return queue
    }
}
