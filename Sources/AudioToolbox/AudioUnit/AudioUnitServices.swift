#if canImport(Glibc)
import Glibc
#endif
import Soundstage

// Audio Component and Audio Unit Services' functions (AudioComponent.h, AUComponent.h,
// AudioOutputUnit.h), for C and Swift at once. A NULL, stale or disposed handle is
// kAudio_ParamError; nothing here traps on what a caller passes.

// MARK: Components

@c @implementation
public func AudioComponentFindNext(_ inComponent: AudioComponent?, _ inDesc: UnsafePointer<AudioComponentDescription>?) -> AudioComponent? {
    guard let inDesc else { return nil }
    let start = inComponent.map { UnitComponents.index($0).map { $0 + 1 } ?? UnitComponents.all.count } ?? 0
    guard start < UnitComponents.all.count else { return nil }
    let description = inDesc.pointee
    return UnitComponents.all[start...].firstIndex { UnitComponents.matches($0, description) }.map(UnitComponents.handle)
}

@c @implementation
public func AudioComponentCount(_ inDesc: UnsafePointer<AudioComponentDescription>?) -> UInt32 {
    guard let inDesc else { return 0 }
    let description = inDesc.pointee
    return UInt32(UnitComponents.all.filter { UnitComponents.matches($0, description) }.count)
}

@c @implementation
public func AudioComponentGetDescription(_ inComponent: AudioComponent?, _ outDesc: UnsafeMutablePointer<AudioComponentDescription>?) -> OSStatus {
    guard let index = UnitComponents.index(inComponent), let outDesc else { return kAudio_ParamError }
    outDesc.pointee = UnitComponents.description(index)
    return noErr
}

@c @implementation
public func AudioComponentGetVersion(_ inComponent: AudioComponent?, _ outVersion: UnsafeMutablePointer<UInt32>?) -> OSStatus {
    guard UnitComponents.index(inComponent) != nil, let outVersion else { return kAudio_ParamError }
    outVersion.pointee = UnitComponents.version
    return noErr
}

/// `AudioComponentCopyName` from C: the component's name as Apple spells it ("Apple: AURemoteIO"),
/// a new CFString the caller releases.
@c(AudioComponentCopyName)
public func _AudioComponentCopyName(_ inComponent: AudioComponent?, _ outName: UnsafeMutablePointer<UnsafeRawPointer?>?) -> OSStatus {
    guard let index = UnitComponents.index(inComponent), let outName else { return kAudio_ParamError }
    outName.pointee = cfNewString(UnitComponents.all[index].name)
    return noErr
}

@c @implementation
public func AudioComponentInstanceNew(_ inComponent: AudioComponent?, _ outInstance: UnsafeMutablePointer<AudioComponentInstance?>?) -> OSStatus {
    osStatus { () throws(UnitStatus) in
        guard let outInstance else { throw .parameter }
        outInstance.pointee = nil
        guard let index = UnitComponents.index(inComponent) else { throw .parameter }
        // The hardware's format as the app's device has it, if it is open (else the desktop's default).
        let device = ApplicationAudio.current?.device
        let unit = AudioUnitObject(componentIndex: index, hardwareRate: Double(device?.sampleRate ?? 48_000),
                                   hardwareChannels: device?.layout.channelCount ?? 2)
        unit.handle = AudioUnitTable.table.insert(unit)
        outInstance.pointee = unit.handle
    }
}

@c @implementation
public func AudioComponentInstanceDispose(_ inInstance: AudioComponentInstance?) -> OSStatus {
    osStatus { () throws(UnitStatus) in
        guard let inInstance, let unit = AudioUnitTable.table.remove(inInstance) else { throw .parameter }
        unit.stopOnDevice()
        unit.lock.withLock {
            unit.disposed = true
            unit.initialized = false
            unit.listeners = []
            unit.notifies = []
        }
        // A render in progress on another thread ends before this returns.
        unit.renderGate.withLock {}
    }
}

