import Foundation
import Testing
import Soundstage
import SoundFile
import TestSupport

/// The servers the desktop tests run against: every kind that is installed, but under
/// ThreadSanitizer only PulseAudio. Beside the sanitized suite, PipeWire's monitor recordings
/// fall seconds behind the sink (`MonitorRecording.lag`, up to 5.6 s measured), so a check that
/// acts on what a recorder has heard acts late, and a pulled sink takes the unreceived part of
/// its recording with it; the engine itself did the right thing in every such failure examined.
/// The sanitizer pass is there for data races, which PulseAudio's cases exercise through the
/// same code; the normal pass checks PipeWire's behaviour strictly.
let installedServers = AudioServerFixture.Kind.allCases.filter { $0.isInstalled && !(runningUnderSanitizer && $0 == .pipewire) }

/// A desktop device on a fixture's server, with options for tests.
func desktopDevice(on fixture: AudioServerFixture, role: MediaRole = .game, latency: Double = 0.020,
                   sink: String? = nil, idleTimeout: Double = 2) throws -> Device {
    try Device.openDesktop(DesktopOutputOptions(applicationName: "soundstage-tests", applicationID: "org.soundstage.tests",
                                                role: role, latency: latency, server: fixture.server, sink: sink,
                                                idleTimeout: idleTimeout))
}

/// A mono file of `steps` one-second tones, 300, 400, 500 ... Hz: where it is heard tells the offset.
func steppedTones(steps: Int, amplitude: Float = 0.5) -> AudioBuffer {
    var samples: [Float] = []
    for step in 0..<steps {
        samples += Signals.sine(Double(300 + 100 * step), seconds: 1, amplitude: amplitude).samples
    }
    return AudioBuffer(samples: samples, channels: 1, sampleRate: Signals.rate)
}

/// Stereo interleaved samples split into one channel.
func channel(_ samples: [Float], _ index: Int) -> [Float] {
    stride(from: index, to: samples.count, by: 2).map { samples[$0] }
}

/// Frames whose |sample| in either channel passes `threshold`: (first, last), or nil if none.
func soundingSpan(_ samples: [Float], threshold: Float = 0.01) -> (first: Int, last: Int)? {
    var first: Int?, last: Int?
    for frame in 0..<(samples.count / 2) where abs(samples[2 * frame]) > threshold || abs(samples[2 * frame + 1]) > threshold {
        if first == nil { first = frame }
        last = frame
    }
    guard let first, let last else { return nil }
    return (first, last)
}

/// The dominant frequency of one channel within frames `range` (zero crossings).
func frequency(_ samples: [Float], channel index: Int, frames range: Range<Int>) -> Double {
    let mono = channel(samples, index)
    let clipped = max(0, range.lowerBound)..<min(mono.count, range.upperBound)
    return Signals.frequency(Array(mono[clipped]))
}

/// Collects a device's route changes and output events, and a session's events, thread-safely.
final class Observed: @unchecked Sendable {
    // @unchecked: every field is guarded by `lock`.
    private let lock = NSLock()
    private var routeChanges: [RouteChange] = []
    private var outputEvents: [OutputEvent] = []
    private var sessionEvents: [SessionEvent.Kind] = []

    init(_ device: Device) {
        device.addRouteObserver { [self] change in lock.withLock { routeChanges.append(change) } }
        device.addOutputObserver { [self] event in lock.withLock { outputEvents.append(event) } }
    }

    func watch(_ session: AudioSession) {
        session.addObserver { [self] event in lock.withLock { sessionEvents.append(event.kind) } }
    }

    var routes: [RouteChange] { lock.withLock { routeChanges } }
    var outputs: [OutputEvent] { lock.withLock { outputEvents } }
    var sessions: [SessionEvent.Kind] { lock.withLock { sessionEvents } }
}

/// A mono sine as a playable source on `scene` (head-relative, in front).
func toneSource(_ scene: Scene, _ device: Device, _ audio: AudioBuffer) throws -> Source {
    let source = scene.makeSource(buffer: try device.makeBuffer(audio))
    source.position = Vector3(0, 0, -1)
    return source
}

