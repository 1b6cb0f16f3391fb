import Foundation
import Soundstage
import SoundFile
import TestSupport

/// The servers the desktop tests run against: every kind that is installed.
let installedServers = AudioServerFixture.Kind.allCases.filter(\.isInstalled)

/// A desktop device on a fixture's server, with options for tests.
func desktopDevice(on fixture: AudioServerFixture, role: MediaRole = .game, latency: Double = 0.020,
                   sink: String? = nil) throws -> Device {
    try Device.openDesktop(DesktopOutputOptions(applicationName: "soundstage-tests", applicationID: "org.soundstage.tests",
                                                role: role, latency: latency, server: fixture.server, sink: sink))
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

/// Counts the frames in which either channel sounds (|sample| above `threshold`), allowing for
/// zero crossings: a frame counts if any sample within ±`window` frames passes the threshold.
func soundingFrames(_ samples: [Float], threshold: Float = 0.02, window: Int = 24) -> Int {
    let frames = samples.count / 2
    var loud = [Bool](repeating: false, count: frames)
    for frame in 0..<frames where abs(samples[2 * frame]) > threshold || abs(samples[2 * frame + 1]) > threshold {
        loud[frame] = true
    }
    var count = 0, lastLoud = -1_000_000
    var nextLoud = [Int](repeating: Int.max, count: frames + 1)
    for frame in stride(from: frames - 1, through: 0, by: -1) { nextLoud[frame] = loud[frame] ? frame : nextLoud[frame + 1] }
    for frame in 0..<frames {
        if loud[frame] { lastLoud = frame }
        if frame - lastLoud <= window && nextLoud[frame] - frame <= window { count += 1 } else if loud[frame] { count += 1 }
    }
    return count
}

/// The dominant frequency of one channel within frames `range` (zero crossings).
func frequency(_ samples: [Float], channel index: Int, frames range: Range<Int>) -> Double {
    let mono = channel(samples, index)
    let clipped = max(0, range.lowerBound)..<min(mono.count, range.upperBound)
    return Signals.frequency(Array(mono[clipped]))
}

/// Waits until `condition` holds or `seconds` pass; returns whether it held.
@discardableResult
func waitFor(_ seconds: Double, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        if Date() >= deadline { return false }
        usleep(5_000)
    }
    return true
}
