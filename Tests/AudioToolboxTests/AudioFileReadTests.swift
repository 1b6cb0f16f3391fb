import AudioToolbox
import Foundation
import SoundFile
import Testing

/// Audio File Services as iOS code calls it: `AudioFileOpenURL(url as CFURL, .readPermission, 0,
/// &fileID)`, properties by `AudioFileGetProperty`, every packet by `AudioFileReadPacketData`,
/// compared sample by sample with what SoundFile decodes from the same file.
@Suite struct AudioFileReadTests {
    /// The linear PCM files SoundFileWriter writes, what Audio File Services must say about each, and
    /// their samples through both paths.
    @Test(arguments: [
        (OutputFormat.wavPCM16, "wav", kAudioFileWAVEType, UInt32(16), kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked),
        (OutputFormat.wavPCM24, "wav", kAudioFileWAVEType, UInt32(24), kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked),
        (OutputFormat.wavFloat32, "wav", kAudioFileWAVEType, UInt32(32), kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked),
        (OutputFormat.wavPCM8, "wav", kAudioFileWAVEType, UInt32(8), kAudioFormatFlagIsPacked),
        (OutputFormat.aiffPCM16, "aiff", kAudioFileAIFFType, UInt32(16),
         kAudioFormatFlagIsBigEndian | kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked),
        (OutputFormat.cafPCM16, "caf", kAudioFileCAFType, UInt32(16),
         kAudioFormatFlagIsBigEndian | kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked),
    ])
    func linearPCMPacketsAreTheSamplesSoundFileDecodes(format: OutputFormat, ext: String, type: AudioFileTypeID, bits: UInt32,
                                                      flags: AudioFormatFlags) throws {
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let frames = 10_007
        let url = try AudioFileFixture.write(frames: frames, channels: 2, format, name: "tone.\(ext)", in: directory)

        var fileID: AudioFileID?
        #expect(AudioFileOpenURL(url as CFURL, .readPermission, 0, &fileID) == noErr)
        let file = try #require(fileID)
        defer { #expect(AudioFileClose(file) == noErr) }

        var asbd = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        #expect(AudioFileGetProperty(file, kAudioFilePropertyDataFormat, &size, &asbd) == noErr)
        #expect(asbd.mFormatID == kAudioFormatLinearPCM && asbd.mSampleRate == 44_100 && asbd.mChannelsPerFrame == 2)
        #expect(asbd.mBitsPerChannel == bits && asbd.mFormatFlags == flags, "\(asbd)")
        #expect(asbd.mFramesPerPacket == 1 && asbd.mBytesPerFrame == bits / 8 * 2 && asbd.mBytesPerPacket == asbd.mBytesPerFrame)
        #expect(property(file, kAudioFilePropertyFileFormat, UInt32(0)).1 == type)
        #expect(property(file, kAudioFilePropertyAudioDataPacketCount, UInt64(0)).1 == UInt64(frames))
        #expect(property(file, kAudioFilePropertyAudioDataByteCount, UInt64(0)).1 == UInt64(frames) * UInt64(asbd.mBytesPerFrame))
        #expect(property(file, kAudioFilePropertyMaximumPacketSize, UInt32(0)).1 == asbd.mBytesPerPacket)
        #expect(property(file, kAudioFilePropertyIsOptimized, UInt32(0)).1 == 1)
        #expect(property(file, kAudioFilePropertySourceBitDepth, Int32(0)).1 == Int32(bits))
        let duration = property(file, kAudioFilePropertyEstimatedDuration, Float64(0)).1
        #expect(abs(duration - Double(frames) / 44_100) < 1e-9)
        #expect(property(file, kAudioFilePropertyBitRate, UInt32(0)).1 == 44_100 * bits * 2)
        let offset = property(file, kAudioFilePropertyDataOffset, Int64(0)).1
        #expect(offset > 0)

        let packets = readAllPackets(file, chunkBytes: 3_000)   // not a multiple of the frame: whole packets only
        #expect(packets.status == noErr)
        #expect(packets.descriptions.isEmpty)
        let samples = floats(fromLinearPCM: packets.bytes, asbd)
        let expected = try AudioFileFixture.decoded(url)
        #expect(samples.count == expected.count)
        #expect(samples == expected, "the first difference at \(zip(samples, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? -1)")

        // The data offset is where the samples are in the file itself.
        let raw = try Data(contentsOf: url)
        #expect(Array(raw[Int(offset)..<Int(offset) + 64]) == Array(packets.bytes[0..<64]))
    }

    @Test func readPacketsAsTheCoreAudioBooksQueuePlayerDoes() throws {
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try AudioFileFixture.write(frames: 5_000, channels: 1, .wavPCM16, name: "mono.wav", in: directory)
        var fileID: AudioFileID?
        #expect(AudioFileOpenURL(url as CFURL, .readPermission, kAudioFileWAVEType, &fileID) == noErr)
        let file = try #require(fileID)
        defer { _ = AudioFileClose(file) }
        let maxPacket = property(file, kAudioFilePropertyMaximumPacketSize, UInt32(0)).1
        var buffer = [UInt8](repeating: 0, count: 1024 * Int(maxPacket))
        var packetIndex: Int64 = 0
        var total = 0
        var calls = 0
        while true {
            var numBytes: UInt32 = 0
            var numPackets: UInt32 = 1024
            #expect(AudioFileReadPackets(file, false, &numBytes, nil, packetIndex, &numPackets, &buffer) == noErr)
            calls += 1
            if numPackets == 0 { break }   // the books' end of file: noErr and no packets
            #expect(numBytes == numPackets * maxPacket)
            packetIndex += Int64(numPackets)
            total += Int(numPackets)
        }
        #expect(total == 5_000 && calls == 6)
        // AudioFileReadBytes reads the same data, counted from the data's start.
        var bytes = [UInt8](repeating: 0, count: 10)
        var count: UInt32 = 10
        #expect(AudioFileReadBytes(file, false, 9_990, &count, &bytes) == noErr)
        #expect(count == 10)
        count = 10
        #expect(AudioFileReadBytes(file, false, 9_995, &count, &bytes) == kAudioFileEndOfFileError)
        #expect(count == 5)
    }

    @Test func companded() throws {
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for (format, id) in [(OutputFormat.wavULaw, kAudioFormatULaw), (.wavALaw, kAudioFormatALaw), (.cafULaw, kAudioFormatULaw)] {
            let url = try AudioFileFixture.write(frames: 3_000, channels: 2, format,
                                                 name: "law.\(format.container == .caf ? "caf" : "wav")", in: directory)
            var fileID: AudioFileID?
            #expect(AudioFileOpenURL(url as CFURL, .readPermission, 0, &fileID) == noErr)
            let file = try #require(fileID)
            let asbd = property(file, kAudioFilePropertyDataFormat, AudioStreamBasicDescription()).1
            #expect(asbd.mFormatID == id && asbd.mBytesPerPacket == 2 && asbd.mFramesPerPacket == 1 && asbd.mBitsPerChannel == 8)
            let packets = readAllPackets(file)
            #expect(packets.status == noErr && packets.bytes.count == 6_000)
            // Each byte decodes (G.711) to what SoundFile decodes.
            let expected = try AudioFileFixture.decoded(url)
            let decoded = packets.bytes.map { Float(id == kAudioFormatULaw ? ulaw($0) : alaw($0)) / 32_768 }
            #expect(decoded == expected)
            #expect(AudioFileClose(file) == noErr)
        }
    }

    @Test func ima4InCAFHasItsPacketsAndPacketTable() throws {
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let frames = 1_000   // 16 packets: 1024 frames, 24 of them remainder
        let url = try AudioFileFixture.write(frames: frames, channels: 2, .cafIMA4, name: "ima.caf", in: directory)
        var fileID: AudioFileID?
        #expect(AudioFileOpenURL(url as CFURL, .readPermission, 0, &fileID) == noErr)
        let file = try #require(fileID)
        defer { _ = AudioFileClose(file) }
        let asbd = property(file, kAudioFilePropertyDataFormat, AudioStreamBasicDescription()).1
        #expect(asbd.mFormatID == kAudioFormatAppleIMA4 && asbd.mBytesPerPacket == 68 && asbd.mFramesPerPacket == 64)
        #expect(property(file, kAudioFilePropertyAudioDataPacketCount, UInt64(0)).1 == 16)
        #expect(property(file, kAudioFilePropertyPacketSizeUpperBound, UInt32(0)).1 == 68)
        let table = property(file, kAudioFilePropertyPacketTableInfo, AudioFilePacketTableInfo()).1
        #expect(table.mNumberValidFrames == 1_000 && table.mPrimingFrames == 0 && table.mRemainderFrames == 24)
        let packets = readAllPackets(file, chunkBytes: 100)   // one packet a read
        #expect(packets.status == noErr && packets.bytes.count == 16 * 68)
        // The packets are the data chunk's bytes, in order.
        var all = [UInt8](repeating: 0, count: 2_000)
        var count = UInt32(all.count)
        #expect(AudioFileReadBytes(file, false, 0, &count, &all) == kAudioFileEndOfFileError)
        #expect(count == 16 * 68 && Array(all[0..<Int(count)]) == packets.bytes)
        // Frame and packet translations.
        var translation = AudioFramePacketTranslation(mFrame: 130, mPacket: 0, mFrameOffsetInPacket: 0)
        var size = UInt32(MemoryLayout<AudioFramePacketTranslation>.size)
        #expect(AudioFileGetProperty(file, kAudioFilePropertyFrameToPacket, &size, &translation) == noErr)
        #expect(translation.mPacket == 2 && translation.mFrameOffsetInPacket == 2)
        var bytes = AudioBytePacketTranslation(mByte: 0, mPacket: 3, mByteOffsetInPacket: 0, mFlags: [])
        size = UInt32(MemoryLayout<AudioBytePacketTranslation>.size)
        #expect(AudioFileGetProperty(file, kAudioFilePropertyPacketToByte, &size, &bytes) == noErr)
        #expect(bytes.mByte == 3 * 68)
    }

    @Test func appleLosslessInCAFHasPacketDescriptionsAndACookie() throws {
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let frames = 10_000
        let url = try AudioFileFixture.write(frames: frames, channels: 2, .cafALAC, name: "alac.caf", in: directory)
        var fileID: AudioFileID?
        #expect(AudioFileOpenURL(url as CFURL, .readPermission, 0, &fileID) == noErr)
        let file = try #require(fileID)
        defer { _ = AudioFileClose(file) }
        let asbd = property(file, kAudioFilePropertyDataFormat, AudioStreamBasicDescription()).1
        #expect(asbd.mFormatID == kAudioFormatAppleLossless && asbd.mFramesPerPacket == 4096 && asbd.mBytesPerPacket == 0)
        let packetCount = property(file, kAudioFilePropertyAudioDataPacketCount, UInt64(0)).1
        #expect(packetCount == 3)
        var cookieSize: UInt32 = 0
        #expect(AudioFileGetPropertyInfo(file, kAudioFilePropertyMagicCookieData, &cookieSize, nil) == noErr)
        #expect(cookieSize >= 24)
        var cookie = [UInt8](repeating: 0, count: Int(cookieSize))
        #expect(AudioFileGetProperty(file, kAudioFilePropertyMagicCookieData, &cookieSize, &cookie) == noErr)
        // The cookie is one Audio Format Services reads: the same rate and channels.
        var fromCookie = AudioStreamBasicDescription()
        fromCookie.mFormatID = kAudioFormatAppleLossless
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        #expect(AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, cookieSize, cookie, &size, &fromCookie) == noErr)
        #expect(fromCookie.mSampleRate == 44_100 && fromCookie.mChannelsPerFrame == 2)

        let packets = readAllPackets(file, chunkBytes: 1)   // room for one packet at a time
        #expect(packets.status == noErr && packets.descriptions.count == 3)
        #expect(UInt64(packets.bytes.count) == property(file, kAudioFilePropertyAudioDataByteCount, UInt64(0)).1)
        var offset: Int64 = 0
        for description in packets.descriptions {
            #expect(description.mStartOffset == offset && description.mDataByteSize > 0)
            offset += Int64(description.mDataByteSize)
        }
        let maximum = property(file, kAudioFilePropertyMaximumPacketSize, UInt32(0)).1
        #expect(maximum == packets.descriptions.map(\.mDataByteSize).max())
        let table = property(file, kAudioFilePropertyPacketTableInfo, AudioFilePacketTableInfo()).1
        #expect(table.mNumberValidFrames == Int64(frames))
        #expect(Int64(table.mPrimingFrames) + Int64(table.mRemainderFrames) + table.mNumberValidFrames == 3 * 4096)
        // Variable packets need their descriptions.
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var numBytes = UInt32(buffer.count)
        var numPackets: UInt32 = 1
        #expect(AudioFileReadPacketData(file, false, &numBytes, nil, 0, &numPackets, &buffer) == kAudio_ParamError)
    }

    /// M4A files (AAC and Apple Lossless, written by SoundFileWriter through FFmpeg): the packets are
    /// the ones FFmpeg's own demuxer finds (ffprobe's sizes and positions), the cookie is one Audio
    /// Format Services reads, and priming plus valid plus remainder frames fill the packets.
    @Test(arguments: [(OutputFormat.m4aAAC, kAudioFormatMPEG4AAC, UInt32(1024)), (.m4aALAC, kAudioFormatAppleLossless, UInt32(4096))])
    func mpeg4PacketsAreTheDemuxersPackets(format: OutputFormat, formatID: AudioFormatID, framesPerPacket: UInt32) throws {
        guard format.encoding != .aac || FFmpeg.hasEncoder(named: "aac") else { return }   // FFmpeg with an AAC encoder
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let frames = 30_000
        let url = try AudioFileFixture.write(frames: frames, channels: 2, format, name: "song.m4a", in: directory)
        var fileID: AudioFileID?
        #expect(AudioFileOpenURL(url as CFURL, .readPermission, kAudioFileM4AType, &fileID) == noErr)
        let file = try #require(fileID)
        defer { _ = AudioFileClose(file) }
        let type = property(file, kAudioFilePropertyFileFormat, UInt32(0)).1
        #expect(type == kAudioFileM4AType || type == kAudioFileMPEG4Type)
        let asbd = property(file, kAudioFilePropertyDataFormat, AudioStreamBasicDescription()).1
        #expect(asbd.mFormatID == formatID && asbd.mSampleRate == 44_100 && asbd.mChannelsPerFrame == 2)
        #expect(asbd.mFramesPerPacket == framesPerPacket && asbd.mBytesPerPacket == 0)

        var cookieSize: UInt32 = 0
        #expect(AudioFileGetPropertyInfo(file, kAudioFilePropertyMagicCookieData, &cookieSize, nil) == noErr)
        var cookie = [UInt8](repeating: 0, count: Int(cookieSize))
        #expect(AudioFileGetProperty(file, kAudioFilePropertyMagicCookieData, &cookieSize, &cookie) == noErr)
        var fromCookie = AudioStreamBasicDescription()
        fromCookie.mFormatID = formatID
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        #expect(AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, cookieSize, cookie, &size, &fromCookie) == noErr)
        #expect(fromCookie.mSampleRate == 44_100 && fromCookie.mChannelsPerFrame == 2)

        let packets = readAllPackets(file, chunkBytes: 5_000)
        #expect(packets.status == noErr)
        let probe = try Self.probePackets(url)
        #expect(packets.descriptions.count == probe.count)
        #expect(packets.descriptions.map { Int($0.mDataByteSize) } == probe.map(\.size))
        // Each packet's bytes are the file's bytes at the demuxer's position.
        let raw = try Data(contentsOf: url)
        var mismatched = 0
        for (description, packet) in zip(packets.descriptions, probe) {
            let mine = packets.bytes[Int(description.mStartOffset)..<Int(description.mStartOffset) + Int(description.mDataByteSize)]
            if !mine.elementsEqual(raw[packet.position..<packet.position + packet.size]) { mismatched += 1 }
        }
        #expect(mismatched == 0)
        let table = property(file, kAudioFilePropertyPacketTableInfo, AudioFilePacketTableInfo()).1
        #expect(table.mNumberValidFrames + Int64(table.mPrimingFrames) + Int64(table.mRemainderFrames)
                == Int64(probe.count) * Int64(framesPerPacket))
        #expect(abs(table.mNumberValidFrames - Int64(frames)) <= (format.encoding == .aac ? 1024 : 0), "\(table)")
    }

