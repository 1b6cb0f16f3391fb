import AudioToolbox
import Foundation
import Testing

/// Audio Units and graphs used from several threads at once: a mixer graph pulled on one task
/// while others set its volumes and pans, read its meters and formats and reconnect its inputs;
/// a unit disposed while another task renders it; two tasks starting, stopping and disposing one
/// graph. Every call is an error code or a success, never a crash, and once disposal returns no
/// callback of the unit runs.
@Suite struct AudioUnitThreadTests {
    /// A constant 0.25 in every buffer, counting its calls.
    final class Counter: @unchecked Sendable {
        // @unchecked: `calls` is written by the one thread that renders, read after it ends.
        var calls = 0
    }

    static let constant: AURenderCallback = { refCon, _, _, _, frames, ioData in
        Unmanaged<Counter>.fromOpaque(refCon).takeUnretainedValue().calls += 1
        for buffer in UnsafeMutableAudioBufferListPointer(ioData!) {
            let samples = buffer.mData!.assumingMemoryBound(to: Float.self)
            for frame in 0..<Int(frames) { samples[frame] = 0.25 }
        }
        return noErr
    }

    /// Pulls 256 frames of stereo from `unit`.
    static func pull(_ unit: AudioUnit) -> OSStatus {
        var left = [Float](repeating: 0, count: 256), right = [Float](repeating: 0, count: 256)
        let list = AudioBufferList.allocate(maximumBuffers: 2)
        defer { free(list.unsafeMutablePointer) }
        var flags = AudioUnitRenderActionFlags()
        var stamp = AudioTimeStamp()
        return left.withUnsafeMutableBytes { l in
            right.withUnsafeMutableBytes { r in
                list[0] = AudioBuffer(mNumberChannels: 1, mDataByteSize: 1024, mData: l.baseAddress)
                list[1] = AudioBuffer(mNumberChannels: 1, mDataByteSize: 1024, mData: r.baseAddress)
                return AudioUnitRender(unit, &flags, &stamp, 0, 256, list.unsafeMutablePointer)
            }
        }
    }

