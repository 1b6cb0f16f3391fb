import AudioToolbox
import Foundation
import SoundFile
import Testing

/// Extended Audio File Services reading, written as iOS code reads a file: ExtAudioFileOpenURL,
/// the client format set, FileLengthFrames asked, ExtAudioFileRead in a loop until 0 frames.
@Suite struct ExtAudioFileReadTests {
    /// Every client format the converter writes, read from one 16-bit file and turned back into
    /// Float32 by a converter of its own: integers of 16 bits and more, floats and 8.24 fixed point
    /// hold every 16-bit sample exactly, so they must come back exactly; 8-bit ones within half of
    /// their step (the rounding).
    static let clientFormats: [(String, AudioStreamBasicDescription)] = [
        ("unsigned 8", pcmFormat(bits: 8, signed: false)),
        ("signed 8", pcmFormat(bits: 8)),
        ("16 LE", pcmFormat(bits: 16)),
        ("16 BE", pcmFormat(bits: 16, bigEndian: true)),
        ("16 non-interleaved", pcmFormat(bits: 16, nonInterleaved: true)),
        ("24 packed LE", pcmFormat(bits: 24)),
        ("24 packed BE", pcmFormat(bits: 24, bigEndian: true)),
        ("24 in 32, high", pcmFormat(bits: 24, container: 32, alignedHigh: true)),
        ("24 in 32, low", pcmFormat(bits: 24, container: 32)),
        ("32 LE", pcmFormat(bits: 32)),
        ("32 BE non-interleaved", pcmFormat(bits: 32, bigEndian: true, nonInterleaved: true)),
        ("float 32", pcmFormat(bits: 32, float: true)),
        ("float 32 BE", pcmFormat(bits: 32, float: true, bigEndian: true)),
        ("float 32 non-interleaved (AU canonical)", pcmFormat(bits: 32, float: true, nonInterleaved: true)),
        ("float 64", pcmFormat(bits: 64, float: true)),
        ("float 64 BE non-interleaved", pcmFormat(bits: 64, float: true, bigEndian: true, nonInterleaved: true)),
        ("8.24 fixed non-interleaved", pcmFormat(bits: 32, nonInterleaved: true, fractionBits: 24)),
        ("mono float (the channels' mean)", pcmFormat(channels: 1, bits: 32, float: true)),
        ("four channels 16 (two silent)", pcmFormat(channels: 4, bits: 16)),
    ]

    @Test(arguments: clientFormats.indices)
    func everyClientFormatReadsTheSamples(_ index: Int) throws {
        let (name, client) = Self.clientFormats[index]
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let frames = 9_999
        let url = try AudioFileFixture.write(frames: frames, channels: 2, .wavPCM16, name: "source.wav", in: directory)
        let source = try AudioFileFixture.decoded(url)   // the 16-bit samples, as floats (exact)
        let read = extRead(url, client: client, chunk: 1_234)
        #expect(read.status == noErr, "\(name)")
        #expect(read.frames == frames, "\(name)")
        // Back to interleaved Float32 with the file's two channels' worth.
        let back = convertPCM(read.buffers, from: client, to: pcmFormat(channels: client.mChannelsPerFrame, bits: 32, float: true), chunk: 4_096)
        #expect(back.status == noErr)
        let samples = floats(of: back.output.first ?? [])
        let channels = Int(client.mChannelsPerFrame)
        #expect(samples.count == frames * channels, "\(name)")
        guard samples.count == frames * channels else { return }
        let step: Float = client.mBitsPerChannel == 8 ? 1.0 / 128 : 0
        var worst: Float = 0
        for frame in 0..<frames {
            for channel in 0..<channels {
                let expected: Float
                switch channels {
                case 1: expected = (source[2 * frame] + source[2 * frame + 1]) / 2
                case 2: expected = source[2 * frame + channel]
                default: expected = channel < 2 ? source[2 * frame + channel] : 0
                }
                worst = max(worst, abs(samples[frame * channels + channel] - expected))
            }
        }
        // Mono is a mean of two 16-bit values: exact in a Float32 too.
        #expect(worst <= step / 2 + 1e-7, "\(name): the largest difference is \(worst)")
    }

    @Test func aPCMFileReadInItsOwnFormatIsItsBytes() throws {
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for (format, name) in [(OutputFormat.wavPCM16, "a.wav"), (.aiffPCM16, "a.aiff"), (.wavPCM24, "b.wav"), (.wavFloat32, "c.wav")] {
            let url = try AudioFileFixture.write(frames: 5_000, channels: 2, format, name: name, in: directory)
            var fileID: AudioFileID?
            #expect(AudioFileOpenURL(url as CFURL, .readPermission, 0, &fileID) == noErr)
            let packets = readAllPackets(fileID!)
            AudioFileClose(fileID!)
            let read = extRead(url, client: nil)   // the client format starts as the file's
            #expect(read.status == noErr && read.frames == 5_000, "\(name)")
            #expect(read.buffers.first == packets.bytes, "\(name): not the file's bytes")
        }
    }