    /// An MP3 file (libsndfile's LAME): every frame a packet, the same frames FFmpeg's demuxer finds
    /// (the Xing/Info frame skipped), and the encoder's delay and padding as priming and remainder.
    @Test func mp3FramesAreTheDemuxersPackets() throws {
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let frames = 44_100
        let url = try AudioFileFixture.write(frames: frames, channels: 2, .mp3, name: "song.mp3", in: directory)
        var fileID: AudioFileID?
        #expect(AudioFileOpenURL(url as CFURL, .readPermission, kAudioFileMP3Type, &fileID) == noErr)
        let file = try #require(fileID)
        defer { _ = AudioFileClose(file) }
        #expect(property(file, kAudioFilePropertyFileFormat, UInt32(0)).1 == kAudioFileMP3Type)
        let asbd = property(file, kAudioFilePropertyDataFormat, AudioStreamBasicDescription()).1
        #expect(asbd.mFormatID == kAudioFormatMPEGLayer3 && asbd.mSampleRate == 44_100 && asbd.mChannelsPerFrame == 2)
        #expect(asbd.mFramesPerPacket == 1152 && asbd.mBytesPerPacket == 0)
        let packets = readAllPackets(file, chunkBytes: 4_000)
        #expect(packets.status == noErr)
        let probe = try Self.probePackets(url)
        #expect(packets.descriptions.map { Int($0.mDataByteSize) } == probe.map(\.size))
        let offset = property(file, kAudioFilePropertyDataOffset, Int64(0)).1
        #expect(packets.descriptions.map { Int(offset + $0.mStartOffset) } == probe.map(\.position))
        // Every packet starts with a frame header.
        #expect(packets.descriptions.allSatisfy { packets.bytes[Int($0.mStartOffset)] == 0xFF })
        var info = AudioFilePacketTableInfo()
        var size = UInt32(MemoryLayout<AudioFilePacketTableInfo>.size)
        if AudioFileGetProperty(file, kAudioFilePropertyPacketTableInfo, &size, &info) == noErr {
            #expect(abs(info.mNumberValidFrames - Int64(frames)) <= 1152, "\(info)")
        }
        // Truncated: the whole frames that are there.
        let raw = Array(try Data(contentsOf: url))
        let cut = raw.count - 300
        let box = MemoryFile(bytes: Array(raw[0..<cut]))
        var truncated: AudioFileID?
        #expect(AudioFileOpenWithCallbacks(Unmanaged.passUnretained(box).toOpaque(), MemoryFile.read, nil, MemoryFile.size, nil, 0,
                                           &truncated) == noErr)
        if let truncated {
            let count = property(truncated, kAudioFilePropertyAudioDataPacketCount, UInt64(0)).1
            #expect(count < UInt64(probe.count) && count > 0)
            #expect(AudioFileClose(truncated) == noErr)
        }
        _ = box
    }

    /// AAC in ADTS (FFmpeg's encoder through SoundFileWriter): each packet is an access unit without
    /// its ADTS header, the rest of the frame FFmpeg's demuxer finds at the same place.
    @Test func adtsPacketsAreAccessUnits() throws {
        guard FFmpeg.hasEncoder(named: "aac") else { return }
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try AudioFileFixture.write(frames: 20_000, channels: 2, .adtsAAC, name: "song.aac", in: directory)
        var fileID: AudioFileID?
        #expect(AudioFileOpenURL(url as CFURL, .readPermission, 0, &fileID) == noErr)
        let file = try #require(fileID)
        defer { _ = AudioFileClose(file) }
        #expect(property(file, kAudioFilePropertyFileFormat, UInt32(0)).1 == kAudioFileAAC_ADTSType)
        let asbd = property(file, kAudioFilePropertyDataFormat, AudioStreamBasicDescription()).1
        #expect(asbd.mFormatID == kAudioFormatMPEG4AAC && asbd.mSampleRate == 44_100 && asbd.mChannelsPerFrame == 2)
        #expect(asbd.mFramesPerPacket == 1024 && asbd.mFormatFlags == UInt32(MPEG4ObjectID.AAC_LC.rawValue))
        let packets = readAllPackets(file)
        #expect(packets.status == noErr)
        let probe = try Self.probePackets(url)
        #expect(packets.descriptions.count == probe.count)
        #expect(property(file, kAudioFilePropertyDataOffset, Int64(0)).1 == Int64(probe.first?.position ?? -1))
        // (The descriptions' offsets are in the bytes read, which hold no headers: compare the bytes.)
        let raw = Array(try Data(contentsOf: url))
        var wrong = 0
        for (description, packet) in zip(packets.descriptions, probe) {
            let header = packet.size - Int(description.mDataByteSize)
            if header != 7 && header != 9 { wrong += 1; continue }
            let mine = packets.bytes[Int(description.mStartOffset)..<Int(description.mStartOffset) + Int(description.mDataByteSize)]
            if !mine.elementsEqual(raw[(packet.position + header)..<(packet.position + packet.size)]) { wrong += 1 }
        }
        #expect(wrong == 0)
        var cookie = [UInt8](repeating: 0, count: 2)
        var size: UInt32 = 2
        #expect(AudioFileGetProperty(file, kAudioFilePropertyMagicCookieData, &size, &cookie) == noErr)
        #expect(cookie == [0x12, 0x10])   // AAC LC, 44.1 kHz, stereo
    }

    /// The audio packets ffprobe lists: size and position in the file.
    static func probePackets(_ url: URL) throws -> [(size: Int, position: Int)] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffprobe")
        process.arguments = ["-v", "error", "-select_streams", "a:0", "-show_entries", "packet=size,pos", "-of", "json", url.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let list = try #require(json["packets"] as? [[String: Any]])
        return list.compactMap { entry in
            guard let size = (entry["size"] as? String).flatMap({ Int($0) }), let pos = (entry["pos"] as? String).flatMap({ Int($0) })
            else { return nil }
            return (size, pos)
        }
    }

    @Test func openWithCallbacksReadsTheSameFile() throws {
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try AudioFileFixture.write(frames: 2_000, channels: 2, .aiffPCM16, name: "a.aiff", in: directory)
        let box = MemoryFile(bytes: Array(try Data(contentsOf: url)))
        var fileID: AudioFileID?
        let status = withExtendedLifetime(box) {
            AudioFileOpenWithCallbacks(Unmanaged.passUnretained(box).toOpaque(), MemoryFile.read, nil, MemoryFile.size, nil,
                                       kAudioFileAIFFType, &fileID)
        }
        #expect(status == noErr)
        let file = try #require(fileID)
        let packets = readAllPackets(file)
        #expect(packets.status == noErr && packets.bytes.count == 8_000)
        #expect(floats(fromLinearPCM: packets.bytes, property(file, kAudioFilePropertyDataFormat, AudioStreamBasicDescription()).1)
                == (try AudioFileFixture.decoded(url)))
        #expect(AudioFileClose(file) == noErr)
        _ = box
    }

    @Test func globalInfo() throws {
        var size: UInt32 = 0
        #expect(AudioFileGetGlobalInfoSize(kAudioFileGlobalInfo_ReadableTypes, 0, nil, &size) == noErr)
        var types = [AudioFileTypeID](repeating: 0, count: Int(size) / 4)
        #expect(AudioFileGetGlobalInfo(kAudioFileGlobalInfo_ReadableTypes, 0, nil, &size, &types) == noErr)
        #expect(Set(types) == [kAudioFileWAVEType, kAudioFileAIFFType, kAudioFileAIFCType, kAudioFileCAFType, kAudioFileM4AType,
                               kAudioFileMPEG4Type, kAudioFileM4BType, kAudioFile3GPType, kAudioFile3GP2Type, kAudioFileMP3Type,
                               kAudioFileMP2Type, kAudioFileMP1Type, kAudioFileAAC_ADTSType])
        #expect(AudioFileGetGlobalInfoSize(kAudioFileGlobalInfo_WritableTypes, 0, nil, &size) == noErr)
        types = [AudioFileTypeID](repeating: 0, count: Int(size) / 4)
        #expect(AudioFileGetGlobalInfo(kAudioFileGlobalInfo_WritableTypes, 0, nil, &size, &types) == noErr)
        #expect(Set(types) == [kAudioFileWAVEType, kAudioFileAIFFType, kAudioFileAIFCType, kAudioFileCAFType, kAudioFileM4AType,
                               kAudioFileMPEG4Type, kAudioFileM4BType, kAudioFileAAC_ADTSType])

        var type = kAudioFileCAFType
        var formats = [AudioFormatID](repeating: 0, count: 16)
        size = UInt32(formats.count * 4)
        #expect(AudioFileGetGlobalInfo(kAudioFileGlobalInfo_AvailableFormatIDs, 4, &type, &size, &formats) == noErr)
        #expect(formats[0..<Int(size / 4)].contains(kAudioFormatAppleIMA4))

        var name: Unmanaged<CFStringObject>?
        size = UInt32(MemoryLayout<Unmanaged<CFStringObject>?>.size)
        #expect(AudioFileGetGlobalInfo(kAudioFileGlobalInfo_FileTypeName, 4, &type, &size, &name) == noErr)
        let text = try #require(name).takeRetainedValue()
        var characters = [CChar](repeating: 0, count: 16)
        #expect(CFStringGetCString(text, &characters, 16, CFStringBuiltInEncodings.UTF8.rawValue))
        #expect(String(decoding: characters.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) == "CAF")

        type = kAudioFileWAVEType
        var extensions: Unmanaged<CFArray>?
        size = UInt32(MemoryLayout<Unmanaged<CFArray>?>.size)
        #expect(AudioFileGetGlobalInfo(kAudioFileGlobalInfo_ExtensionsForType, 4, &type, &size, &extensions) == noErr)
        let array = try #require(extensions).takeRetainedValue()
        #expect(CFArrayGetCount(array) == 2)

        type = kAudioFileFLACType
        #expect(AudioFileGetGlobalInfo(kAudioFileGlobalInfo_AvailableFormatIDs, 4, &type, &size, &formats) == kAudioFileUnsupportedFileTypeError)
        type = 0x7A7A7A7A
        #expect(AudioFileGetGlobalInfoSize(kAudioFileGlobalInfo_ExtensionsForType, 4, &type, &size) == kAudioFileUnsupportedFileTypeError)
        #expect(AudioFileGetGlobalInfoSize(0x7A7A7A7A, 0, nil, &size) == kAudioFileUnsupportedPropertyError)
    }
}

