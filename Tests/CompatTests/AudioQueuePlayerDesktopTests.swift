import Foundation
import SoundFile
import Testing
import TestSupport

extension CProgramsOnTheDesktop {
    /// Tests/C/audio_queue_player.c, the Core Audio books' command-line file player, heard on real
    /// PulseAudio and PipeWire servers the test starts: compiled as C99 against the debug build's
    /// libSoundstageC.so (as CProgramTests compiles it), run as a child process whose
    /// `PULSE_SERVER` is the test's server, so its queues play on the app's device there (the
    /// desktop output). Sink A's monitor is recorded, and each file's tone is checked at the sink:
    /// its onset after AudioQueueStart, its length (nothing lost or played twice), frequency and
    /// level, each side; IsRunning 0 within the output's latency of the last sample (a deferred
    /// stop plays everything, then says so); and the two queues the program starts for one time of
    /// the device's clock, one panned left and one right, starting together. Silent gaps inside a
    /// tone, where the child fell behind (run at nice 10 beside builds at nice 0 on this 2-core
    /// machine, its threads starve), are printed, not asserted: the length is counted where the
    /// tone sounds, and frequency and level are medians over short windows, as the other desktop
    /// tests measure where a recording did not drop out. Run in the `programs` pass of
    /// scripts/test.sh. Skipped under
    /// ThreadSanitizer (not tried there): the child, built by gcc without it, would load the
    /// sanitized build's instrumented libSoundstageC.so, which needs the sanitizer's runtime in
    /// the program.
    @Suite(.serialized) struct AudioQueuePlayerDesktopTests {
        static let servers = CompatPrograms.CompatDesktopTests.servers

        /// The repository's root, from this file's place in it.
        static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

        /// The directory holding the built libSoundstageC.so, above the test bundle.
        static let libraryDirectory: URL? = {
            var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            while dir.path != "/" {
                if FileManager.default.fileExists(atPath: dir.appendingPathComponent("libSoundstageC.so").path) { return dir }
                dir.deleteLastPathComponent()
            }
            return nil
        }()

        /// Tests/C/`name`.c by gcc -std=c99 with every warning an error, against the debug build's library.
        static func compile(_ name: String = "audio_queue_player", in work: URL) throws -> String {
            let library = try #require(libraryDirectory, "no libSoundstageC.so above \(CommandLine.arguments[0])")
            let program = work.appendingPathComponent(name).path
            let (status, output) = try ChildProcess.run("/usr/bin/gcc", [
                "-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic",
                "-I", root.appendingPathComponent("Sources/CAudioToolbox/include").path,
                root.appendingPathComponent("Tests/C/\(name).c").path,
                "-L", library.path, "-l:libSoundstageC.so", "-Wl,-rpath," + library.path, "-lopenal", "-lm", "-o", program,
            ], environment: ProcessInfo.processInfo.environment)
            try #require(status == 0, "gcc: \(output)")
            return program
        }

        /// The times the program printed for `file` (CLOCK_MONOTONIC, as the recorder's clock).
        static func times(of file: String, in output: String) -> (started: Double, stopped: Double)? {
            for line in output.split(separator: "\n") where line.hasPrefix("  \(file): started at ") {
                let words = line.split(separator: " ")
                guard let at = words.firstIndex(of: "at"), let zero = words.lastIndex(of: "at"), at < zero,
                      let started = Double(words[at + 1]), let stopped = Double(words[zero + 1]) else { return nil }
                return (started, stopped)
            }
            return nil
        }

        /// The median of the `frequency` Hz tone's level (``Signals/toneLevel``) over 25 ms windows.
        static func medianLevel(_ samples: ArraySlice<Float>, _ frequency: Double) -> Double {
            let levels = stride(from: samples.startIndex, to: samples.endIndex - 1_200 + 1, by: 1_200).map {
                Signals.toneLevel(samples[$0..<($0 + 1_200)], frequency: frequency)
            }.sorted()
            return levels.isEmpty ? 0 : levels[levels.count / 2]
        }

