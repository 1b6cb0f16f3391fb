#if canImport(Glibc)
import Glibc
#endif
import SoundstageErrors

/// An `AVIOContext` that reads ``RandomAccessBytes``: FFmpeg reads files and memory through
/// Soundstage's descriptor or array, never by opening a path or URL itself.
final class FFmpegInput {
    let bytes: RandomAccessBytes
    private(set) var position: Int64 = 0
    private let ff: FFmpegLibrary
    /// The `AVIOContext *`, freed (with its buffer) in `deinit`.
    private(set) var context: UnsafeMutableRawPointer?

    /// `AVSEEK_SIZE`: asks for the size instead of seeking.
    private static let seekSize: Int32 = 0x10000
    private static let bufferSize: Int32 = 32_768

    init(_ bytes: RandomAccessBytes, library: FFmpegLibrary) throws {
        self.bytes = bytes
        ff = library
        guard let buffer = ff.av_malloc(Int(Self.bufferSize))?.assumingMemoryBound(to: UInt8.self) else {
            throw SoundstageError(.tooLarge, "out of memory for FFmpeg's read buffer")
        }
        let opaque = Unmanaged.passUnretained(self).toOpaque()
        context = ff.avio_alloc_context(buffer, Self.bufferSize, 0, opaque, { opaque, destination, length in
            let input = Unmanaged<FFmpegInput>.fromOpaque(opaque!).takeUnretainedValue()
            guard let destination, length > 0 else { return AVError.endOfFile }
            let got = input.bytes.read(at: input.position, into: destination, length: Int(length))
            if got < 0 { return -errno }
            if got == 0 { return AVError.endOfFile }
            input.position += Int64(got)
            return Int32(got)
        }, nil, { opaque, offset, whence in
            let input = Unmanaged<FFmpegInput>.fromOpaque(opaque!).takeUnretainedValue()
            if whence & FFmpegInput.seekSize != 0 { return input.bytes.count }
            let base: Int64
            switch whence & 0xFFFF {
            case SEEK_SET: base = 0
            case SEEK_CUR: base = input.position
            case SEEK_END: base = input.bytes.count
            default: return Int64(-EINVAL)
            }
            let (target, overflow) = base.addingReportingOverflow(offset)
            guard !overflow, target >= 0 else { return Int64(-EINVAL) }
            input.position = target
            return target
        })
        if context == nil {
            ff.av_free(buffer)
            throw SoundstageError(.tooLarge, "out of memory for FFmpeg's reader")
        }
    }

    deinit {
        guard let context else { return }
        // FFmpeg may have replaced the buffer it was given: free the one it holds now.
        ff.av_free(context.load(fromByteOffset: FFmpegLayout.ioContextBuffer, as: UnsafeMutableRawPointer?.self))
        var pointer: UnsafeMutableRawPointer? = context
        ff.avio_context_free(&pointer)
    }
}
