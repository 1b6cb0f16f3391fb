// Where an open audio file's bytes come from: a file descriptor (AudioFileOpenURL) or the caller's
// callbacks (AudioFileOpenWithCallbacks). Reads are positioned; the open file serializes them.
#if canImport(Glibc)
import Glibc
#endif

/// A file's bytes, read at positions. An open file calls its source under its own lock only.
/// The container parsers read through it, and so does Audio File Stream Services (StreamSource:
/// the bytes a stream has delivered so far, where a read past them throws "more data").
protocol ByteSource: AnyObject, Sendable {
    /// The size in bytes (`Int64.max` while a stream's end is not known).
    func size() throws(FileStatus) -> Int64
    /// Reads up to `count` bytes at `position` into `buffer`; fewer only at the end.
    func read(at position: Int64, count: Int, into buffer: UnsafeMutableRawPointer) throws(FileStatus) -> Int
    /// The bytes at `position`: at least `minimum` of them (fewer only at the end), and up to
    /// `limit` where more cost nothing extra (a file reads `limit`; a stream gives what it holds).
    func window(at position: Int64, minimum: Int, limit: Int) throws(FileStatus) -> [UInt8]
}

extension ByteSource {
    /// `count` bytes at `position` (fewer at the end of the file).
    func bytes(at position: Int64, count: Int) throws(FileStatus) -> [UInt8] {
        guard count > 0 else { return [] }
        var out = [UInt8](repeating: 0, count: count)
        let result = out.withUnsafeMutableBytes { raw in
            Result { () throws(FileStatus) -> Int in try read(at: position, count: count, into: raw.baseAddress!) }
        }
        let got = try result.get()
        out.removeLast(count - got)
        return out
    }

    func window(at position: Int64, minimum: Int, limit: Int) throws(FileStatus) -> [UInt8] {
        try bytes(at: position, count: max(minimum, limit))
    }
}

/// Small reads (frame headers, chunk headers) through one window of a source, so that walking a
/// file reads it in large blocks and walking a stream reads only the bytes it needs.
struct WindowedReader {
    let source: any ByteSource
    private var start: Int64 = 0
    private var bytes: [UInt8] = []
    private var reachesEnd = false
    /// How much a file read fetches at once.
    static let block = 1 << 16

    init(_ source: any ByteSource) { self.source = source }

    /// The bytes from `position` to the window's end: at least `minimum` of them, fewer only at the
    /// end of the source.
    mutating func view(at position: Int64, minimum: Int) throws(FileStatus) -> ArraySlice<UInt8> {
        let end = start + Int64(bytes.count)
        if position < start || position > end || position + Int64(minimum) > end && !reachesEnd {
            bytes = try source.window(at: position, minimum: minimum, limit: max(minimum, Self.block))
            start = position
            reachesEnd = bytes.count < minimum
        }
        return bytes[Int(position - start)...]
    }
}

/// A file opened by path, read with pread(2); closed when the last reference goes.
final class DescriptorSource: ByteSource, @unchecked Sendable {
    // @unchecked: the descriptor never changes after init, and pread(2) is safe from any thread.
    let fd: Int32

    /// Opens `path` for reading: `kAudioFileFileNotFoundError`, `kAudioFilePermissionsError`, or
    /// `kAudioFileInvalidFileError` (a directory, another failure).
    convenience init(path: String) throws(FileStatus) {
        try self.init(path: path, flags: O_RDONLY)
    }

    /// Opens `path` with open(2)'s `flags` (and mode 0666 less the umask when they create it):
    /// `kAudioFileFileNotFoundError`, `kAudioFilePermissionsError`, `dupFNErr` (−48, the file
    /// exists and O_EXCL was asked), or `kAudioFileInvalidFileError` (a directory, another failure).
    init(path: String, flags: Int32) throws(FileStatus) {
        let fd = open(path, flags | O_CLOEXEC, 0o666)
        guard fd >= 0 else {
            switch errno {
            case ENOENT, ENOTDIR: throw .fileNotFound
            case EACCES, EPERM, EROFS: throw .permissions
            case EEXIST: throw .fileExists
            default: throw .invalidFile
            }
        }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw .invalidFile
        }
        self.fd = fd
    }

    deinit { close(fd) }

    func size() throws(FileStatus) -> Int64 {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .invalidFile }
        return Int64(info.st_size)
    }

    func read(at position: Int64, count: Int, into buffer: UnsafeMutableRawPointer) throws(FileStatus) -> Int {
        var done = 0
        while done < count {
            let got = pread(fd, buffer + done, count - done, off_t(position) + off_t(done))
            if got < 0 {
                if errno == EINTR { continue }
                throw .invalidFile
            }
            if got == 0 { break }
            done += got
        }
        return done
    }
}

/// The callbacks as C calls them, with the pointers Apple marks non-null allowed to be NULL (a
/// caller may open with NULL client data, as C code may): the same function pointers, seen without
/// the promise (AudioFile.h gives Swift Apple's non-optional `inClientData`).
typealias ReadCall = @convention(c) (UnsafeMutableRawPointer?, Int64, UInt32, UnsafeMutableRawPointer?,
                                     UnsafeMutablePointer<UInt32>?) -> OSStatus
typealias GetSizeCall = @convention(c) (UnsafeMutableRawPointer?) -> Int64
typealias WriteCall = @convention(c) (UnsafeMutableRawPointer?, Int64, UInt32, UnsafeRawPointer?,
                                      UnsafeMutablePointer<UInt32>?) -> OSStatus
typealias SetSizeCall = @convention(c) (UnsafeMutableRawPointer?, Int64) -> OSStatus

/// A file whose bytes the caller serves through AudioFile_ReadProc and AudioFile_GetSizeProc.
final class CallbackSource: ByteSource, @unchecked Sendable {
    // @unchecked: the caller's pointer and callbacks never change after init; the open file calls
    // them under its lock, one call at a time, as a caller of Audio File Services expects.
    private let clientData: UnsafeMutableRawPointer?
    private let readProc: ReadCall
    private let getSizeProc: GetSizeCall

    init(clientData: UnsafeMutableRawPointer?, read: @escaping AudioFile_ReadProc, getSize: @escaping AudioFile_GetSizeProc) {
        self.clientData = clientData
        self.readProc = unsafeBitCast(read, to: ReadCall.self)
        self.getSizeProc = unsafeBitCast(getSize, to: GetSizeCall.self)
    }

    func size() throws(FileStatus) -> Int64 {
        let size = getSizeProc(clientData)
        guard size >= 0 else { throw .invalidFile }
        return size
    }

    func read(at position: Int64, count: Int, into buffer: UnsafeMutableRawPointer) throws(FileStatus) -> Int {
        var done = 0
        while done < count {
            let request = UInt32(min(count - done, Int(UInt32.max)))
            var actual: UInt32 = 0
            let status = readProc(clientData, position + Int64(done), request, buffer + done, &actual)
            // A callback may say end of file by its status or by reading nothing.
            if status == kAudioFileEndOfFileError || (status == noErr && actual == 0) { break }
            guard status == noErr else { throw FileStatus(status: status) }
            done += Int(min(actual, request))   // a callback claiming more than asked is not believed
        }
        return done
    }
}