        /// Silences inside a tone (frames `first...last` of interleaved stereo): runs of at least
        /// 24 frames (half a period of 1 kHz) with both sides under 0.005, which a sine of 0.25 or
        /// more never has: the stream ran dry (or the server dropped out). Said, not asserted: a
        /// tone they lengthen fails its length.
        static func gaps(_ samples: [Float], first: Int, last: Int) -> (count: Int, frames: Int) {
            var count = 0, frames = 0, run = 0
            for frame in first...last {
                if abs(samples[2 * frame]) < 0.005 && abs(samples[2 * frame + 1]) < 0.005 {
                    run += 1
                } else {
                    if run >= 24 { count += 1; frames += run }
                    run = 0
                }
            }
            return (count, frames)
        }

        @Test(.enabled(if: AudioQueuePlayerInputs.ffmpeg != nil && !runningUnderSanitizer), arguments: servers)
        func theFilePlayerIsHeardAtTheSink(_ kind: AudioServerFixture.Kind) throws {
            let work = FileManager.default.temporaryDirectory.appendingPathComponent("audio-queue-player-\(UUID())")
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: work) }
            let program = try Self.compile(in: work)
            let files = try AudioQueuePlayerInputs.make(in: work)

            let fixture = try AudioServerFixture(kind)
            let recording = try fixture.record(sink: "A")
            var environment = fixture.environment
            environment["ALSOFT_LOGLEVEL"] = "0"
            // 0.4 s of silence after each file, so that each is a sound of its own at the sink; the
            // desktop output meets start times on the sample (--exact-start).
            let (status, output) = try ChildProcess.run(program, ["--gap", "0.4", "--exact-start"] + files.map(\.path),
                                                        environment: environment)
            usleep(200_000)
            let samples = recording.stop()
            #expect(status == 0, "\(output)")
            #expect(output.contains(" passed, 0 failed"), "\(output)")

