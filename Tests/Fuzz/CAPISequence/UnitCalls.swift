import AudioToolbox
import FuzzSupport
import Synchronization

// Audio Units and AUGraph in the C API program (issue 48): units found by any description (and
// forged component handles), properties of any ID, scope, element and size with the input's
// bytes, parameters with NaN and infinities, renders of any frame count into buffer lists that
// fit or lie (NULL data, too few buffers, sizes too small), render callbacks that fail, make
// NaN or dispose of their own unit, render notifications, output units started (on the app's
// default output: none in scripts/fuzz.sh, so a device unit's start fails with a code), and
// graphs whose nodes, connections and callbacks are added, removed, updated and started in any
// order. On this thread only; every unit and graph is disposed at the end, then must be stale.

/// Every code Audio Unit Services and AUGraph may answer (beside `appleCodes`).
let unitCodes: Set<OSStatus> = [
    kAudioUnitErr_InvalidProperty, kAudioUnitErr_InvalidParameter, kAudioUnitErr_InvalidElement, kAudioUnitErr_NoConnection,
    kAudioUnitErr_FailedInitialization, kAudioUnitErr_TooManyFramesToProcess, kAudioUnitErr_FormatNotSupported,
    kAudioUnitErr_Uninitialized, kAudioUnitErr_InvalidScope, kAudioUnitErr_PropertyNotWritable, kAudioUnitErr_InvalidPropertyValue,
    kAudioUnitErr_Initialized, kAudioUnitErr_InvalidParameterValue, kAUGraphErr_NodeNotFound, kAUGraphErr_InvalidConnection,
    kAUGraphErr_OutputNodeErr, kAUGraphErr_InvalidAudioUnit, UnitClient.failure,
]

/// What a unit's render callback does, steered by the input when it is set.
final class UnitClient: Sendable {
    /// The code a failing callback returns.
    static let failure: OSStatus = -4242
    /// 0: a ramp; 1: fail; 2: NaN and infinities; 3: dispose of the unit (the first time); 4: change the list's sizes.
    let action: UInt8
    /// The unit, for the callback that disposes of it (its bits; 0: none).
    let unit = Atomic<UInt>(0)
    let disposed = Atomic<Bool>(false)

    init(action: UInt8) { self.action = action }

    func render(_ frames: UInt32, _ ioData: UnsafeMutablePointer<AudioBufferList>?) -> OSStatus {
        guard let ioData else { return noErr }
        let buffers = UnsafeMutableAudioBufferListPointer(ioData)
        switch action {
        case 1: return Self.failure
        case 3:
            let bits = unit.exchange(0, ordering: .relaxed)
            if bits != 0, AudioComponentInstanceDispose(OpaquePointer(bitPattern: bits)) == noErr { disposed.store(true, ordering: .relaxed) }
            return noErr
        case 4:
            for index in 0..<buffers.count { buffers[index].mDataByteSize /= 2 }
            return noErr
        default: break
        }
        for buffer in buffers {
            guard let data = buffer.mData else { continue }
            let bytes = Int(buffer.mDataByteSize)
            let raw = UnsafeMutableRawBufferPointer(start: data, count: bytes)
            for offset in stride(from: 0, to: bytes - 3, by: 4) {
                let value: Float = action == 2 ? [Float.nan, .infinity, -.infinity, 1e30][offset / 4 % 4] : Float(offset % 64) / 64
                raw.storeBytes(of: value, toByteOffset: offset, as: Float.self)
            }
        }
        return noErr
    }
}

/// The render callback every fuzzed unit gets.
private let unitRender: AURenderCallback = { refCon, _, _, _, frames, ioData in
    Unmanaged<UnitClient>.fromOpaque(refCon).takeUnretainedValue().render(frames, ioData)
}

/// A render notification that does nothing but be called.
private let unitNotify: AURenderCallback = { _, _, _, _, _, _ in noErr }

/// The units and graphs the program holds, and those it disposed of.
final class UnitState {
    var units: [UInt] = []
    var graphs: [UInt] = []
    var nodes: [AUNode] = []
    var dead: [UInt] = []
    var deadGraphs: [UInt] = []
    var clients: [UnitClient] = []
}

