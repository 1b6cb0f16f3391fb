// Where a file being written goes: a file descriptor (AudioFileCreateWithURL) or the caller's
// callbacks (AudioFileInitializeWithCallbacks). Writes are positioned; the open file serializes
// them with its reads.
#if canImport(Glibc)
import Glibc
#endif

/// A file's bytes, written at positions. An open file calls its sink under its own lock only.
protocol ByteSink: AnyObject, Sendable {
    /// Writes `bytes` at `position`, all of them or an error.
    func write(at position: Int64, _ bytes: UnsafeRawBufferPointer) throws(FileStatus)
    /// Cuts or extends the file to `size` bytes.
    func setSize(_ size: Int64) throws(FileStatus)
}

extension ByteSink {
    /// Writes an array's bytes at `position`.
    func write(at position: Int64, _ bytes: [UInt8]) throws(FileStatus) {
        let result = bytes.withUnsafeBytes { raw in Result { () throws(FileStatus) in try write(at: position, raw) } }
        try result.get()
    }
}

extension DescriptorSource: ByteSink {
    func write(at position: Int64, _ bytes: UnsafeRawBufferPointer) throws(FileStatus) {
        guard let base = bytes.baseAddress else { return }
        var done = 0
        while done < bytes.count {
            let wrote = pwrite(fd, base + done, bytes.count - done, off_t(position) + off_t(done))
            if wrote < 0 {
                if errno == EINTR { continue }
                throw errno == ENOSPC || errno == EDQUOT || errno == EFBIG ? .dataTooLarge : .invalidFile
            }
            done += wrote
        }
    }

    func setSize(_ size: Int64) throws(FileStatus) {
        guard ftruncate(fd, off_t(size)) == 0 else { throw .invalidFile }
    }
}

/// A file whose bytes the caller stores through AudioFile_WriteProc and AudioFile_SetSizeProc (and
/// serves back through the read callbacks of `CallbackSource`).
final class CallbackSink: ByteSink, @unchecked Sendable {
    // @unchecked: as CallbackSource: the pointer and callbacks never change, and the open file
    // calls them under its lock, one call at a time.
    private let clientData: UnsafeMutableRawPointer?
    private let writeProc: WriteCall
    private let setSizeProc: SetSizeCall

    init(clientData: UnsafeMutableRawPointer?, write: @escaping AudioFile_WriteProc, setSize: @escaping AudioFile_SetSizeProc) {
        self.clientData = clientData
        self.writeProc = unsafeBitCast(write, to: WriteCall.self)
        self.setSizeProc = unsafeBitCast(setSize, to: SetSizeCall.self)
    }

    func write(at position: Int64, _ bytes: UnsafeRawBufferPointer) throws(FileStatus) {
        guard let base = bytes.baseAddress else { return }
        var done = 0
        while done < bytes.count {
            let request = UInt32(min(bytes.count - done, Int(UInt32.max)))
            var actual: UInt32 = 0
            let status = writeProc(clientData, position + Int64(done), request, base + done, &actual)
            guard status == noErr else { throw FileStatus(status: status) }
            guard actual > 0 else { throw .invalidFile }   // a callback that stores nothing would loop forever
            done += Int(min(actual, request))
        }
    }

    func setSize(_ size: Int64) throws(FileStatus) {
        let status = setSizeProc(clientData, size)
        guard status == noErr else { throw FileStatus(status: status) }
    }
}