/// A file in memory served through AudioFileOpenWithCallbacks's callbacks.
final class MemoryFile {
    let bytes: [UInt8]
    init(bytes: [UInt8]) { self.bytes = bytes }

    static let read: AudioFile_ReadProc = { client, position, count, buffer, actual in
        let file = Unmanaged<MemoryFile>.fromOpaque(client).takeUnretainedValue()
        guard position >= 0 else { return kAudioFilePositionError }
        let start = Int(min(position, Int64(file.bytes.count)))
        let end = min(start + Int(count), file.bytes.count)
        file.bytes.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress! + start, byteCount: end - start) }
        actual.pointee = UInt32(end - start)
        return noErr
    }

    static let size: AudioFile_GetSizeProc = { client in
        Int64(Unmanaged<MemoryFile>.fromOpaque(client).takeUnretainedValue().bytes.count)
    }
}

/// G.711 µ-law to a 16-bit sample.
func ulaw(_ byte: UInt8) -> Int16 {
    let u = ~byte
    let exponent = Int((u >> 4) & 7)
    let mantissa = Int(u & 0x0F)
    let magnitude = ((mantissa << 3) + 0x84) << exponent - 0x84
    return Int16(u & 0x80 != 0 ? -magnitude : magnitude)
}

/// G.711 A-law to a 16-bit sample.
func alaw(_ byte: UInt8) -> Int16 {
    let a = byte ^ 0x55
    let exponent = Int((a >> 4) & 7)
    let mantissa = Int(a & 0x0F)
    let magnitude = exponent == 0 ? (mantissa << 4) + 8 : ((mantissa << 4) + 0x108) << (exponent - 1)
    return Int16(a & 0x80 != 0 ? magnitude : -magnitude)
}
