import Foundation
import SoundFile
import Testing
import TestSupport

/// Every example program runs with `--render FILE`, and what it rendered is measured: each one
/// must still do what its first comment says (as swift-argument-parser tests its examples).
@Suite struct ExampleTests {
    /// Runs the example `name` (built beside `soundstage`) rendering to a file; returns the audio and stdout.
    private func render(_ name: String) throws -> (audio: AudioBuffer, stdout: String) {
        let dir = try CLIRunner.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("\(name).wav").path
        let result = try CLIRunner.run(["--render", path], program: name)
        #expect(result.status == 0, "\(name): \(result.stderr)")
        #expect(result.stdout.contains("rendered"), "\(name) says where it rendered: \(result.stdout)")
        return (try SoundFile.decode(path: path), result.stdout)
    }

    /// The RMS of one channel between two times, in seconds.
    private func rms(_ audio: AudioBuffer, _ channel: Int, _ from: Double, _ to: Double) -> Double {
        Signals.rms(audio.channel(channel)[Int(from * Double(audio.sampleRate))..<Int(to * Double(audio.sampleRate))])
    }

    /// Both channels' RMS between two times.
    private func level(_ audio: AudioBuffer, _ from: Double, _ to: Double) -> Double {
        (rms(audio, 0, from, to) + rms(audio, 1, from, to)) / 2
    }

    /// orbit: the bee starts in front, is on the right a second later, behind at 2 s, on the left at 3 s.
    @Test func orbitCirclesTheListener() throws {
        let (audio, _) = try render("orbit")
        #expect(audio.channels == 2)
        #expect(abs(audio.duration - 8) < 0.05, "\(audio.duration)")
        #expect(rms(audio, 1, 0.9, 1.1) > 3 * rms(audio, 0, 0.9, 1.1), "on the right at 1 s")
        #expect(rms(audio, 0, 2.9, 3.1) > 3 * rms(audio, 1, 2.9, 3.1), "on the left at 3 s")
        #expect(rms(audio, 1, 4.9, 5.1) > 3 * rms(audio, 0, 4.9, 5.1), "round again: on the right at 5 s")
        let front = rms(audio, 0, 0, 0.1) / rms(audio, 1, 0, 0.1)
        #expect(front > 0.8 && front < 1.25, "in front at 0 s, both sides alike: \(front)")
    }

    /// walk-past: the radio on the right, loudest as the listener passes it at 5 s; the footsteps
    /// (head-relative, straight below) in both ears alike.
    @Test func walkPastPassesARadioOnTheRight() throws {
        let (audio, _) = try render("walk-past")
        #expect(abs(audio.duration - 10) < 0.05)
        #expect(rms(audio, 1, 4.5, 5.5) > 1.5 * rms(audio, 0, 4.5, 5.5), "the radio is on the right")
        #expect(level(audio, 4.5, 5.5) > 1.5 * level(audio, 0, 1), "louder when passing than 10 m before")
        #expect(level(audio, 4.5, 5.5) > 1.5 * level(audio, 9, 10), "and than 10 m after")
    }

    /// car-pass: the engine's pitch drops as the car passes (Doppler at 20 m/s: 343/323 before,
    /// 343/363 after, a ratio of 1.12), and it goes from the left to the right.
    @Test func carPassDropsInPitchAsItPasses() throws {
        let (audio, _) = try render("car-pass")
        #expect(abs(audio.duration - 6) < 0.05)
        let rate = audio.sampleRate
        func pitch(_ from: Double) -> Double {
            Signals.frequency(Array(audio.channel(0)[Int(from * Double(rate))..<Int((from + 1) * Double(rate))]), rate: rate)
                + Signals.frequency(Array(audio.channel(1)[Int(from * Double(rate))..<Int((from + 1) * Double(rate))]), rate: rate)
        }
        let ratio = pitch(0.5) / pitch(4.5)
        #expect(ratio > 1.09 && ratio < 1.16, "approaching / receding pitch: \(ratio)")
        #expect(rms(audio, 0, 1, 2) > 2 * rms(audio, 1, 1, 2), "coming from the left")
        #expect(rms(audio, 1, 4, 5) > 2 * rms(audio, 0, 4, 5), "going to the right")
    }

    /// two-scenes: UI clicks land at 1.0, 1.5 and 4.0 s and the chime at 2.5 s, while the world
    /// fades out over the last two seconds.
    @Test func twoScenesMixesUIOverAFadingWorld() throws {
        let (audio, _) = try render("two-scenes")
        #expect(abs(audio.duration - 5) < 0.05)
        // The game loop fires each on its first tick (60 a second) at or after its time.
        func peak(_ from: Double, _ to: Double) -> Float {
            audio.samples[Int(from * Double(audio.sampleRate)) * 2..<Int(to * Double(audio.sampleRate)) * 2].map(abs).max() ?? 0
        }
        for time in [1.0, 1.5, 4.0] {
            #expect(peak(time, time + 0.04) > 1.5 * peak(time - 0.2, time - 0.01), "a click at \(time) s")
        }
        #expect(level(audio, 2.55, 2.95) > 1.25 * level(audio, 2.1, 2.49), "the chime at 2.5 s (+46 %; the render is deterministic)")
        #expect(level(audio, 4.9, 5) < 0.15 * level(audio, 0.2, 0.9), "the world has faded out")
    }

    /// interruptions: the game ducks to a quarter during voice chat, falls silent during the
    /// cut-scene, and resumes at its former level; the session's events are printed.
    @Test func interruptionsDuckPauseAndResume() throws {
        let (audio, stdout) = try render("interruptions")
        #expect(abs(audio.duration - 7) < 0.05)
        let before = level(audio, 0.5, 1.5)
        #expect(before > 0.01)
        // Ducked to 0.25 from 2 s; by 3.2 s the chat's chime has died away and the game is heard alone.
        let ducked = level(audio, 3.2, 3.45) / before
        #expect(ducked > 0.18 && ducked < 0.32, "ducked to a quarter: \(ducked)")
        let unducked = level(audio, 3.6, 4.4) / before
        #expect(unducked > 0.85 && unducked < 1.15, "back to full level after the chat: \(unducked)")
        #expect(level(audio, 4.6, 5.4) < 1e-4, "silent while interrupted")
        let resumed = level(audio, 5.7, 6.7) / before
        #expect(resumed > 0.7 && resumed < 1.4, "resumed at its level: \(resumed)")
        for event in ["ducked(gain: 0.25)", "unducked", "interruptionBegan", "interruptionEnded(shouldResume: true)"] {
            #expect(stdout.contains("game session: \(event)"), "\(stdout)")
        }
    }
}
