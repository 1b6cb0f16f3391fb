// Audio Queue Services' properties and property listeners (AudioToolbox/AudioQueue.h).
#if canImport(Glibc)
import Glibc
#endif
import Soundstage

extension AudioQueueObject {
    /// A property's value as bytes.
    func propertyValue(_ id: AudioQueuePropertyID) throws(QueueStatus) -> [UInt8] {
        func bytes<T>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value) { Array($0) } }
        switch id {
        case kAudioQueueProperty_IsRunning: return bytes(UInt32(isRunning ? 1 : 0))
        case kAudioQueueProperty_StreamDescription: return bytes(format)
        case kAudioQueueProperty_MagicCookie:
            guard let input else { return cookie ?? [] }
            // An input queue's: its encoder's (an AAC recording's AudioSpecificConfig, as iOS gives it).
            var size: UInt32 = 0
            guard AudioConverterGetPropertyInfo(input.encoder, kAudioConverterCompressionMagicCookie, &size, nil) == noErr, size > 0 else { return [] }
            var bytes = [UInt8](repeating: 0, count: Int(size))
            guard AudioConverterGetProperty(input.encoder, kAudioConverterCompressionMagicCookie, &size, &bytes) == noErr else { return [] }
            return Array(bytes.prefix(Int(size)))
        case kAudioQueueProperty_EnableLevelMetering: return bytes(UInt32(metering ? 1 : 0))
        case kAudioQueueProperty_DecodeBufferSizeFrames: return bytes(decodeBufferFrames)
        case kAudioQueueProperty_ConverterError: return bytes(UInt32(bitPattern: converterError))
        case kAudioQueueProperty_EnableTimePitch: return bytes(UInt32(timePitch.enabled ? 1 : 0))
        case kAudioQueueProperty_TimePitchAlgorithm: return bytes(timePitch.algorithm)
        case kAudioQueueProperty_TimePitchBypass: return bytes(UInt32(timePitch.bypass ? 1 : 0))
        case kAudioQueueProperty_MaximumOutputPacketSize:
            // What one packet of the queue's format may take: its fixed size, else the decoder's bound.
            if format.mBytesPerPacket > 0 { return bytes(format.mBytesPerPacket) }
            var source = format
            var floats = Self.float32(rate: format.mSampleRate, channels: format.mChannelsPerFrame)
            var probe: AudioConverterRef?
            guard AudioConverterNew(&source, &floats, &probe) == noErr, let probe else { throw .invalidProperty }
            defer { _ = AudioConverterDispose(probe) }
            var size: UInt32 = 0
            var sizeSize = UInt32(MemoryLayout<UInt32>.size)
            guard AudioConverterGetProperty(probe, kAudioConverterPropertyMaximumInputPacketSize, &sizeSize, &size) == noErr else {
                throw .invalidProperty
            }
            return bytes(size)
        case kAudioQueueDeviceProperty_SampleRate, kAudioQueueDeviceProperty_NumberChannels:
            // The hardware's: the app's device (opened now if it was not), as iOS answers for the
            // route. An input queue's channels are its capture's once it has started.
            let device: Device
            do { device = try ApplicationAudio.shared().device } catch { throw QueueStatus(status: kAudioQueueErr_InvalidDevice) }
            if id == kAudioQueueDeviceProperty_SampleRate { return bytes(Float64(device.sampleRate)) }
            if let input { return bytes(UInt32(input.capture?.channels ?? input.channels)) }
            return bytes(UInt32(device.layout.channelCount))
        case kAudioQueueProperty_CurrentLevelMeter, kAudioQueueProperty_CurrentLevelMeterDB:
            guard metering else { throw .invalidPropertyValue }
            let channels = Int(offlineFormat?.mChannelsPerFrame ?? format.mChannelsPerFrame)
            var states = levels.count == channels ? levels : [AudioQueueLevelMeterState](repeating: AudioQueueLevelMeterState(), count: channels)
            if id == kAudioQueueProperty_CurrentLevelMeterDB {
                func decibels(_ value: Float32) -> Float32 { value > 0 ? max(-120, 20 * log10(value)) : -120 }
                states = states.map { AudioQueueLevelMeterState(mAveragePower: decibels($0.mAveragePower), mPeakPower: decibels($0.mPeakPower)) }
            }
            return states.withUnsafeBytes { Array($0) }
        default:
            throw .invalidProperty
        }
    }

    func setProperty(_ id: AudioQueuePropertyID, _ data: UnsafeRawBufferPointer) throws(QueueStatus) {
        func uint32() throws(QueueStatus) -> UInt32 {
            guard data.count == 4 else { throw .invalidPropertySize }
            return data.loadUnaligned(as: UInt32.self)
        }
        switch id {
        case kAudioQueueProperty_MagicCookie:
            guard data.count <= 1 << 20 else { throw .invalidPropertySize }
            cookie = Array(data)
            if let decoder {
                // A cookie after the decoder was made: the next render makes it afresh with it.
                _ = AudioConverterDispose(decoder)
                self.decoder = nil
                if let writer { _ = AudioConverterDispose(writer) }
                self.writer = nil
            }
        case kAudioQueueProperty_EnableLevelMetering:
            metering = try uint32() != 0
            if !metering { levels = [] }
        case kAudioQueueProperty_DecodeBufferSizeFrames:
            let frames = try uint32()
            guard (1...65536).contains(frames) else { throw .invalidPropertyValue }
            decodeBufferFrames = frames
        case kAudioQueueProperty_EnableTimePitch:
            // As on iOS, the unit goes in before the queue first starts.
            let enabled = try uint32() != 0
            guard playback == nil, !isRunning else { throw .invalidRunState }
            timePitch.enabled = enabled
        case kAudioQueueProperty_TimePitchAlgorithm:
            let algorithm = try uint32()
            guard [kAudioQueueTimePitchAlgorithm_Spectral, kAudioQueueTimePitchAlgorithm_TimeDomain, kAudioQueueTimePitchAlgorithm_Varispeed,
                   kAudioQueueTimePitchAlgorithm_LowQualityZeroLatency].contains(algorithm) else { throw .invalidPropertyValue }
            timePitch.algorithm = algorithm
            applyDeviceSpeed()
        case kAudioQueueProperty_TimePitchBypass:
            timePitch.bypass = try uint32() != 0
            applyDeviceSpeed()
        case kAudioQueueProperty_IsRunning, kAudioQueueProperty_StreamDescription, kAudioQueueProperty_ConverterError,
             kAudioQueueProperty_MaximumOutputPacketSize, kAudioQueueProperty_CurrentLevelMeter, kAudioQueueProperty_CurrentLevelMeterDB,
             kAudioQueueDeviceProperty_SampleRate, kAudioQueueDeviceProperty_NumberChannels:
            throw .invalidProperty   // read-only
        default:
            throw .invalidProperty
        }
    }
}

