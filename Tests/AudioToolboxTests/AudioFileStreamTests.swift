import AudioToolbox
import Foundation
import SoundFile
import Testing

/// Audio File Stream Services as iOS streaming players call it (StreamRecorder): every format it
/// parses, fed whole, a byte at a time and in random pieces, gives the same properties in the same
/// order and the same packets, bytes and descriptions, every way, and they are what Audio File
/// Services reads from the same file.
@Suite struct AudioFileStreamTests {
    static let ffmt = kAudioFileStreamProperty_FileFormat
    static let dfmt = kAudioFileStreamProperty_DataFormat
    static let mgic = kAudioFileStreamProperty_MagicCookieData
    static let cmap = kAudioFileStreamProperty_ChannelLayout
    static let pnfo = kAudioFileStreamProperty_PacketTableInfo
    static let doff = kAudioFileStreamProperty_DataOffset
    static let bcnt = kAudioFileStreamProperty_AudioDataByteCount
    static let pcnt = kAudioFileStreamProperty_AudioDataPacketCount
    static let redy = kAudioFileStreamProperty_ReadyToProducePackets

    /// A file SoundFileWriter writes, as bytes.
    static func written(_ format: OutputFormat, frames: Int = 20_000, channels: Int = 2, name: String) throws -> [UInt8] {
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        return Array(try Data(contentsOf: AudioFileFixture.write(frames: frames, channels: channels, format, name: name, in: directory)))
    }

    /// Streams `data` every way and checks it against Audio File Services' reading; returns the
    /// whole-file recording.
    @discardableResult
    static func check(_ data: [UInt8], hint: AudioFileTypeID = 0, announces expected: [AudioFileStreamPropertyID],
                      sourceLocation: SourceLocation = #_sourceLocation) -> StreamRecorder? {
        let file = FileReading(data)
        #expect(file.status == noErr, "Audio File Services read the file", sourceLocation: sourceLocation)
        var recordings: [StreamRecorder] = []
        for split in Split.allCases {
            let stream = streamed(data, hint: hint, split: split)
            recordings.append(stream)
            let name = "\(split)"
            #expect(stream.openStatus == noErr && stream.errors.isEmpty, "\(name): \(stream.errors)", sourceLocation: sourceLocation)
            #expect(stream.announced == expected, "\(name): \(stream.announced.map(fourCharacters))", sourceLocation: sourceLocation)
            #expect(stream.readyValues == expected.map { $0 == redy ? 1 : 0 }, "\(name)", sourceLocation: sourceLocation)
            #expect(stream.uncachedCalls == 0 && !stream.packetsBeforeReady && !stream.partialPackets, "\(name)",
                    sourceLocation: sourceLocation)
            #expect(stream.fileType == file.fileType, "\(name)", sourceLocation: sourceLocation)
            #expect(same(stream.format, file.format), "\(name): \(stream.format) / \(file.format)", sourceLocation: sourceLocation)
            #expect(stream.dataOffset == file.dataOffset, "\(name)", sourceLocation: sourceLocation)
            #expect(stream.cookie == file.cookie, "\(name)", sourceLocation: sourceLocation)
            if let table = stream.packetTable {
                #expect(file.packetTable.map { same(table, $0) } == true, "\(name): \(table)", sourceLocation: sourceLocation)
            }
            if let count = stream.byteCount { #expect(count == file.byteCount, "\(name)", sourceLocation: sourceLocation) }
            if let count = stream.packetCount { #expect(count == file.packetCount, "\(name)", sourceLocation: sourceLocation) }
            #expect(stream.packets == Int(file.packetCount), "\(name)", sourceLocation: sourceLocation)
            #expect(stream.bytes == file.bytes, "\(name): \(stream.bytes.count) bytes / \(file.bytes.count)", sourceLocation: sourceLocation)
            #expect(stream.descriptions.map(fields) == file.descriptions.map(fields), "\(name)", sourceLocation: sourceLocation)
        }
        // Whole, a byte at a time or in pieces: the same callbacks' worth (only how many packets a call carries differs).
        #expect(recordings.allSatisfy { $0.bytes == recordings[0].bytes && $0.announced == recordings[0].announced },
                sourceLocation: sourceLocation)
        return recordings.first
    }

