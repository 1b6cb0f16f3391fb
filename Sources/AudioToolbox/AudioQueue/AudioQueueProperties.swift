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
        case kAudioQueueProperty_ChannelLayout:
            return channelLayout ?? Self.standardLayout(channels: format.mChannelsPerFrame)
        case kAudioQueueProperty_CurrentDevice:
            // A CFStringRef's room: AudioQueueGetProperty makes the string only once the value
            // fits (a new one, the caller's to release), so no size query leaks one.
            _ = try Self.currentDeviceUID(input: input != nil)
            return bytes(UnsafeRawPointer?.none)
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
            if input == nil, playback != nil, let heard = heardLevels.levels(playedTo: Int64(deviceSampleTime)) { levels = heard }
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

    /// The UID of the device a queue plays on (or records from): the app's device, as
    /// `desktop:SINK` (`desktop-input:default` for an input queue, which records the server's
    /// default input), `openal` or `loopback`.
    static func currentDeviceUID(input: Bool) throws(QueueStatus) -> String {
        let device: Device
        do { device = try ApplicationAudio.shared().device } catch { throw QueueStatus(status: kAudioQueueErr_InvalidDevice) }
        switch device.kind {
        case .desktop: return input ? "desktop-input:default" : "desktop:" + (device.outputStatus.sink ?? "default")
        case .loopback: return "loopback"
        case .output: return "openal"
        }
    }

    /// The layout a format of `channels` channels stands for: mono, stereo, else N discrete channels.
    static func standardLayout(channels: UInt32) -> [UInt8] {
        let tag = channels == 1 ? kAudioChannelLayoutTag_Mono : channels == 2 ? kAudioChannelLayoutTag_Stereo
            : kAudioChannelLayoutTag_DiscreteInOrder | channels
        var layout = AudioChannelLayout()
        layout.mChannelLayoutTag = tag
        return withUnsafeBytes(of: layout) { Array($0.prefix(ChannelLayouts.size(descriptions: 0))) }
    }

    /// A layout the queue takes: one Soundstage can read, of the queue's channel count, that plays
    /// channel n where the format's channel n goes (the queue does not reorder channels: a stereo
    /// layout of right then left is refused). `kAudioQueueErr_InvalidPropertyValue` otherwise.
    static func acceptedLayout(_ data: UnsafeRawBufferPointer, channels: UInt32) throws(QueueStatus) -> [UInt8] {
        let labels: [AudioChannelLabel]
        do { labels = try ChannelLayouts.labels(ofLayout: data) } catch { throw .invalidPropertyValue }
        guard labels.count == Int(channels) else { throw .invalidPropertyValue }
        let lefts: Set<AudioChannelLabel> = [kAudioChannelLabel_Left, kAudioChannelLabel_HeadphonesLeft, kAudioChannelLabel_LeftTotal]
        let rights: Set<AudioChannelLabel> = [kAudioChannelLabel_Right, kAudioChannelLabel_HeadphonesRight, kAudioChannelLabel_RightTotal]
        if labels.count == 2, rights.contains(labels[0]), lefts.contains(labels[1]) { throw .invalidPropertyValue }
        return Array(data)
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
        case kAudioQueueProperty_ChannelLayout:
            channelLayout = try Self.acceptedLayout(data, channels: format.mChannelsPerFrame)
        case kAudioQueueProperty_CurrentDevice:
            // A queue plays on (records from) the app's device: NULL (the default) or that
            // device's UID is taken; another device is kAudioQueueErr_InvalidDevice.
            guard data.count == MemoryLayout<UnsafeRawPointer?>.size else { throw .invalidPropertySize }
            let pointer = data.loadUnaligned(as: UnsafeRawPointer?.self)
            guard let pointer else { return }
            guard let uid = cfString(pointer) else { throw .invalidPropertyValue }
            guard uid == (try Self.currentDeviceUID(input: input != nil)) else { throw QueueStatus(status: kAudioQueueErr_InvalidDevice) }
        case kAudioQueueProperty_EnableLevelMetering:
            metering = try uint32() != 0
            if !metering {
                levels = []
                heardLevels.removeAll()
            }
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
        if inID == kAudioQueueProperty_CurrentDevice {
            outData.storeBytes(of: cfNewString(try AudioQueueObject.currentDeviceUID(input: queue.input != nil)), as: UnsafeRawPointer.self)
        } else {
            value.withUnsafeBytes { if $0.count > 0 { outData.copyMemory(from: $0.baseAddress!, byteCount: $0.count) } }
        }
        ioDataSize.pointee = UInt32(value.count)
    }
}

/// `AudioQueueGetProperty` for `kAudioQueueProperty_CurrentDevice` as iOS Swift code calls it,
/// with `var uid: CFString? = nil` and `&uid`: `CFString` is `String` here, so the UID comes back
/// as one (and no object is left to release).
public func AudioQueueGetProperty(_ inAQ: AudioQueueRef?, _ inID: AudioQueuePropertyID, _ outData: UnsafeMutablePointer<CFString?>,
                                  _ ioDataSize: UnsafeMutablePointer<UInt32>?) -> OSStatus {
    guard inID == kAudioQueueProperty_CurrentDevice else { return kAudioQueueErr_InvalidPropertySize }
    guard let ioDataSize, ioDataSize.pointee >= UInt32(MemoryLayout<UnsafeRawPointer>.size) else {
        return ioDataSize == nil ? kAudio_ParamError : kAudioQueueErr_InvalidPropertySize
    }
    var object: UnsafeRawPointer?
    var size = UInt32(MemoryLayout<UnsafeRawPointer>.size)
    let status = AudioQueueGetProperty(inAQ, inID, &object, &size)
    guard status == noErr, let object else { return status }
    outData.pointee = cfString(object)
    _CFRelease(object)
    ioDataSize.pointee = size
    return noErr
}

/// `AudioQueueSetProperty` for `kAudioQueueProperty_CurrentDevice` as iOS Swift code calls it,
/// with a `CFString` (here a `String`) and `&uid`.
public func AudioQueueSetProperty(_ inAQ: AudioQueueRef?, _ inID: AudioQueuePropertyID, _ inData: UnsafePointer<CFString>,
                                  _ inDataSize: UInt32) -> OSStatus {
    guard inID == kAudioQueueProperty_CurrentDevice else { return kAudioQueueErr_InvalidPropertySize }
    var object: UnsafeRawPointer? = cfNewString(inData.pointee)
    defer { _CFRelease(object) }
    return AudioQueueSetProperty(inAQ, inID, &object, UInt32(MemoryLayout<UnsafeRawPointer>.size))
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
