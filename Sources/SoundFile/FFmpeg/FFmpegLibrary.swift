#if canImport(Glibc)
import Glibc
#endif
import SoundstageErrors

/// FFmpeg's libraries (libavformat, libavcodec, libavutil), loaded at run time with `dlopen`.
///
/// Soundstage builds and runs without them; only AAC, HE-AAC and ALAC in MPEG-4 (`.m4a`,
/// `.mp4`), AAC in CAF and ADTS `.aac` need them. No FFmpeg header is used at build time: the
/// functions are looked up by name, and the few struct fields read directly are located by
/// ``FFmpegLayout``, which checks them against each file it opens.
///
/// Loaded once per process, on first use. `SOUNDSTAGE_FFMPEG_PATH` names a directory to load
/// them from instead of the system's library path (an empty directory makes them unavailable,
/// as on a machine without them).
final class FFmpegLibrary: @unchecked Sendable {
    /// The major versions accepted: (libavformat, libavcodec, libavutil), newest first —
    /// FFmpeg 7 (Debian 13), 6, and 5.1 (Debian 12).
    static let generations: [(format: Int, codec: Int, util: Int)] = [(61, 61, 59), (60, 60, 58), (59, 59, 57)]

    /// What to install on Debian 12 when they are missing.
    static let debianPackages = "libavformat59 libavcodec59"

    /// The loaded libraries, or why they could not be loaded (thrown by ``load()``).
    private static let shared: Result<FFmpegLibrary, SoundstageError> = {
        do { return .success(try FFmpegLibrary()) } catch let error as SoundstageError {
            return .failure(error)
        } catch {
            return .failure(SoundstageError(.codecUnavailable, "FFmpeg could not be loaded: \(error)"))
        }
    }()

    /// The libraries, loading them on first use.
    /// - Throws: `.codecUnavailable` naming the packages to install.
    static func load() throws -> FFmpegLibrary { try shared.get() }

    /// Whether FFmpeg's libraries are here (loads them on first use).
    static var isAvailable: Bool { (try? load()) != nil }

    /// `libavformat 59.27.100, libavcodec 59.37.100, libavutil 57.28.100`.
    let versionDescription: String
    /// libavformat's major version.
    let formatMajor: Int
    /// libavutil's major version.
    let utilMajor: Int

