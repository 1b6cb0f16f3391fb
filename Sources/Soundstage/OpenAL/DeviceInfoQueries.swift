import COpenAL

// Reading a ``DeviceInfo`` off OpenAL: version strings, attributes, extensions, HRTFs.
extension Device {
    /// What this device is and can do.
    public var info: DeviceInfo {
        get throws {
            guard !isClosed else { throw SoundstageError(.released, "the device is closed") }
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
            // ALC_REFRESH is an error on a loopback device (ALC_INVALID_DEVICE), and ALC errors are
            // the device's, not the thread's: the render thread's next alcRenderSamplesSOFT would
            // read it as its own and stop. Devices the engine renders know their update size.
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
            let desktopStatus = desktop?.status(rest: rest)
            return DeviceInfo(
                name: desktopStatus.map { "\($0.server): \($0.sink ?? "no sink")" } ?? alcString(nameToken),
                kind: kind == .output ? "output" : kind == .desktop ? "desktop" : "loopback",
                version: version, renderer: renderer, vendor: vendor,
                sampleRate: sampleRate,
                layout: layout.rawValue,
                updateFrames: rendersInEngine ? updateFrames : (refresh > 0 ? sampleRate / refresh : 0),
                hrtfEnabled: alcInt(ALC_HRTF_SOFT) != 0,
                hrtfStatus: status,
                hrtfNames: Device.hrtfNames(handle.raw),
                sourceLimit: alcInt(ALC_MONO_SOURCES) + alcInt(ALC_STEREO_SOURCES),
                deviceExtensions: alcString(ALC_EXTENSIONS).split(separator: " ").map(String.init),
                extensions: extensions.split(separator: " ").map(String.init),
                // A loopback device has no output buffer: OpenAL Soft reports 0, which means nothing.
                latency: desktopStatus.map { $0.latency } ?? (kind == .loopback ? nil : latency()),
                captureAvailable: AudioRecorder.captureAvailable(server: desktop?.options.server))
        }
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
