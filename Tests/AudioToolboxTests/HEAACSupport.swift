import AudioToolbox
import Foundation
import Testing

// HE-AAC (SBR) and HE-AAC v2 (SBR + PS) files made without an HE-AAC encoder, which Debian 12's
// FFmpeg lacks (its `aac` encoder is LC only; libfdk-aac is non-free): AAC-LC packets encoded at
// half the output rate by Soundstage's own converter, written behind a magic cookie that signals
// SBR (and PS) explicitly. The packets carry no SBR or PS payload, so FFmpeg's `aac` decoder runs
// its SBR path on an empty high band: 2048 frames a packet at twice the core rate, the core's
// spectrum below, silence above it; with PS signalled, the mono core upmixed to two equal channels
// (checked with ffmpeg 5.1 on such files: 2,048-frame frames at 44,100 Hz, stereo, the tone at its
// frequency, 2 × 1,024 + 961 frames of delay). What SBR and PS payloads rebuild is FFmpeg's code
// and is not tested here.
//
// Implicit signalling (an LC cookie, or ADTS, whose header can only say LC) is made by putting an
// empty SBR extension (a fill element of type EXT_SBR_DATA, no SBR header) before each packet's END
// element: FFmpeg then switches to SBR output from the first packet, as it does for real HE-AAC
// in ADTS.

enum HEAAC {
    /// The stream's layers.
    enum Kind: String, CustomTestStringConvertible, CaseIterable, Sendable {
        /// HE-AAC: AOT 5 (SBR), a stereo core.
        case sbr
        /// HE-AAC v2: AOT 29 (SBR + PS), a mono core, stereo out.
        case ps
        /// HE-AAC signalled the backward-compatible way: AOT 2 and the sync extension 0x2b7 (SBR), a stereo core.
        case syncSBR
        /// HE-AAC v2 likewise: 0x2b7 and then 0x548 (PS), a mono core.
        case syncPS

        var testDescription: String { rawValue }
        var coreChannels: UInt32 { self == .ps || self == .syncPS ? 1 : 2 }
        var hasPS: Bool { self == .ps || self == .syncPS }
        /// The format ID of the richest layer.
        var formatID: AudioFormatID { hasPS ? kAudioFormatMPEG4AAC_HE_V2 : kAudioFormatMPEG4AAC_HE }
    }

    static let coreRate = 22_050.0
    static let outputRate = 44_100.0
    /// The core's tones: left (and a mono core), right.
    static let tones = (left: 1_000.0, right: 1_500.0)
    /// The frames encoded at the core rate.
    static let coreFrames = 22_050
    /// Apple's AAC priming, which Soundstage's encoder makes: 2,112 frames at the core rate.
    static let corePriming = 2_112

    /// The MPEG-4 sampling-frequency index of `rate`.
    static func index(_ rate: Double) -> UInt32 {
        UInt32([96_000, 88_200, 64_000, 48_000, 44_100, 32_000, 24_000, 22_050, 16_000, 12_000, 11_025, 8_000, 7_350].firstIndex(of: rate)!)
    }

    /// An AudioSpecificConfig (ISO/IEC 14496-3 1.6.2.1) signalling `kind`; `nil` kind: plain LC.
    static func audioSpecificConfig(_ kind: Kind?, channels: UInt32) -> [UInt8] {
        var bits = Bits()
        switch kind {
        case .sbr?, .ps?:
            bits.write(kind == .sbr ? 5 : 29, 5)        // audioObjectType: SBR or PS
            bits.write(index(coreRate), 4)             // samplingFrequencyIndex: the core's
            bits.write(channels, 4)                    // channelConfiguration
            bits.write(index(outputRate), 4)           // extensionSamplingFrequencyIndex
            bits.write(2, 5)                           // the core's audioObjectType: LC
            bits.write(0, 3)                           // GASpecificConfig: 1024 frames, no core coder, no extension
        case .syncSBR?, .syncPS?, nil:
            bits.write(2, 5)
            bits.write(index(coreRate), 4)
            bits.write(channels, 4)
            bits.write(0, 3)
            if let kind {
                bits.write(0x2B7, 11)                  // syncExtensionType
                bits.write(5, 5)                       // extensionAudioObjectType: SBR
                bits.write(1, 1)                       // sbrPresentFlag
                bits.write(index(outputRate), 4)
                if kind == .syncPS {
                    bits.write(0x548, 11)              // syncExtensionType: PS
                    bits.write(1, 1)                   // psPresentFlag
                }
            }
        }
        return bits.bytes
    }

