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

    /// Audio at another rate and channel count (a 48 kHz stereo mix, written in odd chunks as a
    /// recording writes it) is mixed to mono and resampled to 8 kHz as it comes: the file says
    /// 8 kHz mono, holds a sixth of the frames, and the sung vowel keeps its pitch (within 2 %)
    /// and its shape (segmental SNR against the 8 kHz original above 5 dB, as written directly).
    @Test(ILBCEncoderTests.needsFFmpeg, arguments: [48_000, 44_100])
    func otherRatesAndChannelsAreConvertedAsTheyCome(_ rate: Int) throws {
        let dir = try Fixtures.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let vowel = SpeechSignals.vowel(f0: 200, seconds: 1)
        let high = AudioBuffer(samples: vowel, channels: 1, sampleRate: 8_000).resampled(to: rate).remixed(toChannels: 2)
        let path = dir.appendingPathComponent("mix.caf").path
        let writer = try SoundFileWriter(path: path, format: .cafILBC, sampleRate: rate, channels: 2)
        var at = 0
        while at < high.frames {
            let n = min(1_001, high.frames - at)
            try high.samples[(2 * at)..<(2 * (at + n))].withUnsafeBufferPointer { try writer.write(interleaved: $0) }
            at += n
        }
        try writer.finish()
        #expect(writer.framesWritten == Int64(high.frames))
        let file = try SoundFile(path: path)
        #expect(file.format.sampleRate == 8_000 && file.format.channels == 1)
        let expected = (Double(high.frames) * 8_000 / Double(rate)).rounded()
        #expect(abs(Double(file.format.frames) - expected) <= 1, "\(file.format.frames) frames, \(expected) expected")
        let decoded = try file.readAll().samples
        let pitch = SpeechSignals.pitch(Array(decoded[800..<7_200]))
        #expect(abs(pitch / 200 - 1) < 0.02, "\(pitch) Hz")
        let snr = SpeechSignals.segmentalSNR(reference: vowel, decoded: decoded)
        #expect(snr > 5, "segmental SNR \(snr) dB")
        print("iLBC from \(rate) Hz stereo: \(file.format.frames) frames, pitch \(pitch) Hz, segmental SNR \(snr) dB")
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
