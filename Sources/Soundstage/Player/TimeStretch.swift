#if canImport(Glibc)
import Glibc
#endif
import SoundFile

/// Speed without pitch: SoundTouch's time stretch (`libSoundTouchDll.so.1`, LGPL-2.1, Debian's
/// `libsoundtouch1`), loaded at run time as FFmpeg is. Soundstage builds and runs without it; an
/// ``AudioPlayer`` whose ``AudioPlayer/preservesPitch`` is on then changes speed and pitch
/// together, and ``TimeStretch/check()`` says what to install.
///
/// `SOUNDSTAGE_SOUNDTOUCH_PATH` names a directory to load it from instead of the system's
/// library path (an empty directory makes it unavailable, as on a machine without it).
public enum TimeStretch {
    /// What to install on Debian 12 when it is missing.
    public static let debianPackage = "libsoundtouch1"

    /// Throws when the time stretch cannot be used; loads the library on first use.
    /// - Throws: `.codecUnavailable` naming the package to install.
    public static func check() throws(SoundstageError) { _ = try TimeStretchLibrary.load() }

    /// Whether the time stretch can be used.
    public static var isAvailable: Bool { (try? check()) != nil }

    /// The library's version (`2.3.2`), nil when it is missing.
    public static var version: String? { (try? TimeStretchLibrary.load())?.version }
}

/// `libSoundTouchDll.so.1`'s C functions, looked up by name.
final class TimeStretchLibrary: @unchecked Sendable {
    typealias Handle = UnsafeMutableRawPointer
    let createInstance: @convention(c) () -> Handle?
    let destroyInstance: @convention(c) (Handle?) -> Void
    let setTempo: @convention(c) (Handle?, Float) -> Void
    let setChannels: @convention(c) (Handle?, UInt32) -> Int32
    let setSampleRate: @convention(c) (Handle?, UInt32) -> Int32
    let putSamples: @convention(c) (Handle?, UnsafePointer<Float>?, UInt32) -> Int32
    let receiveSamples: @convention(c) (Handle?, UnsafeMutablePointer<Float>?, UInt32) -> UInt32
    let flush: @convention(c) (Handle?) -> Int32
    let clear: @convention(c) (Handle?) -> Void
    let version: String
    private let handle: UnsafeMutableRawPointer

    private static let shared: Result<TimeStretchLibrary, SoundstageError> = {
        do throws(SoundstageError) {
            return .success(try TimeStretchLibrary(directory: getenv("SOUNDSTAGE_SOUNDTOUCH_PATH").map { String(cString: $0) }))
        } catch {
            return .failure(error)
        }
    }()

    /// The library, loaded on first use.
    static func load() throws(SoundstageError) -> TimeStretchLibrary { try shared.get() }

    /// Loads it from `directory` (the system's library path when nil).
    init(directory: String?) throws(SoundstageError) {
        let name = "libSoundTouchDll.so.1"
        let path = directory.map { $0 + "/" + name } ?? name
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "unknown"
            let found = reason.contains("No such file or directory") ? "" : "; found but could not load: \(reason)"
            throw SoundstageError(.codecUnavailable, "a rate that keeps the pitch needs SoundTouch's \(name), which is not installed"
                                  + (directory.map { " in \($0) (SOUNDSTAGE_SOUNDTOUCH_PATH)" } ?? "") + "\(found); on Debian 12: "
                                  + "sudo apt-get install \(TimeStretch.debianPackage) (the rate changes the pitch too meanwhile)")
        }
        var missing: [String] = []
        func symbol<F>(_ name: String, _: F.Type) -> F? {
            guard let address = dlsym(handle, name) else {
                missing.append(name)
                return nil
            }
            return unsafeBitCast(address, to: F.self)
        }
        let create = symbol("soundtouch_createInstance", (@convention(c) () -> Handle?).self)
        let destroy = symbol("soundtouch_destroyInstance", (@convention(c) (Handle?) -> Void).self)
        let tempo = symbol("soundtouch_setTempo", (@convention(c) (Handle?, Float) -> Void).self)
        let channels = symbol("soundtouch_setChannels", (@convention(c) (Handle?, UInt32) -> Int32).self)
        let rate = symbol("soundtouch_setSampleRate", (@convention(c) (Handle?, UInt32) -> Int32).self)
        let put = symbol("soundtouch_putSamples", (@convention(c) (Handle?, UnsafePointer<Float>?, UInt32) -> Int32).self)
        let receive = symbol("soundtouch_receiveSamples", (@convention(c) (Handle?, UnsafeMutablePointer<Float>?, UInt32) -> UInt32).self)
        let flush = symbol("soundtouch_flush", (@convention(c) (Handle?) -> Int32).self)
        let clear = symbol("soundtouch_clear", (@convention(c) (Handle?) -> Void).self)
        let versionString = symbol("soundtouch_getVersionString", (@convention(c) () -> UnsafePointer<CChar>?).self)
        guard let create, let destroy, let tempo, let channels, let rate, let put, let receive, let flush, let clear, let versionString else {
            dlclose(handle)
            throw SoundstageError(.codecUnavailable, "\(path) lacks \(missing.joined(separator: ", ")): not SoundTouch 2's C library")
        }
        self.handle = handle
        createInstance = create
        destroyInstance = destroy
        setTempo = tempo
        setChannels = channels
        setSampleRate = rate
        putSamples = put
        receiveSamples = receive
        self.flush = flush
        self.clear = clear
        version = versionString().map { String(cString: $0) } ?? "?"
    }
}

/// One stream's time stretch (used by one thread at a time: a stream's decoder): float frames
/// in, the same frames `tempo` times faster out, the pitch kept. Output frame `n` holds the input
/// from frame `n × tempo` on, so a stream's position follows from the frames taken out.
final class TimeStretcher {
    private let library: TimeStretchLibrary
    private let instance: TimeStretchLibrary.Handle
    let channels: Int
    private(set) var tempo: Double = 1

    init(channels: Int, sampleRate: Int) throws(SoundstageError) {
        library = try TimeStretchLibrary.load()
        guard let instance = library.createInstance() else {
            throw SoundstageError(.codecUnavailable, "SoundTouch could not create a time stretch")
        }
        self.instance = instance
        self.channels = channels
        _ = library.setChannels(instance, UInt32(channels))
        _ = library.setSampleRate(instance, UInt32(sampleRate))
    }

    deinit { library.destroyInstance(instance) }

    /// Forgets what it holds and starts again at `tempo` (a start or a seek).
    func reset(tempo: Double) {
        library.clear(instance)
        self.tempo = tempo
        library.setTempo(instance, Float(tempo))
    }

    /// Takes interleaved input frames.
    func put(_ samples: [Float]) {
        samples.withUnsafeBufferPointer { _ = library.putSamples(instance, $0.baseAddress, UInt32(samples.count / channels)) }
    }

    /// Pushes out what it holds back (the end of the input).
    func flush() { _ = library.flush(instance) }

    /// Appends up to `frames` output frames to `output`; returns how many.
    func take(upTo frames: Int, into output: inout [Float]) -> Int {
        guard frames > 0 else { return 0 }
        let start = output.count
        output.append(contentsOf: repeatElement(0, count: frames * channels))
        let got = output.withUnsafeMutableBufferPointer { buffer in
            min(frames, Int(library.receiveSamples(instance, buffer.baseAddress! + start, UInt32(frames))))
        }
        output.removeLast((frames - got) * channels)
        return got
    }
}