@c @implementation
public func AudioComponentInstanceGetComponent(_ inInstance: AudioComponentInstance?) -> AudioComponent? {
    guard let unit = try? AudioUnitTable.unit(inInstance) else { return nil }
    return UnitComponents.handle(unit.componentIndex)
}

// MARK: Units

/// Runs `body` on the unit behind `handle` with its lock held.
private func withUnit<R>(_ handle: AudioUnit?, _ body: (AudioUnitObject) throws(UnitStatus) -> R) throws(UnitStatus) -> R {
    let unit = try AudioUnitTable.unit(handle)
    return try unit.lock.withTypedLock { () throws(UnitStatus) -> R in
        guard !unit.disposed else { throw .parameter }
        return try body(unit)
    }
}

@c @implementation
public func AudioUnitInitialize(_ inUnit: AudioUnit?) -> OSStatus {
    osStatus { () throws(UnitStatus) in
        try withUnit(inUnit) { unit in unit.initialized = true }
    }
}

@c @implementation
public func AudioUnitUninitialize(_ inUnit: AudioUnit?) -> OSStatus {
    osStatus { () throws(UnitStatus) in
        let unit = try AudioUnitTable.unit(inUnit)
        // An output unit stops first, as on iOS.
        unit.stopOnDevice()
        try withUnit(inUnit) { unit in unit.initialized = false }
        unit.resetRender()
    }
}

@c @implementation
public func AudioUnitGetPropertyInfo(_ inUnit: AudioUnit?, _ inID: AudioUnitPropertyID, _ inScope: AudioUnitScope,
                                     _ inElement: AudioUnitElement, _ outDataSize: UnsafeMutablePointer<UInt32>?,
                                     _ outWritable: UnsafeMutablePointer<Bool>?) -> OSStatus {
    osStatus { () throws(UnitStatus) in
        try withUnit(inUnit) { unit throws(UnitStatus) in
            let value = try unit.property(inID, inScope, inElement)
            outDataSize?.pointee = UInt32(value.count)
            outWritable?.pointee = unit.isWritable(inID, inScope, inElement)
        }
    }
}

@c @implementation
public func AudioUnitGetProperty(_ inUnit: AudioUnit?, _ inID: AudioUnitPropertyID, _ inScope: AudioUnitScope,
                                 _ inElement: AudioUnitElement, _ outData: UnsafeMutableRawPointer?,
                                 _ ioDataSize: UnsafeMutablePointer<UInt32>?) -> OSStatus {
    osStatus { () throws(UnitStatus) in
        guard let outData, let ioDataSize else { throw .parameter }
        let value = try withUnit(inUnit) { unit throws(UnitStatus) in try unit.property(inID, inScope, inElement) }
        // A list (ParameterList) may be read in part; a fixed-size value needs its whole size.
        let size = Int(ioDataSize.pointee)
        if inID == kAudioUnitProperty_ParameterList {
            let whole = min(size, value.count) / 4 * 4
            value.withUnsafeBytes { outData.copyMemory(from: $0.baseAddress!, byteCount: whole) }
            ioDataSize.pointee = UInt32(whole)
            return
        }
        guard size >= value.count else { throw .invalidPropertyValue }
        value.withUnsafeBytes { outData.copyMemory(from: $0.baseAddress!, byteCount: value.count) }
        ioDataSize.pointee = UInt32(value.count)
    }
}

