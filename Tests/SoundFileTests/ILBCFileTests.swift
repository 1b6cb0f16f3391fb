import Foundation
import Testing
@testable import SoundFile
import SoundstageErrors
import TestSupport

/// CAF files with iLBC packets, as iOS writes them, through ``SoundFileWriter``; read back by
/// FFmpeg (the tool, and Soundstage's own reader through FFmpeg's libraries).
@Suite struct ILBCFileTests {
    /// The `desc` chunk's fields of a CAF file.
    static func description(_ path: String) throws -> (rate: Double, id: String, flags: UInt32, bytes: UInt32, frames: UInt32, channels: UInt32, bits: UInt32) {
        let b = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(b.count > 40 && b[0..<4].elementsEqual("caff".utf8) && b[8..<12].elementsEqual("desc".utf8))
        return (Double(bitPattern: b.readBigEndian(UInt64.self, at: 20)), String(decoding: b[28..<32], as: UTF8.self),
                b.readBigEndian(UInt32.self, at: 32), b.readBigEndian(UInt32.self, at: 36), b.readBigEndian(UInt32.self, at: 40),
                b.readBigEndian(UInt32.self, at: 44), b.readBigEndian(UInt32.self, at: 48))
    }

    @Test(ILBCEncoderTests.needsFFmpeg, arguments: [(nil, ILBCMode.ms30), (13_330, .ms30), (15_200, .ms20)] as [(Int?, ILBCMode)])
    func writesCAFAsIOSDoes(_ bitRate: Int?, _ mode: ILBCMode) throws {
        let dir = try Fixtures.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let vowel = SpeechSignals.vowel(f0: 200, seconds: 1.01)
        let path = dir.appendingPathComponent("voice.caf").path
        let writer = try SoundFileWriter(path: path, format: .cafILBC, sampleRate: 8_000, channels: 1, bitRate: bitRate)
        // Odd-sized writes: frames straddle them.
        var at = 0
        while at < vowel.count {
            let n = min(777, vowel.count - at)
            try vowel[at..<(at + n)].withUnsafeBufferPointer { try writer.write(interleaved: $0) }
            at += n
        }
        try writer.finish()
        #expect(writer.framesWritten == Int64(vowel.count))

        let desc = try Self.description(path)
        #expect(desc.rate == 8_000 && desc.id == "ilbc" && desc.flags == 0 && desc.channels == 1 && desc.bits == 0)
        #expect(Int(desc.bytes) == mode.bytesPerFrame && Int(desc.frames) == mode.samplesPerFrame)
        #expect(try ILBCSignals.probeCodec(path) == "ilbc")

        let packets = (vowel.count + mode.samplesPerFrame - 1) / mode.samplesPerFrame
        let decoded = try ILBCSignals.decodeWithFFmpeg(path, in: dir)
        #expect(decoded.count == packets * mode.samplesPerFrame || decoded.count == vowel.count,
                "ffmpeg decoded \(decoded.count) samples of \(packets) packets")
        #expect(SpeechSignals.segmentalSNR(reference: vowel, decoded: decoded) > 5)

        // Soundstage's reader (FFmpeg's decoder, the CAF's packet table for the length).
        let file = try SoundFile(path: path)
        #expect(file.format.encoding == .ilbc && file.format.container == .caf)
        #expect(file.format.sampleRate == 8_000 && file.format.channels == 1)
        let read = try file.readAll()
        #expect(read.frames == vowel.count)
        #expect(SpeechSignals.segmentalSNR(reference: vowel, decoded: read.samples) > 5)
    }

    @Test func refusesWhatIsNotEightKilohertzMono() throws {
        let dir = try Fixtures.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("x.caf").path
        #expect(throws: SoundstageError.self) { try SoundFileWriter(path: path, format: .cafILBC, sampleRate: 44_100, channels: 1) }
        #expect(throws: SoundstageError.self) { try SoundFileWriter(path: path, format: .cafILBC, sampleRate: 8_000, channels: 2) }
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(OutputFormat(name: "caf-ilbc") == .cafILBC)
    }

    @Test(ILBCEncoderTests.needsFFmpeg)
    func wholeBuffersAreConvertedFirst() throws {
        let dir = try Fixtures.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("stereo.caf").path
        try SoundFileWriter.write(Fixtures.stereo, to: path, format: .cafILBC)
        let file = try SoundFile(path: path)
        #expect(file.format.sampleRate == 8_000 && file.format.channels == 1 && file.format.frames == 4_000)
    }

    /// A CAF file whose iLBC packets are damaged is refused with `.corruptData`, not decoded to noise.
    @Test(ILBCEncoderTests.needsFFmpeg)
    func damagedPacketsAreRefused() throws {
        let dir = try Fixtures.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("voice.caf").path
        try SoundFileWriter.write(AudioBuffer(samples: SpeechSignals.vowel(f0: 150, seconds: 0.5), channels: 1, sampleRate: 8_000),
                                  to: path, format: .cafILBC)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        bytes[bytes.count - 1] |= 1   // the last frame's "lost" bit
        let damaged = dir.appendingPathComponent("damaged.caf").path
        try Data(bytes).write(to: URL(fileURLWithPath: damaged))
        #expect {
            _ = try SoundFile(path: damaged).readAll()
        } throws: { ($0 as? SoundstageError)?.code == .corruptData }
    }
}
