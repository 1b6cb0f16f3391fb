import NIOConcurrencyHelpers
import CSoundstage
import Soundstage
import SoundstageLiveView
import SoundFile
import Synchronization

/// What a device handle holds: the device, and the C API's own state of it (the session
/// center its sessions share, the route callback).
final class CDevice: HandleObject {
    let device: Device
    private let sessionCenter = NIOLockedValueBox<AudioSessionCenter?>(nil)
    private let route = ObserverToken()
    private let output = ObserverToken()

    init(_ device: Device) { self.device = device }

    /// The session center of the device, made on first use.
    var center: AudioSessionCenter {
        sessionCenter.withLockedValue { center in
            if let center { return center }
            let made = AudioSessionCenter(device: device)
            center = made
            return made
        }
    }

    /// Replaces the route observer (nil: none).
    func setRouteObserver(_ handler: (@Sendable (RouteChange) -> Void)?) {
        route.replace(handler.map { handler in { self.device.addRouteObserver(handler) } }, remove: device.removeRouteObserver)
    }

    /// Replaces the output observer (nil: none).
    func setOutputObserver(_ handler: (@Sendable (OutputEvent) -> Void)?) {
        output.replace(handler.map { handler in { self.device.addOutputObserver(handler) } }, remove: device.removeOutputObserver)
    }

    func handleDestroyed() {
        stopLiveView()
        setRouteObserver(nil)
        setOutputObserver(nil)
        device.close()
    }

    /// The device's live view, if one runs (``ss_device_start_live_view``).
    let liveView = NIOLockedValueBox<LiveView?>(nil)

    /// Stops the live view, if one runs.
    func stopLiveView() {
        liveView.withLockedValue { view in
            defer { view = nil }
            return view
        }?.stop()
    }
}

@inline(__always)
func withDevice<R>(_ handle: OpaquePointer?, _ body: (CDevice) throws -> R) throws -> R {
    try HandleTable.shared.with(handle, .device, as: CDevice.self, body)
}

extension ss_channel_layout {
    /// The engine's layout.
    var layout: ChannelLayout {
        get throws {
            guard let layout = ChannelLayout(channelCount: Int(rawValue)) else {
                throw CAPIError(SS_ERROR_INVALID_ARGUMENT, "\(rawValue) is not an ss_channel_layout")
            }
            return layout
        }
    }
}

extension ss_tristate {
    /// nil for the default, else on or off.
    var value: Bool? {
        get throws {
            switch self {
            case SS_DEFAULT: return nil
            case SS_OFF: return false
            case SS_ON: return true
            default: throw CAPIError(SS_ERROR_INVALID_ARGUMENT, "\(rawValue) is not an ss_tristate")
            }
        }
    }
}

extension ss_file_format {
    /// The file format.
    var format: OutputFormat {
        get throws {
            switch self {
            case SS_FORMAT_WAV_PCM16: return .wavPCM16
            case SS_FORMAT_WAV_PCM24: return .wavPCM24
            case SS_FORMAT_WAV_FLOAT32: return .wavFloat32
            case SS_FORMAT_FLAC: return .flac
            case SS_FORMAT_OGG_VORBIS: return .oggVorbis
            case SS_FORMAT_OPUS: return .opus
            case SS_FORMAT_MP3: return .mp3
            case SS_FORMAT_CAF_PCM16: return .cafPCM16
            case SS_FORMAT_AIFF_PCM16: return .aiffPCM16
            case SS_FORMAT_M4A_AAC: return .m4aAAC
            case SS_FORMAT_M4A_ALAC: return .m4aALAC
            case SS_FORMAT_CAF_ILBC: return .cafILBC
            default: throw CAPIError(SS_ERROR_INVALID_ARGUMENT, "\(rawValue) is not an ss_file_format")
            }
        }
    }
}

/// A reverb-zone count argument (-1: the default).
private func reverbZones(_ count: Int32) throws -> Int {
    count == -1 ? Device.defaultReverbZones : try checked(count, 0...4, "reverb_zones")
}

@c @implementation
public func ss_desktop_options_init(_ options: UnsafeMutablePointer<ss_desktop_options>?) -> ss_result {
    capi {
        let options = try require(options, "options")
        options.pointee = ss_desktop_options(struct_size: MemoryLayout<ss_desktop_options>.size, application_name: nil,
                                             application_id: nil, stream_name: nil, role: nil, latency: 0.020, server: nil,
                                             sink: nil, sample_rate: 48_000, layout: SS_LAYOUT_STEREO, hrtf: SS_DEFAULT,
                                             update_frames: 0, reverb_zones: Int32(Device.defaultReverbZones),
                                             idle_timeout: DesktopOutputOptions().idleTimeout)
    }
}

