#if canImport(Glibc)
import Glibc
#endif
import SoundstageErrors

/// A whole small file read into memory with POSIX calls (scene files, themes): bounded, so no file
/// can make the process allocate without limit, and with the error naming the file and `errno`.
public enum FileBytes {
    /// Reads the file at `path`, at most `limit` bytes.
    ///
    /// - Throws: `.notFound`, `.permissionDenied` or `.io` (a directory, a read error) with
    ///   `errno` as the cause; `.tooLarge` when the file holds more than `limit` bytes.
    public static func read(path: String, limit: Int, what: String = "file") throws(SoundstageError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw SoundstageError.posix("open", errno: errno, path: path, action: "open") }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw SoundstageError.posix("read", errno: errno, path: path, action: "read")
            }
            if count == 0 { return bytes }
            guard bytes.count + count <= limit else {
                throw SoundstageError(.tooLarge, "the \(what) is larger than \(limit) bytes", subject: path)
            }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }
}
