import AudioToolbox
import Foundation
import Testing

/// Audio Units and AUGraph as iOS Swift code drives them, pulled offline through the generic
/// output (Apple's offline-render pattern): render callbacks, a multichannel mixer's volume, pan,
/// enable and meters, a converter's rate change, render notifications, and the graph's
/// connections — sample-exact where the result is exact.
@Suite struct AudioUnitOfflineTests {
    /// What a test's render callback makes: a constant per channel, or a sine.
    final class Generator {
        var value: Float
        var frequency: Double = 0
        var rate: Double = 44_100
        var phase: Double = 0
        var calls = 0
        var frames = 0
        var status: OSStatus = noErr
        init(value: Float) { self.value = value }
    }

    /// Fills every buffer of `ioData` (Float32) with the generator's samples.
    static let render: AURenderCallback = { refCon, _, _, _, frames, ioData in
        let generator = Unmanaged<Generator>.fromOpaque(refCon).takeUnretainedValue()
        generator.calls += 1
        generator.frames += Int(frames)
        guard generator.status == noErr else { return generator.status }
        let buffers = UnsafeMutableAudioBufferListPointer(ioData!)
        let start = generator.phase
        for buffer in buffers {
            let samples = buffer.mData!.assumingMemoryBound(to: Float.self)
            let channels = Int(buffer.mNumberChannels)
            for frame in 0..<Int(frames) {
                let value = generator.frequency > 0
                    ? Float(sin(2 * Double.pi * generator.frequency * (start + Double(frame)) / generator.rate)) : generator.value
                for channel in 0..<channels { samples[frame * channels + channel] = value }
            }
        }
        generator.phase += Double(frames)
        return noErr
    }

    static func description(_ type: OSType, _ subType: OSType) -> AudioComponentDescription {
        AudioComponentDescription(componentType: type, componentSubType: subType,
                                  componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
    }

    static func newUnit(_ type: OSType, _ subType: OSType) throws -> AudioUnit {
        var description = description(type, subType)
        let component = try #require(AudioComponentFindNext(nil, &description))
        var unit: AudioUnit?
        #expect(AudioComponentInstanceNew(component, &unit) == noErr)
        return try #require(unit)
    }

    static func float(rate: Double, channels: UInt32, interleaved: Bool = false) -> AudioStreamBasicDescription {
        let bytes = interleaved ? 4 * channels : 4
        return AudioStreamBasicDescription(mSampleRate: rate, mFormatID: kAudioFormatLinearPCM,
                                           mFormatFlags: kAudioFormatFlagsNativeFloatPacked | (interleaved ? 0 : kAudioFormatFlagIsNonInterleaved),
                                           mBytesPerPacket: bytes, mFramesPerPacket: 1, mBytesPerFrame: bytes,
                                           mChannelsPerFrame: channels, mBitsPerChannel: 32, mReserved: 0)
    }

    static func setFormat(_ unit: AudioUnit, _ scope: AudioUnitScope, _ element: AudioUnitElement,
                          _ format: AudioStreamBasicDescription) -> OSStatus {
        var format = format
        return AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, scope, element, &format,
                                    UInt32(MemoryLayout<AudioStreamBasicDescription>.size))
    }

    static func setCallback(_ unit: AudioUnit, _ element: AudioUnitElement, _ generator: Generator) -> OSStatus {
        var callback = AURenderCallbackStruct(inputProc: render, inputProcRefCon: Unmanaged.passUnretained(generator).toOpaque())
        return AudioUnitSetProperty(unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, element, &callback,
                                    UInt32(MemoryLayout<AURenderCallbackStruct>.size))
    }

