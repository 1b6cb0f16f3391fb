import AudioToolbox
import Foundation
import SoundFile
import Testing
import TestSupport

/// iLBC encoding through Audio Converter Services and Extended Audio File Services, as iOS code
/// records `kAudioFormatiLBC`: any PCM in (resampled to 8 kHz, mixed to mono), 38- or 50-byte
/// packets out, a CAF file FFmpeg's decoder reads.
@Suite struct ILBCConverterTests {
    static func ilbcFormat(bytesPerPacket: UInt32 = 0, framesPerPacket: UInt32 = 0) -> AudioStreamBasicDescription {
        AudioStreamBasicDescription(mSampleRate: 8_000, mFormatID: kAudioFormatiLBC, mFormatFlags: 0, mBytesPerPacket: bytesPerPacket,
                                    mFramesPerPacket: framesPerPacket, mBytesPerFrame: 0, mChannelsPerFrame: 1, mBitsPerChannel: 0, mReserved: 0)
    }

    /// The vowel at `rate` in `channels` identical channels, interleaved.
    static func vowel(rate: Int, channels: Int, seconds: Double = 1) -> [Float] {
        let mono = AudioBuffer(samples: SpeechSignals.vowel(f0: 200, seconds: seconds), channels: 1, sampleRate: 8_000).resampled(to: rate)
        return mono.samples.flatMap { Array(repeating: $0, count: channels) }
    }

    /// A damaged packet in what a converter decodes (its "lost" bit set) is checked before
    /// FFmpeg, which would decode it to noise: it becomes a packet of silence, the packets around
    /// it decode as they are, and the timeline keeps its length.
    @Test(arguments: [ILBCMode.ms20, .ms30])
    func aDamagedPacketIsDecodedAsSilence(_ mode: ILBCMode) throws {
        var encoder = ILBCEncoder(mode: mode)
        let vowel = SpeechSignals.vowel(f0: 200, seconds: 0.6)
        let bytes = encoder.encode(vowel) + encoder.flush()
        var packets = stride(from: 0, to: bytes.count, by: mode.bytesPerFrame).map { Array(bytes[$0..<($0 + mode.bytesPerFrame)]) }
        let damaged = packets.count / 2
        packets[damaged][mode.bytesPerFrame - 1] |= 1
        packets[damaged + 2][mode.bytesPerFrame - 1] |= 1
        let format = Self.ilbcFormat(bytesPerPacket: UInt32(mode.bytesPerFrame), framesPerPacket: UInt32(mode.samplesPerFrame))
        let decoded = try ConverterCodecTests.decode(packets, format: format, cookie: nil, constant: true)
        #expect(decoded.status == noErr)
        #expect(decoded.samples.count == packets.count * mode.samplesPerFrame)
        let frames = mode.samplesPerFrame
        for index in [damaged, damaged + 2] {
            #expect(decoded.samples[(index * frames)..<((index + 1) * frames)].allSatisfy { $0 == 0 }, "packet \(index) is silence")
        }
        #expect(Signals.rms(Array(decoded.samples[((damaged + 1) * frames)..<((damaged + 2) * frames)])) > 0.05, "the packet between decodes")
    }

    @Test(arguments: [(UInt32(0), UInt32(0), 50, 240), (38, 0, 38, 160), (0, 160, 38, 160), (50, 240, 50, 240)])
    func theConverterEncodesILBC(_ bytes: UInt32, _ frames: UInt32, _ expectedBytes: Int, _ expectedFrames: Int) throws {
        try #require(FFmpeg.hasDecoder(named: "ilbc"), "needs FFmpeg's iLBC decoder (libavcodec59, scripts/setup.sh --tests)")
        let input = Self.vowel(rate: 44_100, channels: 2)
        let encoded = try ConverterCodecTests.encode(input, channels: 2, rate: 44_100, to: Self.ilbcFormat(bytesPerPacket: bytes, framesPerPacket: frames))
        #expect(encoded.converterFormat.mBytesPerPacket == UInt32(expectedBytes) && encoded.converterFormat.mFramesPerPacket == UInt32(expectedFrames))
        #expect(encoded.cookie == nil)
        #expect(encoded.packets.count == (8_000 + expectedFrames - 1) / expectedFrames)
        #expect(encoded.packets.allSatisfy { $0.count == expectedBytes })
        let mode = try #require(ILBCMode(bytesPerFrame: expectedBytes))
        for packet in encoded.packets { try ILBCPacket.validate(packet, mode: mode) }

        let decoded = try ConverterCodecTests.decode(encoded.packets, format: Self.ilbcFormat(bytesPerPacket: UInt32(expectedBytes),
                                                                                              framesPerPacket: UInt32(expectedFrames)),
                                                     cookie: nil, constant: true)
        #expect(decoded.status == noErr)
        #expect(decoded.samples.count == encoded.packets.count * expectedFrames)
        let reference = SpeechSignals.vowel(f0: 200, seconds: 1)
        let pitch = SpeechSignals.pitch(Array(decoded.samples[2_400..<7_000]))
        #expect(abs(pitch / 200 - 1) < 0.02, "pitch \(pitch) Hz")
        // The 44.1 kHz round trip shifts the waveform by the resamplers' delays: judged by level.
        let level = Signals.rms(decoded.samples[2_400..<7_000]) / Signals.rms(reference[2_400..<7_000])
        #expect(level > 0.7 && level < 1.3, "level ratio \(level)")
    }

    @Test func extAudioFileWritesILBCInCAF() throws {
        try #require(FFmpeg.hasDecoder(named: "ilbc"), "needs FFmpeg's iLBC decoder (libavcodec59, scripts/setup.sh --tests)")
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("memo.caf")
        // As an iOS voice-memo app: a 48 kHz stereo float client, the file iLBC.
        let input = Self.vowel(rate: 48_000, channels: 2)
        #expect(extWrite(url, type: kAudioFileCAFType, fileFormat: Self.ilbcFormat(), client: floatFormat(rate: 48_000),
                         bytes: bytes(of: input)) == noErr)
        let fileID = try AudioFileWriteTests.open(url)
        let format = property(fileID, kAudioFilePropertyDataFormat, AudioStreamBasicDescription()).1
        AudioFileClose(fileID)
        #expect(format.mFormatID == kAudioFormatiLBC && format.mSampleRate == 8_000 && format.mChannelsPerFrame == 1)
        #expect(format.mBytesPerPacket == 50 && format.mFramesPerPacket == 240)

        let file = try SoundFile(path: url.path)
        #expect(file.format.encoding == .ilbc && file.format.sampleRate == 8_000 && file.format.channels == 1)
        let decoded = try file.readAll().samples
        #expect(abs(decoded.count - 8_000) <= 240, "\(decoded.count) frames")
        let pitch = SpeechSignals.pitch(Array(decoded[2_400..<7_000]))
        #expect(abs(pitch / 200 - 1) < 0.02, "pitch \(pitch) Hz")
    }
}