extension Program {
    static let unitProperties: [AudioUnitPropertyID] = [
        kAudioUnitProperty_StreamFormat, kAudioUnitProperty_SampleRate, kAudioUnitProperty_SetRenderCallback,
        kAudioUnitProperty_MakeConnection, kAudioUnitProperty_ElementCount, kAudioUnitProperty_MaximumFramesPerSlice,
        kAudioUnitProperty_Latency, kAudioUnitProperty_TailTime, kAudioUnitProperty_LastRenderError, kAudioUnitProperty_CPULoad,
        kAudioUnitProperty_RenderQuality, kAudioUnitProperty_ShouldAllocateBuffer, kAudioUnitProperty_ParameterList,
        kAudioUnitProperty_MeteringMode, kAudioOutputUnitProperty_EnableIO, kAudioOutputUnitProperty_SetInputCallback,
        kAudioOutputUnitProperty_HasIO, kAudioOutputUnitProperty_IsRunning, kAudioOutputUnitProperty_StartTimestampsAtZero,
        kAudioOutputUnitProperty_CurrentDevice, 0x7878_7878,
    ]
    static let unitSubtypes: [(OSType, OSType)] = [
        (kAudioUnitType_Output, kAudioUnitSubType_GenericOutput), (kAudioUnitType_Output, kAudioUnitSubType_RemoteIO),
        (kAudioUnitType_Output, kAudioUnitSubType_DefaultOutput), (kAudioUnitType_Mixer, kAudioUnitSubType_MultiChannelMixer),
        (kAudioUnitType_FormatConverter, kAudioUnitSubType_AUConverter), (kAudioUnitType_Effect, kAudioUnitSubType_Reverb2),
        (0, 0), (0x1234_5678, 0),
    ]

    func unitCheck(_ status: OSStatus, _ what: String) {
        appleTrace("\(what) -> \(status) '\(fourCC(status))'")
        Fuzzing.require(status == noErr || appleCodes.contains(status) || unitCodes.contains(status),
                        "\(what) returned \(status) '\(fourCC(status))', not a code of the headers")
    }

    /// A unit argument: a live one, a disposed one, a forged one, or NULL.
    func pickUnit() -> AudioUnit? {
        switch input.byte() % 8 {
        case 0: return nil
        case 1 where !units.dead.isEmpty: return OpaquePointer(bitPattern: units.dead[Int(input.byte()) % units.dead.count])
        case 2: return OpaquePointer(bitPattern: UInt(7) << 48 | UInt(input.byte()) << 16 | 1)
        default:
            return units.units.isEmpty ? nil : OpaquePointer(bitPattern: units.units[Int(input.byte()) % units.units.count])
        }
    }

    func pickGraph() -> AUGraph? {
        switch input.byte() % 8 {
        case 0: return nil
        case 1 where !units.deadGraphs.isEmpty: return OpaquePointer(bitPattern: units.deadGraphs[Int(input.byte()) % units.deadGraphs.count])
        default:
            return units.graphs.isEmpty ? nil : OpaquePointer(bitPattern: units.graphs[Int(input.byte()) % units.graphs.count])
        }
    }

    func unitStep() {
        switch input.byte() % 12 {
        case 0: newUnit()
        case 1, 2: setUnitProperty()
        case 3: getUnitProperty()
        case 4: unitParameter()
        case 5, 6: renderUnit()
        case 7: unitTransport()
        case 8: disposeUnit()
        case 9, 10: graphStep()
        default: disposeGraph()
        }
    }

    func newUnit() {
        guard units.units.count < 8 else { return }
        let (type, subType) = input.choice(Self.unitSubtypes)
        var description = AudioComponentDescription(componentType: type, componentSubType: subType,
                                                    componentManufacturer: input.byte() % 8 == 0 ? 0x6661_6B65 : kAudioUnitManufacturer_Apple,
                                                    componentFlags: input.u32(), componentFlagsMask: input.byte() % 4 == 0 ? input.u32() : 0)
        let component = input.byte() % 16 == 0 ? OpaquePointer(bitPattern: UInt(9) << 48 | UInt(input.byte()))
                                                : AudioComponentFindNext(nil, &description)
        var made: AudioUnit?
        let status = input.byte() % 16 == 0 ? AudioComponentInstanceNew(component, nil) : AudioComponentInstanceNew(component, &made)
        unitCheck(status, "AudioComponentInstanceNew")
        guard status == noErr, let made else { return }
        units.units.append(UInt(bitPattern: made))
        let client = UnitClient(action: input.byte() % 5)
        client.unit.store(UInt(bitPattern: made), ordering: .relaxed)
        units.clients.append(client)
        var callback = AURenderCallbackStruct(inputProc: unitRender, inputProcRefCon: Unmanaged.passUnretained(client).toOpaque())
        unitCheck(AudioUnitSetProperty(made, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, UInt32(input.byte() % 3),
                                       &callback, UInt32(MemoryLayout<AURenderCallbackStruct>.size)), "SetRenderCallback")
        if input.byte() % 4 == 0 { unitCheck(AudioUnitAddRenderNotify(made, unitNotify, nil), "AudioUnitAddRenderNotify") }
    }