    // MARK: MPEG audio

    @Test func mp3WithAnInfoHeader() throws {
        // libsndfile's LAME writes an Info frame: its counts are announced, and its delay and padding.
        let data = try Self.written(.mp3, name: "a.mp3")
        let stream = try #require(Self.check(data, hint: kAudioFileMP3Type, announces: [Self.ffmt, Self.dfmt, Self.pnfo, Self.doff, Self.bcnt, Self.pcnt, Self.redy]))
        #expect(stream.format.mFormatID == kAudioFormatMPEGLayer3 && stream.format.mFramesPerPacket == 1152)
        // Without the hint it is found by its frames.
        Self.check(data, announces: [Self.ffmt, Self.dfmt, Self.pnfo, Self.doff, Self.bcnt, Self.pcnt, Self.redy])
    }

    @Test func variableBitRateMP3WithAnID3Tag() throws {
        let data = try ffmpegFile(["-c:a", "libmp3lame", "-q:a", "6", "-metadata", "title=Soundstage"], name: "v.mp3", seconds: 2)
        #expect(data.starts(with: Array("ID3".utf8)))
        let stream = try #require(Self.check(data, hint: kAudioFileMP3Type,
                                             announces: [Self.ffmt, Self.dfmt, Self.pnfo, Self.doff, Self.bcnt, Self.pcnt, Self.redy]))
        #expect(Set(stream.descriptions.map(\.mDataByteSize)).count > 1, "variable packets")
    }

    @Test func mpeg2MonoWithoutAHeaderFrame() throws {
        // No Xing frame, no tag: the counts are not stated, and are not announced.
        let data = try ffmpegFile(["-c:a", "libmp3lame", "-b:a", "32k", "-write_xing", "0", "-id3v2_version", "0", "-f", "mp3"],
                                  name: "m.mp3", channels: 1, rate: 22_050)
        let stream = try #require(Self.check(data, hint: kAudioFileMP3Type, announces: [Self.ffmt, Self.dfmt, Self.doff, Self.redy]))
        #expect(stream.format.mFramesPerPacket == 576 && stream.format.mSampleRate == 22_050 && stream.format.mChannelsPerFrame == 1)
    }

    /// Constant-bit-rate frames with their bit rate index cleared: free format, whose frame size only
    /// the distance between headers tells.
    @Test func freeFormatMP3() throws {
        let cbr = try ffmpegFile(["-c:a", "libmp3lame", "-b:a", "128k", "-write_xing", "0", "-id3v2_version", "0", "-f", "mp3"],
                                 name: "c.mp3")
        let original = FileReading(cbr)
        #expect(original.status == noErr)
        var free = cbr
        for description in original.descriptions {
            let at = Int(original.dataOffset + description.mStartOffset)
            free[at + 2] &= 0x0F   // bit rate index 0: free format
        }
        let stream = try #require(Self.check(free, hint: kAudioFileMP3Type, announces: [Self.ffmt, Self.dfmt, Self.doff, Self.redy]))
        #expect(stream.descriptions.map(\.mDataByteSize) == original.descriptions.map(\.mDataByteSize))
    }

    /// Junk between frames (sync-like bytes included) and an ID3v1 tag at the end: the frames around
    /// the junk are all found, as a stream joined in the middle finds its first.
    @Test func junkBetweenFramesIsResynced() throws {
        let clean = try ffmpegFile(["-c:a", "libmp3lame", "-b:a", "96k", "-write_xing", "0", "-id3v2_version", "0", "-write_id3v1", "1",
                                    "-metadata", "title=Soundstage", "-f", "mp3"], name: "j.mp3")
        let original = FileReading(clean)
        let cut = Int(original.dataOffset + original.descriptions[5].mStartOffset)
        var random = SplitMix(seed: 7)
        var junk = (0..<700).map { _ in UInt8.random(in: 0...255, using: &random) }
        junk[100] = 0xFF
        junk[101] = 0xFB   // a frame header's first bytes, not followed by a frame
        junk[300...303] = [0xFF, 0xFB, 0x90, 0x64]
        let dirty = Array(clean[..<cut]) + junk + Array(clean[cut...])
        Self.check(dirty, hint: kAudioFileMP3Type, announces: [Self.ffmt, Self.dfmt, Self.doff, Self.redy])
        let stream = streamed(dirty, hint: kAudioFileMP3Type, split: .random)
        #expect(stream.descriptions.map(\.mDataByteSize) == original.descriptions.map(\.mDataByteSize))
        // Joined in the middle of a frame, as a radio stream is: the hint says MP3, the frames are found.
        let joined = Array(clean[(cut + 100)...])
        let radio = streamed(joined, hint: kAudioFileMP3Type, split: .random)
        #expect(radio.errors.isEmpty && radio.packets == original.descriptions.count - 6)
        // Without the hint the type cannot be told: kAudioFileStreamError_UnsupportedFileType.
        #expect(streamed(joined, split: .whole).errors.first == kAudioFileStreamError_UnsupportedFileType)
    }

    // MARK: AAC in ADTS

    @Test func adtsAAC() throws {
        guard FFmpeg.hasEncoder(named: "aac") else { return }
        let data = try Self.written(.adtsAAC, name: "a.aac")
        let stream = try #require(Self.check(data, hint: kAudioFileAAC_ADTSType, announces: [Self.ffmt, Self.dfmt, Self.mgic, Self.doff, Self.redy]))
        #expect(stream.format.mFormatID == kAudioFormatMPEG4AAC && stream.format.mFramesPerPacket == 1024)
        #expect(stream.cookie == [0x12, 0x10])   // AAC LC, 44.1 kHz, stereo
        Self.check(data, announces: [Self.ffmt, Self.dfmt, Self.mgic, Self.doff, Self.redy])
    }

    // MARK: CAF

    @Test func cafWithItsPacketTableBeforeTheData() throws {
        // Apple Lossless (libsndfile writes 'pakt' before 'data'): every packet with its description.
        let alac = try Self.written(.cafALAC, name: "a.caf")
        let stream = try #require(Self.check(alac, announces: [Self.ffmt, Self.dfmt, Self.mgic, Self.pnfo, Self.doff, Self.bcnt, Self.pcnt, Self.redy]))
        #expect(stream.format.mFormatID == kAudioFormatAppleLossless && stream.descriptions.count == stream.packets)
        // IMA4: constant packets, no descriptions, and the table's priming and remainder.
        let ima4 = try Self.written(.cafIMA4, name: "i.caf")
        let constant = try #require(Self.check(ima4, announces: [Self.ffmt, Self.dfmt, Self.pnfo, Self.doff, Self.bcnt, Self.pcnt, Self.redy]))
        #expect(constant.descriptions.isEmpty && constant.format.mBytesPerPacket == 68)
        // Linear PCM, a 'free' chunk before the data.
        Self.check(try Self.written(.cafPCM16, name: "p.caf"), announces: [Self.ffmt, Self.dfmt, Self.doff, Self.bcnt, Self.pcnt, Self.redy])
    }

    @Test func cafStreamedWithItsDataRunningToTheEnd() throws {
        // FFmpeg writing to a pipe: the data chunk's size is -1 and nothing follows it.
        let data = try ffmpegPipe(["-c:a", "pcm_s16be", "-f", "caf"])
        #expect(cafChunks(data).last.map { $0.0 == "data" && $0.1[4..<12].allSatisfy { $0 == 0xFF } } == true)
        let stream = try #require(Self.check(data, announces: [Self.ffmt, Self.dfmt, Self.cmap, Self.doff, Self.redy]))
        #expect(stream.packets == 44_100)
        // The size is not stated: kAudioFileStreamError_ValueUnknown.
        let recorder = StreamRecorder(hint: 0)
        recorder.feed(Array(data[0..<4_000]), pieces: { $0 }, flush: false)
        #expect(recorder.property(kAudioFileStreamProperty_AudioDataByteCount, UInt64(0)).0 == kAudioFileStreamError_ValueUnknown)
        #expect(recorder.property(kAudioFileStreamProperty_AudioDataPacketCount, UInt64(0)).0 == kAudioFileStreamError_ValueUnknown)
        recorder.close()
    }

    @Test func cafWhosePacketTableFollowsItsDataIsNotOptimized() throws {
        // FFmpeg writes Apple Lossless in CAF with 'pakt' after 'data': as Apple documents, a stream
        // cannot produce those packets (kAudioFileStreamError_NotOptimized); Audio File Services reads the file.
        let data = try ffmpegFile(["-c:a", "alac"], name: "a.caf")
        let chunks = cafChunks(data)
        #expect(chunks.map(\.0).suffix(2) == ["data", "pakt"])
        for split in Split.allCases {
            let stream = streamed(data, split: split)
            #expect(!stream.errors.isEmpty && stream.errors.allSatisfy { $0 == kAudioFileStreamError_NotOptimized }, "\(split): \(stream.errors)")
            #expect(stream.packets == 0 && !stream.announced.contains(Self.redy))
        }
        // The same file optimized ('pakt' moved before 'data') streams, as Audio File Services reads it.
        let optimized = Array(data[0..<8]) + chunks.filter { $0.0 != "data" }.flatMap(\.1) + chunks.filter { $0.0 == "data" }.flatMap(\.1)
        Self.check(optimized, announces: [Self.ffmt, Self.dfmt, Self.mgic, Self.cmap, Self.pnfo, Self.doff, Self.bcnt, Self.pcnt, Self.redy])
    }

    // MARK: WAVE and AIFF

    @Test(arguments: [OutputFormat.wavPCM16, .wavULaw, .wavALaw, .wavFloat32, .wavPCM24])
    func wave(format: OutputFormat) throws {
        let stream = try #require(Self.check(try Self.written(format, frames: 9_999, name: "a.wav"),
                                             announces: [Self.ffmt, Self.dfmt, Self.doff, Self.bcnt, Self.pcnt, Self.redy]))
        #expect(stream.descriptions.isEmpty && stream.packets == 9_999)
    }

    @Test func waveStreamedWithoutItsSize() throws {
        // FFmpeg writing WAVE to a pipe: the data chunk's size is 0xFFFFFFFF, so the counts are not stated.
        let data = try ffmpegPipe(["-c:a", "pcm_s16le", "-f", "wav"])
        let stream = try #require(Self.check(data, announces: [Self.ffmt, Self.dfmt, Self.doff, Self.redy]))
        #expect(stream.packets == 44_100)
    }

    @Test func aiff() throws {
        Self.check(try Self.written(.aiffPCM16, frames: 5_001, name: "a.aiff"),
                   announces: [Self.ffmt, Self.dfmt, Self.doff, Self.bcnt, Self.pcnt, Self.redy])
    }

    // MARK: MPEG-4

    @Test func mpeg4WithItsSampleTablesFirst() throws {
        // Apple Lossless in an M4A whose 'moov' comes first (FFmpeg's faststart).
        let data = try ffmpegFile(["-c:a", "alac", "-movflags", "+faststart"], name: "a.m4a")
        Self.check(data, announces: [Self.ffmt, Self.dfmt, Self.mgic, Self.pnfo, Self.doff, Self.bcnt, Self.pcnt, Self.redy])
        // SoundFileWriter's M4A has its 'moov' at the end: not optimized for streaming.
        let late = streamed(try Self.written(.m4aALAC, name: "b.m4a"), split: .random)
        #expect(late.errors.first == kAudioFileStreamError_NotOptimized && late.packets == 0)
    }
}

