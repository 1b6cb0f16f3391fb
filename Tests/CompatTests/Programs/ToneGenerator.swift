// A tone generator on the RemoteIO unit, as Swift synth and game code writes it: the unit found by
// its description, a Float32 mono client format at 44.1 kHz, a render callback closure that finds
// its generator through `Unmanaged`, the phase kept between calls, `AudioOutputUnitStart` and
// `Stop`, and the unit disposed in `deinit`. Only the import would differ on iOS (none: it is
// `import AudioToolbox` there too).
import AudioToolbox
import Foundation

final class ToneGenerator {
    private(set) var unit: AudioUnit?
    var frequency: Double = 440
    var amplitude: Double = 0.5
    private var phase: Double = 0
    let sampleRate: Double = 44_100
    /// What the callback saw: its calls and the most frames a call.
    private(set) var renderCalls = 0
    private(set) var largestSlice: UInt32 = 0

    enum GeneratorError: Error { case status(OSStatus, String) }

    private func check(_ status: OSStatus, _ what: String) throws {
        guard status == noErr else { throw GeneratorError.status(status, what) }
    }

    init() throws {
        var description = AudioComponentDescription(
            componentType: kAudioUnitType_Output,
            componentSubType: kAudioUnitSubType_RemoteIO,
            componentManufacturer: kAudioUnitManufacturer_Apple,
            componentFlags: 0,
            componentFlagsMask: 0)
        guard let component = AudioComponentFindNext(nil, &description) else { throw GeneratorError.status(-1, "no RemoteIO") }
        try check(AudioComponentInstanceNew(component, &unit), "AudioComponentInstanceNew")
        guard let unit = unit else { return }

        var format = AudioStreamBasicDescription(
            mSampleRate: sampleRate,
            mFormatID: kAudioFormatLinearPCM,
            mFormatFlags: kAudioFormatFlagsNativeFloatPacked | kAudioFormatFlagIsNonInterleaved,
            mBytesPerPacket: 4,
            mFramesPerPacket: 1,
            mBytesPerFrame: 4,
            mChannelsPerFrame: 1,
            mBitsPerChannel: 32,
            mReserved: 0)
        try check(AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0,
                                       &format, UInt32(MemoryLayout<AudioStreamBasicDescription>.size)), "StreamFormat")

        var callback = AURenderCallbackStruct(
            inputProc: { inRefCon, _, _, _, inNumberFrames, ioData -> OSStatus in
                let generator = Unmanaged<ToneGenerator>.fromOpaque(inRefCon).takeUnretainedValue()
                return generator.render(inNumberFrames, ioData)
            },
            inputProcRefCon: Unmanaged.passUnretained(self).toOpaque())
        try check(AudioUnitSetProperty(unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0,
                                       &callback, UInt32(MemoryLayout<AURenderCallbackStruct>.size)), "SetRenderCallback")
        try check(AudioUnitInitialize(unit), "AudioUnitInitialize")
    }

    deinit {
        if let unit = unit {
            AudioOutputUnitStop(unit)
            AudioUnitUninitialize(unit)
            AudioComponentInstanceDispose(unit)
        }
    }

    func start() throws {
        guard let unit = unit else { return }
        try check(AudioOutputUnitStart(unit), "AudioOutputUnitStart")
    }

    func stop() {
        guard let unit = unit else { return }
        AudioOutputUnitStop(unit)
    }

    /// The render callback: the sine into the one buffer of non-interleaved mono.
    private func render(_ frames: UInt32, _ ioData: UnsafeMutablePointer<AudioBufferList>?) -> OSStatus {
        renderCalls += 1
        largestSlice = max(largestSlice, frames)
        guard let buffers = UnsafeMutableAudioBufferListPointer(ioData) else { return noErr }
        let step = 2 * Double.pi * frequency / sampleRate
        for buffer in buffers {
            guard let samples = buffer.mData?.assumingMemoryBound(to: Float.self) else { continue }
            for frame in 0..<Int(frames) {
                samples[frame] = Float(amplitude * sin(phase + Double(frame) * step))
            }
        }
        phase = (phase + Double(frames) * step).truncatingRemainder(dividingBy: 2 * Double.pi)
        return noErr
    }
}
