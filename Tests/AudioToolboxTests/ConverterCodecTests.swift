import AudioToolbox
import Foundation
import Testing

/// Decoding and encoding through Audio Converter Services as iOS code does it: packets read with
/// AudioFileReadPacketData from files ffmpeg made, handed to an input procedure with their
/// descriptions; PCM encoded to µ-law, A-law, IMA4, AAC and Apple Lossless and decoded back.
/// Lossy codecs are judged by frequency, level and length; lossless ones bit for bit.
@Suite struct ConverterCodecTests {
    static let ffmpeg = ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Runs ffmpeg quietly; true when it succeeded.
    static func runFFmpeg(_ arguments: [String]) throws -> Bool {
        guard let ffmpeg else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        process.arguments = ["-v", "error", "-nostdin", "-y"] + arguments
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    /// Opens a file and reads every packet, its description and cookie, as iOS code does.
    static func packets(of url: URL) throws -> (format: AudioStreamBasicDescription, packets: [[UInt8]], cookie: [UInt8]?, priming: Int64, valid: Int64) {
        var file: AudioFileID?
        #expect(AudioFileOpenURL(url as CFURL, .readPermission, 0, &file) == noErr)
        let id = try #require(file)
        defer { AudioFileClose(id) }
        let format = property(id, kAudioFilePropertyDataFormat, AudioStreamBasicDescription()).1
        var cookieSize: UInt32 = 0
        var cookie: [UInt8]?
        if AudioFileGetPropertyInfo(id, kAudioFilePropertyMagicCookieData, &cookieSize, nil) == noErr, cookieSize > 0 {
            var bytes = [UInt8](repeating: 0, count: Int(cookieSize))
            #expect(AudioFileGetProperty(id, kAudioFilePropertyMagicCookieData, &cookieSize, &bytes) == noErr)
            cookie = bytes
        }
        let (status, bytes, descriptions) = readAllPackets(id)
        #expect(status == noErr)
        var table = AudioFilePacketTableInfo()
        let (tableStatus, info) = property(id, kAudioFilePropertyPacketTableInfo, table)
        if tableStatus == noErr { table = info }
        let packets: [[UInt8]]
        if descriptions.isEmpty {
            let size = Int(format.mBytesPerPacket)
            packets = stride(from: 0, to: bytes.count, by: size).map { Array(bytes[$0..<min(bytes.count, $0 + size)]) }
        } else {
            packets = descriptions.map { Array(bytes[Int($0.mStartOffset)..<(Int($0.mStartOffset) + Int($0.mDataByteSize))]) }
        }
        return (format, packets, cookie, Int64(table.mPrimingFrames), table.mNumberValidFrames)
    }

    /// Decodes packets of `format` to interleaved Float32 at the format's rate and channels.
    static func decode(_ packets: [[UInt8]], format: AudioStreamBasicDescription, cookie: [UInt8]?, constant: Bool = false,
                       channels: UInt32? = nil, rate: Double? = nil) throws -> (status: OSStatus, samples: [Float], channels: Int) {
        var source = format
        let outChannels = channels ?? format.mChannelsPerFrame
        var destination = pcmFormat(rate: rate ?? format.mSampleRate, channels: outChannels, bits: 32, float: true)
        var converter: AudioConverterRef?
        let made = AudioConverterNew(&source, &destination, &converter)
        guard made == noErr, let converter else { return (made, [], 0) }
        defer { AudioConverterDispose(converter) }
        if var cookie {
            #expect(AudioConverterSetProperty(converter, kAudioConverterDecompressionMagicCookie, UInt32(cookie.count), &cookie) == noErr)
        }
        let feed = constant ? ConverterFeed(constantPackets: packets.flatMap { $0 }, bytesPerPacket: Int(format.mBytesPerPacket))
                            : ConverterFeed(packets: packets)
        let result = drain(converter, feed, bufferCount: 1, bytesPerPacket: Int(destination.mBytesPerFrame), chunk: 4096)
        return (result.statuses.last ?? noErr, floats(of: result.buffers[0]), Int(outChannels))
    }

    /// Encodes interleaved Float32 PCM to `format`; the packets, their descriptions and the cookie.
    static func encode(_ samples: [Float], channels: UInt32, rate: Double, to format: AudioStreamBasicDescription,
                       setUp: (AudioConverterRef) -> Void = { _ in })
        throws -> (packets: [[UInt8]], descriptions: [AudioStreamPacketDescription], cookie: [UInt8]?, prime: AudioConverterPrimeInfo, converterFormat: AudioStreamBasicDescription) {
        var source = pcmFormat(rate: rate, channels: channels, bits: 32, float: true)
        var destination = format
        var converter: AudioConverterRef?
        #expect(AudioConverterNew(&source, &destination, &converter) == noErr)
        let id = try #require(converter)
        defer { AudioConverterDispose(id) }
        setUp(id)
        var maximum: UInt32 = 0
        var size = UInt32(4)
        #expect(AudioConverterGetProperty(id, kAudioConverterPropertyMaximumOutputPacketSize, &size, &maximum) == noErr)
        let feed = ConverterFeed(pcm: [bytes(of: samples)], bytesPerFrame: Int(source.mBytesPerFrame))
        let variable = format.mFormatID == kAudioFormatMPEG4AAC || format.mFormatID == kAudioFormatAppleLossless
        let result = drain(id, feed, bufferCount: 1, bytesPerPacket: Int(maximum), chunk: 16, compressed: variable)
        #expect(result.statuses.allSatisfy { $0 == noErr })
        var packets = result.packets
        if !variable {
            let size = Int(maximum)
            packets = stride(from: 0, to: result.buffers[0].count, by: size).map { Array(result.buffers[0][$0..<($0 + size)]) }
        }
        var cookie: [UInt8]?
        var cookieSize: UInt32 = 0
        if AudioConverterGetPropertyInfo(id, kAudioConverterCompressionMagicCookie, &cookieSize, nil) == noErr {
            var bytes = [UInt8](repeating: 0, count: Int(cookieSize))
            #expect(AudioConverterGetProperty(id, kAudioConverterCompressionMagicCookie, &cookieSize, &bytes) == noErr)
            cookie = bytes
        }
        var prime = AudioConverterPrimeInfo()
        size = UInt32(MemoryLayout<AudioConverterPrimeInfo>.size)
        #expect(AudioConverterGetProperty(id, kAudioConverterPrimeInfo, &size, &prime) == noErr)
        var current = AudioStreamBasicDescription()
        size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        #expect(AudioConverterGetProperty(id, kAudioConverterCurrentOutputStreamDescription, &size, &current) == noErr)
        return (packets, result.descriptions, cookie, prime, current)
    }

    /// One channel of interleaved samples.
    static func channel(_ samples: [Float], _ index: Int, of channels: Int) -> [Float] {
        stride(from: index, to: samples.count, by: channels).map { samples[$0] }
    }

    // MARK: - G.711 and IMA4

    @Test(arguments: [kAudioFormatULaw, kAudioFormatALaw])
    func g711RoundTripsAndDecodesAsFFmpegDoes(format: AudioFormatID) throws {
        let rate = 8_000.0
        let input = sine(frequency: 440, rate: rate, frames: 8_000, amplitude: 0.6)
        let law = AudioStreamBasicDescription(mSampleRate: rate, mFormatID: format, mFormatFlags: 0, mBytesPerPacket: 1, mFramesPerPacket: 1,
                                              mBytesPerFrame: 1, mChannelsPerFrame: 1, mBitsPerChannel: 8, mReserved: 0)
        let encoded = try Self.encode(input, channels: 1, rate: rate, to: law)
        let bytes = encoded.packets.flatMap { $0 }
        #expect(bytes.count == 8_000)
        let decoded = try Self.decode(encoded.packets, format: law, cookie: nil, constant: true)
        #expect(decoded.status == noErr && decoded.samples.count == 8_000)
        // G.711's error is relative: 8 bits of a logarithm, about 2 % of the value at most.
        for (a, b) in zip(input, decoded.samples) { #expect(abs(a - b) <= max(0.002, abs(a) * 0.07)) }
        #expect(abs(zeroCrossingFrequency(decoded.samples[...], rate: rate) - 440) < 0.5)
        // The decoding is G.711's: bytes FFmpeg's encoder made decode to the values FFmpeg's decoder gives.
        guard Self.ffmpeg != nil else { return }
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let raw = directory.appendingPathComponent("in.raw"), coded = directory.appendingPathComponent("coded.raw"),
            back = directory.appendingPathComponent("back.raw")
        let sixteen = input.map { Int16(max(-32_768, min(32_767, ($0 * 32_768).rounded(.toNearestOrEven)))) }
        try Data(sixteen.withUnsafeBytes { Array($0) }).write(to: raw)
        let name = format == kAudioFormatULaw ? "mulaw" : "alaw"
        #expect(try Self.runFFmpeg(["-f", "s16le", "-ar", "8000", "-ac", "1", "-i", raw.path, "-f", name, coded.path]))
        #expect(try Self.runFFmpeg(["-f", name, "-ar", "8000", "-ac", "1", "-i", coded.path, "-f", "s16le", back.path]))
        let theirBytes = [UInt8](try Data(contentsOf: coded))
        let theirs = int16s(of: [UInt8](try Data(contentsOf: back)))
        let ours = try Self.decode(theirBytes.map { [$0] }, format: law, cookie: nil, constant: true)
        let mismatches = zip(ours.samples, theirs).filter { Int16($0 * 32_768) != $1 }.count
        #expect(ours.samples.count == theirs.count && mismatches == 0, "\(mismatches) samples differ")
        // And the encoder picks the code FFmpeg's does but for values on a decision boundary's
        // other side (G.711 leaves the rounding there to the implementation).
        let differing = zip(bytes, theirBytes).filter { G711Distance($0, $1, format) > 1 }.count
        #expect(differing == 0, "\(differing) codes differ by more than one step")
    }

    @Test func ima4RoundTripsAndDecodesWhatSoundFileWrites() throws {
        let rate = 44_100.0
        let input = sine(frequency: 1_000, rate: rate, frames: 6_400, channels: 2, amplitude: 0.5)
        let ima4 = AudioStreamBasicDescription(mSampleRate: rate, mFormatID: kAudioFormatAppleIMA4, mFormatFlags: 0, mBytesPerPacket: 68,
                                               mFramesPerPacket: 64, mBytesPerFrame: 0, mChannelsPerFrame: 2, mBitsPerChannel: 0, mReserved: 0)
        let encoded = try Self.encode(input, channels: 2, rate: rate, to: ima4)
        #expect(encoded.packets.count == 100 && encoded.packets.allSatisfy { $0.count == 68 })
        let decoded = try Self.decode(encoded.packets, format: ima4, cookie: nil, constant: true)
        #expect(decoded.samples.count == input.count)
        let left = Self.channel(decoded.samples, 0, of: 2)
        #expect(abs(zeroCrossingFrequency(left[640...], rate: rate) - 1_000) < 1)
        #expect(abs(20 * log10(amplitude(of: left[640...], frequency: 1_000, rate: rate) / 0.5)) < 0.5)
        // A CAF of IMA4 that SoundFile wrote: the converter decodes the very samples SoundFile reads.
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try AudioFileFixture.write(frames: 3_200, channels: 2, .cafIMA4, name: "ima4.caf", in: directory)
        let file = try Self.packets(of: url)
        let ours = try Self.decode(file.packets, format: file.format, cookie: nil, constant: true)
        let theirs = try AudioFileFixture.decoded(url)
        #expect(Array(ours.samples.prefix(theirs.count)) == theirs)
    }

    // MARK: - AAC

    @Test func aacEncodesAndDecodesBackWithApplesPriming() throws {
        guard FFmpegIsHere.aacEncoder else { return }
        let rate = 44_100.0, frames = 44_100
        var input = [Float](repeating: 0, count: frames * 2)
        for i in 0..<frames {
            input[2 * i] = Float(0.5 * sin(2 * Double.pi * 1_000 * Double(i) / rate))
            input[2 * i + 1] = Float(0.25 * sin(2 * Double.pi * 3_000 * Double(i) / rate))
        }
        let aac = AudioStreamBasicDescription(mSampleRate: rate, mFormatID: kAudioFormatMPEG4AAC, mFormatFlags: 0, mBytesPerPacket: 0,
                                              mFramesPerPacket: 0, mBytesPerFrame: 0, mChannelsPerFrame: 2, mBitsPerChannel: 0, mReserved: 0)
        let encoded = try Self.encode(input, channels: 2, rate: rate, to: aac) { converter in
            var bitRate: UInt32 = 128_000
            #expect(AudioConverterSetProperty(converter, kAudioConverterEncodeBitRate, UInt32(MemoryLayout<UInt32>.size), &bitRate) == noErr)
        }
        #expect(encoded.converterFormat.mFramesPerPacket == 1024 && encoded.converterFormat.mBytesPerPacket == 0)
        #expect(encoded.prime.leadingFrames == 2_112)
        let packets = encoded.packets
        #expect(packets.count * 1024 == 2_112 + frames + Int(encoded.prime.trailingFrames))
        // The cookie is an ES descriptor, as iOS's encoder gives: Audio Format Services reads it.
        let cookie = try #require(encoded.cookie)
        #expect(cookie.first == 3)
        var described = AudioStreamBasicDescription()
        described.mFormatID = kAudioFormatMPEG4AAC
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        let info = cookie.withUnsafeBytes { AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, UInt32($0.count), $0.baseAddress, &size, &described) }
        #expect(info == noErr && described.mSampleRate == rate && described.mChannelsPerFrame == 2 && described.mFormatFlags == 2)
        // About 128 kb/s.
        let bitsPerSecond = Double(packets.reduce(0) { $0 + $1.count } * 8) / (Double(packets.count * 1024) / rate)
        #expect(bitsPerSecond > 100_000 && bitsPerSecond < 160_000, "\(bitsPerSecond) b/s")

        let decoded = try Self.decode(packets, format: aac, cookie: cookie)
        #expect(decoded.status == noErr)
        #expect(decoded.samples.count == packets.count * 1024 * 2)
        let trimmed = Array(decoded.samples[(2_112 * 2)..<((2_112 + frames) * 2)])
        let left = Self.channel(trimmed, 0, of: 2), right = Self.channel(trimmed, 1, of: 2)
        #expect(abs(zeroCrossingFrequency(left[4_096..<40_000], rate: rate) - 1_000) < 0.5)
        #expect(abs(zeroCrossingFrequency(right[4_096..<40_000], rate: rate) - 3_000) < 1)
        let levelLeft = 20 * log10(amplitude(of: left[4_096..<40_000], frequency: 1_000, rate: rate) / 0.5)
        let levelRight = 20 * log10(amplitude(of: right[4_096..<40_000], frequency: 3_000, rate: rate) / 0.25)
        #expect(abs(levelLeft) < 1 && abs(levelRight) < 1, "\(levelLeft) dB, \(levelRight) dB")
        // Aligned after the priming: the decoded sine is the input's, not shifted.
        var error = 0.0
        for i in 4_096..<8_192 { error = max(error, abs(Double(left[i] - input[2 * i]))) }
        #expect(error < 0.05, "\(error)")
    }

    // MARK: - Apple Lossless

    @Test func appleLosslessEncodesAndDecodesBitForBit() throws {
        guard FFmpegIsHere.alacEncoder else { return }
        let rate = 44_100.0, frames = 10_000
        // 16-bit values (as floats), so the round trip can be exact.
        let input = sine(frequency: 440, rate: rate, frames: frames, channels: 2, amplitude: 0.7).enumerated().map { index, value in
            (Float((value * 32_768).rounded()) + Float(index % 7)) / 32_768
        }
        let alac = AudioStreamBasicDescription(mSampleRate: rate, mFormatID: kAudioFormatAppleLossless, mFormatFlags: kAppleLosslessFormatFlag_16BitSourceData,
                                               mBytesPerPacket: 0, mFramesPerPacket: 4096, mBytesPerFrame: 0, mChannelsPerFrame: 2, mBitsPerChannel: 0, mReserved: 0)
        let encoded = try Self.encode(input, channels: 2, rate: rate, to: alac)
        #expect(encoded.packets.count == 3)
        #expect(encoded.descriptions.last?.mVariableFramesInPacket == UInt32(frames - 8_192))
        let cookie = try #require(encoded.cookie)
        #expect(cookie.count == 24)   // the ALACSpecificConfig, as iOS's encoder gives for stereo
        let decoded = try Self.decode(encoded.packets, format: alac, cookie: cookie)
        #expect(decoded.samples.count == input.count && zip(decoded.samples, input).allSatisfy { $0 == $1 })
    }

    // MARK: - Files ffmpeg made

    @Test(arguments: ["mp3", "mp2", "alac", "aac"])
    func packetsOfAFileFFmpegMadeDecode(_ kind: String) throws {
        guard Self.ffmpeg != nil else { return }
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let name = ["mp3": "tone.mp3", "mp2": "tone.mp2", "alac": "tone.m4a", "aac": "tone.m4a"][kind]!
        let url = directory.appendingPathComponent(name)
        let codec = ["mp3": ["-c:a", "libmp3lame", "-b:a", "128k"], "mp2": ["-c:a", "mp2", "-b:a", "192k"], "alac": ["-c:a", "alac"],
                     "aac": ["-c:a", "aac", "-b:a", "128k"]][kind]!
        #expect(try Self.runFFmpeg(["-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=44100:duration=2", "-af", "volume=-6dB"]
                                   + codec + [url.path]))
        let file = try Self.packets(of: url)
        let decoded = try Self.decode(file.packets, format: file.format, cookie: file.cookie)
        #expect(decoded.status == noErr)
        let start = Int(file.priming)
        let valid = file.valid > 0 ? Int(file.valid) : decoded.samples.count - start
        #expect(decoded.samples.count >= start + valid, "\(kind): \(decoded.samples.count) frames")
        let audio = Array(decoded.samples[start..<(start + valid)])
        #expect(abs(valid - 88_200) <= (kind == "mp2" ? 1_152 : 0), "\(kind): \(valid) frames")
        #expect(abs(zeroCrossingFrequency(audio[4_096..<80_000], rate: 44_100) - 1_000) < 0.5, "\(kind)")
        // ffmpeg's sine source is 1/8 full scale; -6 dB on top.
        let level = 20 * log10(amplitude(of: audio[4_096..<80_000], frequency: 1_000, rate: 44_100) / 0.125)
        #expect(abs(level + 6) < 1, "\(kind): \(level) dB")
        if kind == "alac" {
            // Lossless: the 16-bit samples ffmpeg encoded, exactly.
            // (ffmpeg's float output divides its 32-bit integers by 2^31, as the converter does.)
            let raw = directory.appendingPathComponent("tone.raw")
            #expect(try Self.runFFmpeg(["-i", url.path, "-f", "f32le", raw.path]))
            let expected = floats(of: [UInt8](try Data(contentsOf: raw)))
            let mismatches = zip(audio, expected).filter { $0 != $1 }.count
            #expect(audio.count == expected.count && mismatches == 0, "\(mismatches) samples differ")
        }
    }

    @Test func iLBCPacketsDecodeToTheirFrames() throws {
        // Frames of arbitrary bits (which the decoder accepts) check the plumbing: 160 frames a
        // 38-byte packet, 240 a 50-byte one, all finite, at 8 kHz (real speech: ILBCConverterTests).
        for (bytesPerPacket, framesPerPacket) in [(38, 160), (50, 240)] {
            let format = AudioStreamBasicDescription(mSampleRate: 8_000, mFormatID: kAudioFormatiLBC, mFormatFlags: 0, mBytesPerPacket: UInt32(bytesPerPacket),
                                                     mFramesPerPacket: UInt32(framesPerPacket), mBytesPerFrame: 0, mChannelsPerFrame: 1, mBitsPerChannel: 0, mReserved: 0)
            var seed: UInt32 = 12_345
            let packets = (0..<25).map { _ in (0..<bytesPerPacket).map { _ -> UInt8 in seed = seed &* 1_103_515_245 &+ 12_345; return UInt8(seed >> 24) } }
            let decoded = try Self.decode(packets, format: format, cookie: nil, constant: true)
            #expect(decoded.status == noErr)
            #expect(decoded.samples.count == 25 * framesPerPacket)
            #expect(decoded.samples.allSatisfy { $0.isFinite && abs($0) <= 1 })
        }
        // iLBC's encoder is mono: a stereo destination is refused (ILBCConverterTests encode).
        var source = pcmFormat(rate: 8_000, channels: 1, bits: 16)
        var ilbc = AudioStreamBasicDescription(mSampleRate: 8_000, mFormatID: kAudioFormatiLBC, mFormatFlags: 0, mBytesPerPacket: 38,
                                               mFramesPerPacket: 160, mBytesPerFrame: 0, mChannelsPerFrame: 2, mBitsPerChannel: 0, mReserved: 0)
        var converter: AudioConverterRef?
        #expect(AudioConverterNew(&source, &ilbc, &converter) == kAudioConverterErr_FormatNotSupported)
        #expect(converter == nil)
    }
}

/// How many steps apart two G.711 codes are (their sign and magnitude ordered).
func G711Distance(_ a: UInt8, _ b: UInt8, _ format: AudioFormatID) -> Int {
    func rank(_ code: UInt8) -> Int {
        let plain = format == kAudioFormatULaw ? ~code : code ^ 0x55
        let magnitude = Int(plain & 0x7F)
        return (plain & 0x80 != 0) == (format == kAudioFormatULaw) ? -magnitude - 1 : magnitude
    }
    return abs(rank(a) - rank(b))
}

/// Which of FFmpeg's codecs this machine has (Audio Format Services' lists say).
enum FFmpegIsHere {
    static var aacEncoder: Bool { ffmpegHas(kAudioFormatProperty_Encoders, kAudioFormatMPEG4AAC) }
    static var alacEncoder: Bool { ffmpegHas(kAudioFormatProperty_Encoders, kAudioFormatAppleLossless) }

    private static func ffmpegHas(_ property: AudioFormatPropertyID, _ format: AudioFormatID) -> Bool {
        var id = format
        var size: UInt32 = 0
        guard AudioFormatGetPropertyInfo(property, 4, &id, &size) == noErr else { return false }
        return size > 0
    }
}
