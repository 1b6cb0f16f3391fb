import AudioToolbox
import Foundation
import SoundFile
import Soundstage
import TestSupport

/// `soundstage-bench remote-io-ear [--pipewire] [--plays N] [--seconds S]`: a RemoteIO render
/// callback at a 256-frame I/O buffer (5.3 ms at 48 kHz) on the desktop output, against
/// Soundstage's own lowest-latency path in the same run, on a throw-away server (PulseAudio by
/// default), each measured at the sink's monitor as the first sample of a 1 kHz click:
///
/// - Soundstage: `source.play()` of the click on the same output, nothing else playing (a play on
///   a queue of silence skips it: docs/desktop-audio.md), and again while a -60 dB hum loops (the
///   output's queue then holds sound, as it does while a unit runs);
/// - RemoteIO: the unit runs all along, its callback making silence; armed, the next callback
///   begins the click at its first frame: from that callback to the ear.
///
/// Then the unit runs for `--seconds` (60 by default) and the output's underruns are counted (the
/// server's underflow events on Soundstage's stream). The goals (issue 48): the callback's p50
/// within 2 ms of Soundstage's, and no underrun.
func remoteIOEarLatency(arguments: [String]) throws {
    let kind: AudioServerFixture.Kind = arguments.contains("--pipewire") ? .pipewire : .pulseaudio
    let plays = arguments.firstIndex(of: "--plays").flatMap { Int(arguments[$0 + 1]) } ?? 30
    let seconds = arguments.firstIndex(of: "--seconds").flatMap { Double(arguments[$0 + 1]) } ?? 60
    let fixture = try AudioServerFixture(kind)
    defer { fixture.stop() }
    let recording = try fixture.record(sink: "A")
    defer { recording.stop() }
    let device = try Device.openDesktop(DesktopOutputOptions(applicationName: "bench", server: fixture.server))
    defer { device.close() }
    let audio = try ApplicationAudio.use(device: device)
    print("callback to the ear on \(kind): a 1 kHz click's first sample at sink A's monitor, \(plays) plays each")

    // Soundstage's own: source.play() of the click.
    let click = AudioBuffer(samples: ClickSource.click, channels: 1, sampleRate: 48_000)
    let source = audio.scene.makeSource(buffer: try device.makeBuffer(click))
    let meter = EarMeter(recording: recording)
    usleep(300_000)
    let idle = try meter.measure(plays, quiet: { usleep(150_000) }) { try source.play() }
    report("Soundstage: source.play() → sink, the output idle (its queue of silence skipped)", idle, goal: nil)
    // The same while the output plays (a -60 dB hum loops: its queue holds sound), as it does
    // while a RemoteIO unit runs.
    let hum = audio.scene.makeSource(buffer: try device.makeBuffer(AudioBuffer(
        samples: (0..<4_800).map { Float(0.001 * sin(2 * Double.pi * 100 * Double($0) / 48_000)) }, channels: 1, sampleRate: 48_000)))
    hum.isLooping = true
    try hum.play()
    usleep(300_000)
    let played = try meter.measure(plays, quiet: { usleep(150_000) }) { try source.play() }
    hum.stop()
    report("Soundstage: source.play() → sink, the output playing", played, goal: nil)

    // RemoteIO at a 256-frame I/O buffer.
    AudioSessionServices.shared.preferredIOBufferDuration = Float32(256.0 / 48_000)
    let clicks = ClickSource()
    let unit = try ClickUnit(clicks)
    defer { unit.dispose() }
    let latencies = try measureClicks(plays, recording: recording, clicks: clicks)   // the callback hands it over, nothing ahead
    report("RemoteIO: callback begins the click → sink (256-frame I/O buffer)", latencies, goal: nil)
    let sorted = (played.sorted(), latencies.sorted())
    if !sorted.0.isEmpty, !sorted.1.isEmpty {
        let difference = sorted.1[sorted.1.count / 2] - sorted.0[sorted.0.count / 2]
        print(String(format: "  RemoteIO − Soundstage playing (medians): %+.1f ms (goal: within 2 ms)", difference * 1_000))
        print(String(format: "  RemoteIO − Soundstage idle (medians): %+.1f ms", (sorted.1[sorted.1.count / 2] - idle.sorted()[idle.count / 2]) * 1_000))
    }
    print("  callback frames: \(unit.largest) at most a call, \(unit.calls) calls so far")
    let before = device.outputStatus.underruns
    let callsBefore = unit.calls
    usleep(UInt32(seconds * 1_000_000))
    let underruns = device.outputStatus.underruns - before
    print(String(format: "  %.0f s of RemoteIO: %d underruns of the output (goal: none), %d callbacks (%.1f a second)",
                 seconds, underruns, unit.calls - callsBefore, Double(unit.calls - callsBefore) / seconds))
}

/// A RemoteIO unit whose render callback makes silence, and the click when armed.
final class ClickUnit: @unchecked Sendable {
    // @unchecked: `pending`, `calls` and `largest` belong to the render thread (read for a report).
    private var unit: AudioUnit?
    private let clicks: ClickSource
    private var pending: ArraySlice<Float> = []
    private(set) var calls = 0
    private(set) var largest: UInt32 = 0

    init(_ clicks: ClickSource) throws {
        self.clicks = clicks
        var description = AudioComponentDescription(componentType: kAudioUnitType_Output, componentSubType: kAudioUnitSubType_RemoteIO,
                                                    componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
        var made: AudioUnit?
        guard AudioComponentInstanceNew(AudioComponentFindNext(nil, &description), &made) == noErr, let made else {
            throw CocoaError(.featureUnsupported)
        }
        unit = made
        var format = AudioStreamBasicDescription(mSampleRate: 48_000, mFormatID: kAudioFormatLinearPCM,
                                                 mFormatFlags: kAudioFormatFlagsNativeFloatPacked | kAudioFormatFlagIsNonInterleaved,
                                                 mBytesPerPacket: 4, mFramesPerPacket: 1, mBytesPerFrame: 4, mChannelsPerFrame: 1,
                                                 mBitsPerChannel: 32, mReserved: 0)
        var callback = AURenderCallbackStruct(inputProc: { refCon, _, _, _, frames, ioData in
            Unmanaged<ClickUnit>.fromOpaque(refCon).takeUnretainedValue().render(frames, ioData!)
        }, inputProcRefCon: Unmanaged.passUnretained(self).toOpaque())
        guard AudioUnitSetProperty(made, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &format,
                                   UInt32(MemoryLayout<AudioStreamBasicDescription>.size)) == noErr,
              AudioUnitSetProperty(made, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &callback,
                                   UInt32(MemoryLayout<AURenderCallbackStruct>.size)) == noErr,
              AudioUnitInitialize(made) == noErr, AudioOutputUnitStart(made) == noErr else { throw CocoaError(.featureUnsupported) }
    }

    /// The render callback (the output's render thread): silence, or the click from its first frame.
    func render(_ frames: UInt32, _ ioData: UnsafeMutablePointer<AudioBufferList>) -> OSStatus {
        calls += 1
        largest = max(largest, frames)
        if pending.isEmpty, clicks.takeArmed() { pending = ClickSource.click[...] }
        let samples = UnsafeMutableAudioBufferListPointer(ioData)[0].mData!.assumingMemoryBound(to: Float.self)
        let count = Int(frames)
        for index in 0..<count { samples[index] = index < pending.count ? pending[pending.startIndex + index] : 0 }
        pending = pending.dropFirst(min(count, pending.count))
        return noErr
    }

    func dispose() {
        if let unit { AudioComponentInstanceDispose(unit) }
        unit = nil
    }
}