    /// The ES descriptor M4A's `esds` and CAF's `kuki` hold, around `config`.
    static func esDescriptor(_ config: [UInt8]) -> [UInt8] {
        func descriptor(_ tag: UInt8, _ body: [UInt8]) -> [UInt8] {
            let n = body.count
            return [tag, UInt8(0x80 | (n >> 21) & 0x7F), UInt8(0x80 | (n >> 14) & 0x7F), UInt8(0x80 | (n >> 7) & 0x7F), UInt8(n & 0x7F)] + body
        }
        let decoderConfig: [UInt8] = [0x40, 0x15, 0, 0x06, 0] + [0, 0, 0xFA, 0] + [0, 0, 0xFA, 0] + descriptor(5, config)
        return descriptor(3, [0, 0, 0] + descriptor(4, decoderConfig) + descriptor(6, [2]))
    }

    /// The core's signal: a sine a channel (left 1 kHz, right 1.5 kHz), interleaved.
    static func coreSignal(channels: UInt32) -> [Float] {
        var samples = [Float](repeating: 0, count: coreFrames * Int(channels))
        for i in 0..<coreFrames {
            let t = Double(i) / coreRate
            samples[i * Int(channels)] = Float(0.5 * sin(2 * .pi * tones.left * t))
            if channels == 2 { samples[i * 2 + 1] = Float(0.25 * sin(2 * .pi * tones.right * t)) }
        }
        return samples
    }

    /// AAC-LC packets of the core signal at the core rate, from Soundstage's own encoder (Apple's
    /// 2,112 frames of priming), and the frames of padding after the audio.
    static func corePackets(channels: UInt32) throws -> (packets: [[UInt8]], trailing: Int) {
        let lc = AudioStreamBasicDescription(mSampleRate: coreRate, mFormatID: kAudioFormatMPEG4AAC, mFormatFlags: 0, mBytesPerPacket: 0,
                                             mFramesPerPacket: 0, mBytesPerFrame: 0, mChannelsPerFrame: channels, mBitsPerChannel: 0, mReserved: 0)
        let encoded = try ConverterCodecTests.encode(coreSignal(channels: channels), channels: channels, rate: coreRate, to: lc)
        #expect(encoded.prime.leadingFrames == UInt32(corePriming))
        #expect(encoded.packets.count * 1024 == corePriming + coreFrames + Int(encoded.prime.trailingFrames))
        return (encoded.packets, Int(encoded.prime.trailingFrames))
    }

    /// `packet` with an empty SBR extension before its END element: the implicit signalling of
    /// HE-AAC. A raw data block ends with ID_END (0b111) and zero bits to the byte: the last bit set
    /// is END's last. The fill element: ID_FIL (0b110), count 1, then the byte
    /// extension_type EXT_SBR_DATA (0b1101) and bs_header_flag 0 and three bits of padding.
    static func withEmptySBRExtension(_ packet: [UInt8]) -> [UInt8] {
        var bits = packet.flatMap { byte in (0..<8).map { (byte >> (7 - $0)) & 1 } }
        let lastSet = bits.lastIndex(of: 1)!
        let end = lastSet - 2
        precondition(bits[end] == 1 && bits[end + 1] == 1)
        let fill: [UInt8] = [1, 1, 0] + [0, 0, 0, 1] + [1, 1, 0, 1] + [0, 0, 0, 0]
        bits = Array(bits[..<end]) + fill + [1, 1, 1]
        while bits.count % 8 != 0 { bits.append(0) }
        return stride(from: 0, to: bits.count, by: 8).map { start in bits[start..<(start + 8)].reduce(0) { $0 << 1 | $1 } }
    }