    @Test func aCompressedFileGivesExactlyItsValidFrames() throws {
        try #require(FFmpeg.isAvailable)
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for (format, name) in [(OutputFormat.m4aAAC, "a.m4a"), (.m4aALAC, "b.m4a"), (.cafALAC, "c.caf"), (.mp3, "d.mp3"), (.cafIMA4, "e.caf")] {
            let url = try AudioFileFixture.write(frames: 30_001, channels: 2, format, name: name, in: directory)
            var file: ExtAudioFileRef?
            #expect(ExtAudioFileOpenURL(url as CFURL, &file) == noErr)
            var length: Int64 = 0
            var size = UInt32(MemoryLayout<Int64>.size)
            #expect(ExtAudioFileGetProperty(file!, kExtAudioFileProperty_FileLengthFrames, &size, &length) == noErr)
            var client = floatFormat()
            #expect(ExtAudioFileSetProperty(file!, kExtAudioFileProperty_ClientDataFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size),
                                            &client) == noErr)
            let read = extReadAll(file!, format: client)
            #expect(read.status == noErr, "\(name)")
            let theirs = try AudioFileFixture.decoded(url).count / 2
            // What SoundFile's libsndfile and FFmpeg give (their own trimming), and the table's count.
            #expect(read.frames == theirs, "\(name): \(read.frames) frames read, SoundFile decodes \(theirs)")
            #expect(Int64(read.frames) == length, "\(name): FileLengthFrames says \(length)")
            // At the end: 0 frames and noErr, again and again.
            for _ in 0..<3 {
                let more = extReadAll(file!, format: client, limit: 100)
                #expect(more.frames == 0 && more.status == noErr, "\(name)")
            }
            #expect(ExtAudioFileDispose(file!) == noErr)
        }
    }

    @Test func aClientRateResamplesTheValidFramesOnly() throws {
        try #require(FFmpeg.isAvailable)
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for (format, name) in [(OutputFormat.m4aAAC, "a.m4a"), (.wavPCM16, "b.wav"), (.cafALAC, "c.caf")] {
            let url = try AudioFileFixture.write(frames: 22_051, channels: 2, format, name: name, in: directory)
            for rate in [48_000.0, 8_000] {
                let read = extRead(url, client: floatFormat(rate: rate))
                #expect(read.status == noErr)
                // The converter's length rule: ⌈input frames × out / in⌉, the input being the valid frames.
                let expected = Int((22_051 * rate / 44_100).rounded(.up))
                #expect(read.frames == expected, "\(name) at \(rate): \(read.frames)")
            }
        }
    }

    @Test func theToneKeepsItsFrequencyAndLevelThroughAResamplingRead() throws {
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("tone.wav")
        try SoundFileWriter.write(.init(samples: sine(frequency: 1_000, rate: 44_100, frames: 44_100), channels: 1, sampleRate: 44_100),
                                  to: url.path, format: .wavPCM16)
        let read = extRead(url, client: floatFormat(rate: 48_000, channels: 1))
        let samples = floats(of: read.buffers[0])
        #expect(samples.count == 48_000)
        let middle = samples[4_800..<43_200]
        #expect(abs(zeroCrossingFrequency(middle, rate: 48_000) - 1_000) < 0.5)
        #expect(abs(amplitude(of: middle, frequency: 1_000, rate: 48_000) - 0.5) < 0.001)
    }

    /// FFmpeg's CAF muxer counts every Apple Lossless packet as full, the short last one too: the
    /// file promises more frames than its packets decode to. The read keeps the promise in silence,
    /// so FileLengthFrames and the frames read agree (a loader reading FileLengthFrames frames in
    /// one call finds no garbage); the frames that decode are the samples.
    @Test func aPacketTablesPromiseIsKeptInSilence() throws {
        try #require(FFmpeg.isAvailable)
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let samples = sine(frequency: 440, rate: 44_100, frames: 10_000, channels: 1)
        let encoded = try ConverterCodecTests.encode(samples, channels: 1, rate: 44_100, to: compressedFormat(kAudioFormatAppleLossless, channels: 1))
        #expect(encoded.packets.count == 3)   // 4096 + 4096 + 1808 frames
        let bytes = encoded.packets.flatMap { $0 }
        var offset: Int64 = 0
        let descriptions = encoded.packets.map { packet -> AudioStreamPacketDescription in
            defer { offset += Int64(packet.count) }
            return AudioStreamPacketDescription(mStartOffset: offset, mVariableFramesInPacket: 0, mDataByteSize: UInt32(packet.count))
        }
        let url = directory.appendingPathComponent("full.caf")
        try AudioFileWriteTests.create(url, kAudioFileCAFType, encoded.converterFormat, bytes: bytes, descriptions: descriptions, cookie: encoded.cookie,
                                       packetTable: AudioFilePacketTableInfo(mNumberValidFrames: 12_288, mPrimingFrames: 0, mRemainderFrames: 0))
        var file: ExtAudioFileRef?
        #expect(ExtAudioFileOpenURL(url as CFURL, &file) == noErr)
        #expect(extProperty(file!, kExtAudioFileProperty_FileLengthFrames, Int64(0)).1 == 12_288)
        ExtAudioFileDispose(file!)
        let read = extRead(url, client: floatFormat(channels: 1))
        #expect(read.status == noErr && read.frames == 12_288)
        let back = floats(of: read.buffers[0])
        // 16-bit Apple Lossless: the samples to within the 16-bit rounding the encoder's input had.
        #expect(zip(back.prefix(10_000), samples).allSatisfy { abs($0 - $1) <= 1 / 32_768 })
        #expect(back.suffix(2_288).allSatisfy { $0 == 0 })
    }
}
