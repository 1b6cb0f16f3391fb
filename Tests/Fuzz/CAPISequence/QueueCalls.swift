import AudioToolbox
import FuzzSupport
import Synchronization

// Audio Queue Services in the C API program (issue 47): output and input queues made with any
// format, preset or hostile, their buffers allocated, filled, enqueued (with packet descriptions
// that lie about offsets and sizes, trims, start times and parameter events) and freed, picked from
// the queue, another queue, freed or NULL; the transport in any order; parameters with NaN and
// infinities; properties of any ID and size; offline renders into any render format; the clocks
// and timelines; IsRunning listeners. A queue's callbacks, on its own thread or inside an offline
// render, may enqueue their buffer again, stop the queue or dispose of it. Device queues play on
// the app's default output (none in scripts/fuzz.sh: their starts fail with a code). The program
// reads or writes a buffer only while neither a callback nor the second thread can have freed it:
// a queue never started on a device, no second thread running.

/// Every code Audio Queue Services may answer (beside `appleCodes`).
let queueCodes: Set<OSStatus> = [
    kAudioQueueErr_BufferEmpty, kAudioQueueErr_BufferEnqueuedTwice, kAudioQueueErr_BufferInQueue, kAudioQueueErr_CannotStart,
    kAudioQueueErr_CannotStartYet, kAudioQueueErr_CodecNotFound, kAudioQueueErr_DisposalPending, kAudioQueueErr_EnqueueDuringReset,
    kAudioQueueErr_InvalidBuffer, kAudioQueueErr_InvalidCodecAccess, kAudioQueueErr_InvalidDevice, kAudioQueueErr_InvalidOfflineMode,
    kAudioQueueErr_InvalidParameter, kAudioQueueErr_InvalidProperty, kAudioQueueErr_InvalidPropertySize,
    kAudioQueueErr_InvalidPropertyValue, kAudioQueueErr_InvalidQueueType, kAudioQueueErr_InvalidRunState,
    kAudioQueueErr_InvalidTapContext, kAudioQueueErr_InvalidTapType, kAudioQueueErr_Permissions, kAudioQueueErr_PrimeTimedOut,
    kAudioQueueErr_QueueInvalidated, kAudioQueueErr_RecordUnderrun, kAudioQueueErr_TooManyTaps,
    OSStatus(kAudioSessionNotActiveError), OSStatus(kAudioSessionNotInitialized),
]

/// What a queue's callbacks do, steered by the input when the queue is made. The callbacks run
/// on the queue's thread (or inside an offline render, on the program's), so all of it is atomic.
final class QueueClient: Sendable {
    /// 0: nothing; 1: enqueue the buffer again; 2: dispose of the queue (the first time);
    /// 3: stop it, not immediately; 4: read its IsRunning and current time.
    let action: UInt8
    let callbacks = Atomic<Int>(0)
    /// Set when a callback disposed of the queue.
    let disposed = Atomic<Bool>(false)

    init(action: UInt8) { self.action = action }

    /// What the callback does with `queue` and `buffer`.
    func called(_ queue: AudioQueueRef, _ buffer: AudioQueueBufferRef) {
        let count = callbacks.add(1, ordering: .relaxed).newValue
        var status: OSStatus = noErr
        switch action {
        case 1: status = AudioQueueEnqueueBuffer(queue, buffer, 0, nil)
        case 2 where count == 1:
            status = AudioQueueDispose(queue, count % 2 == 0)
            if status == noErr {
                disposed.store(true, ordering: .relaxed)
                let twice = record.withLock { record in
                    record.appleClosed.append(UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(queue))))
                    return !record.appleClosedOK.insert(UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(queue)))).inserted
                }
                Fuzzing.require(!twice, "a queue disposed in its callback had been disposed before")
            }
        case 3: status = AudioQueueStop(queue, false)
        case 4:
            var running: UInt32 = 0
            var size: UInt32 = 4
            var time = AudioTimeStamp()
            status = AudioQueueGetProperty(queue, kAudioQueueProperty_IsRunning, &running, &size)
            if status == noErr { status = AudioQueueGetCurrentTime(queue, nil, &time, nil) }
        default: break
        }
        Fuzzing.require(appleCodes.contains(status) || queueCodes.contains(status), "a queue's callback got \(status)")
    }
}

