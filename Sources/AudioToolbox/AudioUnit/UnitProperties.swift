#if canImport(Glibc)
import Glibc
#endif

// A unit's properties (AudioUnitGetPropertyInfo, GetProperty, SetProperty) and parameters
// (AudioUnitGetParameter, SetParameter, ScheduleParameters). A property a unit does not have is
// kAudioUnitErr_InvalidProperty, a scope it lacks kAudioUnitErr_InvalidScope, an element past
// its count kAudioUnitErr_InvalidElement, a value of the wrong size or out of range
// kAudioUnitErr_InvalidPropertyValue: never a stop.

/// A property's value as bytes.
private func bytes<T>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value) { Array($0) } }

extension AudioUnitObject {
    /// The value of property `id` in `scope`, `element` (the lock is held). Not inlined: three C
    /// functions share one copy.
    @inline(never)
    func property(_ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement) throws(UnitStatus) -> [UInt8] {
        switch id {
        case kAudioUnitProperty_StreamFormat:
            return try bytes(modify(scope, element) { $0.format.description })
        case kAudioUnitProperty_SampleRate:
            return try bytes(modify(scope, element) { $0.format.rate })
        case kAudioUnitProperty_SetRenderCallback:
            guard scope == kAudioUnitScope_Input else { throw .invalidScope }
            let callback = try modify(scope, element) { $0.callback }
            return bytes(AURenderCallbackStruct(inputProc: callback?.function, inputProcRefCon: callback?.context))
        case kAudioUnitProperty_MakeConnection:
            guard scope == kAudioUnitScope_Input else { throw .invalidScope }
            return try bytes(modify(scope, element) {
                $0.connection ?? AudioUnitConnection(sourceAudioUnit: nil, sourceOutputNumber: 0, destInputNumber: element)
            })
        case kAudioUnitProperty_ElementCount:
            switch scope {
            case kAudioUnitScope_Global: return bytes(UInt32(1))
            case kAudioUnitScope_Input: return bytes(UInt32(inputs.count))
            case kAudioUnitScope_Output: return bytes(UInt32(outputs.count))
            default: throw .invalidScope
            }
        case kAudioUnitProperty_MaximumFramesPerSlice:
            return bytes(maximumFramesPerSlice)
        case kAudioUnitProperty_Latency, kAudioUnitProperty_TailTime:
            return bytes(Float64(0))
        case kAudioUnitProperty_LastRenderError:
            return bytes(lastRenderError)
        case kAudioUnitProperty_CPULoad:
            return bytes(Float32(0))
        case kAudioUnitProperty_RenderQuality:
            return bytes(renderQuality)
        case kAudioUnitProperty_ShouldAllocateBuffer:
            return try bytes(UInt32(modify(scope, element) { $0.shouldAllocate } ? 1 : 0))
        case kAudioUnitProperty_ParameterList:
            return parameterList(scope).flatMap { bytes($0) }
        case kAudioUnitProperty_MeteringMode where component.kind == .multiChannelMixer:
            return try bytes(UInt32(modify(scope, element) { $0.metering } ? 1 : 0))
        case kAudioOutputUnitProperty_IsRunning where isOutputUnit:
            return bytes(UInt32(isRunning ? 1 : 0))
        case kAudioOutputUnitProperty_StartTimestampsAtZero where isOutputUnit:
            return bytes(UInt32(startTimestampsAtZero ? 1 : 0))
        case kAudioOutputUnitProperty_HasIO where isDeviceIO:
            guard scope == kAudioUnitScope_Input || scope == kAudioUnitScope_Output else { throw .invalidScope }
            guard element <= 1 else { throw .invalidElement }
            return bytes(UInt32(Int(element) < inputs.count ? 1 : 0))
        case kAudioOutputUnitProperty_EnableIO where isDeviceIO:
            try checkEnableIO(scope, element)
            return bytes(UInt32((element == 1 ? inputEnabled : outputEnabled) ? 1 : 0))
        case kAudioOutputUnitProperty_SetInputCallback where isDeviceIO:
            return bytes(AURenderCallbackStruct(inputProc: inputCallback?.function, inputProcRefCon: inputCallback?.context))
        case kAudioOutputUnitProperty_CurrentDevice where isDeviceIO:
            return bytes(UInt32(1))
        default:
            throw .invalidProperty
        }
    }

    /// Whether property `id` may be set (the lock is held; `property` has said it exists).
    func isWritable(_ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement) -> Bool {
        switch id {
        case kAudioUnitProperty_StreamFormat, kAudioUnitProperty_SampleRate:
            // A device unit's hardware sides are the device's.
            return !(isDeviceIO && ((scope == kAudioUnitScope_Output && element == 0) || (scope == kAudioUnitScope_Input && element == 1)))
        case kAudioUnitProperty_ElementCount:
            return component.kind == .multiChannelMixer && scope == kAudioUnitScope_Input
        case kAudioUnitProperty_Latency, kAudioUnitProperty_TailTime, kAudioUnitProperty_LastRenderError,
             kAudioUnitProperty_CPULoad, kAudioUnitProperty_ParameterList, kAudioOutputUnitProperty_IsRunning,
             kAudioOutputUnitProperty_HasIO:
            return false
        default:
            return true
        }
    }