/// Checks that an options struct was filled by its init function (so its size field is ours).
func checkInitialized(_ size: Int, _ expected: Int, _ name: String) throws {
    guard size == expected else {
        throw CAPIError(SS_ERROR_INVALID_ARGUMENT, "\(name) was not filled by \(name)_init() (struct_size \(size), expected \(expected))")
    }
}

/// The engine's desktop options from the C struct (NULL: defaults).
private func desktopOptions(_ pointer: UnsafePointer<ss_desktop_options>?) throws -> DesktopOutputOptions {
    guard let pointer else { return DesktopOutputOptions() }
    // A struct from a header before idle_timeout (0.1) is shorter: read only what it has.
    let before0_2 = MemoryLayout<ss_desktop_options>.offset(of: \ss_desktop_options.idle_timeout)!
    let size = pointer.pointee.struct_size
    if size != before0_2 { try checkInitialized(size, MemoryLayout<ss_desktop_options>.size, "ss_desktop_options") }
    var c = ss_desktop_options()
    withUnsafeMutableBytes(of: &c) { $0.copyMemory(from: UnsafeRawBufferPointer(start: pointer, count: size)) }
    if size == before0_2 { c.idle_timeout = DesktopOutputOptions().idleTimeout }
    var options = DesktopOutputOptions(applicationName: optionalString(c.application_name) ?? DesktopOutputOptions().applicationName,
                                       applicationID: optionalString(c.application_id),
                                       streamName: optionalString(c.stream_name))
    if let role = optionalString(c.role) { options.role = MediaRole(rawValue: role) }
    options.latency = try checked(c.latency, 0.005...0.5, "latency")
    options.server = optionalString(c.server)
    options.sink = optionalString(c.sink)
    options.sampleRate = try checked(c.sample_rate, 8_000...192_000, "sample_rate")
    options.layout = try c.layout.layout
    options.hrtf = try c.hrtf.value
    options.updateFrames = c.update_frames == 0 ? nil : try checked(c.update_frames, 1...1 << 16, "update_frames")
    options.reverbZones = try reverbZones(c.reverb_zones)
    options.idleTimeout = try checked(c.idle_timeout, 0...3_600, "idle_timeout")
    return options
}

@c @implementation
public func ss_device_open_output(_ backend: ss_output_backend, _ options: UnsafePointer<ss_desktop_options>?,
                                  _ out: UnsafeMutablePointer<OpaquePointer?>?) -> ss_result {
    capi {
        let out = try require(out, "out_device")
        let kind: OutputBackend
        switch backend {
        case SS_BACKEND_AUTOMATIC: kind = .automatic
        case SS_BACKEND_DESKTOP: kind = .desktop
        case SS_BACKEND_OPENAL: kind = .openAL
        default: throw CAPIError(SS_ERROR_INVALID_ARGUMENT, "\(backend.rawValue) is not an ss_output_backend")
        }
        let device = try Device.openOutput(backend: kind, desktop: try desktopOptions(options))
        try publish(CDevice(device), .device, to: out)
    }
}

@c @implementation
public func ss_device_open_openal(_ name: UnsafePointer<CChar>?, _ hrtf: ss_tristate, _ zones: Int32,
                                  _ out: UnsafeMutablePointer<OpaquePointer?>?) -> ss_result {
    capi {
        let out = try require(out, "out_device")
        let hrtf = try hrtf.value
        let zones = try reverbZones(zones)
        let device = try optionalString(name).map { try Device.open(named: $0, hrtf: hrtf, reverbZones: zones) }
            ?? Device.openDefault(hrtf: hrtf, reverbZones: zones)
        try publish(CDevice(device), .device, to: out)
    }
}

@c @implementation
public func ss_device_open_loopback(_ sampleRate: Int32, _ layout: ss_channel_layout, _ hrtf: ss_tristate, _ zones: Int32,
                                    _ out: UnsafeMutablePointer<OpaquePointer?>?) -> ss_result {
    capi {
        let out = try require(out, "out_device")
        let rate = try checked(sampleRate, 8_000...192_000, "sample_rate")
        let device = try Device.loopback(sampleRate: rate, layout: try layout.layout, hrtf: try hrtf.value,
                                         reverbZones: try reverbZones(zones))
        try publish(CDevice(device), .device, to: out)
    }
}

@c @implementation
public func ss_device_destroy(_ device: OpaquePointer?) -> ss_result {
    capi { try HandleTable.shared.destroy(device, kind: .device) }
}

