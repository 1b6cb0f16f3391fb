#if canImport(Glibc)
import Glibc
#endif
import SoundstageErrors

/// Reads and writes Core Audio Format files whose data is Apple IMA4, which libsndfile lacks.
enum CAFIMA4 {
    /// Whether `prefix` (the first bytes of a file) is a CAF file with `ima4` data.
    static func matches(_ prefix: [UInt8]) -> Bool {
        // 'caff', version, flags, then the first chunk must be 'desc' (CAF spec); its format ID is at 8+12+8.
        guard prefix.count >= 36, prefix[0..<4].elementsEqual("caff".utf8),
              prefix[8..<12].elementsEqual("desc".utf8) else { return false }
        return prefix[28..<32].elementsEqual("ima4".utf8)
    }

    /// The CAF header, `desc`, `pakt` and `data` chunk header for `frames` frames of IMA4.
    static func header(sampleRate: Int, channels: Int, frames: Int64) -> [UInt8] {
        CAFHeader.constantBitRate(formatID: "ima4", sampleRate: sampleRate, channels: channels,
                                  bytesPerPacket: IMA4.bytesPerChannelPacket * channels,
                                  framesPerPacket: IMA4.framesPerPacket, frames: frames)
    }
}

/// Decodes a CAF/IMA4 file held in memory.
final class CAFIMA4Decoder: FrameDecoder {
    let format: AudioFormat
    private let bytes: [UInt8]
    private let dataStart: Int
    private let packetCount: Int
    private let subject: String
    private var frame: Int64 = 0
    /// One decoded packet, interleaved, and which packet it is.
    private var packet: [Float]
    private var packetIndex = -1

    init(bytes: [UInt8], subject: String) throws {
        self.bytes = bytes
        self.subject = subject
        func corrupt(_ why: String) -> SoundstageError {
            SoundstageError(.corruptData, "malformed CAF/IMA4 file: \(why)", subject: subject)
        }
        var sampleRate = 0.0, channels = 0, validFrames: Int64? = nil
        var dataRange: Range<Int>? = nil
        var offset = 8
        while offset + 12 <= bytes.count {
            let type = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            let size = bytes.readBigEndian(Int64.self, at: offset + 4)
            let body = offset + 12
            let end: Int
            if size < 0 {
                guard type == "data" else { throw corrupt("chunk '\(type)' has a negative size") }
                end = bytes.count
            } else {
                guard size <= Int64(bytes.count - body) else { throw corrupt("chunk '\(type)' runs past the end (truncated)") }
                end = body + Int(size)
            }
            switch type {
            case "desc":
                guard end - body >= 32 else { throw corrupt("short 'desc' chunk") }
                sampleRate = Double(bitPattern: bytes.readBigEndian(UInt64.self, at: body))
                channels = Int(bytes.readBigEndian(UInt32.self, at: body + 24))
                let bytesPerPacket = Int(bytes.readBigEndian(UInt32.self, at: body + 16))
                let framesPerPacket = Int(bytes.readBigEndian(UInt32.self, at: body + 20))
                guard channels > 0, channels <= 64, framesPerPacket == IMA4.framesPerPacket,
                      bytesPerPacket == IMA4.bytesPerChannelPacket * channels else {
                    throw corrupt("'desc' states \(channels) channels, \(bytesPerPacket) bytes per packet")
                }
                guard sampleRate.isFinite, sampleRate >= 1, sampleRate <= 1_000_000 else {
                    throw corrupt("sample rate \(sampleRate)")
                }
            case "pakt":
                guard end - body >= 24 else { throw corrupt("short 'pakt' chunk") }
                validFrames = bytes.readBigEndian(Int64.self, at: body + 8)
            case "data":
                guard end - body >= 4 else { throw corrupt("short 'data' chunk") }
                dataRange = (body + 4)..<end
            default:
                break
            }
            offset = end
        }
        guard channels > 0 else { throw corrupt("no 'desc' chunk") }
        guard let dataRange else { throw corrupt("no 'data' chunk") }
        let packetBytes = IMA4.bytesPerChannelPacket * channels
        self.dataStart = dataRange.lowerBound
        self.packetCount = dataRange.count / packetBytes
        let decodable = Int64(packetCount * IMA4.framesPerPacket)
        var frames = decodable
        if let validFrames {
            guard validFrames >= 0, validFrames <= decodable else {
                throw corrupt("'pakt' promises \(validFrames) frames but the data holds \(decodable) (truncated)")
            }
            frames = validFrames
        }
        self.format = AudioFormat(container: .caf, encoding: .imaADPCM, sampleRate: Int(sampleRate),
                                  channels: channels, frames: frames)
        self.packet = [Float](repeating: 0, count: IMA4.framesPerPacket * channels)
    }

    func read(into destination: UnsafeMutablePointer<Float>, frames: Int) throws -> Int {
        let channels = format.channels
        var written = 0
        while written < frames && frame < format.frames {
            let index = Int(frame / Int64(IMA4.framesPerPacket))
            if index != packetIndex { decode(packet: index) }
            let within = Int(frame % Int64(IMA4.framesPerPacket))
            let count = min(frames - written, IMA4.framesPerPacket - within, Int(format.frames - frame))
            packet.withUnsafeBufferPointer { source in
                (destination + written * channels).update(from: source.baseAddress! + within * channels,
                                                          count: count * channels)
            }
            written += count
            frame += Int64(count)
        }
        return written
    }

    func seek(toFrame target: Int64) throws {
        guard target >= 0, target <= format.frames else {
            throw SoundstageError(.invalidArgument, "cannot seek to frame \(target) of \(format.frames)", subject: subject)
        }
        frame = target
    }

    private func decode(packet index: Int) {
        let channels = format.channels
        let start = dataStart + index * IMA4.bytesPerChannelPacket * channels
        bytes.withUnsafeBytes { raw in
            packet.withUnsafeMutableBufferPointer { out in
                for channel in 0..<channels {
                    let at = start + channel * IMA4.bytesPerChannelPacket
                    IMA4.decodePacket(UnsafeRawBufferPointer(rebasing: raw[at..<at + IMA4.bytesPerChannelPacket]),
                                      into: out.baseAddress! + channel, stride: channels)
                }
            }
        }
        packetIndex = index
    }
}

extension Array where Element == UInt8 {
    mutating func appendBigEndian<T: FixedWidthInteger>(_ value: T) {
        Swift.withUnsafeBytes(of: value.bigEndian) { append(contentsOf: $0) }
    }

    func readBigEndian<T: FixedWidthInteger>(_ type: T.Type, at offset: Int) -> T {
        var value: T = 0
        for k in 0..<MemoryLayout<T>.size { value = value << 8 | T(truncatingIfNeeded: self[offset + k]) }
        return value
    }
}