/// Runs `body` on the queue behind `handle` with its lock held; nothing to hand back.
private func withQueueState(_ handle: AudioQueueRef?, _ body: (AudioQueueObject) throws(QueueStatus) -> Void) -> OSStatus {
    guard let handle, let queue = AudioQueueTable.table.object(handle) else { return kAudio_ParamError }
    queue.lock.lock()
    defer { queue.lock.unlock() }
    return osStatus { () throws(QueueStatus) in try body(queue) }
}

@c @implementation
public func AudioQueueGetProperty(_ inAQ: AudioQueueRef?, _ inID: AudioQueuePropertyID, _ outData: UnsafeMutableRawPointer?,
                                  _ ioDataSize: UnsafeMutablePointer<UInt32>?) -> OSStatus {
    withQueueState(inAQ) { queue throws(QueueStatus) in
        guard let ioDataSize else { throw .parameter }
        let value = try queue.propertyValue(inID)
        guard let outData else { throw .parameter }
        guard Int(ioDataSize.pointee) >= value.count else { throw .invalidPropertySize }
        value.withUnsafeBytes { if $0.count > 0 { outData.copyMemory(from: $0.baseAddress!, byteCount: $0.count) } }
        ioDataSize.pointee = UInt32(value.count)
    }
}

@c @implementation
public func AudioQueueSetProperty(_ inAQ: AudioQueueRef?, _ inID: AudioQueuePropertyID, _ inData: UnsafeRawPointer?, _ inDataSize: UInt32) -> OSStatus {
    withQueueState(inAQ) { queue throws(QueueStatus) in
        guard let inData else { throw inDataSize == 0 && inID == kAudioQueueProperty_MagicCookie ? .invalidPropertySize : .parameter }
        try queue.setProperty(inID, UnsafeRawBufferPointer(start: inData, count: Int(inDataSize)))
    }
}

@c @implementation
public func AudioQueueGetPropertySize(_ inAQ: AudioQueueRef?, _ inID: AudioQueuePropertyID, _ outDataSize: UnsafeMutablePointer<UInt32>?) -> OSStatus {
    withQueueState(inAQ) { queue throws(QueueStatus) in
        guard let outDataSize else { throw .parameter }
        outDataSize.pointee = UInt32(try queue.propertyValue(inID).count)
    }
}

@c @implementation
public func AudioQueueAddPropertyListener(_ inAQ: AudioQueueRef?, _ inID: AudioQueuePropertyID,
                                          _ inProc: AudioQueuePropertyListenerProc?, _ inUserData: UnsafeMutableRawPointer?) -> OSStatus {
    withQueueState(inAQ) { queue throws(QueueStatus) in
        guard let inProc else { throw .parameter }
        guard inID == kAudioQueueProperty_IsRunning else { throw .invalidProperty }
        var listener = CCallback(inProc, inUserData, loop: queue.loop, mode: queue.mode)
        listener.dispatch = queue.callback?.dispatch ?? queue.inputCallback?.dispatch
        if !queue.listeners.contains(where: { $0.isSame(as: listener) }) { queue.listeners.append(listener) }
    }
}

@c @implementation
public func AudioQueueRemovePropertyListener(_ inAQ: AudioQueueRef?, _ inID: AudioQueuePropertyID,
                                             _ inProc: AudioQueuePropertyListenerProc?, _ inUserData: UnsafeMutableRawPointer?) -> OSStatus {
    withQueueState(inAQ) { queue throws(QueueStatus) in
        guard let inProc else { throw .parameter }
        guard inID == kAudioQueueProperty_IsRunning else { throw .invalidProperty }
        let listener = CCallback(inProc, inUserData, loop: nil, mode: "")
        queue.listeners.removeAll { $0.isSame(as: listener) }
    }
}
