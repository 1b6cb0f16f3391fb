import Foundation
import SoundFile
import Testing
import TestSupport

extension CProgramsOnTheDesktop {
    /// Tests/C/audio_queue_recorder.c, SpeakHere's recorder (an AAC input queue written packet by
    /// packet through Audio File Services into a CAF file, with the encoder's cookie), heard on real
    /// PulseAudio and PipeWire servers the test starts: sink A's monitor is the default source, a
    /// 440 Hz tone plays on sink A (`paplay`), and the program records two seconds of it as a child
    /// process on the test's server. The program checks its file's format, packets and cookie
    /// itself; the test decodes the file and hears the tone in it from the first frame to the last,
    /// at its pitch and level. Run in the `programs` pass of scripts/test.sh; skipped under
    /// ThreadSanitizer as ``AudioQueuePlayerDesktopTests`` is.
    @Suite(.serialized) struct AudioQueueRecorderDesktopTests {
        static let seconds = 2.0

        @Test(.enabled(if: FFmpeg.isAvailable && !runningUnderSanitizer), arguments: CompatPrograms.CompatDesktopTests.servers)
        func theRecorderWritesWhatTheInputHearsAsAAC(_ kind: AudioServerFixture.Kind) throws {
            let work = FileManager.default.temporaryDirectory.appendingPathComponent("audio-queue-recorder-\(UUID())")
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: work) }
            let program = try AudioQueuePlayerDesktopTests.compile("audio_queue_recorder", in: work)

            let fixture = try AudioServerFixture(kind)
            try fixture.pactl(["set-default-source", "A.monitor"])
            let tonePath = work.appendingPathComponent("tone.wav").path, recorded = work.appendingPathComponent("memo.caf").path
            try SoundFileWriter.write(Signals.sine(440, seconds: 5, amplitude: 0.5), to: tonePath, format: .wavFloat32)
            // The tone sounds at the sink before the recorder starts (and PulseAudio's null sink has
            // taken the lower latency a stream asked for: see AudioQueueInputDesktopTests).
            let atTheSink = try fixture.record(sink: "A")
            let tone = try fixture.spawn("paplay", ["--device=A", tonePath])
            defer { tone.send(SIGTERM); tone.wait() }
            #expect(waitFor(20) { atTheSink.secondsHeard() >= 0.5 }, "the tone reaches sink A")
            var environment = fixture.environment
            environment["ALSOFT_LOGLEVEL"] = "0"
            let (status, output) = try ChildProcess.run(program, [String(Self.seconds), recorded], environment: environment)
            _ = atTheSink.stop()
            #expect(status == 0 && output.contains(" passed, 0 failed"), "\(output)")

            let file = try SoundFile(path: recorded)
            let audio = try file.readAll()
            let samples = audio.channel(0)
            #expect(audio.duration > Self.seconds - 0.3 && audio.duration < Self.seconds + 0.1, "\(audio.duration) s in the file")
            try #require(samples.count > Int(0.5 * Double(audio.sampleRate)), "\(output)")
            // The tone from the encoder's priming (2112 frames of silence, as Apple's AAC encoder
            // has: the recorder writes no packet table, as SpeakHere writes none) to the last
            // frame; the recording began while the tone played.
            let first = samples.firstIndex { abs($0) > 0.05 } ?? samples.count
            let last = samples.lastIndex { abs($0) > 0.05 } ?? 0
            #expect(first >= 2_000 && first < 2_112 + audio.sampleRate / 100 && last > samples.count - audio.sampleRate / 100,
                    "the tone runs from frame \(first) to \(last) of \(samples.count)")
            let middle = Array(samples[(samples.count / 8)..<(samples.count * 7 / 8)])
            let pitch = Signals.medianFrequency(middle, rate: audio.sampleRate, windows: 8)
            #expect(abs(pitch - 440) < 2, "\(pitch) Hz")
            let level = Signals.toneLevel(middle, frequency: 440, rate: audio.sampleRate)
            #expect(abs(level - 0.5) < 0.025, "level \(level)")
            print(String(format: "audio_queue_recorder on %@: %.3f s of AAC at %d Hz, %d channel(s), %.2f Hz, level %.3f, the tone from frame %d",
                         "\(kind)", audio.duration, audio.sampleRate, audio.channels, pitch, level, first))
        }
    }
}