    /// Writes `packets` to a new file of `type` with `format`, `cookie` (when given) and
    /// `table` (when given) through Audio File Services, as a program copying packets does.
    static func write(_ url: URL, type: AudioFileTypeID, format: AudioStreamBasicDescription, cookie: [UInt8]?, packets: [[UInt8]],
                      table: AudioFilePacketTableInfo?) throws {
        var description = format
        var fileID: AudioFileID?
        try #require(AudioFileCreateWithURL(url as CFURL, type, &description, .eraseFile, &fileID) == noErr)
        let file = try #require(fileID)
        defer { #expect(AudioFileClose(file) == noErr) }
        if var cookie {
            #expect(AudioFileSetProperty(file, kAudioFilePropertyMagicCookieData, UInt32(cookie.count), &cookie) == noErr)
        }
        var descriptions: [AudioStreamPacketDescription] = []
        var offset: Int64 = 0
        for packet in packets {
            descriptions.append(AudioStreamPacketDescription(mStartOffset: offset, mVariableFramesInPacket: 0, mDataByteSize: UInt32(packet.count)))
            offset += Int64(packet.count)
        }
        let bytes = packets.flatMap { $0 }
        var count = UInt32(packets.count)
        #expect(AudioFileWritePackets(file, false, UInt32(bytes.count), &descriptions, 0, &count, bytes) == noErr)
        #expect(count == UInt32(packets.count))
        if var table {
            #expect(AudioFileSetProperty(file, kAudioFilePropertyPacketTableInfo, UInt32(MemoryLayout<AudioFilePacketTableInfo>.size), &table) == noErr)
        }
    }

    /// Where the packets go, and how the file describes them.
    enum Container: String, CustomTestStringConvertible, CaseIterable, Sendable {
        /// CAF described as the HE layer: 'aach' or 'aacp' at the output rate, 2,048 frames a packet.
        case cafHE
        /// M4A written from the same description (timescale: the output rate; 2,048 a packet).
        case m4aHE
        /// CAF described as the base layer: 'aac ' at the core rate, 1,024 frames a packet.
        case cafAAC
        /// M4A written from that (timescale: the core rate).
        case m4aAAC

        var testDescription: String { rawValue }
        var type: AudioFileTypeID { self == .cafHE || self == .cafAAC ? kAudioFileCAFType : kAudioFileM4AType }
        var describedAsHE: Bool { self == .cafHE || self == .m4aHE }
    }

    /// A file made as ``Container`` says.
    struct File {
        let url: URL
        let kind: Kind
        let container: Container
        let packets: [[UInt8]]
        let cookie: [UInt8]
        /// The description the file was created with.
        let format: AudioStreamBasicDescription
    }

    /// The HE layer's description (the richest one).
    static func heFormat(_ kind: Kind) -> AudioStreamBasicDescription {
        AudioStreamBasicDescription(mSampleRate: outputRate, mFormatID: kind.formatID, mFormatFlags: 0, mBytesPerPacket: 0, mFramesPerPacket: 2048,
                                    mBytesPerFrame: 0, mChannelsPerFrame: 2, mBitsPerChannel: 0, mReserved: 0)
    }

    /// The base layer's description.
    static func baseFormat(channels: UInt32) -> AudioStreamBasicDescription {
        AudioStreamBasicDescription(mSampleRate: coreRate, mFormatID: kAudioFormatMPEG4AAC, mFormatFlags: 2, mBytesPerPacket: 0, mFramesPerPacket: 1024,
                                    mBytesPerFrame: 0, mChannelsPerFrame: channels, mBitsPerChannel: 0, mReserved: 0)
    }

    /// A file of `kind` in `container`: the core's packets behind an explicit cookie; its packet
    /// table states Apple's priming (2,112 core frames) and the frames encoded, in the frames of the
    /// description it was created with (4,224 and 44,100 for the HE layer; 2,112 and 22,050 for
    /// the base layer).
    static func file(_ kind: Kind, _ container: Container, in directory: URL) throws -> File {
        let channels = kind.coreChannels
        let (packets, _) = try corePackets(channels: channels)
        let cookie = esDescriptor(audioSpecificConfig(kind, channels: channels))
        let scale = container.describedAsHE ? 2 : 1
        let format = container.describedAsHE ? heFormat(kind) : baseFormat(channels: channels)
        let valid = coreFrames * scale, priming = corePriming * scale
        let table = AudioFilePacketTableInfo(mNumberValidFrames: Int64(valid), mPrimingFrames: Int32(priming),
                                             mRemainderFrames: Int32(packets.count * 1024 * scale - valid - priming))
        let url = directory.appendingPathComponent("\(kind.rawValue)-\(container.rawValue)." + (container.type == kAudioFileCAFType ? "caf" : "m4a"))
        try write(url, type: container.type, format: format, cookie: cookie, packets: packets, table: table)
        return File(url: url, kind: kind, container: container, packets: packets, cookie: cookie, format: format)
    }

    /// HE-AAC signalled implicitly: an M4A whose cookie says AAC-LC at the core rate (with the
    /// packet table in the core's frames), or ADTS (no cookie, no packet table), holding the core's
    /// packets with an empty SBR extension each.
    static func implicitFile(channels: UInt32, type: AudioFileTypeID, in directory: URL) throws -> (url: URL, packets: [[UInt8]]) {
        let (packets, trailing) = try corePackets(channels: channels)
        let injected = packets.map(withEmptySBRExtension)
        let m4a = type == kAudioFileM4AType
        let url = directory.appendingPathComponent("implicit-\(channels)." + (m4a ? "m4a" : "aac"))
        let table = AudioFilePacketTableInfo(mNumberValidFrames: Int64(coreFrames), mPrimingFrames: Int32(corePriming), mRemainderFrames: Int32(trailing))
        try write(url, type: type, format: baseFormat(channels: channels), cookie: m4a ? esDescriptor(audioSpecificConfig(nil, channels: channels)) : nil,
                  packets: injected, table: m4a ? table : nil)
        return (url, injected)
    }
}

/// Big-endian bit fields, for the configurations above.
struct Bits {
    private(set) var bytes: [UInt8] = []
    private var used = 0

    mutating func write(_ value: UInt32, _ count: Int) {
        for shift in stride(from: count - 1, through: 0, by: -1) {
            if used % 8 == 0 { bytes.append(0) }
            bytes[bytes.count - 1] |= UInt8((value >> UInt32(shift)) & 1) << (7 - UInt8(used % 8))
            used += 1
        }
    }
}
