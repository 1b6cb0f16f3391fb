import AudioToolbox
@testable import CompatPrograms
import Foundation
import SoundFile
import Soundstage
@testable import SoundstageCompat
import Testing
import TestSupport

extension CompatPrograms {
    /// The Core Audio books' queue programs written in Swift as iOS and macOS code writes them
    /// (Programs/QueueFilePlayer.swift, Programs/QueueRecorder.swift), run on a loopback device the
    /// app plays on and heard in its mix, or rendered offline: the file player in each format with
    /// a closure callback and with a block on a dispatch queue, Apple's offline render into an
    /// Extended Audio File, the books' synchronised start of two queues, SpeakHere's AAC recorder
    /// with the dispatch-queue block form. (The books' main-thread run-loop waits are the C
    /// programs': a test here does not run on the main thread.)
    @Suite(.serialized) struct CoreAudioQueueProgramTests {
        typealias Rig = AudioQueueDeviceTests.Rig

        /// A file of `seconds` of a `frequency` cosine (a sharp onset) at 0.5, at 44.1 kHz.
        static func tone(_ name: String, _ format: OutputFormat, frequency: Double = 440, seconds: Double = 0.5,
                         channels: Int = 1, in work: URL) throws -> URL {
            let url = work.appendingPathComponent(name)
            let samples = (0..<Int(seconds * 44_100)).flatMap { frame in
                [Float](repeating: Float(0.5 * cos(2 * Double.pi * frequency * Double(frame) / 44_100)), count: channels)
            }
            try SoundFileWriter.write(.init(samples: samples, channels: channels, sampleRate: 44_100), to: url.path, format: format)
            return url
        }