    func setUnitProperty() {
        let unit = pickUnit()
        let id = input.choice(Self.unitProperties)
        let scope = AudioUnitScope(input.byte() % 5)
        let element = AudioUnitElement(input.byte() % 4 == 0 ? input.u32() : UInt32(input.byte() % 3))
        var bytes: [UInt8]
        switch input.byte() % 4 {
        case 0:
            var (format, _) = asbd()
            bytes = withUnsafeBytes(of: &format) { Array($0) }
        case 1:
            // A connection to another unit (or itself, or a stale one).
            var connection = AudioUnitConnection(sourceAudioUnit: pickUnit(), sourceOutputNumber: UInt32(input.byte() % 3), destInputNumber: element)
            bytes = withUnsafeBytes(of: &connection) { Array($0) }
        default:
            bytes = input.bytes(Int(input.byte() % 48))
        }
        // A callback struct from the input's bytes would call an arbitrary address: the library
        // takes what C gives it, so the program gives it only real callbacks or NULL.
        if id == kAudioUnitProperty_SetRenderCallback || id == kAudioOutputUnitProperty_SetInputCallback {
            bytes = [UInt8](repeating: 0, count: MemoryLayout<AURenderCallbackStruct>.size)
        }
        let size = input.byte() % 8 == 0 ? UInt32(input.byte()) : UInt32(bytes.count)
        let status = bytes.withUnsafeBytes { raw in
            AudioUnitSetProperty(unit, id, scope, element, input.byte() % 16 == 0 ? nil : raw.baseAddress, min(size, UInt32(raw.count)))
        }
        unitCheck(status, "AudioUnitSetProperty(\(id))")
    }

    func getUnitProperty() {
        let unit = pickUnit()
        let id = input.choice(Self.unitProperties)
        var value = [UInt8](repeating: 0, count: 64)
        var size = UInt32(input.byte() % 65)
        var writable = false
        unitCheck(AudioUnitGetPropertyInfo(unit, id, AudioUnitScope(input.byte() % 5), UInt32(input.byte() % 3), &size, &writable), "GetPropertyInfo")
        size = UInt32(input.byte() % 65)
        let status = value.withUnsafeMutableBytes { AudioUnitGetProperty(unit, id, AudioUnitScope(input.byte() % 5), UInt32(input.byte() % 3), $0.baseAddress, &size) }
        Fuzzing.require(size <= 64, "AudioUnitGetProperty wrote \(size) bytes into 64")
        unitCheck(status, "AudioUnitGetProperty(\(id))")
    }

    func unitParameter() {
        let unit = pickUnit()
        let id = AudioUnitParameterID(input.choice([0, 1, 2, 1000, 2000, 3000, 4000, 99]))
        let scope = AudioUnitScope(input.byte() % 4)
        let element = AudioUnitElement(input.byte() % 10)
        if input.byte() % 2 == 0 {
            let value = input.choice([Float(0.5), 0, -1, 2, .nan, .infinity, -.infinity, 1e30])
            unitCheck(AudioUnitSetParameter(unit, id, scope, element, value, input.u32()), "AudioUnitSetParameter")
        } else {
            var value: Float = 0
            let status = AudioUnitGetParameter(unit, id, scope, element, &value)
            Fuzzing.require(status != noErr || value.isFinite, "AudioUnitGetParameter gave \(value)")
            unitCheck(status, "AudioUnitGetParameter")
        }
    }

