import AudioToolbox
import Foundation
import SoundFile
import Testing

/// Extended Audio File Services' properties, each doing what Apple documents: channel layouts
/// matched by label, the packet table's overrides, the caller's I/O buffer, the converter, the
/// packet sizes.
@Suite struct ExtAudioFilePropertyTests {
    private static let asbdSize = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)

    /// A layout naming its channels.
    private func layout(_ labels: [AudioChannelLabel]) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 12 + labels.count * MemoryLayout<AudioChannelDescription>.stride)
        bytes.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: kAudioChannelLayoutTag_UseChannelDescriptions, as: UInt32.self)
            raw.storeBytes(of: UInt32(labels.count), toByteOffset: 8, as: UInt32.self)
            for (i, label) in labels.enumerated() {
                raw.storeBytes(of: label, toByteOffset: 12 + i * MemoryLayout<AudioChannelDescription>.stride, as: AudioChannelLabel.self)
            }
        }
        return bytes
    }

    @Test func aClientLayoutPicksTheFilesChannelsByLabel() throws {
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try AudioFileFixture.write(frames: 1_000, channels: 2, .wavPCM16, name: "lr.wav", in: directory)
        let straight = int16s(of: extRead(url, client: int16Format()).buffers[0])
        var swapped = layout([kAudioChannelLabel_Right, kAudioChannelLabel_Left])
        let read = extRead(url, client: int16Format()) { file in
            #expect(ExtAudioFileSetProperty(file, kExtAudioFileProperty_ClientChannelLayout, UInt32(swapped.count), &swapped) == noErr)
            var size: UInt32 = 0
            #expect(ExtAudioFileGetPropertyInfo(file, kExtAudioFileProperty_ClientChannelLayout, &size, nil) == noErr && Int(size) == swapped.count)
        }
        let back = int16s(of: read.buffers[0])
        #expect(back.count == straight.count)
        var swappedEverywhere = true
        for frame in 0..<1_000 where back[2 * frame] != straight[2 * frame + 1] || back[2 * frame + 1] != straight[2 * frame] {
            swappedEverywhere = false
        }
        #expect(swappedEverywhere)
        // The file's layout (none stated in a two-channel WAVE: stereo) is reported.
        var file: ExtAudioFileRef?
        #expect(ExtAudioFileOpenURL(url as CFURL, &file) == noErr)
        #expect(extProperty(file!, kExtAudioFileProperty_FileChannelLayout, AudioChannelLayout()).1.mChannelLayoutTag == kAudioChannelLayoutTag_Stereo)
        ExtAudioFileDispose(file!)
    }

    @Test func thePacketTableCanBeOverridden() throws {
        try #require(FFmpeg.isAvailable)
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try AudioFileFixture.write(frames: 10_000, channels: 1, .m4aAAC, name: "p.m4a", in: directory)
        var opened: ExtAudioFileRef?
        #expect(ExtAudioFileOpenURL(url as CFURL, &opened) == noErr)
        let file = try #require(opened)
        defer { ExtAudioFileDispose(file) }
        var client = floatFormat(channels: 1)
        #expect(ExtAudioFileSetProperty(file, kExtAudioFileProperty_ClientDataFormat, Self.asbdSize, &client) == noErr)
        let (status, table) = extProperty(file, kExtAudioFileProperty_PacketTable, AudioFilePacketTableInfo())
        #expect(status == noErr && table.mNumberValidFrames == 10_000 && table.mPrimingFrames == 1_024, "\(table)")
        let total = table.mNumberValidFrames + Int64(table.mPrimingFrames) + Int64(table.mRemainderFrames)
        let trimmed = floats(of: extReadAll(file, format: client).buffers[0])
        // No priming, the file's remainder: every frame from the first packet's.
        var override = AudioFilePacketTableInfo(mNumberValidFrames: 0, mPrimingFrames: 0,
                                                mRemainderFrames: kExtAudioFilePacketTableInfoOverride_UseFileValue)
        #expect(ExtAudioFileSetProperty(file, kExtAudioFileProperty_PacketTable, UInt32(MemoryLayout<AudioFilePacketTableInfo>.size), &override) == noErr)
        #expect(extProperty(file, kExtAudioFileProperty_FileLengthFrames, Int64(0)).1 == total - Int64(table.mRemainderFrames))
        #expect(ExtAudioFileSeek(file, 0) == noErr)
        let untrimmed = floats(of: extReadAll(file, format: client).buffers[0])
        #expect(untrimmed.count == Int(total) - Int(table.mRemainderFrames))
        #expect(Array(untrimmed[1_024...]) == trimmed)   // the same frames, the priming before them
        // Back to the file's values.
        override.mPrimingFrames = kExtAudioFilePacketTableInfoOverride_UseFileValueIfValid
        override.mRemainderFrames = kExtAudioFilePacketTableInfoOverride_UseFileValue
        #expect(ExtAudioFileSetProperty(file, kExtAudioFileProperty_PacketTable, UInt32(MemoryLayout<AudioFilePacketTableInfo>.size), &override) == noErr)
        #expect(ExtAudioFileSeek(file, 0) == noErr)
        #expect(floats(of: extReadAll(file, format: client).buffers[0]) == trimmed)
        override.mPrimingFrames = -3
        #expect(ExtAudioFileSetProperty(file, kExtAudioFileProperty_PacketTable, UInt32(MemoryLayout<AudioFilePacketTableInfo>.size), &override)
                == kAudio_ParamError)
    }

    @Test func theCallersIOBufferAndItsSize() throws {
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try AudioFileFixture.write(frames: 20_000, channels: 2, .cafIMA4, name: "io.caf", in: directory)
        let plain = extRead(url, client: floatFormat()).buffers[0]
        let memory = UnsafeMutableRawPointer.allocate(byteCount: 1_000, alignment: 16)
        defer { memory.deallocate() }
        let read = extRead(url, client: floatFormat()) { file in
            var pointer: UnsafeMutableRawPointer? = memory
            #expect(ExtAudioFileSetProperty(file, kExtAudioFileProperty_IOBuffer, UInt32(MemoryLayout<UnsafeMutableRawPointer?>.size), &pointer) == noErr)
            var size: UInt32 = 1_000   // 14 packets of 68 bytes
            #expect(ExtAudioFileSetProperty(file, kExtAudioFileProperty_IOBufferSizeBytes, 4, &size) == noErr)
            #expect(extProperty(file, kExtAudioFileProperty_IOBuffer, UnsafeMutableRawPointer?.none).1 == memory)
            #expect(extProperty(file, kExtAudioFileProperty_IOBufferSizeBytes, UInt32(0)).1 == 1_000)
            var tooSmall: UInt32 = 60   // less than a packet
            #expect(ExtAudioFileSetProperty(file, kExtAudioFileProperty_IOBufferSizeBytes, 4, &tooSmall) == kAudio_ParamError)
        }
        #expect(read.buffers[0] == plain)
    }

    @Test func theConverterAndThePacketSizes() throws {
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try AudioFileFixture.write(frames: 2_000, channels: 2, .cafIMA4, name: "c.caf", in: directory)
        var opened: ExtAudioFileRef?
        #expect(ExtAudioFileOpenURL(url as CFURL, &opened) == noErr)
        let file = try #require(opened)
        defer { ExtAudioFileDispose(file) }
        #expect(extProperty(file, kExtAudioFileProperty_AudioConverter, AudioConverterRef?.none).1 == nil)   // none before a client format
        #expect(extProperty(file, kExtAudioFileProperty_FileMaxPacketSize, UInt32(0)).1 == 68)
        #expect(extProperty(file, kExtAudioFileProperty_CodecManufacturer, UInt32(0)).1 == kAppleSoftwareAudioCodecManufacturer)
        var client = pcmFormat(rate: 22_050, channels: 1, bits: 32, float: true, nonInterleaved: true)
        #expect(ExtAudioFileSetProperty(file, kExtAudioFileProperty_ClientDataFormat, Self.asbdSize, &client) == noErr)
        #expect(extProperty(file, kExtAudioFileProperty_ClientMaxPacketSize, UInt32(0)).1 == 4)
        let found: AudioConverterRef? = extProperty(file, kExtAudioFileProperty_AudioConverter, AudioConverterRef?.none).1
        let converter = try #require(found)
        var output = AudioStreamBasicDescription()
        var size = Self.asbdSize
        #expect(AudioConverterGetProperty(converter, kAudioConverterCurrentOutputStreamDescription, &size, &output) == noErr)
        #expect(output.mSampleRate == 22_050 && output.mChannelsPerFrame == 1 && output.mFormatFlags & kAudioFormatFlagIsFloat != 0)
        let file0 = extProperty(file, kExtAudioFileProperty_FileDataFormat, AudioStreamBasicDescription()).1
        #expect(file0.mFormatID == kAudioFormatAppleIMA4 && file0.mBytesPerPacket == 68)
        #expect(extProperty(file, kExtAudioFileProperty_FileLengthFrames, Int64(0)).1 == 2_000)
    }

    @Test func aFileLayoutIsWrittenBeforeTheData() throws {
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("l.caf")
        var format = int16Format()
        var opened: ExtAudioFileRef?
        var given = layout([kAudioChannelLabel_Left, kAudioChannelLabel_Right])
        #expect(given.withUnsafeMutableBytes { raw in
            ExtAudioFileCreateWithURL(url as CFURL, kAudioFileCAFType, &format, raw.baseAddress!.assumingMemoryBound(to: AudioChannelLayout.self),
                                      AudioFileFlags.eraseFile.rawValue, &opened)
        } == noErr)
        let file = try #require(opened)
        var writable = false
        #expect(ExtAudioFileGetPropertyInfo(file, kExtAudioFileProperty_FileChannelLayout, nil, &writable) == noErr && writable)
        var binaural = layout([kAudioChannelLabel_HeadphonesLeft, kAudioChannelLabel_HeadphonesRight])
        #expect(ExtAudioFileSetProperty(file, kExtAudioFileProperty_FileChannelLayout, UInt32(binaural.count), &binaural) == noErr)
        var three = layout([kAudioChannelLabel_Left, kAudioChannelLabel_Right, kAudioChannelLabel_Center])
        #expect(ExtAudioFileSetProperty(file, kExtAudioFileProperty_FileChannelLayout, UInt32(three.count), &three) == kExtAudioFileError_InvalidChannelMap)
        var samples = [Int16](repeating: 100, count: 200)
        samples.withUnsafeMutableBytes { raw in
            var list = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: 2, mDataByteSize: 400, mData: raw.baseAddress))
            #expect(ExtAudioFileWrite(file, 100, &list) == noErr)
        }
        #expect(ExtAudioFileSetProperty(file, kExtAudioFileProperty_FileChannelLayout, UInt32(binaural.count), &binaural)
                == kExtAudioFileError_InvalidOperationOrder)
        #expect(ExtAudioFileDispose(file) == noErr)
        let fileID = try AudioFileWriteTests.open(url)
        defer { AudioFileClose(fileID) }
        var size: UInt32 = 0
        #expect(AudioFileGetPropertyInfo(fileID, kAudioFilePropertyChannelLayout, &size, nil) == noErr)
        var bytes = [UInt8](repeating: 0, count: Int(size))
        #expect(AudioFileGetProperty(fileID, kAudioFilePropertyChannelLayout, &size, &bytes) == noErr)
        #expect(bytes == binaural)
    }
}
