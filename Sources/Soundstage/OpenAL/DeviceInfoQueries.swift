import COpenAL
import NIOConcurrencyHelpers

// Reading a ``DeviceInfo`` off OpenAL: version strings, attributes, extensions, HRTFs.
extension Device {
    /// What this device is and can do.
    ///
    /// Safe from any number of threads beside a render: ALC's errors are the device's, not the
    /// thread's, so the OpenAL queries run while no render of this device runs and no other
    /// ``info`` asks, and whatever error one of them left is taken before a render could read it
    /// as its own. (The desktop server is asked outside: a render never waits on it.)
    public var info: DeviceInfo {
        get throws {
            guard !isClosed else { throw SoundstageError(.released, "the device is closed") }
            let queried = excludingRender {
                Self.openALQueries.withLock { () -> Result<OpenALInfo, SoundstageError> in
                    defer { _ = alcGetError(handle.raw) }
                    do throws(SoundstageError) { return .success(try queryOpenAL()) } catch { return .failure(error) }
                }
            }
            let openAL = try queried.get()
            let desktopStatus = desktop?.status(rest: rest)
            return DeviceInfo(
                name: desktopStatus.map { "\($0.server): \($0.sink ?? "no sink")" } ?? openAL.name,
                kind: kind == .output ? "output" : kind == .desktop ? "desktop" : "loopback",
                version: openAL.version, renderer: openAL.renderer, vendor: openAL.vendor,
                sampleRate: sampleRate,
                layout: layout.rawValue,
                updateFrames: rendersInEngine ? updateFrames : (openAL.refresh > 0 ? sampleRate / openAL.refresh : 0),
                hrtfEnabled: openAL.hrtfEnabled,
                hrtfStatus: openAL.hrtfStatus,
                hrtfNames: openAL.hrtfNames,
                sourceLimit: openAL.sourceLimit,
                deviceExtensions: openAL.deviceExtensions,
                extensions: openAL.extensions,
                // A loopback device has no output buffer: OpenAL Soft reports 0, which means nothing.
                latency: desktopStatus.map { $0.latency } ?? (kind == .loopback ? nil : openAL.latency),
                captureAvailable: AudioRecorder.captureAvailable(server: desktop?.options.server))
        }
    }

    /// One ``info`` at a time, whatever the device: OpenAL Soft 1.19 frees and re-reads a device's
    /// HRTF list when asked how many it has, so a second reader beside the first read names from
    /// a freed list, or past its end (`ALC_INVALID_VALUE`, left on the device for a render).
    /// Taken inside the render lock, never around it.
    private static let openALQueries = NIOLock()

    /// What OpenAL says of the device, for ``info``.
    private struct OpenALInfo {
        var name: String
        var version: String, renderer: String, vendor: String
        var refresh: Int
        var hrtfEnabled: Bool
        var hrtfStatus: String
        var hrtfNames: [String]
        var sourceLimit: Int
        var deviceExtensions: [String]
        var extensions: [String]
        var latency: Double?
    }

    /// Asks OpenAL what ``info`` reports (with the render excluded).
    private func queryOpenAL() throws(SoundstageError) -> OpenALInfo {
        func alcString(_ token: ALCenum) -> String {
            alcGetString(handle.raw, token).map { String(cString: $0) } ?? ""
        }
        func alcInt(_ token: ALCenum) -> Int {
            var value: ALCint = 0
            alcGetIntegerv(handle.raw, token, 1, &value)
            return Int(value)
        }
        let (version, renderer, vendor, extensions) = try OpenAL.withContext(resourceContext) { _ throws(SoundstageError) in
            func alString(_ token: ALenum) -> String { alGetString(token).map { String(cString: $0) } ?? "" }
            return (alString(AL_VERSION), alString(AL_RENDERER), alString(AL_VENDOR), alString(AL_EXTENSIONS))
        }
        func latency() -> Double? {
            guard alcIsExtensionPresent(handle.raw, "ALC_SOFT_device_clock") != 0 else { return nil }
            var value: ALCint64SOFT = 0
            alcGetInteger64vSOFT(handle.raw, ALCenum(ALC_DEVICE_LATENCY_SOFT), 1, &value)
            return alcGetError(handle.raw) == ALC_NO_ERROR ? Double(value) / 1e9 : nil
        }
        let nameToken = alcIsExtensionPresent(handle.raw, "ALC_ENUMERATE_ALL_EXT") != 0 ? ALC_ALL_DEVICES_SPECIFIER : ALC_DEVICE_SPECIFIER
        // ALC_REFRESH is an error on a loopback device (ALC_INVALID_DEVICE). Devices the engine
        // renders know their update size.
        let refresh = rendersInEngine ? 0 : alcInt(ALC_REFRESH)
        let status: String
        switch ALCenum(alcInt(ALC_HRTF_STATUS_SOFT)) {
        case ALC_HRTF_DISABLED_SOFT: status = "disabled"
        case ALC_HRTF_ENABLED_SOFT: status = "enabled"
        case ALC_HRTF_DENIED_SOFT: status = "denied"
        case ALC_HRTF_REQUIRED_SOFT: status = "required"
        case ALC_HRTF_HEADPHONES_DETECTED_SOFT: status = "enabled (headphones detected)"
        case ALC_HRTF_UNSUPPORTED_FORMAT_SOFT: status = "unsupported output format"
        default: status = "unknown"
        }
        return OpenALInfo(
            name: alcString(nameToken), version: version, renderer: renderer, vendor: vendor, refresh: refresh,
            hrtfEnabled: alcInt(ALC_HRTF_SOFT) != 0, hrtfStatus: status, hrtfNames: Device.hrtfNames(handle.raw),
            sourceLimit: alcInt(ALC_MONO_SOURCES) + alcInt(ALC_STEREO_SOURCES),
            deviceExtensions: alcString(ALC_EXTENSIONS).split(separator: " ").map(String.init),
            extensions: extensions.split(separator: " ").map(String.init),
            latency: kind == .loopback ? nil : latency())
    }
}

extension Device {
    /// Whether OpenAL mixes binaurally now (`ALC_HRTF_SOFT`): then meters cannot follow its
    /// panning. One query: unlike ``info`` (version strings, extension and HRTF lists, whether
    /// capture is available), cheap enough for every frame. False once the device is closed.
    public var isHRTFEnabled: Bool {
        guard !isClosed else { return false }
        var value: ALCint = 0
        alcGetIntegerv(handle.raw, ALC_HRTF_SOFT, 1, &value)
        return value != 0
    }
}
