import AudioToolbox
@testable import CompatPrograms
import Foundation
import SoundFile
import Soundstage
import Testing
import TestSupport

extension CompatPrograms {
    /// Programs/ToneGenerator.swift, a tone generator on RemoteIO written as Swift synth and game
    /// code writes it, on a loopback device the app plays on, heard in its mix: the tone from the
    /// start's next chunk at its level and frequency (its 44.1 kHz client format converted to the
    /// device's 48 kHz), in I/O buffers of the session's preferred duration, nothing after the stop.
    @Suite(.serialized) struct RemoteIOProgramTests {
        typealias Rig = AudioQueueDeviceTests.Rig

        @Test func theToneGeneratorIsHeardInTheMixFromStartToStop() throws {
            let rig = try Rig()
            AudioSessionServices.shared.preferredIOBufferDuration = 0.005
            defer { AudioSessionServices.shared.preferredIOBufferDuration = 0 }
            let generator = try ToneGenerator()
            let before = try rig.render(0.1)
            #expect(Signals.peak(before) == 0, "nothing before the start")
            try generator.start()
            let playing = try rig.render(0.5)
            generator.stop()
            let after = try rig.render(0.2)
            let left = playing.channel(0), right = playing.channel(1)
            // From the first frame of the first chunk rendered after the start.
            #expect(abs(left[0]) < 0.05 && abs(left[48]) > 0.01, "the tone begins at once: \(left[0..<8])")
            #expect(Double(Signals.soundingFrames(playing.samples)) / 48_000 > 0.49)
            let body = Array(left[4_800..<19_200])
            #expect(abs(Signals.rms(body) - 0.5 / 2.squareRoot()) < 0.01, "level \(Signals.rms(body))")
            #expect(abs(Signals.frequency(body, rate: 48_000) - 440) < 1)
            #expect(Signals.rms(Array(right[4_800..<19_200])) > 0.34, "mono on both sides")
            #expect(Signals.peak(after) == 0, "nothing after the stop")
            // 5 ms I/O buffers at 48 kHz: 240 frames, about 220 of the 44.1 kHz client's a call (the
            // first call 16 more: the resampler's filter reads that far ahead).
            #expect(generator.largestSlice >= 219 && generator.largestSlice <= 240, "\(generator.largestSlice) frames a call")
            #expect(generator.renderCalls >= 95 && generator.renderCalls <= 105, "\(generator.renderCalls) calls for 0.5 s")
        }
    }
}