    func renderUnit() {
        let unit = pickUnit()
        if input.byte() % 3 == 0 { unitCheck(AudioUnitInitialize(unit), "AudioUnitInitialize") }
        let frames = input.byte() % 8 == 0 ? input.u32() % 20_000 : UInt32(input.byte()) * 4
        let count = Int(input.byte() % 4)
        let room = Int(frames) * 8 + 64
        let buffers = Buffers(count: max(count, 1), room: room, channels: 1) { _ in }
        buffers.list.unsafeMutablePointer.pointee.mNumberBuffers = UInt32(count)
        for index in 0..<count {
            switch input.byte() % 6 {
            case 0: buffers.list[index].mData = nil
            case 1: buffers.list[index].mDataByteSize = UInt32(input.byte())
            default: break
            }
        }
        var flags = AudioUnitRenderActionFlags()
        var stamp = AudioTimeStamp()
        let noStamp = input.byte() % 16 == 0
        let bus = UInt32(input.byte() % 3)
        let list = input.byte() % 16 == 0 ? nil : buffers.pointer
        let status = noStamp ? AudioUnitRender(unit, &flags, nil, bus, frames, list) : AudioUnitRender(unit, &flags, &stamp, bus, frames, list)
        unitCheck(status, "AudioUnitRender(\(frames) frames, \(count) buffers)")
        noteDisposedInCallbacks()
        if status == noErr {
            // A render leaves each buffer's size within what it was given (or the unit's own).
            for index in 0..<count { Fuzzing.require(Int(buffers.list[index].mDataByteSize) <= max(room, Int(frames) * 8 * 32), "a render grew a buffer") }
        }
    }

    func unitTransport() {
        let unit = pickUnit()
        switch input.byte() % 5 {
        case 0: unitCheck(AudioOutputUnitStart(unit), "AudioOutputUnitStart")
        case 1: unitCheck(AudioOutputUnitStop(unit), "AudioOutputUnitStop")
        case 2: unitCheck(AudioUnitUninitialize(unit), "AudioUnitUninitialize")
        case 3: unitCheck(AudioUnitReset(unit, AudioUnitScope(input.byte() % 3), 0), "AudioUnitReset")
        default:
            var events = [AudioUnitParameterEvent](repeating: AudioUnitParameterEvent(), count: 2)
            for index in events.indices {
                events[index].scope = AudioUnitScope(input.byte() % 3)
                events[index].parameter = AudioUnitParameterID(input.byte() % 3)
                events[index].eventType = AUParameterEventType(rawValue: UInt32(input.byte() % 4))!
                events[index].eventValues.ramp.endValue = input.choice([Float(0.25), .nan, .infinity])
            }
            unitCheck(AudioUnitScheduleParameters(unit, &events, UInt32(input.byte() % 3)), "AudioUnitScheduleParameters")
        }
    }

    func disposeUnit() {
        let unit = pickUnit()
        let status = AudioComponentInstanceDispose(unit)
        unitCheck(status, "AudioComponentInstanceDispose")
        if status == noErr, let unit { noteUnitGone(UInt(bitPattern: unit)) }
    }

    /// A unit is gone: the program's list follows.
    func noteUnitGone(_ bits: UInt) {
        units.units.removeAll { $0 == bits }
        units.dead.append(bits)
        if units.dead.count > 32 { units.dead.removeFirst() }
    }

    /// Units whose callback disposed of them during a render.
    func noteDisposedInCallbacks() {
        for client in units.clients where client.disposed.exchange(false, ordering: .relaxed) {
            let stale = units.units.filter { AudioUnitInitialize(OpaquePointer(bitPattern: $0)) == kAudio_ParamError }
            for bits in stale { noteUnitGone(bits) }
            _ = client
        }
    }

