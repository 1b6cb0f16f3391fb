#if canImport(Glibc)
import Glibc
#endif
import SoundstageErrors

extension SoundstageError {
    /// Maps an `errno` from opening or creating `path` to the matching error.
    static func posix(_ function: String, errno code: Int32, path: String, action: String) -> SoundstageError {
        let kind: Code
        let what: String
        switch code {
        case ENOENT, ENOTDIR:
            kind = .notFound; what = "no such file"
        case EACCES, EPERM, EROFS:
            kind = .permissionDenied; what = "permission denied"
        case EISDIR:
            kind = .io; what = "is a directory, not a file"
        default:
            kind = .io; what = "cannot \(action) the file"
        }
        return SoundstageError(kind, what, subject: path, cause: .posix(function: function, errno: code))
    }
}
