import AudioToolbox
import Foundation
import Testing

/// HE-AAC and HE-AAC v2 through every layer, as iOS code meets them: Audio Format Services'
/// descriptions and format lists, Audio File Services' data format, format list and packet table,
/// a converter fed AudioFileReadPacketData's packets (QA1639's way: the first playable layer of the
/// format list), and Extended Audio File Services. The files are AAC-LC packets at 22,050 Hz behind
/// a cookie that signals SBR (and PS) — Debian's FFmpeg has no HE-AAC encoder; HEAACSupport.swift
/// says how they are made and what FFmpeg's decoder does with them (its SBR path, on an empty high
/// band: 2,048 frames a packet at 44,100 Hz).
///
/// The numbers: 22,050 frames encoded a channel (1 kHz left, 1.5 kHz right; a mono core for PS),
/// after Apple's 2,112 frames of priming, in 24 packets. Decoded as HE-AAC that is 44,100 valid
/// frames after 4,224 of priming at 44,100 Hz (each × 2); the output's tone starts 962 frames in,
/// FFmpeg's SBR delay (481 at the core's rate), which no file states and nothing trims.
@Suite struct HEAACTests {
    static let descriptionSize = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)

    /// The file's format list, as iOS code reads it.
    static func formatList(_ file: AudioFileID) -> [AudioFormatListItem] {
        var size: UInt32 = 0
        guard AudioFileGetPropertyInfo(file, kAudioFilePropertyFormatList, &size, nil) == noErr else { return [] }
        var items = [AudioFormatListItem](repeating: AudioFormatListItem(), count: Int(size) / MemoryLayout<AudioFormatListItem>.size)
        guard AudioFileGetProperty(file, kAudioFilePropertyFormatList, &size, &items) == noErr else { return [] }
        return Array(items.prefix(Int(size) / MemoryLayout<AudioFormatListItem>.size))
    }

    /// kAudioFormatProperty_FormatList for a description and a cookie.
    static func formatList(_ asbd: AudioStreamBasicDescription, cookie: [UInt8]?) -> (OSStatus, [AudioFormatListItem]) {
        var cookie = cookie ?? []
        return cookie.withUnsafeMutableBytes { bytes in
            var info = AudioFormatInfo(mASBD: asbd, mMagicCookie: bytes.isEmpty ? nil : UnsafeRawPointer(bytes.baseAddress), mMagicCookieSize: UInt32(bytes.count))
            let specifierSize = UInt32(MemoryLayout<AudioFormatInfo>.size)
            var size: UInt32 = 0
            let status = AudioFormatGetPropertyInfo(kAudioFormatProperty_FormatList, specifierSize, &info, &size)
            guard status == noErr else { return (status, []) }
            var items = [AudioFormatListItem](repeating: AudioFormatListItem(), count: Int(size) / MemoryLayout<AudioFormatListItem>.size)
            return (AudioFormatGetProperty(kAudioFormatProperty_FormatList, specifierSize, &info, &size, &items), items)
        }
    }

    /// The index kAudioFormatProperty_FirstPlayableFormatFromList gives.
    static func firstPlayable(_ items: [AudioFormatListItem]) -> (OSStatus, UInt32) {
        var items = items
        var index: UInt32 = 0
        var size = UInt32(4)
        let status = AudioFormatGetProperty(kAudioFormatProperty_FirstPlayableFormatFromList,
                                            UInt32(items.count * MemoryLayout<AudioFormatListItem>.size), &items, &size, &index)
        return (status, index)
    }

    /// The layers expected of `kind`, richest first.
    static func layers(_ kind: HEAAC.Kind) -> [AudioStreamBasicDescription] {
        let base = HEAAC.baseFormat(channels: kind.coreChannels)
        var he = HEAAC.heFormat(kind)
        guard kind.hasPS else { return [he, base] }
        let v2 = he
        he.mFormatID = kAudioFormatMPEG4AAC_HE
        he.mChannelsPerFrame = 1
        return [v2, he, base]
    }

    /// An ExtAudioFile's file format and length.
    static func extFacts(_ url: URL) throws -> (format: AudioStreamBasicDescription, length: Int64, table: AudioFilePacketTableInfo) {
        var ext: ExtAudioFileRef?
        try #require(ExtAudioFileOpenURL(url as CFURL, &ext) == noErr)
        let file = try #require(ext)
        defer { ExtAudioFileDispose(file) }
        var format = AudioStreamBasicDescription()
        var size = descriptionSize
        #expect(ExtAudioFileGetProperty(file, kExtAudioFileProperty_FileDataFormat, &size, &format) == noErr)
        var length: Int64 = 0
        size = 8
        #expect(ExtAudioFileGetProperty(file, kExtAudioFileProperty_FileLengthFrames, &size, &length) == noErr)
        var table = AudioFilePacketTableInfo()
        size = UInt32(MemoryLayout<AudioFilePacketTableInfo>.size)
        _ = ExtAudioFileGetProperty(file, kExtAudioFileProperty_PacketTable, &size, &table)
        return (format, length, table)
    }

    /// A description's fields, to compare and print ('aach' 44100.0 2 ch 2048/packet, flags 0).
    static func described(_ a: AudioStreamBasicDescription) -> String {
        let id = withUnsafeBytes(of: a.mFormatID.bigEndian) { String(decoding: $0, as: UTF8.self) }
        return "'\(id)' \(a.mSampleRate) Hz \(a.mChannelsPerFrame) ch, \(a.mFramesPerPacket) frames/\(a.mBytesPerPacket) bytes a packet, "
            + "\(a.mBytesPerFrame) bytes/\(a.mBitsPerChannel) bits, flags \(a.mFormatFlags)"
    }

    static func described(_ list: [AudioStreamBasicDescription]) -> [String] { list.map { described($0) } }

    /// The first frame whose left sample is louder than a tenth of the tone: where the tone starts.
    static func onset(_ left: [Float]) -> Int { left.firstIndex { abs($0) > 0.05 } ?? -1 }

    /// A tone's level against `reference`, in dB.
    static func level(_ samples: ArraySlice<Float>, frequency: Double, rate: Double, reference: Double) -> Double {
        20 * log10(amplitude(of: samples, frequency: frequency, rate: rate) / reference)
    }

    // MARK: - Audio Format Services

    @Test func anHEDescriptionIsCompletedWith2048FramesAPacketAtItsOwnRate() {
        for formatID in [kAudioFormatMPEG4AAC_HE, kAudioFormatMPEG4AAC_HE_V2] {
            var asbd = AudioStreamBasicDescription(mSampleRate: 44_100, mFormatID: formatID, mFormatFlags: 0, mBytesPerPacket: 0,
                                                   mFramesPerPacket: 0, mBytesPerFrame: 0, mChannelsPerFrame: 2, mBitsPerChannel: 0, mReserved: 0)
            var size = Self.descriptionSize
            #expect(AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, 0, nil, &size, &asbd) == noErr)
            #expect(asbd.mFormatID == formatID && asbd.mFramesPerPacket == 2048 && asbd.mSampleRate == 44_100 && asbd.mChannelsPerFrame == 2)
            #expect(asbd.mBytesPerPacket == 0 && asbd.mBytesPerFrame == 0 && asbd.mBitsPerChannel == 0)
        }
    }

    @Test(arguments: HEAAC.Kind.allCases)
    func aCookieGivesTheBaseLayerAndItsFormatListTheLayers(_ kind: HEAAC.Kind) {
        let cookie = HEAAC.esDescriptor(HEAAC.audioSpecificConfig(kind, channels: kind.coreChannels))
        let base = HEAAC.baseFormat(channels: kind.coreChannels)
        // FormatInfo with the cookie: the base layer, as Apple's (QA1639: an HE-AAC file's data
        // format is plain 'aac'), whatever the description said.
        for given in [kAudioFormatMPEG4AAC, kind.formatID] {
            var asbd = AudioStreamBasicDescription()
            asbd.mFormatID = given
            var size = Self.descriptionSize
            let status = cookie.withUnsafeBytes { AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, UInt32($0.count), $0.baseAddress, &size, &asbd) }
            #expect(status == noErr)
            #expect(asbd.mFormatID == kAudioFormatMPEG4AAC && asbd.mSampleRate == HEAAC.coreRate && asbd.mChannelsPerFrame == kind.coreChannels
                    && asbd.mFramesPerPacket == 1024 && asbd.mFormatFlags == 2)
        }
        var fromESDS = AudioStreamBasicDescription()
        var esdsSize = Self.descriptionSize
        let esdsStatus = cookie.withUnsafeBytes { AudioFormatGetProperty(kAudioFormatProperty_ASBDFromESDS, UInt32($0.count), $0.baseAddress, &esdsSize, &fromESDS) }
        #expect(esdsStatus == noErr && Self.described(fromESDS) == Self.described(base))
        // The format list: richest first, the base layer last; the first one is playable here.
        var aac = AudioStreamBasicDescription()
        aac.mFormatID = kAudioFormatMPEG4AAC
        let (status, items) = Self.formatList(aac, cookie: cookie)
        #expect(status == noErr)
        #expect(Self.described(items.map(\.mASBD)) == Self.described(Self.layers(kind)))
        #expect(items.map(\.mChannelLayoutTag) == items.map { kAudioChannelLayoutTag_Unknown | $0.mASBD.mChannelsPerFrame })
        #expect(items.last.map { Self.described($0.mASBD) } == Self.described(base))
        let (playable, index) = Self.firstPlayable(items)
        #expect(playable == noErr && index == 0)
        // Without a cookie, an HE description lists the same layers.
        let (noCookie, derived) = Self.formatList(HEAAC.heFormat(kind), cookie: nil)
        #expect(noCookie == noErr)
        #expect(Self.described(derived.map(\.mASBD)) == Self.described(Self.layers(kind)))
        // An LC cookie, or a format that is not layered: one item, FormatInfo's description.
        let lc = HEAAC.esDescriptor(HEAAC.audioSpecificConfig(nil, channels: 2))
        let (plain, single) = Self.formatList(aac, cookie: lc)
        #expect(plain == noErr && Self.described(single.map(\.mASBD)) == [Self.described(HEAAC.baseFormat(channels: 2))])
        let (pcmStatus, pcm) = Self.formatList(pcmFormat(rate: 48_000, channels: 2, bits: 16), cookie: nil)
        #expect(pcmStatus == noErr && Self.described(pcm.map(\.mASBD)) == [Self.described(pcmFormat(rate: 48_000, channels: 2, bits: 16))])
    }

    @Test func anExtensionRateThatIsNotSBRsListsTheBaseLayerAlone() {
        // audioObjectType 5 with rates written out (index 15): a 1 Hz core and a 16,777,215 Hz
        // extension. SBR runs at the core's rate or twice it; this is neither, and no layer is
        // made of it (nor 16 billion frames a packet).
        var bits = Bits()
        bits.write(5, 5)
        bits.write(15, 4); bits.write(1, 24)
        bits.write(2, 4)
        bits.write(15, 4); bits.write(0xFF_FFFF, 24)
        bits.write(2, 5)
        bits.write(0, 3)
        var aac = AudioStreamBasicDescription()
        aac.mFormatID = kAudioFormatMPEG4AAC
        let (status, items) = Self.formatList(aac, cookie: HEAAC.esDescriptor(bits.bytes))
        #expect(status == noErr)
        #expect(items.map(\.mASBD.mFormatID) == [kAudioFormatMPEG4AAC] && items.first?.mASBD.mSampleRate == 1)
    }

    // MARK: - Audio File Services

    @Test(arguments: HEAAC.Kind.allCases, HEAAC.Container.allCases)
    func aFileStatesItsDataFormatAndListsItsLayers(_ kind: HEAAC.Kind, _ container: HEAAC.Container) throws {
        guard FFmpegIsHere.aacEncoder else { return }
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let made = try HEAAC.file(kind, container, in: directory)
        var fileID: AudioFileID?
        try #require(AudioFileOpenURL(made.url as CFURL, .readPermission, 0, &fileID) == noErr)
        let file = try #require(fileID)
        defer { AudioFileClose(file) }
        // The data format: CAF's is its description; an M4A's is its cookie's base layer (QA1639).
        let dataFormat = property(file, kAudioFilePropertyDataFormat, AudioStreamBasicDescription()).1
        let expected = container == .cafHE ? HEAAC.heFormat(kind) : HEAAC.baseFormat(channels: kind.coreChannels)
        #expect(Self.described(dataFormat) == Self.described(expected))
        // The format list: every layer, richest first, the data format among them.
        let items = Self.formatList(file)
        #expect(Self.described(items.map(\.mASBD)) == Self.described(Self.layers(kind)))
        #expect(Self.described(items.map(\.mASBD)).contains(Self.described(dataFormat)))
        // The packet table, in the data format's frames: an M4A's edit list counts in its
        // timescale (44,100 Hz when it was written from the HE description), which is twice the
        // base layer's rate.
        let heFrames = dataFormat.mFramesPerPacket == 2048
        let (status, table) = property(file, kAudioFilePropertyPacketTableInfo, AudioFilePacketTableInfo())
        #expect(status == noErr)
        let scale = heFrames ? 2 : 1
        #expect(table.mPrimingFrames == Int32(HEAAC.corePriming * scale) && table.mNumberValidFrames == Int64(HEAAC.coreFrames * scale),
                "\(table)")
        #expect(Int64(table.mPrimingFrames) + table.mNumberValidFrames + Int64(table.mRemainderFrames) == Int64(made.packets.count * 1024 * scale))
        // A stream of the same bytes lists the same layers (a CAF with its data chunk last, as a
        // stream needs it; Soundstage's writer puts the packet table after the data, and an M4A's
        // movie box after its media, which no stream parser reads).
        guard container.type == kAudioFileCAFType else { return }
        let bytes = [UInt8](try Data(contentsOf: made.url))
        let chunks = cafChunks(bytes)
        let streamable = Array(bytes[0..<8]) + chunks.filter { $0.0 != "data" }.flatMap(\.1) + chunks.filter { $0.0 == "data" }.flatMap(\.1)
        let recorder = StreamRecorder(hint: 0)
        recorder.feed(streamable, pieces: { $0 })
        defer { recorder.close() }
        #expect(recorder.errors.isEmpty && recorder.packets == made.packets.count, "\(recorder.errors)")
        var size: UInt32 = 0
        let stream = try #require(recorder.streamID)
        #expect(AudioFileStreamGetPropertyInfo(stream, kAudioFileStreamProperty_FormatList, &size, nil) == noErr)
        var streamed = [AudioFormatListItem](repeating: AudioFormatListItem(), count: Int(size) / MemoryLayout<AudioFormatListItem>.size)
        #expect(AudioFileStreamGetProperty(stream, kAudioFileStreamProperty_FormatList, &size, &streamed) == noErr)
        #expect(Self.described(streamed.map(\.mASBD)) == Self.described(items.map(\.mASBD)))
    }

    // MARK: - Extended Audio File Services

    @Test(arguments: HEAAC.Kind.allCases, HEAAC.Container.allCases)
    func extAudioFileReadsTheHELayer(_ kind: HEAAC.Kind, _ container: HEAAC.Container) throws {
        guard FFmpegIsHere.aacEncoder else { return }
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let made = try HEAAC.file(kind, container, in: directory)
        // The file format is the richest layer, whatever the data format: 44,100 Hz, 2,048 frames a
        // packet, two channels (HE-AAC v2's from a mono core); its length and packet table in its
        // own frames: twice the core's.
        let facts = try Self.extFacts(made.url)
        #expect(Self.described(facts.format) == Self.described(HEAAC.heFormat(kind)))
        #expect(facts.length == Int64(2 * HEAAC.coreFrames))
        #expect(facts.table.mPrimingFrames == Int32(2 * HEAAC.corePriming) && facts.table.mNumberValidFrames == Int64(2 * HEAAC.coreFrames))
        // 16-bit at the file's rate: exactly the valid frames, the tones at their frequencies.
        for rate in [HEAAC.outputRate, 48_000, HEAAC.coreRate] {
            let read = extRead(made.url, client: pcmFormat(rate: rate, channels: 2, bits: 16))
            #expect(read.status == noErr)
            let expectedFrames = Int((Double(2 * HEAAC.coreFrames) * rate / HEAAC.outputRate).rounded(.up))
            #expect(read.frames == expectedFrames, "\(rate) Hz: \(read.frames) frames")
            let samples = int16s(of: read.buffers[0]).map { Float($0) / 32_768 }
            let left = ConverterCodecTests.channel(samples, 0, of: 2), right = ConverterCodecTests.channel(samples, 1, of: 2)
            let middle = (left.count / 4)..<(3 * left.count / 4)
            #expect(abs(zeroCrossingFrequency(left[middle], rate: rate) - HEAAC.tones.left) < 0.5, "\(rate) Hz")
            #expect(abs(Self.level(left[middle], frequency: HEAAC.tones.left, rate: rate, reference: 0.5)) < 1, "\(rate) Hz")
            if kind.hasPS {
                // PS with no payload: the mono core, the same in both channels.
                #expect(left == right, "\(rate) Hz")
            } else {
                #expect(abs(zeroCrossingFrequency(right[middle], rate: rate) - HEAAC.tones.right) < 0.5, "\(rate) Hz")
                #expect(abs(Self.level(right[middle], frequency: HEAAC.tones.right, rate: rate, reference: 0.25)) < 1, "\(rate) Hz")
            }
            // The priming trimmed (4,224 frames at 44,100 Hz): the tone starts after FFmpeg's SBR
            // delay (962 frames there), not after a second priming or inside the first.
            let start = Double(Self.onset(left)) * HEAAC.outputRate / rate
            #expect(start > 900 && start < 1_100, "\(rate) Hz: the tone starts at \(start) frames")
        }
    }

    @Test(arguments: HEAAC.Kind.allCases, [HEAAC.Container.cafHE, .m4aHE, .cafAAC])
    func packetsThroughAConverterAreWhatExtAudioFileReads(_ kind: HEAAC.Kind, _ container: HEAAC.Container) throws {
        guard FFmpegIsHere.aacEncoder else { return }
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let made = try HEAAC.file(kind, container, in: directory)
        var fileID: AudioFileID?
        try #require(AudioFileOpenURL(made.url as CFURL, .readPermission, 0, &fileID) == noErr)
        let file = try #require(fileID)
        let dataFormat = property(file, kAudioFilePropertyDataFormat, AudioStreamBasicDescription()).1
        let table = property(file, kAudioFilePropertyPacketTableInfo, AudioFilePacketTableInfo()).1
        // QA1639's way: the format list's first playable layer.
        let items = Self.formatList(file)
        let (status, index) = Self.firstPlayable(items)
        #expect(status == noErr && index == 0)
        let layer = items[Int(index)].mASBD
        AudioFileClose(file)
        let onDisk = try ConverterCodecTests.packets(of: made.url)
        #expect(onDisk.packets == made.packets)
        let decoded = try ConverterCodecTests.decode(onDisk.packets, format: layer, cookie: onDisk.cookie, channels: 2, rate: HEAAC.outputRate)
        #expect(decoded.status == noErr)
        // Every packet decodes to 2,048 frames at 44,100 Hz.
        #expect(decoded.samples.count == made.packets.count * 2048 * 2)
        // Trimmed by the packet table, in the layer's frames (the table counts in the data format's).
        let scale = Int(layer.mFramesPerPacket / dataFormat.mFramesPerPacket)
        let start = Int(table.mPrimingFrames) * scale, valid = Int(table.mNumberValidFrames) * scale
        let trimmed = Array(decoded.samples[(2 * start)..<(2 * (start + valid))])
        let read = extRead(made.url, client: pcmFormat(rate: HEAAC.outputRate, channels: 2, bits: 32, float: true))
        #expect(read.status == noErr)
        let extSamples = floats(of: read.buffers[0])
        #expect(extSamples.count == trimmed.count && extSamples == trimmed, "\(extSamples.count) and \(trimmed.count) samples")

        // The base layer (the data format an M4A states) through a converter: what AAC-LC is of the
        // stream, at 22,050 Hz, 1,024 frames a packet (FFmpeg decodes SBR all the same; its output
        // is resampled to the rate asked for).
        let base = HEAAC.baseFormat(channels: kind.coreChannels)
        let lc = try ConverterCodecTests.decode(onDisk.packets, format: base, cookie: onDisk.cookie, channels: kind.coreChannels, rate: HEAAC.coreRate)
        #expect(lc.status == noErr)
        #expect(lc.samples.count == made.packets.count * 1024 * Int(kind.coreChannels))
        let left = ConverterCodecTests.channel(lc.samples, 0, of: Int(kind.coreChannels))
        #expect(abs(zeroCrossingFrequency(left[8_000..<20_000], rate: HEAAC.coreRate) - HEAAC.tones.left) < 0.5)
    }

    // MARK: - Converters

    @Test(arguments: [HEAAC.Kind.sbr, .ps])
    func anHEDescriptionWithoutACookieDecodesAsWithOne(_ kind: HEAAC.Kind) throws {
        guard FFmpegIsHere.aacEncoder else { return }
        // A description alone ('aach' or 'aacp' at 44,100 Hz, no cookie) signals SBR (and PS) to
        // the decoder as the cookie would: the same samples, 2,048 frames a packet.
        let (packets, _) = try HEAAC.corePackets(channels: kind.coreChannels)
        let cookie = HEAAC.esDescriptor(HEAAC.audioSpecificConfig(kind, channels: kind.coreChannels))
        let format = HEAAC.heFormat(kind)
        let withCookie = try ConverterCodecTests.decode(packets, format: format, cookie: cookie)
        let without = try ConverterCodecTests.decode(packets, format: format, cookie: nil)
        #expect(withCookie.status == noErr && without.status == noErr)
        #expect(without.samples.count == packets.count * 2048 * 2)
        #expect(without.samples == withCookie.samples)
        // The converter's descriptions say what it decodes.
        var source = format, destination = pcmFormat(rate: HEAAC.outputRate, channels: 2, bits: 16)
        var converter: AudioConverterRef?
        try #require(AudioConverterNew(&source, &destination, &converter) == noErr)
        let id = try #require(converter)
        defer { AudioConverterDispose(id) }
        var current = AudioStreamBasicDescription()
        var size = Self.descriptionSize
        #expect(AudioConverterGetProperty(id, kAudioConverterCurrentInputStreamDescription, &size, &current) == noErr)
        #expect(current.mFormatID == kind.formatID && current.mSampleRate == HEAAC.outputRate && current.mFramesPerPacket == 2048)
    }

    @Test func aDamagedPacketIsAPacketsWorthOfSilenceAtTheSBRRate() throws {
        guard FFmpegIsHere.aacEncoder else { return }
        // A packet the decoder refuses (a mono element where the stereo configuration has none:
        // FFmpeg's "channel element 0.5 is not allocated") stands for the frames it would have
        // decoded to: 2,048 at 44,100 Hz, the timeline kept.
        var (packets, _) = try HEAAC.corePackets(channels: 2)
        packets[10] = [0x0A] + [UInt8](repeating: 0, count: 40)
        let cookie = HEAAC.esDescriptor(HEAAC.audioSpecificConfig(.sbr, channels: 2))
        for format in [HEAAC.heFormat(.sbr), HEAAC.baseFormat(channels: 2)] {
            let decoded = try ConverterCodecTests.decode(packets, format: format, cookie: cookie, channels: 2, rate: HEAAC.outputRate)
            #expect(decoded.status == noErr)
            #expect(decoded.samples.count == packets.count * 2048 * 2, "\(Self.described(format)): \(decoded.samples.count / 2) frames")
            if format.mSampleRate == HEAAC.outputRate {
                #expect(decoded.samples[(2 * 10 * 2048)..<(2 * 11 * 2048)].allSatisfy { $0 == 0 })
            }
        }
    }

    // MARK: - Seeking

    @Test(arguments: [HEAAC.Kind.sbr, .ps], [HEAAC.Container.m4aHE, .cafHE])
    func aSeekReadsWhatAReadFromTheStartReads(_ kind: HEAAC.Kind, _ container: HEAAC.Container) throws {
        guard FFmpegIsHere.aacEncoder else { return }
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let made = try HEAAC.file(kind, container, in: directory)
        try Self.expectSeeksExact(made.url, to: 20_000, fileRate: HEAAC.outputRate)
    }

    /// Seeks to `frame` (the file's) at a client rate equal to the file's and at 48 kHz: what
    /// follows is what a read from the start gives there.
    static func expectSeeksExact(_ url: URL, to frame: Int64, fileRate: Double, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for rate in Set([fileRate, 44_100, 48_000]).sorted() {
            let client = pcmFormat(rate: rate, channels: 2, bits: 32, float: true)
            let whole = floats(of: extRead(url, client: client).buffers[0])
            var ext: ExtAudioFileRef?
            try #require(ExtAudioFileOpenURL(url as CFURL, &ext) == noErr, sourceLocation: sourceLocation)
            let file = try #require(ext, sourceLocation: sourceLocation)
            defer { ExtAudioFileDispose(file) }
            var clientFormat = client
            #expect(ExtAudioFileSetProperty(file, kExtAudioFileProperty_ClientDataFormat, descriptionSize, &clientFormat) == noErr,
                    sourceLocation: sourceLocation)
            #expect(ExtAudioFileSeek(file, frame) == noErr, sourceLocation: sourceLocation)
            var tell: Int64 = -1
            #expect(ExtAudioFileTell(file, &tell) == noErr && tell == frame, sourceLocation: sourceLocation)
            let after = floats(of: extReadAll(file, format: client).buffers[0])
            let clientFrame = Int((Double(frame) * rate / fileRate).rounded(.up))
            let expected = Array(whole[(2 * clientFrame)...])
            let first = zip(after, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? -1
            let worst = zip(after, expected).map { abs($0 - $1) }.max() ?? 0
            #expect(after.count == expected.count && after == expected,
                    "\(rate) Hz: \(after.count) and \(expected.count) samples; the first differs at \(first), by up to \(worst)",
                    sourceLocation: sourceLocation)
        }
    }

    // MARK: - Implicit signalling

    @Test(arguments: [kAudioFileM4AType, kAudioFileAAC_ADTSType], [1, 2] as [UInt32])
    func implicitSignallingDecodesAtTheSBRRate(_ type: AudioFileTypeID, _ channels: UInt32) throws {
        guard FFmpegIsHere.aacEncoder else { return }
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (url, packets) = try HEAAC.implicitFile(channels: channels, type: type, in: directory)
        // Nothing but the packets says SBR: the file is its base layer, as on Apple's systems
        // (ADTS can only say AAC-LC), its length in the base layer's frames.
        var fileID: AudioFileID?
        try #require(AudioFileOpenURL(url as CFURL, .readPermission, 0, &fileID) == noErr)
        let file = try #require(fileID)
        #expect(Self.described(Self.formatList(file).map(\.mASBD)) == [Self.described(HEAAC.baseFormat(channels: channels))])
        AudioFileClose(file)
        let m4a = type == kAudioFileM4AType
        let facts = try Self.extFacts(url)
        #expect(Self.described(facts.format) == Self.described(HEAAC.baseFormat(channels: channels)))
        let length = m4a ? HEAAC.coreFrames : packets.count * 1024   // ADTS: no packet table, every frame
        #expect(facts.length == Int64(length))
        // FFmpeg finds SBR in the first packet and decodes at 44,100 Hz (a mono core as HE-AAC v2,
        // which FFmpeg assumes: two equal channels). The trimming counts in the base layer's frames
        // and is applied at the decoder's rate: the length read is the file's at any client rate.
        for rate in [HEAAC.coreRate, HEAAC.outputRate, 48_000] {
            let read = extRead(url, client: pcmFormat(rate: rate, channels: 2, bits: 16))
            #expect(read.status == noErr)
            #expect(read.frames == Int((Double(length) * rate / HEAAC.coreRate).rounded(.up)), "\(rate) Hz: \(read.frames) frames")
            let samples = int16s(of: read.buffers[0]).map { Float($0) / 32_768 }
            let left = ConverterCodecTests.channel(samples, 0, of: 2), right = ConverterCodecTests.channel(samples, 1, of: 2)
            let middle = (left.count / 4)..<(3 * left.count / 4)
            #expect(abs(zeroCrossingFrequency(left[middle], rate: rate) - HEAAC.tones.left) < 0.5, "\(rate) Hz")
            #expect(abs(zeroCrossingFrequency(right[middle], rate: rate) - (channels == 2 ? HEAAC.tones.right : HEAAC.tones.left)) < 0.5, "\(rate) Hz")
            if m4a {
                let start = Double(Self.onset(left)) * HEAAC.outputRate / rate
                #expect(start > 900 && start < 1_100, "\(rate) Hz: the tone starts at \(start) frames")
            }
        }
        // A seek lands where a read from the start is (its frames counted at 22,050 Hz).
        try Self.expectSeeksExact(url, to: 10_000, fileRate: HEAAC.coreRate)
    }
}