@c @implementation
public func ss_device_get_info(_ device: OpaquePointer?, _ out: UnsafeMutablePointer<ss_device_info>?) -> ss_result {
    capi {
        let out = try require(out)
        try withDevice(device) { c in
            let d = c.device
            let kind: ss_device_kind = switch d.kind {
            case .output: SS_DEVICE_OPENAL
            case .loopback: SS_DEVICE_LOOPBACK
            case .desktop: SS_DEVICE_DESKTOP
            }
            // Not `d.info`: that reads every string and list OpenAL has and asks the desktop server
            // about capture (0.7 ms a call, and the bindings read this before each render), and a
            // render racing it on another thread failed with ALC_INVALID_VALUE (the Python
            // binding's threads test, once in six runs).
            let hrtf = d.isHRTFEnabled
            out.pointee = ss_device_info(kind: kind, sample_rate: Int32(d.sampleRate), channels: Int32(d.layout.channelCount),
                                         update_frames: Int32(d.updateFrames), reverb_zones: Int32(d.reverbZones),
                                         hrtf_enabled: hrtf ? 1 : 0)
        }
    }
}

/// Refuses a call that needs a loopback device.
private func requireLoopback(_ device: Device, _ what: String) throws {
    guard device.kind == .loopback else {
        throw CAPIError(SS_ERROR_INVALID_STATE, "\(what) needs a loopback device (ss_device_open_loopback); this one plays in real time")
    }
}

@c @implementation
public func ss_device_render(_ device: OpaquePointer?, _ samples: UnsafeMutablePointer<Float>?, _ frames: Int) -> ss_result {
    capi {
        guard let samples else { throw CAPIError.null("samples") }
        try withDevice(device) { c in
            try requireLoopback(c.device, "ss_device_render")
            let count = try checked(frames, 0...(Int.max / 8), "frames") * c.device.layout.channelCount
            try c.device.render(into: UnsafeMutableBufferPointer(start: samples, count: count))
        }
    }
}

@c @implementation
public func ss_device_render_to_file(_ device: OpaquePointer?, _ seconds: Double, _ path: UnsafePointer<CChar>?,
                                     _ format: ss_file_format) -> ss_result {
    capi {
        let path = try string(path, "path")
        let seconds = try checked(seconds, 0...86_400, "seconds")
        let format = try format.format
        try withDevice(device) { c in
            try requireLoopback(c.device, "ss_device_render_to_file")
            try c.device.render(seconds: seconds, to: path, format: format)
        }
    }
}

@c @implementation
public func ss_device_get_mix_time(_ device: OpaquePointer?, _ out: UnsafeMutablePointer<Double>?) -> ss_result {
    capi {
        let out = try require(out)
        out.pointee = try withDevice(device) { $0.device.mixTime }
    }
}

@c @implementation
public func ss_device_get_non_finite_mix_count(_ device: OpaquePointer?, _ out: UnsafeMutablePointer<Int64>?) -> ss_result {
    capi {
        let out = try require(out)
        out.pointee = Int64(try withDevice(device) { $0.device.nonFiniteMixCount })
    }
}

@c @implementation
public func ss_device_set_max_decoded_bytes(_ device: OpaquePointer?, _ bytes: Int) -> ss_result {
    capi {
        let bytes = try checked(bytes, 1...Int.max, "bytes")
        try withDevice(device) { $0.device.maxDecodedBytes = bytes }
    }
}

@c @implementation
public func ss_device_get_max_decoded_bytes(_ device: OpaquePointer?, _ out: UnsafeMutablePointer<Int>?) -> ss_result {
    reading(out) { try withDevice(device) { $0.device.maxDecodedBytes } }
}

@c @implementation
public func ss_device_evict_cached_buffers(_ device: OpaquePointer?) -> ss_result {
    capi { try withDevice(device) { $0.device.evictCachedBuffers() } }
}

@c @implementation
public func ss_device_get_output_status(_ device: OpaquePointer?, _ out: UnsafeMutablePointer<ss_output_status>?) -> ss_result {
    capi {
        let out = try require(out)
        let status = try withDevice(device) { $0.device.outputStatus }
        var result = ss_output_status()
        copy(status.backend, into: &result.backend)
        copy(status.server, into: &result.server)
        copy(status.sink ?? "", into: &result.sink)
        result.target_latency = status.targetLatency ?? -1
        result.latency = status.latency ?? -1
        result.underruns = Int32(clamping: status.underruns)
        result.volume = status.volume
        result.muted = status.muted ? 1 : 0
        result.paused = status.paused ? 1 : 0
        result.connected = status.connected ? 1 : 0
        out.pointee = result
    }
}

@c @implementation
public func ss_device_get_output_rest(_ device: OpaquePointer?, _ resting: UnsafeMutablePointer<Int32>?,
                                     _ rests: UnsafeMutablePointer<Int32>?) -> ss_result {
    capi {
        let status = try withDevice(device) { $0.device.outputStatus }
        resting?.pointee = status.resting ? 1 : 0
        rests?.pointee = Int32(clamping: status.rests)
    }
}