    // libavutil
    let av_malloc: @convention(c) (Int) -> UnsafeMutableRawPointer?
    let av_free: @convention(c) (UnsafeMutableRawPointer?) -> Void
    let av_frame_alloc: @convention(c) () -> OpaquePointer?
    let av_frame_free: @convention(c) (UnsafeMutablePointer<OpaquePointer?>?) -> Void
    let av_frame_get_buffer: @convention(c) (OpaquePointer?, Int32) -> Int32
    let av_frame_unref: @convention(c) (OpaquePointer?) -> Void
    let av_channel_layout_default: @convention(c) (UnsafeMutableRawPointer?, Int32) -> Void
    let av_strerror: @convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32
    let av_log_set_callback: @convention(c) (UnsafeRawPointer?) -> Void
    let av_opt_get_int: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, Int32, UnsafeMutablePointer<Int64>?) -> Int32
    let av_opt_set_int: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, Int64, Int32) -> Int32
    let av_opt_set: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, Int32) -> Int32
    let av_opt_get_chlayout: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, Int32, UnsafeMutableRawPointer?) -> Int32
    let av_channel_layout_uninit: @convention(c) (UnsafeMutableRawPointer?) -> Void

    // libavcodec
    let avcodec_find_decoder: @convention(c) (Int32) -> OpaquePointer?
    let avcodec_find_encoder_by_name: @convention(c) (UnsafePointer<CChar>?) -> OpaquePointer?
    let avcodec_find_decoder_by_name: @convention(c) (UnsafePointer<CChar>?) -> OpaquePointer?
    let avcodec_alloc_context3: @convention(c) (OpaquePointer?) -> UnsafeMutableRawPointer?
    let avcodec_free_context: @convention(c) (UnsafeMutablePointer<UnsafeMutableRawPointer?>?) -> Void
    let avcodec_parameters_to_context: @convention(c) (UnsafeMutableRawPointer?, UnsafeRawPointer?) -> Int32
    let avcodec_parameters_from_context: @convention(c) (UnsafeMutableRawPointer?, UnsafeRawPointer?) -> Int32
    let avcodec_parameters_alloc: @convention(c) () -> UnsafeMutableRawPointer?
    let avcodec_parameters_free: @convention(c) (UnsafeMutablePointer<UnsafeMutableRawPointer?>?) -> Void
    let avcodec_open2: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutableRawPointer?) -> Int32
    let avcodec_send_packet: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?) -> Int32
    let avcodec_receive_frame: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?) -> Int32
    let avcodec_send_frame: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?) -> Int32
    let avcodec_receive_packet: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?) -> Int32
    let avcodec_flush_buffers: @convention(c) (UnsafeMutableRawPointer?) -> Void
    let avcodec_get_name: @convention(c) (Int32) -> UnsafePointer<CChar>?
    let avcodec_profile_name: @convention(c) (Int32, Int32) -> UnsafePointer<CChar>?
    let av_packet_alloc: @convention(c) () -> OpaquePointer?
    let av_packet_free: @convention(c) (UnsafeMutablePointer<OpaquePointer?>?) -> Void
    let av_packet_unref: @convention(c) (OpaquePointer?) -> Void
    let av_packet_get_side_data: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<Int>?) -> UnsafeMutablePointer<UInt8>?

    // libavformat
    let avformat_alloc_context: @convention(c) () -> UnsafeMutableRawPointer?
    let avformat_free_context: @convention(c) (UnsafeMutableRawPointer?) -> Void
    let avformat_open_input: @convention(c) (UnsafeMutablePointer<UnsafeMutableRawPointer?>?, UnsafePointer<CChar>?, OpaquePointer?, UnsafeMutableRawPointer?) -> Int32
    let avformat_close_input: @convention(c) (UnsafeMutablePointer<UnsafeMutableRawPointer?>?) -> Void
    let avformat_find_stream_info: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Int32
    let av_find_best_stream: @convention(c) (UnsafeMutableRawPointer?, Int32, Int32, Int32, UnsafeMutablePointer<OpaquePointer?>?, Int32) -> Int32
    let av_find_input_format: @convention(c) (UnsafePointer<CChar>?) -> OpaquePointer?
    let av_read_frame: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?) -> Int32
    let avformat_seek_file: @convention(c) (UnsafeMutableRawPointer?, Int32, Int64, Int64, Int64, Int32) -> Int32
    let avio_alloc_context: @convention(c) (UnsafeMutablePointer<UInt8>?, Int32, Int32, UnsafeMutableRawPointer?, ReadCallback?, WriteCallback?, SeekCallback?) -> UnsafeMutableRawPointer?
    let avio_context_free: @convention(c) (UnsafeMutablePointer<UnsafeMutableRawPointer?>?) -> Void
    let avformat_alloc_output_context2: @convention(c) (UnsafeMutablePointer<UnsafeMutableRawPointer?>?, OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Int32
    let avformat_new_stream: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?) -> UnsafeMutableRawPointer?
    let avformat_write_header: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Int32
    let av_interleaved_write_frame: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?) -> Int32
    let av_write_trailer: @convention(c) (UnsafeMutableRawPointer?) -> Int32

    typealias ReadCallback = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32
    typealias WriteCallback = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32
    typealias SeekCallback = @convention(c) (UnsafeMutableRawPointer?, Int64, Int32) -> Int64

    private let handles: [UnsafeMutableRawPointer]

    private init() throws {
        let directory = getenv("SOUNDSTAGE_FFMPEG_PATH").map { String(cString: $0) }
        func path(_ name: String) -> String { directory.map { $0 + "/" + name } ?? name }
        var tried: [String] = []
        // Why a library that is there did not load (a missing dependency, a wrong architecture):
        // worth more than "not installed".
        var refusals: [String] = []
        func open(_ name: String) -> UnsafeMutableRawPointer? {
            if let handle = dlopen(path(name), RTLD_NOW | RTLD_LOCAL) { return handle }
            let reason = dlerror().map { String(cString: $0) } ?? "unknown"
            if !reason.contains("No such file or directory") { refusals.append(reason) }
            return nil
        }
        var loaded: (format: UnsafeMutableRawPointer, codec: UnsafeMutableRawPointer, util: UnsafeMutableRawPointer, major: Int, utilMajor: Int)?
        for generation in Self.generations {
            let names = ["libavutil.so.\(generation.util)", "libavcodec.so.\(generation.codec)", "libavformat.so.\(generation.format)"]
            tried.append(names[2])
            guard let util = open(names[0]) else { continue }
            guard let codec = open(names[1]) else { dlclose(util); continue }
            guard let format = open(names[2]) else { dlclose(codec); dlclose(util); continue }
            loaded = (format, codec, util, generation.format, generation.util)
            break
        }
        guard let loaded else {
            let place = directory.map { " in \($0) (SOUNDSTAGE_FFMPEG_PATH)" } ?? ""
            let found = refusals.isEmpty ? "" : "; found but could not load: " + refusals.joined(separator: "; ")
            throw SoundstageError(.codecUnavailable,
                                  "AAC, HE-AAC and ALAC in MPEG-4 (.m4a, .mp4), AAC in CAF and ADTS .aac need FFmpeg's libraries, "
                                  + "which are not installed\(place) (looked for \(tried.joined(separator: ", "))\(found)); on Debian 12: "
                                  + "sudo apt-get install \(Self.debianPackages)")
        }
        handles = [loaded.util, loaded.codec, loaded.format]
        formatMajor = loaded.major
        utilMajor = loaded.utilMajor
        var missing: [String] = []
        func symbol<T>(_ library: UnsafeMutableRawPointer, _ name: String, as type: T.Type) -> T {
            guard let address = dlsym(library, name) else {
                missing.append(name)
                return unsafeBitCast(Self.missingSymbol, to: type)
            }
            return unsafeBitCast(address, to: type)
        }
        let u = loaded.util, c = loaded.codec, f = loaded.format
        av_malloc = symbol(u, "av_malloc", as: type(of: av_malloc))
        av_free = symbol(u, "av_free", as: type(of: av_free))
        av_frame_alloc = symbol(u, "av_frame_alloc", as: type(of: av_frame_alloc))
        av_frame_free = symbol(u, "av_frame_free", as: type(of: av_frame_free))
        av_frame_get_buffer = symbol(u, "av_frame_get_buffer", as: type(of: av_frame_get_buffer))
        av_frame_unref = symbol(u, "av_frame_unref", as: type(of: av_frame_unref))
        av_channel_layout_default = symbol(u, "av_channel_layout_default", as: type(of: av_channel_layout_default))
        av_strerror = symbol(u, "av_strerror", as: type(of: av_strerror))
        av_log_set_callback = symbol(u, "av_log_set_callback", as: type(of: av_log_set_callback))
        av_opt_get_int = symbol(u, "av_opt_get_int", as: type(of: av_opt_get_int))
        av_opt_set_int = symbol(u, "av_opt_set_int", as: type(of: av_opt_set_int))
        av_opt_set = symbol(u, "av_opt_set", as: type(of: av_opt_set))
        av_opt_get_chlayout = symbol(u, "av_opt_get_chlayout", as: type(of: av_opt_get_chlayout))
        av_channel_layout_uninit = symbol(u, "av_channel_layout_uninit", as: type(of: av_channel_layout_uninit))
        avcodec_find_decoder = symbol(c, "avcodec_find_decoder", as: type(of: avcodec_find_decoder))
        avcodec_find_encoder_by_name = symbol(c, "avcodec_find_encoder_by_name", as: type(of: avcodec_find_encoder_by_name))
        avcodec_find_decoder_by_name = symbol(c, "avcodec_find_decoder_by_name", as: type(of: avcodec_find_decoder_by_name))
        avcodec_alloc_context3 = symbol(c, "avcodec_alloc_context3", as: type(of: avcodec_alloc_context3))
        avcodec_free_context = symbol(c, "avcodec_free_context", as: type(of: avcodec_free_context))
        avcodec_parameters_to_context = symbol(c, "avcodec_parameters_to_context", as: type(of: avcodec_parameters_to_context))
        avcodec_parameters_from_context = symbol(c, "avcodec_parameters_from_context", as: type(of: avcodec_parameters_from_context))
        avcodec_parameters_alloc = symbol(c, "avcodec_parameters_alloc", as: type(of: avcodec_parameters_alloc))
        avcodec_parameters_free = symbol(c, "avcodec_parameters_free", as: type(of: avcodec_parameters_free))
        avcodec_open2 = symbol(c, "avcodec_open2", as: type(of: avcodec_open2))
        avcodec_send_packet = symbol(c, "avcodec_send_packet", as: type(of: avcodec_send_packet))
        avcodec_receive_frame = symbol(c, "avcodec_receive_frame", as: type(of: avcodec_receive_frame))
        avcodec_send_frame = symbol(c, "avcodec_send_frame", as: type(of: avcodec_send_frame))
        avcodec_receive_packet = symbol(c, "avcodec_receive_packet", as: type(of: avcodec_receive_packet))
        avcodec_flush_buffers = symbol(c, "avcodec_flush_buffers", as: type(of: avcodec_flush_buffers))
        avcodec_get_name = symbol(c, "avcodec_get_name", as: type(of: avcodec_get_name))
        avcodec_profile_name = symbol(c, "avcodec_profile_name", as: type(of: avcodec_profile_name))
        av_packet_alloc = symbol(c, "av_packet_alloc", as: type(of: av_packet_alloc))
        av_packet_free = symbol(c, "av_packet_free", as: type(of: av_packet_free))
        av_packet_unref = symbol(c, "av_packet_unref", as: type(of: av_packet_unref))
        av_packet_get_side_data = symbol(c, "av_packet_get_side_data", as: type(of: av_packet_get_side_data))
        avformat_alloc_context = symbol(f, "avformat_alloc_context", as: type(of: avformat_alloc_context))
        avformat_free_context = symbol(f, "avformat_free_context", as: type(of: avformat_free_context))
        avformat_open_input = symbol(f, "avformat_open_input", as: type(of: avformat_open_input))
        avformat_close_input = symbol(f, "avformat_close_input", as: type(of: avformat_close_input))
        avformat_find_stream_info = symbol(f, "avformat_find_stream_info", as: type(of: avformat_find_stream_info))
        av_find_best_stream = symbol(f, "av_find_best_stream", as: type(of: av_find_best_stream))
        av_find_input_format = symbol(f, "av_find_input_format", as: type(of: av_find_input_format))
        av_read_frame = symbol(f, "av_read_frame", as: type(of: av_read_frame))
        avformat_seek_file = symbol(f, "avformat_seek_file", as: type(of: avformat_seek_file))
        avio_alloc_context = symbol(f, "avio_alloc_context", as: type(of: avio_alloc_context))
        avio_context_free = symbol(f, "avio_context_free", as: type(of: avio_context_free))
        avformat_alloc_output_context2 = symbol(f, "avformat_alloc_output_context2", as: type(of: avformat_alloc_output_context2))
        avformat_new_stream = symbol(f, "avformat_new_stream", as: type(of: avformat_new_stream))
        avformat_write_header = symbol(f, "avformat_write_header", as: type(of: avformat_write_header))
        av_interleaved_write_frame = symbol(f, "av_interleaved_write_frame", as: type(of: av_interleaved_write_frame))
        av_write_trailer = symbol(f, "av_write_trailer", as: type(of: av_write_trailer))
        let versions = [("libavformat", f, "avformat_version"), ("libavcodec", c, "avcodec_version"), ("libavutil", u, "avutil_version")]
            .map { name, library, function -> String in
                guard let address = dlsym(library, function) else { missing.append(function); return name }
                let version = unsafeBitCast(address, to: (@convention(c) () -> UInt32).self)()
                return "\(name) \(version >> 16).\((version >> 8) & 0xFF).\(version & 0xFF)"
            }
        versionDescription = versions.joined(separator: ", ")
        guard missing.isEmpty else {
            for handle in handles { dlclose(handle) }
            throw SoundstageError(.codecUnavailable, "FFmpeg's libraries (\(versionDescription)) lack "
                                  + "\(missing.joined(separator: ", ")); install \(Self.debianPackages) or a newer FFmpeg")
        }
        // From now on FFmpeg's own lines go to FFmpegLog, never straight to stderr.
        FFmpegLog.install(av_log_set_callback)
    }

    /// What a missing function is bound to until ``init()`` refuses the library (never called).
    private static let missingSymbol: @convention(c) () -> Void = {}

    /// FFmpeg's text for an `AVERROR` code.
    func message(for code: Int32) -> String {
        var text = [CChar](repeating: 0, count: 256)
        _ = av_strerror(code, &text, text.count - 1)
        return text.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
}

/// FFmpeg's return codes that Soundstage acts on.
enum AVError {
    /// `AVERROR(EAGAIN)`: send more input / read the output first.
    static let again: Int32 = -EAGAIN
    /// `AVERROR_EOF`: the end of the stream.
    static let endOfFile: Int32 = -0x2046_4F45
    /// `AVERROR_INVALIDDATA`.
    static let invalidData: Int32 = -0x4144_4E49
    /// `AVERROR_DECODER_NOT_FOUND`.
    static let decoderNotFound: Int32 = -0x4345_44F8
    /// `AVERROR(ENOMEM)`.
    static let noMemory: Int32 = -ENOMEM
}