private let queueOutput: AudioQueueOutputCallback = { userData, queue, buffer in
    guard let userData else { return }
    Unmanaged<QueueClient>.fromOpaque(userData).takeUnretainedValue().called(queue, buffer)
}

private let queueInput: AudioQueueInputCallback = { userData, queue, buffer, _, _, _ in
    guard let userData else { return }
    Unmanaged<QueueClient>.fromOpaque(userData).takeUnretainedValue().called(queue, buffer)
}

private let runningListener: AudioQueuePropertyListenerProc = { userData, queue, id in
    guard let userData else { return }
    _ = Unmanaged<QueueClient>.fromOpaque(userData).takeUnretainedValue().callbacks.add(1, ordering: .relaxed)
    var value: UInt32 = 0
    var size: UInt32 = 4
    let status = AudioQueueGetProperty(queue, id, &value, &size)
    Fuzzing.require(appleCodes.contains(status) || queueCodes.contains(status), "a queue's listener got \(status)")
}

/// A queue the program holds: how it was made, its buffers, what its callbacks do.
final class QueueInfo {
    let format: AudioStreamBasicDescription
    let isInput: Bool
    let client: QueueClient
    /// Buffers allocated and not freed (the queue's own), and buffers freed (addresses only).
    var buffers: [AudioQueueBufferRef] = []
    /// Started on a device at least once: its callbacks may hold its buffers from now on.
    var startedOnDevice = false
    /// The offline render format set (the queue renders offline from then on).
    var renderFormat: AudioStreamBasicDescription?
    /// Its timeline, if one was made.
    var timeline: AudioQueueTimelineRef?

    init(format: AudioStreamBasicDescription, isInput: Bool, client: QueueClient) {
        self.format = format
        self.isInput = isInput
        self.client = client
    }
}

extension Program {
    /// Every queue parameter and property ID, and some no queue has.
    static let queueParameters: [AudioQueueParameterID] = [kAudioQueueParam_Volume, kAudioQueueParam_VolumeRampTime, kAudioQueueParam_PlayRate,
                                                            kAudioQueueParam_Pitch, kAudioQueueParam_Pan, 0, 6, 0xFFFF_FFFF]
    static let queueProperties: [AudioQueuePropertyID] = [
        kAudioQueueProperty_IsRunning, kAudioQueueProperty_MagicCookie, kAudioQueueProperty_StreamDescription,
        kAudioQueueProperty_ChannelLayout, kAudioQueueProperty_EnableLevelMetering, kAudioQueueProperty_CurrentLevelMeter,
        kAudioQueueProperty_CurrentLevelMeterDB, kAudioQueueProperty_MaximumOutputPacketSize, kAudioQueueProperty_DecodeBufferSizeFrames,
        kAudioQueueProperty_ConverterError, kAudioQueueProperty_CurrentDevice, kAudioQueueProperty_EnableTimePitch,
        kAudioQueueProperty_TimePitchAlgorithm, kAudioQueueProperty_TimePitchBypass, kAudioQueueDeviceProperty_SampleRate,
        kAudioQueueDeviceProperty_NumberChannels, 0x7878_7878,
    ]

    /// A queue argument, and what the program knows of it when it is live.
    func pickQueue() -> (queue: AudioQueueRef?, pick: Pick, info: QueueInfo?) {
        let (handle, pick) = applePick(.queue)
        return (handle, pick, pick == .live ? apple.queues[bits(handle)] : nil)
    }

    /// A buffer argument: one of the queue's, another queue's, one freed, or NULL; and whether it
    /// is the queue's own (by what the queue holds: a freed buffer's address may be a new one's).
    func pickBuffer(_ info: QueueInfo?) -> (buffer: AudioQueueBufferRef?, own: Bool) {
        let buffer: AudioQueueBufferRef?
        switch input.byte() % 8 {
        case 0: buffer = nil
        case 1:
            let others = apple.queues.values.flatMap(\.buffers)
            buffer = others.isEmpty ? nil : others[Int(input.byte()) % others.count]
        case 2:
            buffer = apple.freedBuffers.isEmpty ? nil
                : AudioQueueBufferRef(bitPattern: apple.freedBuffers[Int(input.byte()) % apple.freedBuffers.count])
        default:
            buffer = info.flatMap { $0.buffers.isEmpty ? nil : $0.buffers[Int(input.byte()) % $0.buffers.count] }
        }
        return (buffer, buffer.map { info?.buffers.contains($0) ?? false } ?? false)
    }