    /// Sets property `id` from `data` (the lock is held); returns the listeners to tell.
    @inline(never)
    func setProperty(_ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
                     _ data: UnsafeRawBufferPointer) throws(UnitStatus) -> [UnitCallback<AudioUnitPropertyListenerProc>] {
        let current = try property(id, scope, element)
        guard isWritable(id, scope, element) else { throw .propertyNotWritable }
        guard data.count == current.count || (id == kAudioUnitProperty_ParameterList) else { throw .invalidPropertyValue }
        func value<T>(_ type: T.Type) -> T { data.loadUnaligned(as: T.self) }
        switch id {
        case kAudioUnitProperty_StreamFormat:
            let format = try UnitFormat(value(AudioStreamBasicDescription.self))
            try modify(scope, element) { $0.format = format }
            if scope == kAudioUnitScope_Input, Int(element) < adapters.count { adapters[Int(element)].reset() }
        case kAudioUnitProperty_SampleRate:
            let rate = value(Float64.self)
            try modify(scope, element) { (element: inout UnitElement) throws(UnitStatus) in
                var description = element.format.description
                description.mSampleRate = rate
                element.format = try UnitFormat(description)
            }
        case kAudioUnitProperty_SetRenderCallback:
            let callback = value(AURenderCallbackStruct.self)
            try modify(scope, element) {
                $0.callback = callback.inputProc.map { UnitCallback(function: $0, context: callback.inputProcRefCon) }
                if $0.callback != nil { $0.connection = nil }
            }
        case kAudioUnitProperty_MakeConnection:
            // The source was checked before this unit's lock was taken (checkConnection).
            let connection = value(AudioUnitConnection.self)
            try modify(scope, element) {
                $0.connection = connection.sourceAudioUnit == nil ? nil : connection
                if $0.connection != nil { $0.callback = nil }
            }
        case kAudioUnitProperty_ElementCount:
            let count = Int(value(UInt32.self))
            guard (1...1_024).contains(count) else { throw .invalidPropertyValue }
            guard !initialized else { throw .initialized }
            if count < inputs.count {
                inputs.removeLast(inputs.count - count)
            } else {
                inputs += Array(repeating: UnitElement(format: inputs[0].format), count: count - inputs.count)
            }
        case kAudioUnitProperty_MaximumFramesPerSlice:
            let frames = value(UInt32.self)
            guard (1...16_384).contains(frames) else { throw .invalidPropertyValue }
            guard !initialized else { throw .initialized }
            maximumFramesPerSlice = frames
        case kAudioUnitProperty_RenderQuality:
            renderQuality = min(127, value(UInt32.self))
        case kAudioUnitProperty_ShouldAllocateBuffer:
            let on = value(UInt32.self) != 0
            try modify(scope, element) { $0.shouldAllocate = on }
        case kAudioUnitProperty_MeteringMode:
            let on = value(UInt32.self) != 0
            try modify(scope, element) { $0.metering = on }
        case kAudioOutputUnitProperty_StartTimestampsAtZero:
            startTimestampsAtZero = value(UInt32.self) != 0
        case kAudioOutputUnitProperty_EnableIO:
            guard !initialized else { throw .initialized }
            let on = value(UInt32.self) != 0
            if element == 1 { inputEnabled = on } else { outputEnabled = on }
        case kAudioOutputUnitProperty_SetInputCallback:
            let callback = value(AURenderCallbackStruct.self)
            inputCallback = callback.inputProc.map { UnitCallback(function: $0, context: callback.inputProcRefCon) }
        case kAudioOutputUnitProperty_CurrentDevice:
            break   // one device here: the app's (docs/audiotoolbox.md)
        default:
            throw .invalidProperty
        }
        return listeners(for: id)
    }

    /// Whether `connection` may feed this unit (no lock held: each unit's lock is taken alone, so
    /// two threads connecting two units to each other cannot wait on each other): the source is a
    /// live unit other than this one, has that output, and does not take this unit's output
    /// upstream (a cycle would render forever). `kAudioUnitErr_InvalidPropertyValue` if not.
    func checkConnection(_ connection: AudioUnitConnection) throws(UnitStatus) {
        guard let source = connection.sourceAudioUnit else { return }
        guard source != handle, let unit = AudioUnitTable.table.object(source) else { throw .invalidPropertyValue }
        guard Int(connection.sourceOutputNumber) < unit.lock.withLock({ unit.outputs.count }) else { throw .invalidPropertyValue }
        var seen: Set<UInt> = [], pending = [source]
        while let next = pending.popLast() {
            guard next != handle else { throw .invalidPropertyValue }
            guard seen.insert(UInt(bitPattern: next)).inserted, let upstream = AudioUnitTable.table.object(next) else { continue }
            pending += upstream.lock.withLock { upstream.inputs.compactMap { $0.connection?.sourceAudioUnit } }
        }
    }