@c @implementation
public func AudioUnitSetProperty(_ inUnit: AudioUnit?, _ inID: AudioUnitPropertyID, _ inScope: AudioUnitScope,
                                 _ inElement: AudioUnitElement, _ inData: UnsafeRawPointer?, _ inDataSize: UInt32) -> OSStatus {
    osStatus { () throws(UnitStatus) in
        let unit = try AudioUnitTable.unit(inUnit)
        if inID == kAudioUnitProperty_MakeConnection, let inData, Int(inDataSize) == MemoryLayout<AudioUnitConnection>.size {
            try unit.checkConnection(inData.loadUnaligned(as: AudioUnitConnection.self))
        }
        // NULL data clears a callback or a connection, as on iOS; other properties need a value.
        var empty = [UInt8](repeating: 0, count: 32)
        var failure: UnitStatus?
        let told = empty.withUnsafeMutableBytes { zeros -> [UnitCallback<AudioUnitPropertyListenerProc>] in
            do throws(UnitStatus) {
                let data: UnsafeRawBufferPointer
                if let inData {
                    data = UnsafeRawBufferPointer(start: inData, count: Int(inDataSize))
                } else if inID == kAudioUnitProperty_SetRenderCallback || inID == kAudioOutputUnitProperty_SetInputCallback {
                    data = UnsafeRawBufferPointer(start: zeros.baseAddress, count: MemoryLayout<AURenderCallbackStruct>.size)
                } else if inID == kAudioUnitProperty_MakeConnection {
                    data = UnsafeRawBufferPointer(start: zeros.baseAddress, count: MemoryLayout<AudioUnitConnection>.size)
                } else {
                    throw .parameter
                }
                return try withUnit(inUnit) { unit throws(UnitStatus) in try unit.setProperty(inID, inScope, inElement, data) }
            } catch {
                failure = error
                return []
            }
        }
        if let failure { throw failure }
        unit.announce(told, inID, inScope, inElement)
    }
}

@c @implementation
public func AudioUnitAddPropertyListener(_ inUnit: AudioUnit?, _ inID: AudioUnitPropertyID,
                                         _ inProc: AudioUnitPropertyListenerProc?, _ inProcUserData: UnsafeMutableRawPointer?) -> OSStatus {
    osStatus { () throws(UnitStatus) in
        guard let inProc else { throw .parameter }
        try withUnit(inUnit) { unit in unit.listeners.append((inID, UnitCallback(function: inProc, context: inProcUserData))) }
    }
}

@c @implementation
public func AudioUnitRemovePropertyListenerWithUserData(_ inUnit: AudioUnit?, _ inID: AudioUnitPropertyID,
                                                        _ inProc: AudioUnitPropertyListenerProc?,
                                                        _ inProcUserData: UnsafeMutableRawPointer?) -> OSStatus {
    osStatus { () throws(UnitStatus) in
        guard let inProc else { throw .parameter }
        try withUnit(inUnit) { unit in
            unit.listeners.removeAll {
                $0.id == inID && unsafeBitCast($0.callback.function, to: UnsafeRawPointer.self) == unsafeBitCast(inProc, to: UnsafeRawPointer.self)
                    && $0.callback.context == inProcUserData
            }
        }
    }
}

@c @implementation
public func AudioUnitAddRenderNotify(_ inUnit: AudioUnit?, _ inProc: AURenderCallback?, _ inProcUserData: UnsafeMutableRawPointer?) -> OSStatus {
    osStatus { () throws(UnitStatus) in
        guard let inProc else { throw .parameter }
        try withUnit(inUnit) { unit in unit.notifies.append(UnitCallback(function: inProc, context: inProcUserData)) }
    }
}

@c @implementation
public func AudioUnitRemoveRenderNotify(_ inUnit: AudioUnit?, _ inProc: AURenderCallback?, _ inProcUserData: UnsafeMutableRawPointer?) -> OSStatus {
    osStatus { () throws(UnitStatus) in
        guard let inProc else { throw .parameter }
        try withUnit(inUnit) { unit in
            unit.notifies.removeAll {
                unsafeBitCast($0.function, to: UnsafeRawPointer.self) == unsafeBitCast(inProc, to: UnsafeRawPointer.self)
                    && $0.context == inProcUserData
            }
        }
    }
}

@c @implementation
public func AudioUnitGetParameter(_ inUnit: AudioUnit?, _ inID: AudioUnitParameterID, _ inScope: AudioUnitScope,
                                  _ inElement: AudioUnitElement, _ outValue: UnsafeMutablePointer<AudioUnitParameterValue>?) -> OSStatus {
    osStatus { () throws(UnitStatus) in
        guard let outValue else { throw .parameter }
        outValue.pointee = try withUnit(inUnit) { unit throws(UnitStatus) in try unit.parameter(inID, inScope, inElement) }
    }
}