@c @implementation
public func ss_device_drain(_ device: OpaquePointer?, _ timeout: Double) -> ss_result {
    capi {
        let timeout = try checked(timeout, 0...3600, "timeout")
        let drained = try withDevice(device) { $0.device.drain(timeout: timeout) }
        if !drained { throw CAPIError(SS_ERROR_INVALID_STATE, "the output did not drain within \(timeout) s") }
    }
}

@c @implementation
public func ss_device_set_route_callback(_ device: OpaquePointer?, _ callback: ss_route_callback?,
                                        _ userData: UnsafeMutableRawPointer?) -> ss_result {
    capi {
        try withDevice(device) { c in
            guard let callback else { c.setRouteObserver(nil); return }
            let target = CCallback(function: callback, userData: userData)
            let handle = CCallback(function: device, userData: nil)
            c.setRouteObserver { change in
                let reason: ss_route_reason = switch change.reason {
                case .oldDeviceUnavailable: SS_ROUTE_OLD_DEVICE_UNAVAILABLE
                case .newDeviceAvailable: SS_ROUTE_NEW_DEVICE_AVAILABLE
                case .override: SS_ROUTE_OVERRIDE
                case .categoryChange: SS_ROUTE_CATEGORY_CHANGE
                case .outputMoved: SS_ROUTE_OUTPUT_MOVED
                }
                withOptionalCString(change.previousOutput) { previous in
                    withOptionalCString(change.output) { output in
                        target.function(handle.function, reason, previous, output, target.userData)
                    }
                }
            }
        }
    }
}

@c @implementation
public func ss_device_set_output_callback(_ device: OpaquePointer?, _ callback: ss_output_callback?,
                                         _ userData: UnsafeMutableRawPointer?) -> ss_result {
    capi {
        try withDevice(device) { c in
            guard let callback else { c.setOutputObserver(nil); return }
            let target = CCallback(function: callback, userData: userData)
            let handle = CCallback(function: device, userData: nil)
            c.setOutputObserver { event in
                var e = ss_output_event(kind: SS_OUTPUT_PAUSE_REQUESTED, volume: 0, muted: 0, underruns: 0, reason: nil)
                var reason: String?
                switch event {
                case .pauseRequested: e.kind = SS_OUTPUT_PAUSE_REQUESTED
                case .resumeRequested: e.kind = SS_OUTPUT_RESUME_REQUESTED
                case let .volumeChanged(volume, muted):
                    e.kind = SS_OUTPUT_VOLUME_CHANGED
                    e.volume = volume
                    e.muted = muted ? 1 : 0
                case let .underrun(count):
                    e.kind = SS_OUTPUT_UNDERRUN
                    e.underruns = Int32(clamping: count)
                case let .serverLost(why):
                    e.kind = SS_OUTPUT_SERVER_LOST
                    reason = why
                case .serverReconnected: e.kind = SS_OUTPUT_SERVER_RECONNECTED
                }
                withOptionalCString(reason) { text in
                    e.reason = text
                    target.function(handle.function, &e, target.userData)
                }
            }
        }
    }
}

/// Runs `body` with a C string of `text`, or NULL.
func withOptionalCString<R>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    guard let text else { return body(nil) }
    return text.withCString { body($0) }
}

@c @implementation
public func ss_device_set_output_metering(_ device: OpaquePointer?, _ enabled: Int32) -> ss_result {
    capi { try withDevice(device) { $0.device.isOutputMeteringEnabled = flag(enabled) } }
}

@c @implementation
public func ss_device_is_output_metering(_ device: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?) -> ss_result {
    readingFlag(out) { try withDevice(device) { $0.device.isOutputMeteringEnabled } }
}

@c @implementation
public func ss_device_get_output_levels(_ device: OpaquePointer?, _ out: UnsafeMutablePointer<ss_levels>?) -> ss_result {
    capi {
        let out = try require(out)
        fill(try withDevice(device) { $0.device.outputLevels() }, out)
    }
}

@c @implementation
public func ss_device_start_recording_output(_ device: OpaquePointer?, _ path: UnsafePointer<CChar>?,
                                            _ format: ss_file_format) -> ss_result {
    capi {
        let path = try string(path, "path")
        let format = try format.format
        try withDevice(device) { try $0.device.recordOutput(to: path, format: format) }
    }
}

@c @implementation
public func ss_device_stop_recording_output(_ device: OpaquePointer?, _ out: UnsafeMutablePointer<ss_mix_recording>?) -> ss_result {
    capi {
        guard let result = try withDevice(device, { $0.device.stopRecordingOutput() }) else {
            throw CAPIError(SS_ERROR_INVALID_STATE, "no mix recording runs on this device")
        }
        out?.pointee = ss_mix_recording(frames: Int64(result.frames), duration: result.duration,
                                        failed: result.failure == nil ? 0 : 1)
        if let failure = result.failure { soundstage_internal_set_error(failure.description) }
    }
}