    /// EnableIO's places: input on input scope element 1, output on output scope element 0.
    private func checkEnableIO(_ scope: AudioUnitScope, _ element: AudioUnitElement) throws(UnitStatus) {
        guard scope == kAudioUnitScope_Input || scope == kAudioUnitScope_Output else { throw .invalidScope }
        guard element == 0 || (element == 1 && inputs.count > 1) else { throw .invalidElement }
    }

    // MARK: Parameters

    /// The parameters of `scope`.
    func parameterList(_ scope: AudioUnitScope) -> [AudioUnitParameterID] {
        guard component.kind == .multiChannelMixer else { return [] }
        switch scope {
        case kAudioUnitScope_Input: return [kMultiChannelMixerParam_Volume, kMultiChannelMixerParam_Enable, kMultiChannelMixerParam_Pan]
        case kAudioUnitScope_Output: return [kMultiChannelMixerParam_Volume]
        default: return []
        }
    }

    /// The meters' parameters, read only (dB).
    private static let meterParameters: Set<AudioUnitParameterID> = [
        kMultiChannelMixerParam_PreAveragePower, kMultiChannelMixerParam_PrePeakHoldLevel,
        kMultiChannelMixerParam_PostAveragePower, kMultiChannelMixerParam_PostPeakHoldLevel,
    ]

    /// Checks that `id` is a parameter of `scope`, `element` (the lock is held).
    private func checkParameter(_ id: AudioUnitParameterID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
                                reading: Bool) throws(UnitStatus) {
        guard component.kind == .multiChannelMixer else { throw .invalidParameter }
        guard scope == kAudioUnitScope_Input || scope == kAudioUnitScope_Output else { throw .invalidScope }
        _ = try modify(scope, element) { _ in }
        guard parameterList(scope).contains(id) || (reading && Self.meterParameters.contains(id)) else { throw .invalidParameter }
    }

    /// AudioUnitGetParameter (the lock is held).
    func parameter(_ id: AudioUnitParameterID, _ scope: AudioUnitScope, _ element: AudioUnitElement) throws(UnitStatus) -> Float {
        try checkParameter(id, scope, element, reading: true)
        if Self.meterParameters.contains(id) { return try meterReading(id, scope, element) }
        let stored = try modify(scope, element) { $0.parameters[id] }
        return stored ?? (id == kMultiChannelMixerParam_Pan ? 0 : 1)
    }

    /// AudioUnitSetParameter (the lock is held).
    func setParameter(_ id: AudioUnitParameterID, _ scope: AudioUnitScope, _ element: AudioUnitElement, _ value: Float) throws(UnitStatus) {
        try checkParameter(id, scope, element, reading: false)
        guard value.isFinite else { throw .invalidParameterValue }
        let kept: Float
        switch id {
        case kMultiChannelMixerParam_Pan: kept = max(-1, min(1, value))
        case kMultiChannelMixerParam_Enable: kept = value != 0 ? 1 : 0
        default: kept = max(0, value)
        }
        try modify(scope, element) { $0.parameters[id] = kept }
    }

    /// A meter's reading in dB (−120 for silence; the lock is held, the levels are the render's).
    private func meterReading(_ id: AudioUnitParameterID, _ scope: AudioUnitScope, _ element: AudioUnitElement) throws(UnitStatus) -> Float {
        guard try modify(scope, element, { $0.metering }) else { return -120 }
        let levels: (average: Float, peak: Float) = scope == kAudioUnitScope_Output ? publishedMeters.output
            : (Int(element) < publishedMeters.inputs.count ? publishedMeters.inputs[Int(element)] : (0, 0))
        // Inputs are metered before their volume; the output after its own.
        let volume = try modify(scope, element) { $0.parameters[kMultiChannelMixerParam_Volume] } ?? 1
        let post = id == kMultiChannelMixerParam_PostAveragePower || id == kMultiChannelMixerParam_PostPeakHoldLevel
        let gain: Float = scope == kAudioUnitScope_Input ? (post ? volume : 1) : (post ? 1 : (volume > 0 ? 1 / volume : 0))
        let linear = (id == kMultiChannelMixerParam_PreAveragePower || id == kMultiChannelMixerParam_PostAveragePower
                      ? levels.average : levels.peak) * gain
        return linear > 1e-6 ? max(-120, 20 * log10f(linear)) : -120
    }
}