/// The shapes iOS streaming players give their code, which must compile unchanged: callbacks as
/// named functions with non-optional parameters, the client data from `Unmanaged`, a `Data` chunk
/// parsed through `withUnsafeBytes`, flags as option sets.
final class RadioPlayer {
    var streamID: AudioFileStreamID?
    var dataFormat = AudioStreamBasicDescription()
    var packetCount = 0
    var cachedAsked = false

    init() {
        let status = AudioFileStreamOpen(Unmanaged.passUnretained(self).toOpaque(), radioPropertyListener, radioPackets,
                                         kAudioFileMP3Type, &streamID)
        precondition(status == noErr)
    }

    func received(_ data: Data, discontinuous: Bool) -> OSStatus {
        guard let streamID else { return kAudio_ParamError }
        return data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> OSStatus in
            AudioFileStreamParseBytes(streamID, UInt32(data.count), buffer.baseAddress, discontinuous ? [.discontinuity] : [])
        }
    }

    deinit {
        if let streamID { AudioFileStreamClose(streamID) }
    }
}

func radioPropertyListener(_ clientData: UnsafeMutableRawPointer, _ streamID: AudioFileStreamID,
                           _ propertyID: AudioFileStreamPropertyID, _ flags: UnsafeMutablePointer<AudioFileStreamPropertyFlags>) {
    let player = Unmanaged<RadioPlayer>.fromOpaque(clientData).takeUnretainedValue()
    if propertyID == kAudioFileStreamProperty_DataFormat {
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        AudioFileStreamGetProperty(streamID, propertyID, &size, &player.dataFormat)
    }
    if !flags.pointee.contains(.propertyIsCached) {
        flags.pointee.insert(.cacheProperty)
        player.cachedAsked = true
    }
}