        static func workDirectory() throws -> URL {
            let work = FileManager.default.temporaryDirectory.appendingPathComponent("queue-programs-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
            return work
        }

        struct PlayCase: CustomStringConvertible, Sendable {
            let file: String
            let format: OutputFormat
            let channels: Int
            let callbacks: QueueFilePlayer.Callbacks
            let needsFFmpeg: Bool
            var description: String { "\(file), \(callbacks)" }
        }

        static let plays = [
            PlayCase(file: "tone.wav", format: .wavPCM16, channels: 2, callbacks: .function, needsFFmpeg: false),
            PlayCase(file: "tone-ima4.caf", format: .cafIMA4, channels: 1, callbacks: .dispatchQueue, needsFFmpeg: false),
            PlayCase(file: "tone.m4a", format: .m4aAAC, channels: 2, callbacks: .dispatchQueue, needsFFmpeg: true),
            PlayCase(file: "tone-alac.caf", format: .cafALAC, channels: 1, callbacks: .function, needsFFmpeg: true),
            PlayCase(file: "tone.mp3", format: .mp3, channels: 1, callbacks: .function, needsFFmpeg: true),
        ]

        /// The file player on the app's device: every format, each callback form; the file's half
        /// second of tone heard whole (nothing lost, nothing twice), at its frequency and level on
        /// both sides; the queue stops itself (its deferred stop) once everything has played.
        @Test(arguments: plays)
        func theFilePlayerIsHeardWhole(_ play: PlayCase) throws {
            guard !play.needsFFmpeg || FFmpeg.isAvailable else { return }
            let work = try Self.workDirectory()
            defer { try? FileManager.default.removeItem(at: work) }
            let rig = try Rig()
            let url = try Self.tone(play.file, play.format, channels: play.channels, in: work)
            let player = try QueueFilePlayer(url: url, callbacks: play.callbacks)
            #expect(player.buffersFilled >= 1, "the buffers were primed")
            try player.start()
            var samples: [Float] = []
            for _ in 0..<30 where player.isRunning || samples.isEmpty {
                samples += try rig.render(0.05).samples
                usleep(2_000)   // the callback's turn
            }
            samples += try rig.render(0.1).samples
            #expect(player.isDone && !player.isRunning, "the player stopped itself at the end of the file")
            let sounding = Double(Signals.soundingFrames(samples)) / 48_000
            #expect(abs(sounding - 0.5) < 0.025, "\(play): \(sounding) s of 0.5 sounded: \(Signals.separateSounds(samples, rate: 48_000))")
            let left = stride(from: 0, to: samples.count, by: 2).map { samples[$0] }
            let right = stride(from: 1, to: samples.count, by: 2).map { samples[$0] }
            let start = try #require(AudioQueueDeviceTests.onset(left), "\(play): nothing heard")
            let body = start + 2_400..<start + 19_200
            #expect(abs(Signals.medianFrequency(Array(left[body]), rate: 48_000) - 440) < 3, "\(play)")
            for side in [left, right] {
                #expect(abs(Signals.rms(side[body]) - 0.5 / 2.squareRoot()) < 0.03, "\(play): level \(Signals.rms(side[body]))")
            }
        }

        /// Apple's offline render into an Extended Audio File: 16-bit stereo PCM comes out sample
        /// for sample as it went in, and AAC as the tone, the same bytes from run to run.
        @Test func theOfflineRenderWritesTheFile() throws {
            let work = try Self.workDirectory()
            defer { try? FileManager.default.removeItem(at: work) }
            let pcm = try Self.tone("tone.wav", .wavPCM16, channels: 2, in: work)
            let rendered = work.appendingPathComponent("rendered.caf")
            let frames = try QueueFilePlayer(url: pcm).renderOffline(to: rendered)
            #expect(frames == 22_050)
            let original = try SoundFile(path: pcm.path).readAll(), out = try SoundFile(path: rendered.path).readAll()
            #expect(out.channels == 2 && out.sampleRate == 44_100)
            #expect(Signals.difference(out.samples, original.samples) == nil, "the PCM render is the file")
            guard FFmpeg.isAvailable else { return }
            let aac = try Self.tone("tone.m4a", .m4aAAC, channels: 2, in: work)
            let first = work.appendingPathComponent("aac-1.caf"), second = work.appendingPathComponent("aac-2.caf")
            let aacFrames = try QueueFilePlayer(url: aac).renderOffline(to: first)
            #expect(try QueueFilePlayer(url: aac).renderOffline(to: second) == aacFrames)
            #expect(try Data(contentsOf: first) == Data(contentsOf: second), "the AAC render is bit-exact from run to run")
            let decoded = try SoundFile(path: first.path).readAll()
            let left = decoded.channel(0)
            #expect(abs(Double(Signals.soundingFrames(decoded.samples)) / 44_100 - 0.5) < 0.03, "\(aacFrames) frames rendered")
            let start = try #require(AudioQueueDeviceTests.onset(left), "the AAC render holds the tone")
            #expect(abs(Signals.frequency(Array(left[(start + 2_000)..<(start + 18_000)]), rate: 44_100) - 440) < 3)
        }

        /// The books' synchronised start: two players, one panned left and one right, started for
        /// one time of the device's clock a tenth of a second ahead, are heard from the same frame.
        @Test func twoPlayersStartedForOneTimeSoundTogether() throws {
            let work = try Self.workDirectory()
            defer { try? FileManager.default.removeItem(at: work) }
            let rig = try Rig()
            let low = try QueueFilePlayer(url: Self.tone("low.wav", .wavPCM16, frequency: 660, seconds: 0.3, in: work))
            let high = try QueueFilePlayer(url: Self.tone("high.wav", .wavPCM16, frequency: 880, seconds: 0.3, in: work), callbacks: .dispatchQueue)
            try low.setPan(-1)
            try high.setPan(1)
            _ = try rig.render(0.1)
            try QueueFilePlayer.startTogether([low, high], lead: 0.1)
            let mix = try rig.render(0.8)
            let left = mix.channel(0), right = mix.channel(1)
            let leftStart = try #require(AudioQueueDeviceTests.onset(left), "the left player was heard")
            let rightStart = try #require(AudioQueueDeviceTests.onset(right), "the right player was heard")
            #expect(abs(leftStart - rightStart) <= 1, "left from frame \(leftStart), right from \(rightStart)")
            #expect(abs(leftStart - 4_800) < 1_200, "a tenth of a second ahead: heard at frame \(leftStart)")
            #expect(abs(Signals.frequency(Array(left[(leftStart + 1_000)..<(leftStart + 12_000)]), rate: 48_000) - 660) < 3)
            #expect(abs(Signals.frequency(Array(right[(rightStart + 1_000)..<(rightStart + 12_000)]), rate: 48_000) - 880) < 3)
            // Each on its own side: the other player's tone is not heard there.
            let body = (leftStart + 1_000)..<(leftStart + 12_000)
            #expect(Signals.toneLevel(left[body], frequency: 880, rate: 48_000) < 0.05 * Signals.toneLevel(right[body], frequency: 880, rate: 48_000))
            #expect(Signals.toneLevel(right[body], frequency: 660, rate: 48_000) < 0.05 * Signals.toneLevel(left[body], frequency: 660, rate: 48_000))
        }

        /// SpeakHere's recorder with the dispatch-queue block: what the device plays (its input
        /// here is its own mix) is written as AAC in CAF through Audio File Services, the cookie
        /// with it, and decodes to the tone.
        @Test(.enabled(if: FFmpeg.isAvailable)) func theRecorderWritesWhatThePlayerPlays() throws {
            let work = try Self.workDirectory()
            defer { try? FileManager.default.removeItem(at: work) }
            let rig = try Rig()
            let session = try CompatOutput.session()
            session.setCategory(.playAndRecord)
            defer { session.setCategory(.soloAmbient) }
            let url = work.appendingPathComponent("recording.caf")
            let recorder = try QueueRecorder(url: url)
            #expect(recorder.recordFormat.mFramesPerPacket == 1_024, "the queue completed the AAC format")
            let player = try QueueFilePlayer(url: Self.tone("tone.wav", .wavPCM16, frequency: 1_000, seconds: 0.6, in: work))
            try recorder.start()
            try player.start()
            _ = try rig.render(1.2)
            try recorder.stop()
            // Half a second of packets a buffer (its bytes sized for 22 packets at the largest).
            #expect(recorder.packetsWritten > 30 && recorder.blocks >= 3, "\(recorder.packetsWritten) packets in \(recorder.blocks) blocks")
            print("the Swift recorder: \(recorder.packetsWritten) packets in \(recorder.blocks) blocks for 1.2 s")
            let decoded = try SoundFile(path: url.path).readAll()
            let start = try #require(AudioQueueDeviceTests.onset(decoded.samples), "the tone is in the recording")
            let tone = Array(decoded.samples[(start + 4_000)..<min(decoded.samples.count, start + 20_000)])
            #expect(abs(Signals.frequency(tone, rate: 44_100) - 1_000) < 5)
            #expect(abs(Signals.rms(tone) - 0.5 / 2.squareRoot()) < 0.05, "\(Signals.rms(tone))")
        }
    }
}