    static func description(_ type: OSType, _ subType: OSType) -> AudioComponentDescription {
        AudioComponentDescription(componentType: type, componentSubType: subType,
                                  componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
    }

    @Test func aGraphPulledOnOneThreadAndChangedOnOthers() async throws {
        var made: AUGraph?
        #expect(NewAUGraph(&made) == noErr)
        let graph = try #require(made)
        var output = Self.description(kAudioUnitType_Output, kAudioUnitSubType_GenericOutput)
        var mixerDescription = Self.description(kAudioUnitType_Mixer, kAudioUnitSubType_MultiChannelMixer)
        var outputNode = AUNode(), mixerNode = AUNode()
        #expect(AUGraphAddNode(graph, &output, &outputNode) == noErr)
        #expect(AUGraphAddNode(graph, &mixerDescription, &mixerNode) == noErr)
        #expect(AUGraphOpen(graph) == noErr)
        var mixerMade: AudioUnit?, outputMade: AudioUnit?
        #expect(AUGraphNodeInfo(graph, mixerNode, nil, &mixerMade) == noErr)
        #expect(AUGraphNodeInfo(graph, outputNode, nil, &outputMade) == noErr)
        let counter = Counter()
        var callback = AURenderCallbackStruct(inputProc: Self.constant, inputProcRefCon: Unmanaged.passUnretained(counter).toOpaque())
        #expect(AUGraphSetNodeInputCallback(graph, mixerNode, 0, &callback) == noErr)
        #expect(AUGraphSetNodeInputCallback(graph, mixerNode, 1, &callback) == noErr)
        #expect(AUGraphConnectNodeInput(graph, mixerNode, 0, outputNode, 0) == noErr)
        #expect(AUGraphInitialize(graph) == noErr)
        nonisolated(unsafe) let mixer = try #require(mixerMade)
        nonisolated(unsafe) let outputUnit = try #require(outputMade)
        nonisolated(unsafe) let shared = graph
        let (outputID, mixerID) = (outputNode, mixerNode)
        let pulled = await withTaskGroup(of: Int.self) { group in
            group.addTask {
                var good = 0
                for _ in 0..<300 where Self.pull(outputUnit) == noErr { good += 1 }
                return good
            }
            for task in 0..<3 {
                group.addTask {
                    for round in 0..<200 {
                        _ = AudioUnitSetParameter(mixer, kMultiChannelMixerParam_Volume, kAudioUnitScope_Input, UInt32(round % 2), Float(round % 10) / 10, 0)
                        _ = AudioUnitSetParameter(mixer, kMultiChannelMixerParam_Pan, kAudioUnitScope_Input, 0, Float(task - 1), 0)
                        var level: AudioUnitParameterValue = 0
                        _ = AudioUnitGetParameter(mixer, kMultiChannelMixerParam_PostAveragePower, kAudioUnitScope_Output, 0, &level)
                        var format = AudioStreamBasicDescription()
                        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
                        _ = AudioUnitGetProperty(mixer, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 1, &format, &size)
                        if task == 0 && round % 20 == 0 {
                            _ = AUGraphDisconnectNodeInput(shared, outputID, 0)
                            _ = AUGraphConnectNodeInput(shared, mixerID, 0, outputID, 0)
                            var updated = false
                            _ = AUGraphUpdate(shared, &updated)
                        }
                    }
                    return 0
                }
            }
            return await group.reduce(0, +)
        }
        #expect(pulled > 0)
        #expect(counter.calls > 0)
        #expect(DisposeAUGraph(graph) == noErr)
    }

    @Test func aUnitDisposedWhileAnotherThreadRendersIt() async throws {
        var description = Self.description(kAudioUnitType_Output, kAudioUnitSubType_GenericOutput)
        var made: AudioUnit?
        #expect(AudioComponentInstanceNew(AudioComponentFindNext(nil, &description), &made) == noErr)
        nonisolated(unsafe) let unit = try #require(made)
        let counter = Counter()
        var callback = AURenderCallbackStruct(inputProc: Self.constant, inputProcRefCon: Unmanaged.passUnretained(counter).toOpaque())
        #expect(AudioUnitSetProperty(unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &callback,
                                     UInt32(MemoryLayout<AURenderCallbackStruct>.size)) == noErr)
        #expect(AudioUnitInitialize(unit) == noErr)
        let callsAtDisposal = await withTaskGroup(of: Int?.self) { group in
            group.addTask {
                for _ in 0..<10_000 where Self.pull(unit) == noErr {}
                return nil
            }
            group.addTask {
                usleep(2_000)
                #expect(AudioComponentInstanceDispose(unit) == noErr)
                // Once disposal returns, no callback of the unit runs.
                return counter.calls
            }
            var seen: Int?
            for await value in group { if let value { seen = value } }
            return seen
        }
        #expect(callsAtDisposal == counter.calls)
        #expect(Self.pull(unit) == kAudio_ParamError)
    }

    @Test func twoThreadsStartingAndDisposingOneGraph() async throws {
        for _ in 0..<20 {
            var made: AUGraph?
            #expect(NewAUGraph(&made) == noErr)
            nonisolated(unsafe) let graph = try #require(made)
            var output = Self.description(kAudioUnitType_Output, kAudioUnitSubType_GenericOutput)
            var node = AUNode()
            #expect(AUGraphAddNode(graph, &output, &node) == noErr)
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    _ = AUGraphOpen(graph)
                    _ = AUGraphInitialize(graph)
                    _ = AUGraphStart(graph)
                    var running = false
                    _ = AUGraphIsRunning(graph, &running)
                    _ = AUGraphStop(graph)
                }
                group.addTask {
                    let status = DisposeAUGraph(graph)
                    #expect(status == noErr || status == kAudio_ParamError)
                }
            }
            _ = DisposeAUGraph(graph)
            #expect(AUGraphOpen(graph) == kAudio_ParamError)
        }
    }
}