    /// Forgets a queue's buffers (disposed: their memory is the library's to free).
    func forgetQueue(_ bits: UInt) {
        guard let info = apple.queues.removeValue(forKey: bits) else { return }
        apple.freedBuffers += info.buffers.map { UInt(bitPattern: Int(bitPattern: UnsafeRawPointer($0))) }
        if apple.freedBuffers.count > 64 { apple.freedBuffers.removeFirst(apple.freedBuffers.count - 64) }
    }

    /// `body` with a pointer to `value`, or with NULL one time in `oneIn`.
    func orNull<T, R>(_ value: inout T, _ oneIn: UInt8, _ body: (UnsafeMutablePointer<T>?) -> R) -> R {
        if input.byte() % oneIn == 0 { return body(nil) }
        return withUnsafeMutablePointer(to: &value) { body($0) }
    }

    func queueStep() {
        switch input.byte() % 16 {
        case 0: newQueue()
        case 1: allocateQueueBuffer()
        case 2: freeQueueBuffer()
        case 3, 4: enqueueQueueBuffer()
        case 5: startQueue()
        case 6: stopQueue()
        case 7: queueParameter()
        case 8: setQueueProperty()
        case 9: getQueueProperty()
        case 10: setOfflineFormat()
        case 11, 12: renderOffline()
        case 13: queueTime()
        case 14: queueListener()
        default: disposeQueue()
        }
    }

    func newQueue() {
        guard apple.live.count < 12 else { return }
        var (format, _) = asbd()
        let isInput = input.byte() % 4 == 0
        let client = QueueClient(action: input.byte() % 5)
        apple.clients.append(client)
        let data = input.byte() % 16 == 0 ? nil : Unmanaged.passUnretained(client).toOpaque()
        // A run loop now and then: its callbacks then wait for this thread to run it.
        let loop = input.byte() % 8 == 0 ? CFRunLoopGetCurrent() : nil
        var out: AudioQueueRef?
        let status: OSStatus
        switch input.byte() % 16 {
        case 0: status = isInput ? AudioQueueNewInput(nil, queueInput, data, loop, nil, 0, &out) : AudioQueueNewOutput(nil, queueOutput, data, loop, nil, 0, &out)
        case 1: status = isInput ? AudioQueueNewInput(&format, nil, data, loop, nil, 0, &out) : AudioQueueNewOutput(&format, nil, data, loop, nil, 0, &out)
        case 2: status = isInput ? AudioQueueNewInput(&format, queueInput, data, loop, nil, 0, nil) : AudioQueueNewOutput(&format, queueOutput, data, loop, nil, 0, nil)
        case 3: status = AudioQueueNewOutput(&format, queueOutput, data, loop, nil, input.u32(), &out)
        default:
            status = isInput ? AudioQueueNewInput(&format, queueInput, data, loop, nil, 0, &out)
                             : AudioQueueNewOutput(&format, queueOutput, data, loop, nil, 0, &out)
        }
        appleCreated(status, out, "AudioQueueNew\(isInput ? "Input" : "Output")(\(format.mFormatID))") { AppleHeld(bits: $0, kind: .queue) }
        if status == noErr, let out { apple.queues[bits(out)] = QueueInfo(format: format, isInput: isInput, client: client) }
    }

