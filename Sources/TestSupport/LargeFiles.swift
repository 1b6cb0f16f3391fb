import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Files that claim to be huge without taking disk space: for memory-bound tests.
public enum LargeFiles {
    /// A 16-bit PCM WAV of `frames` frames of silence, made sparse (`ftruncate`): a 3 GB file costs
    /// nothing on disk. `frames × channels × 2` must stay under 4 GB (WAV's 32-bit sizes).
    public static func sparseWAV(at path: String, frames: Int, channels: Int = 1, sampleRate: Int = 48_000) throws {
        let dataBytes = frames * channels * 2
        precondition(dataBytes < Int(UInt32.max) - 36, "WAV sizes are 32-bit")
        var header: [UInt8] = []
        func ascii(_ text: String) { header += Array(text.utf8) }
        func le32(_ value: Int) { header += withUnsafeBytes(of: UInt32(value).littleEndian, Array.init) }
        func le16(_ value: Int) { header += withUnsafeBytes(of: UInt16(value).littleEndian, Array.init) }
        ascii("RIFF"); le32(36 + dataBytes); ascii("WAVE")
        ascii("fmt "); le32(16); le16(1); le16(channels); le32(sampleRate); le32(sampleRate * channels * 2); le16(channels * 2); le16(16)
        ascii("data"); le32(dataBytes)
        try Data(header).write(to: URL(fileURLWithPath: path))
        guard truncate(path, off_t(header.count + dataBytes)) == 0 else {
            throw NSError(domain: "LargeFiles", code: Int(errno), userInfo: [NSLocalizedDescriptionKey: "truncate \(path) failed"])
        }
    }

    /// A CAF of 16-bit mono PCM whose data chunk claims `2^32` frames but holds only `frames`.
    public static func cafClaimingFourBillionFrames(at path: String, frames: Int = 4_800) throws {
        var bytes: [UInt8] = []
        func ascii(_ text: String) { bytes += Array(text.utf8) }
        func be64(_ value: UInt64) { bytes += withUnsafeBytes(of: value.bigEndian, Array.init) }
        func be32(_ value: UInt32) { bytes += withUnsafeBytes(of: value.bigEndian, Array.init) }
        func be16(_ value: UInt16) { bytes += withUnsafeBytes(of: value.bigEndian, Array.init) }
        ascii("caff"); be16(1); be16(0)
        ascii("desc"); be64(32)
        be64(Double(48_000).bitPattern); ascii("lpcm"); be32(0); be32(2); be32(1); be32(1); be32(16)
        ascii("data"); be64(4 + (UInt64(1) << 32) * 2); be32(0)
        for i in 0..<frames { be16(UInt16(bitPattern: Int16(8_000 * sin(Double(i) * 0.06)))) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }
}
