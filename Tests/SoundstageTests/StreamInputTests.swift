import Foundation
import Testing
@testable import Soundstage
import SoundFile
import TestSupport

/// Streaming sources that read a pipe as it arrives (``Scene/makeStreamingSource(reading:name:options:)``),
/// heard on loopback renders against the same file streamed from disk.
@Suite struct StreamInputTests {
    static let streamable: [OutputFormat] = [.wavPCM16, .auPCM16, .aiffPCM16, .w64PCM16, .flac, .oggVorbis, .mp3]

    private func temporary(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("soundstage-pipe-\(getpid())-\(UUID().uuidString.prefix(6))-\(name)").path
    }

    /// A pipe whose writer thread sends `bytes` in small pieces, then closes (after `stall`
    /// seconds of waiting half-way, if given). Returns the read end.
    private func pipe(sending bytes: [UInt8], closingEarlyAt cut: Int? = nil) throws -> Int32 {
        var fds: [Int32] = [0, 0]
        guard Glibc.pipe(&fds) == 0 else { throw SoundstageError(.io, "pipe failed") }
        let writer = fds[1]
        let end = cut ?? bytes.count
        Thread {
            var sent = 0
            while sent < end {
                let n = bytes[sent..<min(end, sent + 4_096)].withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
                if n <= 0 { break }
                sent += n
            }
            close(writer)
        }.start()
        return fds[0]
    }

    /// Renders `source` until it stops (at most `limit` seconds), plus 0.1 s.
    private func renderToTheEnd(_ source: Source, on device: Device, limit: Double = 10) throws -> [Float] {
        var samples: [Float] = []
        var rendered = 0.0
        while source.playbackState == .playing && rendered < limit {
            samples += try device.render(frames: 4_800).samples
            rendered += 0.1
        }
        samples += try device.render(frames: 4_800).samples
        return samples
    }

    /// Every format that can be parsed front to back plays from a pipe exactly as from its file.
    @Test(arguments: streamable)
    func aPipePlaysAsItsFileDoes(_ format: OutputFormat) throws {
        let path = temporary("tone.\(format.container.rawValue)")
        defer { unlink(path) }
        try SoundFileWriter.write(Signals.twoTone(440, 880, seconds: 1.5), to: path, format: format)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))

        let reference = try Device.loopback()
        defer { reference.close() }
        let fromFile = try reference.makeScene().makeStreamingSource(file: path)
        try fromFile.play()
        let expected = try renderToTheEnd(fromFile, on: reference)

        let device = try Device.loopback()
        defer { device.close() }
        let descriptor = try pipe(sending: bytes)
        defer { close(descriptor) }
        let fromPipe = try device.makeScene().makeStreamingSource(reading: descriptor, name: "pipe")
        try fromPipe.play()
        let heard = try renderToTheEnd(fromPipe, on: device)
        #expect(fromPipe.streamError == nil)
        #expect(heard.count == expected.count, "\(heard.count / 2) frames from the pipe, \(expected.count / 2) from the file")
        let largest = zip(heard, expected).map { abs($0 - $1) }.max() ?? 1
        #expect(largest < 1e-6, "largest difference \(largest)")
        #expect(Signals.rms(heard) > 0.1)
    }

    /// A format that needs seeking is a clear error naming it; so is data that is not audio.
    @Test func whatCannotBeStreamedIsNamed() throws {
        let path = temporary("tone.caf")
        defer { unlink(path) }
        try SoundFileWriter.write(Signals.sine(440, seconds: 0.5), to: path, format: .cafPCM16)
        let device = try Device.loopback()
        defer { device.close() }
        let scene = try device.makeScene()
        let caf = try pipe(sending: try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))))
        defer { close(caf) }
        let error = try #require(throws: SoundstageError.self) { try scene.makeStreamingSource(reading: caf, name: "caf in") }
        #expect(error.code == .unsupportedFormat && error.message.contains("CAF") && error.message.contains("seeking"), "\(error)")
        let garbage = try pipe(sending: [UInt8](repeating: 0x41, count: 10_000))
        defer { close(garbage) }
        let notAudio = try #require(throws: SoundstageError.self) { try scene.makeStreamingSource(reading: garbage, name: "text") }
        #expect(notAudio.code == .unsupportedFormat, "\(notAudio)")
        #expect(device.liveObjects.sources == 0 && device.liveObjects.buffers == 0, "a refused stream holds no OpenAL object")
    }

    /// A pipe plays once, from its start: looping is refused when the source is made, replaying
    /// or seeking when asked; a writer that stops half-way ends the sound with what came.
    @Test func aPipePlaysOnceAndEndsWithItsWriter() throws {
        let path = temporary("tone.wav")
        defer { unlink(path) }
        try SoundFileWriter.write(Signals.sine(440, seconds: 1), to: path, format: .wavPCM16)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let device = try Device.loopback()
        defer { device.close() }
        let scene = try device.makeScene()
        var looping = StreamOptions()
        looping.loops = true
        let first = try pipe(sending: bytes)
        defer { close(first) }
        #expect(throws: SoundstageError.self) { try scene.makeStreamingSource(reading: first, options: looping) }

        let cut = try pipe(sending: bytes, closingEarlyAt: 44 + 2 * 24_000)     // half the audio
        defer { close(cut) }
        let source = try scene.makeStreamingSource(reading: cut, name: "half")
        try source.play()
        let heard = try renderToTheEnd(source, on: device)
        let sounding = Signals.soundingSeconds(heard)
        #expect(abs(sounding - 0.5) < 0.02, "heard \(sounding) s of the half that was sent")
        let replay = try #require(throws: SoundstageError.self) { try source.play() }
        #expect(replay.code == .invalidArgument && replay.message.contains("plays once"), "\(replay)")
        #expect(throws: SoundstageError.self) { try source.seek(to: 0.1) }
        source.isLooping = true
        #expect(!source.isLooping && scene.lastRefusedValue?.property == "Source.isLooping")
    }
}

extension StreamInputTests {
    /// A writer that stalls (keeps the pipe open, sends nothing more) holds nothing once the
    /// source is gone: the waits end, and the pipe's read side is closed (the writer gets EPIPE).
    /// Both readers: FLAC's, and the relay the other formats go through.
    @Test(arguments: [OutputFormat.wavPCM16, .flac])
    func aStalledWriterHoldsNothingOnceTheSourceIsGone(_ format: OutputFormat) throws {
        signal(SIGPIPE, SIG_IGN)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("soundstage-stall-\(getpid())-\(format.name)").path
        defer { unlink(path) }
        try SoundFileWriter.write(Signals.sine(440, seconds: 2), to: path, format: format)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        var fds: [Int32] = [0, 0]
        #expect(Glibc.pipe(&fds) == 0)
        defer { close(fds[1]) }
        let sent = bytes.count / 3
        _ = bytes[0..<sent].withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) }     // a third, then nothing
        let device = try Device.loopback()
        defer { device.close() }
        do {
            let scene = try device.makeScene()
            let source = try scene.makeStreamingSource(reading: fds[0])
            close(fds[0])                       // the source reads its own copy
            try source.play()
            let heard = try device.render(frames: 2_400)
            #expect(Signals.rms(heard, channel: 0) > 0.05, "it plays what came before the stall")
            scene.close()
        }
        let deadline = Date().addingTimeInterval(5)
        var closed = false
        while !closed && Date() < deadline {
            var byte: UInt8 = 0
            closed = write(fds[1], &byte, 1) < 0 && errno == EPIPE
            if !closed { usleep(20_000) }
        }
        #expect(closed, "the read side was closed once the source was gone (its reader let go)")
    }
}