    /// Pulls `frames` frames of stereo non-interleaved Float32 from `unit`: the two channels.
    static func pull(_ unit: AudioUnit, frames: Int, sampleTime: Double = 0) -> (status: OSStatus, left: [Float], right: [Float]) {
        var left = [Float](repeating: .nan, count: frames)
        var right = [Float](repeating: .nan, count: frames)
        let list = AudioBufferList.allocate(maximumBuffers: 2)
        defer { free(list.unsafeMutablePointer) }
        var flags = AudioUnitRenderActionFlags()
        var stamp = AudioTimeStamp()
        stamp.mSampleTime = sampleTime
        stamp.mFlags = .sampleTimeValid
        let status = left.withUnsafeMutableBytes { l in
            right.withUnsafeMutableBytes { r in
                list[0] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(l.count), mData: l.baseAddress)
                list[1] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(r.count), mData: r.baseAddress)
                return AudioUnitRender(unit, &flags, &stamp, 0, UInt32(frames), list.unsafeMutablePointer)
            }
        }
        return (status, left, right)
    }

    @Test func theComponentsAreFoundByDescriptionAndNamed() throws {
        var any = AudioComponentDescription(componentType: kAudioUnitType_Output, componentSubType: 0,
                                            componentManufacturer: 0, componentFlags: 0, componentFlagsMask: 0)
        #expect(AudioComponentCount(&any) == 6)
        var remoteIO = Self.description(kAudioUnitType_Output, kAudioUnitSubType_RemoteIO)
        let component = try #require(AudioComponentFindNext(nil, &remoteIO))
        #expect(AudioComponentFindNext(component, &remoteIO) == nil)
        var found = AudioComponentDescription()
        #expect(AudioComponentGetDescription(component, &found) == noErr)
        #expect(found.componentSubType == kAudioUnitSubType_RemoteIO && found.componentManufacturer == kAudioUnitManufacturer_Apple)
        // A unit Soundstage does not offer is not found (as a missing component on iOS).
        var reverb = Self.description(kAudioUnitType_Effect, kAudioUnitSubType_Reverb2)
        #expect(AudioComponentFindNext(nil, &reverb) == nil)
        #expect(AudioComponentFindNext(nil, nil) == nil)
    }

    @Test func aGenericOutputPullsTheRenderCallbackSampleForSample() throws {
        let unit = try Self.newUnit(kAudioUnitType_Output, kAudioUnitSubType_GenericOutput)
        defer { AudioComponentInstanceDispose(unit) }
        let generator = Generator(value: 0)
        generator.frequency = 1_000
        #expect(Self.setFormat(unit, kAudioUnitScope_Input, 0, Self.float(rate: 44_100, channels: 2, interleaved: true)) == noErr)
        #expect(Self.setFormat(unit, kAudioUnitScope_Output, 0, Self.float(rate: 44_100, channels: 2)) == noErr)
        #expect(Self.setCallback(unit, 0, generator) == noErr)
        // Before AudioUnitInitialize, a render is refused.
        #expect(Self.pull(unit, frames: 512).status == kAudioUnitErr_Uninitialized)
        #expect(AudioUnitInitialize(unit) == noErr)
        var heard: [Float] = []
        for block in 0..<4 {
            let pulled = Self.pull(unit, frames: 512, sampleTime: Double(block * 512))
            #expect(pulled.status == noErr)
            #expect(pulled.left == pulled.right)
            heard += pulled.left
        }
        let expected = (0..<2_048).map { Float(sin(2 * Double.pi * 1_000 * Double($0) / 44_100)) }
        #expect(heard == expected)
        #expect(generator.calls == 4 && generator.frames == 2_048)
        // More frames than MaximumFramesPerSlice: Apple's code.
        #expect(Self.pull(unit, frames: 5_000).status == kAudioUnitErr_TooManyFramesToProcess)
    }

    @Test func aMixerSumsItsInputsAtTheirVolumesAndPans() throws {
        let mixer = try Self.newUnit(kAudioUnitType_Mixer, kAudioUnitSubType_MultiChannelMixer)
        defer { AudioComponentInstanceDispose(mixer) }
        var buses: UInt32 = 3
        #expect(AudioUnitSetProperty(mixer, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0, &buses, 4) == noErr)
        let a = Generator(value: 0.5), b = Generator(value: 0.25), c = Generator(value: 0.125)
        for (bus, generator) in [a, b, c].enumerated() {
            #expect(Self.setFormat(mixer, kAudioUnitScope_Input, UInt32(bus), Self.float(rate: 44_100, channels: bus == 0 ? 1 : 2)) == noErr)
            #expect(Self.setCallback(mixer, UInt32(bus), generator) == noErr)
        }
        #expect(AudioUnitSetParameter(mixer, kMultiChannelMixerParam_Volume, kAudioUnitScope_Input, 1, 0.5, 0) == noErr)
        #expect(AudioUnitSetParameter(mixer, kMultiChannelMixerParam_Pan, kAudioUnitScope_Input, 0, -1, 0) == noErr)
        #expect(AudioUnitSetParameter(mixer, kMultiChannelMixerParam_Enable, kAudioUnitScope_Input, 2, 0, 0) == noErr)
        var metering: UInt32 = 1
        #expect(AudioUnitSetProperty(mixer, kAudioUnitProperty_MeteringMode, kAudioUnitScope_Output, 0, &metering, 4) == noErr)
        #expect(AudioUnitInitialize(mixer) == noErr)
        let pulled = Self.pull(mixer, frames: 256)
        #expect(pulled.status == noErr)
        // Bus 0 (mono 0.5) panned hard left; bus 1 (0.25) at half volume; bus 2 disabled.
        #expect(pulled.left.allSatisfy { $0 == 0.5 + 0.125 })
        #expect(pulled.right.allSatisfy { $0 == 0.125 })
        #expect(c.calls == 0)
        var power: AudioUnitParameterValue = 0
        #expect(AudioUnitGetParameter(mixer, kMultiChannelMixerParam_PostAveragePower, kAudioUnitScope_Output, 0, &power) == noErr)
        let rms = ((0.625 * 0.625 + 0.125 * 0.125) / 2).squareRoot()
        #expect(abs(power - Float(20 * log10(rms))) < 0.01)
        // The mixer's parameters: unknown ones, scopes and elements are Apple's codes.
        var value: AudioUnitParameterValue = 0
        #expect(AudioUnitGetParameter(mixer, 77, kAudioUnitScope_Input, 0, &value) == kAudioUnitErr_InvalidParameter)
        #expect(AudioUnitGetParameter(mixer, kMultiChannelMixerParam_Volume, kAudioUnitScope_Input, 9, &value) == kAudioUnitErr_InvalidElement)
        #expect(AudioUnitGetParameter(mixer, kMultiChannelMixerParam_Volume, kAudioUnitScope_Group, 0, &value) == kAudioUnitErr_InvalidScope)
        #expect(AudioUnitSetParameter(mixer, kMultiChannelMixerParam_Volume, kAudioUnitScope_Input, 0, .nan, 0) == kAudioUnitErr_InvalidParameterValue)
    }

    @Test func aGraphConnectsAMixerToTheGenericOutputAndNotifiesAroundRenders() throws {
        var graph: AUGraph?
        #expect(NewAUGraph(&graph) == noErr)
        defer { DisposeAUGraph(graph) }
        var outputNode = AUNode(), mixerNode = AUNode()
        var output = Self.description(kAudioUnitType_Output, kAudioUnitSubType_GenericOutput)
        var mixerDescription = Self.description(kAudioUnitType_Mixer, kAudioUnitSubType_MultiChannelMixer)
        #expect(AUGraphAddNode(graph, &output, &outputNode) == noErr)
        #expect(AUGraphAddNode(graph, &mixerDescription, &mixerNode) == noErr)
        // A second output node is Apple's error.
        var second = AUNode()
        #expect(AUGraphAddNode(graph, &output, &second) == kAUGraphErr_OutputNodeErr)
        #expect(AUGraphOpen(graph) == noErr)
        var mixer: AudioUnit?, outputUnit: AudioUnit?
        #expect(AUGraphNodeInfo(graph, mixerNode, nil, &mixer) == noErr)
        #expect(AUGraphNodeInfo(graph, outputNode, nil, &outputUnit) == noErr)
        let tone = Generator(value: 0.75)
        var callback = AURenderCallbackStruct(inputProc: Self.render, inputProcRefCon: Unmanaged.passUnretained(tone).toOpaque())
        #expect(AUGraphSetNodeInputCallback(graph, mixerNode, 0, &callback) == noErr)
        #expect(AUGraphConnectNodeInput(graph, mixerNode, 0, outputNode, 0) == noErr)
        #expect(AUGraphConnectNodeInput(graph, mixerNode, 0, outputNode, 0) == kAUGraphErr_InvalidConnection)
        #expect(AUGraphConnectNodeInput(graph, mixerNode, 0, 999, 0) == kAUGraphErr_NodeNotFound)
        var interactions: UInt32 = 0
        #expect(AUGraphGetNumberOfInteractions(graph, &interactions) == noErr && interactions == 2)
        #expect(AUGraphInitialize(graph) == noErr)
        final class Notes { var pre = 0, post = 0 }
        let notes = Notes()
        let notify: AURenderCallback = { refCon, flags, _, _, _, _ in
            let notes = Unmanaged<Notes>.fromOpaque(refCon).takeUnretainedValue()
            if flags.pointee.contains(.unitRenderAction_PreRender) { notes.pre += 1 }
            if flags.pointee.contains(.unitRenderAction_PostRender) { notes.post += 1 }
            return noErr
        }
        #expect(AudioUnitAddRenderNotify(outputUnit!, notify, Unmanaged.passUnretained(notes).toOpaque()) == noErr)
        let pulled = Self.pull(outputUnit!, frames: 128)
        #expect(pulled.status == noErr)
        #expect(pulled.left.allSatisfy { $0 == 0.75 } && pulled.right.allSatisfy { $0 == 0.75 })
        #expect(notes.pre == 1 && notes.post == 1)
        // While initialized, a change waits for AUGraphUpdate.
        #expect(AUGraphDisconnectNodeInput(graph, outputNode, 0) == noErr)
        #expect(Self.pull(outputUnit!, frames: 128).status == noErr)
        var updated = false
        #expect(AUGraphUpdate(graph, &updated) == noErr && updated)
        #expect(Self.pull(outputUnit!, frames: 128).status == kAudioUnitErr_NoConnection)
        var running = true
        #expect(AUGraphIsRunning(graph, &running) == noErr && !running)
    }

    @Test func aConverterChangesTheRateAndAFailingCallbackIsReported() throws {
        let converter = try Self.newUnit(kAudioUnitType_FormatConverter, kAudioUnitSubType_AUConverter)
        defer { AudioComponentInstanceDispose(converter) }
        let generator = Generator(value: 0)
        generator.frequency = 441
        generator.rate = 22_050
        #expect(Self.setFormat(converter, kAudioUnitScope_Input, 0, Self.float(rate: 22_050, channels: 1)) == noErr)
        #expect(Self.setFormat(converter, kAudioUnitScope_Output, 0, Self.float(rate: 44_100, channels: 2)) == noErr)
        #expect(Self.setCallback(converter, 0, generator) == noErr)
        #expect(AudioUnitInitialize(converter) == noErr)
        var left: [Float] = []
        for block in 0..<8 {
            let pulled = Self.pull(converter, frames: 1_024, sampleTime: Double(block * 1_024))
            #expect(pulled.status == noErr)
            left += pulled.left
        }
        // Half as many frames asked of the callback; a 441 Hz sine comes out at 441 Hz.
        #expect(abs(generator.frames - 4_096) < 64)
        let crossings = zip(left.dropFirst(1_000), left.dropFirst(1_001)).filter { $0 < 0 && $1 >= 0 }.count
        #expect(abs(crossings - Int(441 * Double(left.count - 1_000) / 44_100)) <= 1)
        // A callback's error is the render's, and the unit's LastRenderError.
        generator.status = -1234
        #expect(Self.pull(converter, frames: 256).status == -1234)
        var last = OSStatus(0)
        var size = UInt32(4)
        #expect(AudioUnitGetProperty(converter, kAudioUnitProperty_LastRenderError, kAudioUnitScope_Global, 0, &last, &size) == noErr)
        #expect(last == -1234)
    }

    @Test func aConnectionThatWouldCloseACycleIsRefused() throws {
        let a = try Self.newUnit(kAudioUnitType_Mixer, kAudioUnitSubType_MultiChannelMixer)
        let b = try Self.newUnit(kAudioUnitType_FormatConverter, kAudioUnitSubType_AUConverter)
        let c = try Self.newUnit(kAudioUnitType_Mixer, kAudioUnitSubType_MultiChannelMixer)
        defer { [a, b, c].forEach { AudioComponentInstanceDispose($0) } }
        func connect(_ destination: AudioUnit, from source: AudioUnit?) -> OSStatus {
            var connection = AudioUnitConnection(sourceAudioUnit: source, sourceOutputNumber: 0, destInputNumber: 0)
            return AudioUnitSetProperty(destination, kAudioUnitProperty_MakeConnection, kAudioUnitScope_Input, 0, &connection,
                                        UInt32(MemoryLayout<AudioUnitConnection>.size))
        }
        #expect(connect(a, from: b) == noErr)
        #expect(connect(b, from: c) == noErr)
        // c ← a would close a → b → c → a: rendered, it would never end.
        #expect(connect(c, from: a) == kAudioUnitErr_InvalidPropertyValue)
        #expect(connect(a, from: a) == kAudioUnitErr_InvalidPropertyValue)
        // A callback that renders its own unit's output inside its render is refused, not recursed into.
        let generic = try Self.newUnit(kAudioUnitType_Output, kAudioUnitSubType_GenericOutput)
        defer { AudioComponentInstanceDispose(generic) }
        final class Inner { var unit: AudioUnit?; var status: OSStatus = noErr }
        let inner = Inner()
        inner.unit = generic
        var callback = AURenderCallbackStruct(inputProc: { refCon, _, _, _, _, ioData in
            let inner = Unmanaged<Inner>.fromOpaque(refCon).takeUnretainedValue()
            var flags = AudioUnitRenderActionFlags()
            var stamp = AudioTimeStamp()
            inner.status = AudioUnitRender(inner.unit, &flags, &stamp, 0, 64, ioData)
            return noErr
        }, inputProcRefCon: Unmanaged.passUnretained(inner).toOpaque())
        #expect(AudioUnitSetProperty(generic, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &callback,
                                     UInt32(MemoryLayout<AURenderCallbackStruct>.size)) == noErr)
        #expect(AudioUnitInitialize(generic) == noErr)
        #expect(Self.pull(generic, frames: 64).status == noErr)
        #expect(inner.status == kAudioUnitErr_CannotDoInCurrentContext)
    }

    @Test func wrongCallsGetApplesCodesAndNeverStop() throws {
        let unit = try Self.newUnit(kAudioUnitType_Output, kAudioUnitSubType_RemoteIO)
        var format = Self.float(rate: 44_100, channels: 2)
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        #expect(AudioUnitGetProperty(unit, 0x7777, kAudioUnitScope_Global, 0, &format, &size) == kAudioUnitErr_InvalidProperty)
        #expect(AudioUnitGetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 7, &format, &size) == kAudioUnitErr_InvalidElement)
        #expect(AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &format, 12) == kAudioUnitErr_InvalidPropertyValue)
        // The hardware side of RemoteIO's output element is the device's.
        #expect(AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &format, size) == kAudioUnitErr_PropertyNotWritable)
        var bad = format
        bad.mSampleRate = .nan
        #expect(AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &bad, size) == kAudioUnitErr_FormatNotSupported)
        var writable = false
        #expect(AudioUnitGetPropertyInfo(unit, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Input, 1, &size, &writable) == noErr)
        #expect(size == 4 && writable)
        #expect(AudioUnitRender(nil, nil, nil, 0, 0, nil) == kAudio_ParamError)
        #expect(AudioComponentInstanceDispose(unit) == noErr)
        // A disposed unit is a stale handle: every call is an error code.
        #expect(AudioUnitInitialize(unit) == kAudio_ParamError)
        #expect(AudioOutputUnitStart(unit) == kAudio_ParamError)
        #expect(AudioComponentInstanceDispose(unit) == kAudio_ParamError)
        var graph: AUGraph?
        #expect(NewAUGraph(&graph) == noErr)
        #expect(DisposeAUGraph(graph) == noErr)
        #expect(AUGraphOpen(graph) == kAudio_ParamError)
    }
}