@c @implementation
public func AudioUnitSetParameter(_ inUnit: AudioUnit?, _ inID: AudioUnitParameterID, _ inScope: AudioUnitScope,
                                  _ inElement: AudioUnitElement, _ inValue: AudioUnitParameterValue,
                                  _ inBufferOffsetInFrames: UInt32) -> OSStatus {
    osStatus { () throws(UnitStatus) in
        try withUnit(inUnit) { unit throws(UnitStatus) in try unit.setParameter(inID, inScope, inElement, inValue) }
    }
}

@c @implementation
public func AudioUnitScheduleParameters(_ inUnit: AudioUnit?, _ inParameterEvent: UnsafePointer<AudioUnitParameterEvent>?,
                                        _ inNumParamEvents: UInt32) -> OSStatus {
    osStatus { () throws(UnitStatus) in
        guard inNumParamEvents == 0 || inParameterEvent != nil else { throw .parameter }
        try withUnit(inUnit) { unit throws(UnitStatus) in
            for index in 0..<Int(inNumParamEvents) {
                let event = inParameterEvent![index]
                switch event.eventType {
                case .parameterEvent_Immediate:
                    try unit.setParameter(event.parameter, event.scope, event.element, event.eventValues.immediate.value)
                case .parameterEvent_Ramped:
                    // A ramp lands on its end value (rendered ramps: docs/audiotoolbox.md).
                    try unit.setParameter(event.parameter, event.scope, event.element, event.eventValues.ramp.endValue)
                default:
                    throw .invalidParameter
                }
            }
        }
    }
}

@c @implementation
public func AudioUnitRender(_ inUnit: AudioUnit?, _ ioActionFlags: UnsafeMutablePointer<AudioUnitRenderActionFlags>?,
                            _ inTimeStamp: UnsafePointer<AudioTimeStamp>?, _ inOutputBusNumber: UInt32,
                            _ inNumberFrames: UInt32, _ ioData: UnsafeMutablePointer<AudioBufferList>?) -> OSStatus {
    osStatus { () throws(UnitStatus) in
        guard let inTimeStamp, let ioData else { throw .parameter }
        let unit = try AudioUnitTable.unit(inUnit)
        try unit.render(flags: ioActionFlags, timeStamp: inTimeStamp, bus: inOutputBusNumber, frames: Int(inNumberFrames), into: ioData)
    }
}

@c @implementation
public func AudioUnitReset(_ inUnit: AudioUnit?, _ inScope: AudioUnitScope, _ inElement: AudioUnitElement) -> OSStatus {
    osStatus { () throws(UnitStatus) in
        let unit = try AudioUnitTable.unit(inUnit)
        try withUnit(inUnit) { _ in }
        unit.resetRender()
    }
}

// MARK: Output units

@c @implementation
public func AudioOutputUnitStart(_ ci: AudioUnit?) -> OSStatus {
    osStatus { () throws(UnitStatus) in
        let unit = try AudioUnitTable.unit(ci)
        guard unit.isOutputUnit else { throw .invalidProperty }
        if unit.isDeviceIO {
            try unit.startOnDevice()
            return
        }
        // A generic output runs as its caller pulls it.
        let told = try withUnit(ci) { unit throws(UnitStatus) -> [UnitCallback<AudioUnitPropertyListenerProc>] in
            guard unit.initialized else { throw .uninitialized }
            guard !unit.isRunning else { return [] }
            unit.isRunning = true
            return unit.listeners(for: kAudioOutputUnitProperty_IsRunning)
        }
        unit.announce(told, kAudioOutputUnitProperty_IsRunning, kAudioUnitScope_Global, 0)
    }
}

@c @implementation
public func AudioOutputUnitStop(_ ci: AudioUnit?) -> OSStatus {
    osStatus { () throws(UnitStatus) in
        let unit = try AudioUnitTable.unit(ci)
        guard unit.isOutputUnit else { throw .invalidProperty }
        try withUnit(ci) { _ in }
        unit.stopOnDevice()
    }
}