/// The frequency heard in the first `seconds` of sound, starting `skip` seconds in: the median of
/// its first unbroken 50 ms windows (`unbrokenWindows`), looking up to half a second further
/// when windows hold a gap. A loaded machine's underrun or a move's glitch is then not measured
/// as a tone (CI once saw 342 Hz for a 400 Hz tone whose first windows on the new sink were
/// broken by gaps).
func firstFrequency(_ samples: [Float], skip: Double = 0.02, seconds: Double = 0.2) -> Double? {
    guard let span = soundingSpan(samples) else { return nil }
    let start = span.first + Int(skip * 48_000), wanted = max(1, Int(seconds / 0.05))
    let windows = unbrokenWindows(samples, frames: start..<min(span.last, start + Int((seconds + 0.5) * 48_000)))
    return median(windows.prefix(wanted).map { frequency(samples, channel: 0, frames: $0) })
}

/// The frequency heard in the last `seconds` of sound, ending `skip` seconds before its end:
/// the median of its last unbroken 50 ms windows, looking up to half a second further back.
func lastFrequency(_ samples: [Float], skip: Double = 0.02, seconds: Double = 0.2) -> Double? {
    guard let span = soundingSpan(samples) else { return nil }
    let end = span.last - Int(skip * 48_000), wanted = max(1, Int(seconds / 0.05))
    let windows = unbrokenWindows(samples, frames: max(span.first, end - Int((seconds + 0.5) * 48_000))..<end, fromTheEnd: true)
    return median(windows.prefix(wanted).map { frequency(samples, channel: 0, frames: $0) })
}

/// The 50 ms windows of `frames` (channel 0) that hold no gap: every 2 ms of them reaches
/// `threshold` (a tone from 300 Hz up peaks in every 2 ms). In order, or last first.
func unbrokenWindows(_ samples: [Float], frames: Range<Int>, threshold: Float = 0.01, fromTheEnd: Bool = false) -> [Range<Int>] {
    let mono = channel(samples, 0)
    let clipped = max(0, frames.lowerBound)..<min(mono.count, frames.upperBound)
    let starts = fromTheEnd ? Array(stride(from: clipped.upperBound - 2_400, through: clipped.lowerBound, by: -2_400))
                            : Array(stride(from: clipped.lowerBound, through: clipped.upperBound - 2_400, by: 2_400))
    return starts.map { $0..<($0 + 2_400) }.filter { window in
        stride(from: window.lowerBound, to: window.upperBound, by: 96).allSatisfy { block in
            mono[block..<(block + 96)].contains { abs($0) >= threshold }
        }
    }
}

/// The median of `values`, or nil if there are none.
func median(_ values: [Double]) -> Double? {
    values.isEmpty ? nil : values.sorted()[values.count / 2]
}

/// The last frame of the last 50 ms window whose frequency is within 5 Hz of `frequency`.
func lastIndexAbove(_ samples: [Float], frequency target: Double) -> Int? {
    var last: Int?
    for start in stride(from: 0, to: samples.count / 2 - 2_400, by: 2_400)
    where abs(frequency(samples, channel: 0, frames: start..<(start + 2_400)) - target) < 5 {
        last = start + 2_400
    }
    return last
}

/// The first frame of the first 50 ms window whose frequency is within 5 Hz of `frequency`.
func firstIndexNear(_ samples: [Float], frequency target: Double) -> Int? {
    for start in stride(from: 0, to: samples.count / 2 - 2_400, by: 2_400)
    where abs(frequency(samples, channel: 0, frames: start..<(start + 2_400)) - target) < 5 {
        return start
    }
    return nil
}

/// Checks a recording of a 440 Hz tone played at x = +5: heard on the right only, at 440 Hz
/// (the median over 50 ms windows, so a window holding an underrun's gap is an outlier).
func expectRightOnly440(_ samples: [Float], sourceLocation: SourceLocation = #_sourceLocation) throws {
    let span = try #require(soundingSpan(samples), sourceLocation: sourceLocation)
    let heard = Array(samples[(2 * span.first)..<(2 * span.last)])
    #expect(Signals.rms(channel(heard, 0)) < 0.001, sourceLocation: sourceLocation)
    #expect(Signals.rms(channel(heard, 1)) > 0.05, sourceLocation: sourceLocation)
    let right = channel(heard, 1)
    let windows = stride(from: 0, to: right.count - 2_400, by: 2_400).map { Signals.frequency(Array(right[$0..<($0 + 2_400)])) }
    let pitch = windows.sorted()[windows.count / 2]
    #expect(abs(pitch - 440) < 1, "median \(pitch) Hz", sourceLocation: sourceLocation)
}