func radioPackets(_ clientData: UnsafeMutableRawPointer, _ numberBytes: UInt32, _ numberPackets: UInt32,
                  _ inputData: UnsafeRawPointer, _ descriptions: UnsafeMutablePointer<AudioStreamPacketDescription>?) {
    let player = Unmanaged<RadioPlayer>.fromOpaque(clientData).takeUnretainedValue()
    guard let descriptions else { return }
    for description in UnsafeBufferPointer(start: descriptions, count: Int(numberPackets)) where description.mDataByteSize > 0 {
        player.packetCount += 1
    }
    _ = (numberBytes, inputData)
}

extension AudioFileStreamTests {
    @Test func iOSPlayerCodeCompilesAndRuns() throws {
        let data = try Data(Self.written(.mp3, name: "r.mp3"))
        let player = RadioPlayer()
        var at = 0
        while at < data.count {
            let chunk = data[at..<min(data.count, at + 1_500)]
            #expect(player.received(Data(chunk), discontinuous: false) == noErr)
            at += 1_500
        }
        #expect(player.dataFormat.mFormatID == kAudioFormatMPEGLayer3 && player.packetCount == Int(FileReading(Array(data)).packetCount))
        #expect(!player.cachedAsked)
    }
}

/// Two values' bytes are the same.
func same<T: BitwiseCopyable>(_ a: T, _ b: T) -> Bool {
    withUnsafeBytes(of: a) { a in withUnsafeBytes(of: b) { b in a.elementsEqual(b) } }
}

/// A description's fields, comparable.
func fields(_ description: AudioStreamPacketDescription) -> [Int64] {
    [description.mStartOffset, Int64(description.mVariableFramesInPacket), Int64(description.mDataByteSize)]
}

/// What FFmpeg writes to a pipe (a stream, whose writer cannot go back to fill in sizes): one second
/// of a stereo tone at 44.1 kHz.
func ffmpegPipe(_ arguments: [String]) throws -> [UInt8] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
    process.arguments = ["-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=1", "-ac", "2", "-ar", "44100"]
        + arguments + ["pipe:1"]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Array(data)
}
