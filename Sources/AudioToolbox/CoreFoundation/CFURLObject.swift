// CFURL: a file URL is an absolute POSIX path here (relative paths are resolved against the
// current directory when the URL is made, as Apple's CFURLCreateWithFileSystemPath does).
#if canImport(Glibc)
import Glibc
#endif

/// The object behind a CFURLRef.
final class CFURLStorage: CFObject {
    /// The absolute path, without a trailing slash (but "/" itself).
    let path: String
    /// Whether it was made as a directory's URL.
    let isDirectory: Bool

    init(path: String, isDirectory: Bool) {
        self.path = absolutePath(path)
        self.isDirectory = isDirectory
    }

    var cfDescription: String {
        "file://" + path + (isDirectory && path != "/" ? "/" : "")
    }

    func cfEquals(_ other: any CFObject) -> Bool {
        guard let other = other as? CFURLStorage else { return false }
        return other.path == path && other.isDirectory == isDirectory
    }

    /// The last path component.
    var lastComponent: String {
        path == "/" ? "/" : String(path.split(separator: "/").last ?? "")
    }
}

/// `path` made absolute against the current directory, with "." components, repeated and trailing
/// slashes removed (".." is kept: resolving it needs the file system, which Apple does not consult either).
func absolutePath(_ path: String) -> String {
    var full = path
    if !path.hasPrefix("/") {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let cwd = getcwd(&buffer, buffer.count) != nil
            ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "/"
        full = cwd + "/" + path
    }
    let parts = full.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
    return "/" + parts.joined(separator: "/")
}

/// The URL behind a CFURLRef, or nil.
func cfURL(_ pointer: UnsafeRawPointer?) -> CFURLStorage? {
    cfObject(pointer) as? CFURLStorage
}

/// `CFURLCreateWithFileSystemPath`: POSIX paths only.
@c(soundstage_CFURLCreateWithFileSystemPath)
public func _CFURLCreateWithFileSystemPath(_ allocator: UnsafeRawPointer?, _ filePath: UnsafeRawPointer?,
                                           _ pathStyle: CFURLPathStyle, _ isDirectory: UInt8) -> UnsafeRawPointer? {
    guard pathStyle == .cfurlposixPathStyle, let path = cfString(filePath), !path.isEmpty else { return nil }
    return cfRetained(CFURLStorage(path: path, isDirectory: isDirectory != 0))
}

/// `CFURLCreateFromFileSystemRepresentation`: the path's bytes, UTF-8.
@c(soundstage_CFURLCreateFromFileSystemRepresentation)
public func _CFURLCreateFromFileSystemRepresentation(_ allocator: UnsafeRawPointer?, _ buffer: UnsafePointer<UInt8>?,
                                                     _ bufLen: CFIndex, _ isDirectory: UInt8) -> UnsafeRawPointer? {
    guard let buffer, bufLen > 0 else { return nil }
    var bytes = UnsafeBufferPointer(start: buffer, count: bufLen)
    if let nul = bytes.firstIndex(of: 0) { bytes = UnsafeBufferPointer(rebasing: bytes[..<nul]) }
    guard !bytes.isEmpty, let path = String(validating: bytes, as: UTF8.self) else { return nil }
    return cfRetained(CFURLStorage(path: path, isDirectory: isDirectory != 0))
}

/// `CFURLGetFileSystemRepresentation`: the absolute path and a NUL, if they fit.
@c(soundstage_CFURLGetFileSystemRepresentation)
public func _CFURLGetFileSystemRepresentation(_ url: UnsafeRawPointer?, _ resolveAgainstBase: UInt8,
                                              _ buffer: UnsafeMutablePointer<UInt8>?, _ maxBufLen: CFIndex) -> UInt8 {
    guard let storage = cfURL(url), let buffer, maxBufLen > 0 else { return 0 }
    let bytes = Array(storage.path.utf8)
    guard bytes.count < maxBufLen else { return 0 }
    for (index, byte) in bytes.enumerated() { buffer[index] = byte }
    buffer[bytes.count] = 0
    return 1
}

/// `CFURLCopyFileSystemPath`: POSIX style only.
@c(soundstage_CFURLCopyFileSystemPath)
public func _CFURLCopyFileSystemPath(_ anURL: UnsafeRawPointer?, _ pathStyle: CFURLPathStyle) -> UnsafeRawPointer? {
    guard pathStyle == .cfurlposixPathStyle, let storage = cfURL(anURL) else { return nil }
    return cfNewString(storage.path)
}

/// `CFURLCopyLastPathComponent`.
@c(soundstage_CFURLCopyLastPathComponent)
public func _CFURLCopyLastPathComponent(_ url: UnsafeRawPointer?) -> UnsafeRawPointer? {
    cfURL(url).map { cfNewString($0.lastComponent) }
}

/// `CFURLCopyPathExtension`: after the last component's last dot, NULL when there is none.
@c(soundstage_CFURLCopyPathExtension)
public func _CFURLCopyPathExtension(_ url: UnsafeRawPointer?) -> UnsafeRawPointer? {
    guard let name = cfURL(url)?.lastComponent, let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
    let ext = name[name.index(after: dot)...]
    return ext.isEmpty ? nil : cfNewString(String(ext))
}

/// `CFURLHasDirectoryPath`.
@c(soundstage_CFURLHasDirectoryPath)
public func _CFURLHasDirectoryPath(_ anURL: UnsafeRawPointer?) -> UInt8 {
    cfURL(anURL)?.isDirectory == true ? 1 : 0
}
