#if canImport(Glibc)
import Glibc
#endif

/// Bytes of a file or of memory, read at any offset: what content detection and the FFmpeg
/// path read through.
final class RandomAccessBytes {
    private enum Storage { case file(Int32), memory([UInt8]) }
    private let storage: Storage
    /// The total size in bytes.
    let count: Int64

    private let ownsDescriptor: Bool

    /// Reads the open regular file `fd` of `size` bytes; `owned` closes it with this object.
    init(fd: Int32, size: Int64, owned: Bool) { storage = .file(fd); count = size; ownsDescriptor = owned }
    /// Reads bytes held in memory.
    init(bytes: [UInt8]) { storage = .memory(bytes); count = Int64(bytes.count); ownsDescriptor = false }

    deinit { if ownsDescriptor, case .file(let fd) = storage { close(fd) } }

    /// Copies up to `length` bytes from `offset` into `destination`; returns how many (0 at the
    /// end), or -1 with `errno` set when the file cannot be read.
    func read(at offset: Int64, into destination: UnsafeMutableRawPointer, length: Int) -> Int {
        guard offset >= 0, offset < count, length > 0 else { return 0 }
        let n = Int(min(Int64(length), count - offset))
        switch storage {
        case .file(let fd):
            return pread(fd, destination, n, off_t(offset))
        case .memory(let bytes):
            bytes.withUnsafeBytes { destination.copyMemory(from: $0.baseAddress! + Int(offset), byteCount: n) }
            return n
        }
    }

    /// Up to `length` bytes from `offset` (fewer at the end or on a read error).
    func bytes(at offset: Int64, length: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: max(0, length))
        let got = out.withUnsafeMutableBytes { read(at: offset, into: $0.baseAddress!, length: length) }
        return Array(out.prefix(max(0, got)))
    }
}

/// Which files go to FFmpeg: recognised by their first bytes, never by their name.
enum MPEG4Detection {
    /// A container FFmpeg reads for Soundstage, and the name of its FFmpeg demuxer.
    enum Kind: Equatable {
        /// ISO base media / QuickTime: `.m4a`, `.mp4`, `.mov` (an `ftyp`, `moov`, `mdat`, ... box first).
        case mpeg4
        /// Raw AAC with ADTS headers (`.aac`).
        case adts
        /// CAF whose data is AAC or HE-AAC, or another CAF libsndfile refuses (ALAC as
        /// FFmpeg writes it).
        case caf

        var demuxer: String {
            switch self {
            case .mpeg4: "mov"
            case .adts: "aac"
            case .caf: "caf"
            }
        }

        var container: Container {
            switch self {
            case .mpeg4: .mp4
            case .adts: .adts
            case .caf: .caf
            }
        }
    }

    /// The MPEG-4 top-level box types that may come first in a file.
    private static let firstBoxes: Set<String> = ["ftyp", "moov", "mdat", "free", "skip", "wide", "pnot", "uuid"]

    /// What `prefix` (a file's first 36 or more bytes) is, or nil when it is for libsndfile.
    static func kind(of prefix: [UInt8]) -> Kind? {
        if prefix.count >= 12 {
            let box = String(decoding: prefix[4..<8], as: UTF8.self)
            let size = prefix.readBigEndian(UInt32.self, at: 0)
            // A box's size is 0 (to the end), 1 (64-bit size follows) or at least its 8-byte header.
            if firstBoxes.contains(box) && (size == 0 || size == 1 || size >= 8) { return .mpeg4 }
        }
        if prefix.count >= 7, prefix[0] == 0xFF, prefix[1] & 0xF6 == 0xF0 {
            // ADTS: 12-bit sync, layer 00 (MP3 frames have a non-zero layer), a valid sampling
            // index (0...12) and a frame length of at least its own header.
            let samplingIndex = (prefix[2] >> 2) & 0x0F
            let length = (Int(prefix[3] & 0x03) << 11) | (Int(prefix[4]) << 3) | Int(prefix[5] >> 5)
            if samplingIndex <= 12 && length >= 7 { return .adts }
        }
        if prefix.count >= 32, prefix[0..<4].elementsEqual("caff".utf8), prefix[8..<12].elementsEqual("desc".utf8),
           ["aac ", "aach", "aacp", "aacl"].contains(String(decoding: prefix[28..<32], as: UTF8.self)) {
            return .caf
        }
        return nil
    }

    /// Whether `prefix` begins a CAF file.
    static func isCAF(_ prefix: [UInt8]) -> Bool { prefix.count >= 4 && prefix[0..<4].elementsEqual("caff".utf8) }

    /// A CAF file's packet table counts (`pakt`): the frames that are audio, and the encoder's
    /// priming and remainder frames around them.
    struct CAFPacketTable: Equatable {
        var validFrames: Int64
        var primingFrames: Int64
        var remainderFrames: Int64
    }

    /// Reads the `pakt` chunk of a CAF file, walking its chunk headers; nil if it has none or
    /// its values are impossible (FFmpeg then reads the file without trimming).
    static func cafPacketTable(in input: RandomAccessBytes) -> CAFPacketTable? {
        var offset: Int64 = 8
        while offset + 12 <= input.count {
            let header = input.bytes(at: offset, length: 12)
            guard header.count == 12 else { return nil }
            let type = String(decoding: header[0..<4], as: UTF8.self)
            let size = header.readBigEndian(Int64.self, at: 4)
            if type == "pakt" {
                let body = input.bytes(at: offset + 12, length: 24)
                guard body.count == 24 else { return nil }
                let valid = body.readBigEndian(Int64.self, at: 8)
                let priming = Int64(body.readBigEndian(Int32.self, at: 16))
                let remainder = Int64(body.readBigEndian(Int32.self, at: 20))
                guard valid >= 0, priming >= 0, remainder >= 0 else { return nil }
                return CAFPacketTable(validFrames: valid, primingFrames: priming, remainderFrames: remainder)
            }
            guard size >= 0, size <= input.count - offset - 12 else { return nil }
            offset += 12 + size
        }
        return nil
    }
}
