import Foundation
@testable import Soundstage
import SoundFile
import Testing
import TestSupport

/// An iOS game's AAC and ALAC assets, heard where every file goes: buffers, streaming sources
/// (the same samples, seamless loops), the system-sound registry and scene files.
@Suite(.serialized, .enabled(if: FFmpeg.isAvailable, "FFmpeg's libraries are not installed")) struct AACPlaybackTests {
    /// A non-repeating mono signal (a sweep) of `seconds` as AAC in M4A.
    static func sweep(seconds: Double, in dir: URL, name: String = "sweep.m4a", format: OutputFormat = .m4aAAC) throws -> String {
        let rate = 48_000, n = Int(seconds * Double(rate))
        let samples = (0..<n).map { i -> Float in
            let t = Double(i) / Double(rate)
            return Float(0.4 * sin(2 * Double.pi * (300 * t + 200 * t * t)))
        }
        let path = dir.appendingPathComponent(name).path
        try SoundFileWriter.write(AudioBuffer(samples: samples, channels: 1, sampleRate: rate), to: path, format: format)
        return path
    }

    static func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("aac-\(UUID())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func aStreamedAACSourcePlaysTheSameSamplesAsItsBufferAndLoopsSeamlessly() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try Self.sweep(seconds: 3, in: dir)
        let staticDevice = try Device.loopback(), streamDevice = try Device.loopback()
        defer { staticDevice.close(); streamDevice.close() }
        let buffer = try staticDevice.buffer(file: path)
        #expect(buffer.frames == 144_000)
        let reference = try staticDevice.makeScene().makeSource(buffer: buffer)
        let stream = try streamDevice.makeScene().makeStreamingSource(file: path)
        #expect(stream.isStreaming)
        try reference.play()
        try stream.play()
        let a = try staticDevice.render(frames: 96_000), b = try streamDevice.render(frames: 96_000)
        #expect(a.samples == b.samples)
        #expect(Signals.rms(a, channel: 0) > 0.1)
        // A seek lands on the same sample in both. (Within the noise FFmpeg's AAC decoder
        // substitutes, which a seek cannot replay: far below -60 dB; one frame off is the sweep's
        // own step, 0.01 and more.)
        func close(_ a: AudioBuffer, _ b: AudioBuffer) -> Float { zip(a.samples, b.samples).map { abs($0 - $1) }.max() ?? 1 }
        try reference.seek(to: 1.25)
        try stream.seek(to: 1.25)
        #expect(close(try staticDevice.render(frames: 24_000), try streamDevice.render(frames: 24_000)) < 1e-3)
        // Looped: past the end it goes on at the start, with no gap and no priming.
        stream.isLooping = true
        reference.isLooping = true
        try reference.seek(to: 2.5)
        try stream.seek(to: 2.5)
        let looped = try streamDevice.render(frames: 48_000), straight = try staticDevice.render(frames: 48_000)
        #expect(close(looped, straight) < 1e-3)
        let seam = 24_000  // 0.5 s after 2.5 s: the end of the file
        let afterSeam = Array(looped.channel(0)[seam..<(seam + 2400)])
        #expect(Signals.rms(afterSeam) > 0.1, "the loop goes on at once, no silent priming")
    }

    @Test func aLoopedAACBufferHasNoGapOrClick() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // 480 Hz fits 1 s exactly: looped, one continuous sine.
        let tone = Tone(frequency: 480, amplitude: 0.5)
        let path = dir.appendingPathComponent("loop.m4a").path
        let loop = tone.render(seconds: 1, sampleRate: 48_000, fades: false)
        let writer = try SoundFileWriter(path: path, format: .m4aAAC, sampleRate: 48_000, channels: 1, bitRate: 192_000)
        try writer.write(loop)
        try writer.finish()
        let device = try Device.loopback()
        defer { device.close() }
        let source = try device.makeScene().makeSource(buffer: try device.buffer(file: path))
        source.isLooping = true
        try source.play()
        let mix = try device.render(frames: 144_000).channel(0)
        // Every 1 ms window across three loops keeps the tone's level: no gap at either seam.
        for start in stride(from: 0, to: mix.count - 48, by: 48) {
            let level = Signals.rms(mix[start..<(start + 48)])
            #expect(level > 0.1, "a dip at frame \(start)")
            if level <= 0.1 { break }
        }
        // No click: at the seams the wave steps no further than anywhere else.
        let steps = (1..<mix.count).map { abs(mix[$0] - mix[$0 - 1]) }
        let body = steps[1000..<47_000].max() ?? 0
        for seam in [48_000, 96_000] {
            #expect(steps[(seam - 4)..<(seam + 4)].max()! <= body * 1.5, "a click at the seam at \(seam)")
        }
        #expect(abs(Signals.frequency(Array(mix), rate: 48_000) - 480) < 0.05)
    }

    @Test func theSystemSoundRegistryPlaysAnM4A() throws {
        let rig = try SoundRig()
        let id = try rig.registry.register(file: try rig.file("click.m4a", seconds: 0.2, format: .m4aAAC))
        try rig.registry.play(id)
        let mix = try rig.render(0.4)
        #expect(Signals.rms(mix.slice(frames: 0..<9_000), channel: 0) > 0.1)
        #expect(abs(Signals.frequency(mix.slice(frames: 1_000..<9_000), channel: 0) - 440) < 1)
        let alac = try rig.registry.register(file: try rig.file("click-alac.m4a", format: .m4aALAC))
        #expect(alac != id)
    }
}
