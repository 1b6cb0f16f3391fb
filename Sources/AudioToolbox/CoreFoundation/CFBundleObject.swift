// CFBundle: the main bundle is the directory of the running executable; its resources are files
// beside it, or in a Resources directory beside it (CoreFoundation/CFBundle.h, docs/audiotoolbox.md).
#if canImport(Glibc)
import Glibc
#endif

/// The object behind a CFBundleRef.
final class CFBundleStorage: CFObject {
    /// The bundle's directory, absolute.
    let directory: String

    init(directory: String) { self.directory = directory }

    var cfDescription: String { "CFBundle <\(directory)>" }

    func cfEquals(_ other: any CFObject) -> Bool { (other as? CFBundleStorage)?.directory == directory }

    /// The first of `<dir>/<sub>/<name>.<type>` and `<dir>/Resources/<sub>/<name>.<type>` that exists.
    func resource(name: String, type: String?, subdirectory: String?) -> String? {
        var file = name
        if let type, !type.isEmpty { file += type.hasPrefix(".") ? type : "." + type }
        let sub = subdirectory.map { $0.isEmpty ? "" : $0 + "/" } ?? ""
        for base in [directory + "/", directory + "/Resources/"] {
            let candidate = base + sub + file
            var info = stat()
            if stat(candidate, &info) == 0 && (info.st_mode & S_IFMT) != S_IFDIR { return candidate }
        }
        return nil
    }
}

/// The executable's directory, from /proc/self/exe; nil when it cannot be read.
private let mainBundle: CFBundleStorage? = {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard count > 0 else { return nil }
    let path = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    guard let slash = path.lastIndex(of: "/") else { return nil }
    let directory = slash == path.startIndex ? "/" : String(path[..<slash])
    return CFBundleStorage(directory: directory)
}()

/// `CFBundleGetMainBundle`: the executable's directory, never released.
@c(soundstage_CFBundleGetMainBundle)
public func _CFBundleGetMainBundle() -> UnsafeRawPointer? {
    mainBundle.map(cfUnretained)
}

/// `CFBundleCopyResourceURL`: a resource file that exists, or NULL.
@c(soundstage_CFBundleCopyResourceURL)
public func _CFBundleCopyResourceURL(_ bundle: UnsafeRawPointer?, _ resourceName: UnsafeRawPointer?,
                                     _ resourceType: UnsafeRawPointer?, _ subDirName: UnsafeRawPointer?) -> UnsafeRawPointer? {
    guard let storage = cfObject(bundle) as? CFBundleStorage, let name = cfString(resourceName),
          let path = storage.resource(name: name, type: cfString(resourceType), subdirectory: cfString(subDirName)) else { return nil }
    return cfRetained(CFURLStorage(path: path, isDirectory: false))
}

/// `CFBundleCopyBundleURL`: the bundle's directory.
@c(soundstage_CFBundleCopyBundleURL)
public func _CFBundleCopyBundleURL(_ bundle: UnsafeRawPointer?) -> UnsafeRawPointer? {
    guard let storage = cfObject(bundle) as? CFBundleStorage else { return nil }
    return cfRetained(CFURLStorage(path: storage.directory, isDirectory: true))
}

/// `CFBundleCopyResourcesDirectoryURL`: the bundle's directory too.
@c(soundstage_CFBundleCopyResourcesDirectoryURL)
public func _CFBundleCopyResourcesDirectoryURL(_ bundle: UnsafeRawPointer?) -> UnsafeRawPointer? {
    _CFBundleCopyBundleURL(bundle)
}
