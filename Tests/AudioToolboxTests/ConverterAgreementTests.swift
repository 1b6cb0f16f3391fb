import AudioToolbox
import Foundation
import Testing

/// The same file decoded two ways gives the same samples: packets read with
/// AudioFileReadPacketData and decoded by AudioConverterFillComplexBuffer (trimmed by the file's
/// packet table, as ExtAudioFile trims), and SoundFile's own decode.
@Suite struct ConverterAgreementTests {
    @Test(arguments: ["aac", "mp3"])
    func audioFileAndConverterDecodeWhatSoundFileDecodes(_ kind: String) throws {
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try AudioFileFixture.write(frames: 30_000, channels: 2, kind == "aac" ? .m4aAAC : .mp3, name: "agree.\(kind == "aac" ? "m4a" : "mp3")",
                                             in: directory)
        let file = try ConverterCodecTests.packets(of: url)
        let decoded = try ConverterCodecTests.decode(file.packets, format: file.format, cookie: file.cookie)
        #expect(decoded.status == noErr)
        let start = Int(file.priming) * 2
        let theirs = try AudioFileFixture.decoded(url)
        #expect(file.valid == Int64(theirs.count / 2), "\(kind): the packet table's \(file.valid) frames, SoundFile's \(theirs.count / 2)")
        let ours = Array(decoded.samples[start..<min(decoded.samples.count, start + theirs.count)])
        #expect(ours.count == theirs.count)
        let difference = zip(ours, theirs).map { abs($0 - $1) }.max() ?? 1
        // AAC: both are FFmpeg's decoder writing the same 32-bit floats (the converter carries them
        // as Doubles, which round-trips a Float exactly): no difference at all. MP3: SoundFile
        // decodes through libsndfile's mpg123, the converter through FFmpeg's mp3float: two
        // decoders' float synthesis filterbanks, whose rounding differs by about 1.5e-6 of full
        // scale here; 1e-5 allows for other signals and is still 100 dB below full scale.
        let tolerance: Float = kind == "aac" ? 0 : 1e-5
        #expect(difference <= tolerance, "\(kind): the largest difference is \(difference)")
        print("ConverterAgreementTests: \(kind): \(ours.count / 2) frames, largest difference \(difference)")
    }
}