            let left = stride(from: 0, to: samples.count, by: 2).map { samples[$0] }
            let right = stride(from: 1, to: samples.count, by: 2).map { samples[$0] }
            let sounds = Signals.separateSounds(samples, gap: 0.2, threshold: 0.02)
            try #require(sounds.count == files.count + 1,
                         "\(sounds.count) sounds at the sink, at \(sounds.map { String(format: "%.3f-%.3f s", Double($0.0) / 48_000, Double($0.1) / 48_000) }): \(output)")
            var report: [String] = []
            for (file, (first, last)) in zip(files, sounds) {
                let name = URL(fileURLWithPath: file.path).lastPathComponent
                // The whole tone, nothing lost or played twice (the codecs' priming and padding are
                // silence around it): counted where it sounds, so that a gap inside it, where the
                // client fell behind (``gaps``, said below), does not lengthen it; a dropout of the
                // server shortens it by at most a cycle, well inside the tolerance. Frequency and
                // level are medians over short windows, which a gap spoils only where it falls.
                let span = Double(last - first + 1) / 48_000
                let length = Double(Signals.soundingFrames(Array(samples[(2 * first)..<(2 * last + 2)]))) / 48_000
                #expect(abs(length - file.seconds) <= 0.05, "\(name): \(length) s heard (over \(span) s)")
                let middle = (first + 2_400)..<(last - 2_400)
                let pitch = Signals.medianFrequency(Array(left[middle]), windows: 24)
                #expect(abs(pitch - AudioQueuePlayerInputs.frequency) < 2, "\(name): \(pitch) Hz")
                let core = (first + 4_800)..<(last - 4_800)
                let levels = (Self.medianLevel(left[core], AudioQueuePlayerInputs.frequency),
                              Self.medianLevel(right[core], AudioQueuePlayerInputs.frequency))
                // The file's own level, decoded by SoundFile (LAME's MP3 is 0.475, not 0.5): mono at
                // that level on both sides (iOS's balance law, the pan centred), stereo side by side.
                let decoded = try SoundFile(path: file.path).readAll()
                let inFile = (0..<decoded.channels).map { channel -> Double in
                    let samples = decoded.channel(channel)
                    return Signals.toneLevel(samples[4_410..<(samples.count - 4_410)], frequency: AudioQueuePlayerInputs.frequency,
                                             rate: decoded.sampleRate)
                }
                let wanted = (inFile[0], inFile[decoded.channels == 2 ? 1 : 0])
                #expect(file.channels == decoded.channels && abs(levels.0 - wanted.0) < 0.03 * wanted.0 && abs(levels.1 - wanted.1) < 0.03 * wanted.1,
                        "\(name): levels \(levels), the file's \(wanted)")
                // Heard soon after AudioQueueStart: the output's 20 ms and the codecs' priming (up to
                // 26 ms) come first, and the first start opens the app's output (it connects to
                // the server). 15–90 ms measured alone; the child runs at nice 10, and with the
                // pass's other lanes beside it an MP3 once took 112 ms: 150 ms allowed. IsRunning goes 0 once the last sample is mixed: it reaches the sink
                // within the output's latency of that (the recorder dates it a little late, by
                // its pipe and fragment), and not long after.
                let times = Self.times(of: name, in: output)
                let onsetAt = recording.time(ofFrame: first), lastAt = recording.time(ofFrame: last)
                if let times, let onsetAt, let lastAt {
                    let onset = onsetAt - times.started
                    #expect(onset > 0 && onset < (file.path == files[0].path ? 0.3 : 0.15), "\(name): heard \(onset) s after AudioQueueStart")
                    #expect(lastAt <= times.stopped + 0.04 && lastAt > times.stopped - 0.15,
                            "\(name): the last sample at \(lastAt), IsRunning 0 at \(times.stopped)")
                    let silent = Self.gaps(samples, first: first, last: last)
                    report.append(String(format: "%@: onset %.1f ms, %.3f s (over %.3f s), %.2f Hz, levels %.3f/%.3f, IsRunning 0 %.1f ms before the last sample, %d gaps (%.1f ms)",
                                         name, onset * 1000, length, span, pitch, levels.0, levels.1, (lastAt - times.stopped) * 1000,
                                         silent.count, Double(silent.frames) / 48))
                } else {
                    Issue.record("\(name): no times printed or dated: \(output)")
                }
            }

            // The two queues started for one time: 660 Hz on the left, 880 Hz on the right, each
            // 0.6 s, starting on the same sample (the second was asked 0.1 s after the first).
            let (first, last) = sounds[files.count]
            let leftOnset = try #require(left[first...last].firstIndex { abs($0) > 0.02 })
            let rightOnset = try #require(right[first...last].firstIndex { abs($0) > 0.02 })
            let leftEnd = try #require(left[first...last].lastIndex { abs($0) > 0.02 })
            let rightEnd = try #require(right[first...last].lastIndex { abs($0) > 0.02 })
            #expect(abs(leftOnset - rightOnset) <= 48, "the two queues start \(abs(leftOnset - rightOnset)) frames apart")
            let lengths = (Double(Signals.soundingFrames(left[first...last].flatMap { [$0, 0] })) / 48_000,
                           Double(Signals.soundingFrames(right[first...last].flatMap { [0, $0] })) / 48_000)
            #expect(abs(lengths.0 - 0.6) <= 0.05 && abs(lengths.1 - 0.6) <= 0.05, "the two tones: \(lengths) s")
            let leftPitch = Signals.medianFrequency(Array(left[(leftOnset + 2_400)..<(leftEnd - 2_400)]), windows: 24)
            let rightPitch = Signals.medianFrequency(Array(right[(rightOnset + 2_400)..<(rightEnd - 2_400)]), windows: 24)
            #expect(abs(leftPitch - 660) < 2 && abs(rightPitch - 880) < 2, "\(leftPitch) Hz left, \(rightPitch) Hz right")
            let leftOnRight = Signals.toneLevel(right[(leftOnset + 4_800)..<(leftEnd - 4_800)], frequency: 660)
            #expect(leftOnRight < 0.01, "the left queue on the right side: \(leftOnRight)")
            report.append("two queues for one time: onsets \(rightOnset - leftOnset) frames apart, \(String(format: "%.2f", leftPitch)) Hz left, \(String(format: "%.2f", rightPitch)) Hz right")
            print("audio_queue_player on \(kind):\n  " + report.joined(separator: "\n  "))
        }
    }
}