    func graphStep() {
        let graph = pickGraph()
        switch input.byte() % 10 {
        case 0:
            guard units.graphs.count < 4 else { return }
            var made: AUGraph?
            unitCheck(NewAUGraph(&made), "NewAUGraph")
            if let made { units.graphs.append(UInt(bitPattern: made)) }
        case 1:
            let (type, subType) = input.choice(Self.unitSubtypes)
            var description = AudioComponentDescription(componentType: type, componentSubType: subType,
                                                        componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
            var node = AUNode()
            let status = AUGraphAddNode(graph, &description, &node)
            unitCheck(status, "AUGraphAddNode")
            if status == noErr { units.nodes.append(node) }
        case 2:
            let node = units.nodes.isEmpty ? AUNode(input.byte()) : input.choice(units.nodes)
            unitCheck(AUGraphRemoveNode(graph, node), "AUGraphRemoveNode")
        case 3:
            let a = units.nodes.isEmpty ? 0 : input.choice(units.nodes), b = units.nodes.isEmpty ? 0 : input.choice(units.nodes)
            unitCheck(AUGraphConnectNodeInput(graph, a, UInt32(input.byte() % 2), b, UInt32(input.byte() % 3)), "AUGraphConnectNodeInput")
        case 4:
            let client = UnitClient(action: input.byte() % 3)
            units.clients.append(client)
            var callback = AURenderCallbackStruct(inputProc: unitRender, inputProcRefCon: Unmanaged.passUnretained(client).toOpaque())
            let node = units.nodes.isEmpty ? 0 : input.choice(units.nodes)
            unitCheck(AUGraphSetNodeInputCallback(graph, node, UInt32(input.byte() % 3), &callback), "AUGraphSetNodeInputCallback")
        case 5:
            let node = units.nodes.isEmpty ? 0 : input.choice(units.nodes)
            unitCheck(AUGraphDisconnectNodeInput(graph, node, UInt32(input.byte() % 3)), "AUGraphDisconnectNodeInput")
        case 6:
            let calls: [(AUGraph?) -> OSStatus] = [AUGraphOpen, AUGraphInitialize, AUGraphStart, AUGraphStop, AUGraphUninitialize,
                                                    AUGraphClose, AUGraphClearConnections]
            unitCheck(input.choice(calls)(graph), "AUGraph transport")
        case 7:
            var updated = false
            unitCheck(AUGraphUpdate(graph, &updated), "AUGraphUpdate")
        case 8:
            var load: Float32 = 0
            var running = false
            unitCheck(AUGraphGetCPULoad(graph, &load), "AUGraphGetCPULoad")
            Fuzzing.require(load.isFinite && load >= 0 && load <= 1, "AUGraphGetCPULoad gave \(load)")
            unitCheck(AUGraphIsRunning(graph, &running), "AUGraphIsRunning")
        default:
            let node = units.nodes.isEmpty ? AUNode(input.byte()) : input.choice(units.nodes)
            var unit: AudioUnit?
            var description = AudioComponentDescription()
            let status = AUGraphNodeInfo(graph, node, &description, &unit)
            unitCheck(status, "AUGraphNodeInfo")
            // A node's unit is the graph's: the program renders it but never disposes of it.
            if status == noErr, let unit, input.byte() % 2 == 0 {
                var flags = AudioUnitRenderActionFlags()
                var stamp = AudioTimeStamp()
                let buffers = Buffers(count: 2, room: 4_096, channels: 1) { _ in }
                unitCheck(AudioUnitRender(unit, &flags, &stamp, 0, 256, buffers.pointer), "AudioUnitRender(a node's unit)")
            }
        }
    }

    func disposeGraph() {
        let graph = pickGraph()
        let status = DisposeAUGraph(graph)
        unitCheck(status, "DisposeAUGraph")
        if status == noErr, let graph {
            units.graphs.removeAll { $0 == UInt(bitPattern: graph) }
            units.deadGraphs.append(UInt(bitPattern: graph))
        }
    }

    /// Disposes of every unit and graph left; each is then stale.
    func finishUnits() {
        noteDisposedInCallbacks()
        for bits in units.graphs {
            Fuzzing.require(DisposeAUGraph(OpaquePointer(bitPattern: bits)) == noErr, "the final DisposeAUGraph failed")
            units.deadGraphs.append(bits)
        }
        for bits in units.units {
            let status = AudioComponentInstanceDispose(OpaquePointer(bitPattern: bits))
            Fuzzing.require(status == noErr, "the final AudioComponentInstanceDispose gave \(status)")
            units.dead.append(bits)
        }
        for bits in units.dead {
            Fuzzing.require(AudioUnitInitialize(OpaquePointer(bitPattern: bits)) == kAudio_ParamError, "a disposed unit is still live")
        }
        for bits in units.deadGraphs {
            Fuzzing.require(AUGraphOpen(OpaquePointer(bitPattern: bits)) == kAudio_ParamError, "a disposed graph is still live")
        }
        units.units = []
        units.graphs = []
        units.nodes = []
        units.dead = []
        units.deadGraphs = []
        units.clients = []
    }
}