    func allocateQueueBuffer() {
        let (queue, pick, info) = pickQueue()
        let bytes = input.choice([0, 1, 64, 512, 4096, 16_384, 65_536, 64 << 20, (64 << 20) + 1, UInt32.max, input.u32() % 100_000] as [UInt32])
        let descriptions = input.byte() % 2 == 0 ? 0 : input.choice([1, 16, 512, 1 << 20, (1 << 20) + 1, UInt32.max] as [UInt32])
        var out: AudioQueueBufferRef?
        let status = orNull(&out, 16) { AudioQueueAllocateBufferWithPacketDescriptions(queue, bytes, descriptions, $0) }
        appleCheck(status, "AudioQueueAllocateBuffer(\(bytes), \(descriptions))", [pick])
        if status == noErr {
            // (Read only with no second thread: it may dispose of the queue, and its buffers, at once.)
            Fuzzing.require(out != nil && (threadRunning || out!.pointee.mAudioDataBytesCapacity == bytes), "an allocated buffer is not what was asked")
            if let out, let info, info.buffers.count < 16 { info.buffers.append(out) }
        } else {
            Fuzzing.require(out == nil, "a failed allocation left a buffer")
        }
    }

    func freeQueueBuffer() {
        let (queue, pick, info) = pickQueue()
        let (buffer, own) = pickBuffer(info)
        let status = AudioQueueFreeBuffer(queue, buffer)
        appleCheck(status, "AudioQueueFreeBuffer(own: \(own))", [pick])
        if status == noErr {
            Fuzzing.require(own, "AudioQueueFreeBuffer freed a buffer not the queue's")
            if let info, let buffer, let index = info.buffers.firstIndex(of: buffer) {
                info.buffers.remove(at: index)
                apple.freedBuffers.append(UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(buffer))))
            }
        }
    }

    /// Packets for a buffer of `bytes` bytes: right, or lying about offsets and sizes.
    func packetDescriptions(bytes: UInt32) -> [AudioStreamPacketDescription] {
        let count = Int(input.byte() % 8)
        let size = count > 0 ? bytes / UInt32(count) : 0
        return (0..<count).map { index in
            switch input.byte() % 8 {
            case 0: AudioStreamPacketDescription(mStartOffset: Int64(bitPattern: input.u64()), mVariableFramesInPacket: input.u32(),
                                                 mDataByteSize: input.u32())
            case 1: AudioStreamPacketDescription(mStartOffset: Int64(bytes), mVariableFramesInPacket: 0, mDataByteSize: 1)
            case 2: AudioStreamPacketDescription(mStartOffset: -1, mVariableFramesInPacket: 0, mDataByteSize: size)
            default: AudioStreamPacketDescription(mStartOffset: Int64(UInt32(index) * size), mVariableFramesInPacket: 0, mDataByteSize: size)
            }
        }
    }

    func enqueueQueueBuffer() {
        let (queue, pick, info) = pickQueue()
        let (buffer, own) = pickBuffer(info)
        var bytes: UInt32 = 0
        if own, let buffer, let info, !info.startedOnDevice, !threadRunning {
            // The program's own buffer, which no callback can be holding: filled, and its size
            // said (sometimes past its room).
            let capacity = buffer.pointee.mAudioDataBytesCapacity
            let raw = UnsafeMutableRawBufferPointer(start: buffer.pointee.mAudioData, count: Int(capacity))
            fillAudio(raw)
            bytes = input.byte() % 8 == 0 ? input.choice([0, capacity + 1, UInt32.max, input.u32()]) : capacity - capacity % max(1, info.format.mBytesPerPacket % 4096)
            buffer.pointee.mAudioDataByteSize = bytes
        }
        let descriptions = packetDescriptions(bytes: bytes)
        let listed = UInt32(descriptions.count)
        let status: OSStatus
        if input.byte() % 3 == 0 {
            let events = (0..<Int(input.byte() % 4)).map { _ in
                AudioQueueParameterEvent(mID: input.choice(Program.queueParameters), mValue: input.float())
            }
            var start = AudioTimeStamp()
            start.mSampleTime = input.double()
            start.mFlags = input.byte() % 2 == 0 ? .sampleTimeValid : []
            var actual = AudioTimeStamp()
            let trims = (input.choice([0, 1, 1024, UInt32.max, input.u32()]), input.choice([0, 1, 1024, UInt32.max, input.u32()]))
            status = descriptions.withUnsafeBufferPointer { packets in
                events.withUnsafeBufferPointer { events in
                    orNull(&start, 2) { start in
                        orNull(&actual, 2) { actual in
                            AudioQueueEnqueueBufferWithParameters(queue, buffer, listed, packets.isEmpty ? nil : packets.baseAddress, trims.0, trims.1,
                                                                  UInt32(events.count), events.isEmpty ? nil : events.baseAddress, start, actual)
                        }
                    }
                }
            }
            if status == noErr { Fuzzing.require(!actual.mSampleTime.isInfinite, "an actual start time is infinite") }
        } else {
            status = descriptions.withUnsafeBufferPointer { AudioQueueEnqueueBuffer(queue, buffer, listed, $0.isEmpty ? nil : $0.baseAddress) }
        }
        appleCheck(status, "AudioQueueEnqueueBuffer(own: \(own), \(bytes) bytes, \(listed) packets)", [pick])
        if status == noErr { Fuzzing.require(own, "a buffer not the queue's was enqueued") }
    }

    func startQueue() {
        let (queue, pick, info) = pickQueue()
        let status: OSStatus
        switch input.byte() % 6 {
        case 0:
            var prepared: UInt32 = 0
            let frames = input.choice([0, 1, 4096, UInt32.max] as [UInt32])
            status = orNull(&prepared, 2) { AudioQueuePrime(queue, frames, $0) }
        case 1: status = AudioQueuePause(queue)
        case 2:
            var time = AudioTimeStamp()
            time.mSampleTime = input.double()
            time.mHostTime = input.u64()
            time.mFlags = input.choice([.sampleTimeValid, .hostTimeValid, [], AudioTimeStampFlags(rawValue: input.u32())])
            status = AudioQueueStart(queue, &time)
        default: status = AudioQueueStart(queue, nil)
        }
        appleCheck(status, "AudioQueueStart/Prime/Pause", [pick])
        // A start not offline plays on the device (a failed one may have begun): its callbacks may
        // hold the buffers from now on.
        if let info, info.renderFormat == nil { info.startedOnDevice = true }
    }

    func stopQueue() {
        let (queue, pick, _) = pickQueue()
        let status: OSStatus
        switch input.byte() % 4 {
        case 0: status = AudioQueueStop(queue, true)
        case 1: status = AudioQueueStop(queue, false)
        case 2: status = AudioQueueFlush(queue)
        default: status = AudioQueueReset(queue)
        }
        appleCheck(status, "AudioQueueStop/Flush/Reset", [pick])
    }

    func queueParameter() {
        let (queue, pick, _) = pickQueue()
        let id = input.choice(Program.queueParameters)
        if input.byte() % 2 == 0 {
            let value = input.float()
            appleCheck(AudioQueueSetParameter(queue, id, value), "AudioQueueSetParameter(\(id), \(value))", [pick])
        } else {
            var value: Float32 = 0
            let status = input.byte() % 16 == 0 ? AudioQueueGetParameter(queue, id, nil) : AudioQueueGetParameter(queue, id, &value)
            appleCheck(status, "AudioQueueGetParameter(\(id))", [pick])
            if status == noErr { Fuzzing.require(value.isFinite, "a queue's parameter \(id) reads \(value)") }
        }
    }

    func setQueueProperty() {
        let (queue, pick, _) = pickQueue()
        let id = input.choice(Program.queueProperties)
        var data: [UInt8]
        switch id {
        case kAudioQueueProperty_ChannelLayout: data = channelLayoutBytes()
        case kAudioQueueProperty_MagicCookie: data = input.bytes(Int(input.byte() % 64))
        case kAudioQueueProperty_StreamDescription:
            var (format, _) = asbd()
            data = propertyBytes(withUnsafeBytes(of: &format) { Array($0) })
        case kAudioQueueProperty_CurrentDevice:
            // A CFString the program owns (the device's name), or NULL.
            let string = input.byte() % 2 == 0 ? nil : apple.strings.last
            data = propertyBytes(withUnsafeBytes(of: string) { Array($0) })
        default:
            data = propertyBytes(le32(input.choice([0, 1, 2, 64, 4096, kAudioQueueTimePitchAlgorithm_Spectral, input.u32()])))
        }
        let status = input.byte() % 16 == 0 ? AudioQueueSetProperty(queue, id, nil, UInt32(data.count))
                                             : AudioQueueSetProperty(queue, id, data, UInt32(data.count))
        appleCheck(status, "AudioQueueSetProperty('\(fourCC(OSStatus(bitPattern: id)))', \(data.count) bytes)", [pick])
    }

    func getQueueProperty() {
        let (queue, pick, _) = pickQueue()
        let id = input.choice(Program.queueProperties)
        if input.byte() % 4 == 0 {
            var size: UInt32 = 0
            let status = input.byte() % 8 == 0 ? AudioQueueGetPropertySize(queue, id, nil) : AudioQueueGetPropertySize(queue, id, &size)
            appleCheck(status, "AudioQueueGetPropertySize('\(fourCC(OSStatus(bitPattern: id)))')", [pick])
            return
        }
        let room = input.byte() % 2 == 0 ? Int(input.byte() % 64) : Int(input.u16() % 4096)
        var value = [UInt8](repeating: 0, count: max(room, 16))
        var size = UInt32(room)
        let status = input.byte() % 16 == 0 ? AudioQueueGetProperty(queue, id, &value, nil) : AudioQueueGetProperty(queue, id, &value, &size)
        appleCheck(status, "AudioQueueGetProperty('\(fourCC(OSStatus(bitPattern: id)))', \(room))", [pick])
        guard status == noErr else { return }
        Fuzzing.require(Int(size) <= room, "AudioQueueGetProperty wrote \(size) bytes into \(room)")
        if id == kAudioQueueProperty_CurrentDevice && size == UInt32(MemoryLayout<UnsafeRawPointer>.size) {
            // A new CFString: the program's to release.
            releaseCF(value.withUnsafeBytes { $0.loadUnaligned(as: UnsafeRawPointer?.self) })
        }
        if id == kAudioQueueProperty_CurrentLevelMeter || id == kAudioQueueProperty_CurrentLevelMeterDB {
            let levels = value.withUnsafeBytes { Array($0.bindMemory(to: Float32.self).prefix(Int(size) / 4)) }
            if id == kAudioQueueProperty_CurrentLevelMeter { Fuzzing.require(levels.allSatisfy(\.isFinite), "a level meter reads \(levels)") }
            Fuzzing.require(!levels.contains { $0.isNaN }, "a level meter reads NaN")
        }
    }

    func setOfflineFormat() {
        let (queue, pick, info) = pickQueue()
        var format: AudioStreamBasicDescription
        if input.byte() % 4 == 0 {
            format = asbd().0
        } else {
            format = input.choice([Formats.presets[0], Formats.presets[1], Formats.presets[2], Formats.presets[14], Formats.presets[15]])
        }
        var layout = AudioChannelLayout()
        layout.mChannelLayoutTag = input.choice([kAudioChannelLayoutTag_Stereo, kAudioChannelLayoutTag_Mono, input.u32()])
        let status: OSStatus
        switch input.byte() % 8 {
        case 0: status = AudioQueueSetOfflineRenderFormat(queue, nil, nil)
        case 1: status = AudioQueueSetOfflineRenderFormat(queue, &format, &layout)
        default: status = AudioQueueSetOfflineRenderFormat(queue, &format, nil)
        }
        appleCheck(status, "AudioQueueSetOfflineRenderFormat(\(format.mFormatID), \(format.mChannelsPerFrame) ch)", [pick])
        if status == noErr, let info { info.renderFormat = format }
    }

    func renderOffline() {
        let (queue, pick, info) = pickQueue()
        let (buffer, own) = pickBuffer(info)
        var time = AudioTimeStamp()
        time.mSampleTime = input.byte() % 8 == 0 ? input.double() : Double(input.u16())
        time.mFlags = .sampleTimeValid
        let frames = input.choice([0, 1, 256, 1024, 4096, UInt32.max, input.u32() % 65_536])
        let status = orNull(&time, 16) { AudioQueueOfflineRender(queue, $0, buffer, frames) }
        appleCheck(status, "AudioQueueOfflineRender(own: \(own), \(frames) frames)", [pick])
        // The output is read only where no callback can have disposed of the queue (and freed it).
        guard status == noErr, own, let buffer, let info, info.client.action != 2, !info.startedOnDevice, !threadRunning,
              let format = info.renderFormat else { return }
        let bytes = buffer.pointee.mAudioDataByteSize
        Fuzzing.require(bytes <= buffer.pointee.mAudioDataBytesCapacity, "an offline render wrote \(bytes) bytes into \(buffer.pointee.mAudioDataBytesCapacity)")
        if format.mFormatID == kAudioFormatLinearPCM, format.mFormatFlags & kAudioFormatFlagIsFloat != 0, format.mBitsPerChannel == 32,
           Formats.givesFinite(info.format) {
            let samples = UnsafeRawBufferPointer(start: buffer.pointee.mAudioData, count: Int(bytes)).bindMemory(to: Float32.self)
            Fuzzing.require(samples.allSatisfy(\.isFinite), "an offline render of \(info.format.mFormatID) gave a non-finite sample")
        }
    }

    func queueTime() {
        let (queue, pick, info) = pickQueue()
        var time = AudioTimeStamp()
        var jumped = false
        let status: OSStatus
        switch input.byte() % 6 {
        case 0:
            var timeline: AudioQueueTimelineRef?
            status = orNull(&timeline, 16) { AudioQueueCreateTimeline(queue, $0) }
            if status == noErr, let info, info.timeline == nil { info.timeline = timeline }
        case 1:
            let timeline = input.byte() % 2 == 0 ? info?.timeline : OpaquePointer(bitPattern: UInt(input.u64()))
            status = AudioQueueDisposeTimeline(queue, timeline)
            if status == noErr, let info, timeline == info.timeline { info.timeline = nil }
        case 2:
            let timeline = input.byte() % 2 == 0 ? info?.timeline : OpaquePointer(bitPattern: UInt(input.u64()))
            status = orNull(&time, 8) { AudioQueueGetCurrentTime(queue, timeline, $0, &jumped) }
        case 3: status = AudioQueueDeviceGetCurrentTime(queue, &time)
        case 4:
            var asked = AudioTimeStamp()
            asked.mSampleTime = input.double()
            asked.mHostTime = input.u64()
            asked.mFlags = AudioTimeStampFlags(rawValue: input.u32())
            status = AudioQueueDeviceTranslateTime(queue, &asked, &time)
        default:
            time.mSampleTime = input.double()
            time.mFlags = .sampleTimeValid
            status = AudioQueueDeviceGetNearestStartTime(queue, &time, input.byte() % 4 == 0 ? input.u32() : 0)
        }
        appleCheck(status, "AudioQueue time calls", [pick])
        if status == noErr { Fuzzing.require(!time.mSampleTime.isNaN, "a queue's clock reads NaN") }
    }

    func queueListener() {
        let (queue, pick, info) = pickQueue()
        let id = input.byte() % 4 == 0 ? input.choice(Program.queueProperties) : kAudioQueueProperty_IsRunning
        let data = info.map { Unmanaged.passUnretained($0.client).toOpaque() }
        let status = input.byte() % 2 == 0 ? AudioQueueAddPropertyListener(queue, id, input.byte() % 16 == 0 ? nil : runningListener, data)
                                           : AudioQueueRemovePropertyListener(queue, id, runningListener, data)
        appleCheck(status, "AudioQueueAdd/RemovePropertyListener('\(fourCC(OSStatus(bitPattern: id)))')", [pick])
    }

    func disposeQueue() {
        let (queue, pick, info) = pickQueue()
        let status = AudioQueueDispose(queue, input.byte() % 2 == 0)
        if status == noErr { appleNoteClosed(bits(queue), byOtherThread: false) }
        if pick == .live, !threadRunning, let info, info.client.action != 2 {
            Fuzzing.require(status == noErr, "disposing a live queue gave \(status)")
        }
        if pick == .live { appleRemove(bits(queue)) }
        appleCheck(status, "AudioQueueDispose", [pick])
        if pick == .live && !threadRunning && status == noErr {
            Fuzzing.require(AudioQueueDispose(queue, true) == kAudio_ParamError, "a disposed queue disposed again")
        }
    }
}
