import COpenAL

extension OpenAL {
    /// The cause of a failed `alcOpenDevice` (it returns NULL and sets no error of its own).
    static let noDeviceOpened = SoundstageError.Cause.openAL(function: "alcOpenDevice", error: ALC_INVALID_VALUE, name: "no device")
}

/// The calls made on an `ALCdevice`: opening, closing, rendering, pausing, and what it reports.
extension DeviceHandle {
    /// Opens an output device (nil: the default one); nil when none opens.
    static func openOutput(_ name: String?) -> DeviceHandle? { alcOpenDevice(name).map(DeviceHandle.init(raw:)) }

    /// Opens a loopback device (ALC_SOFT_loopback); nil without the extension.
    static func openLoopback() -> DeviceHandle? { alcLoopbackOpenDeviceSOFT(nil).map(DeviceHandle.init(raw:)) }

    /// Closes the device.
    func close() { alcCloseDevice(raw) }

    /// Creates the first context of a device just opened, closing the device if that fails
    /// (opening a device and then a migration's new one).
    func makeFirstContext(_ attributes: [ALCint], for what: String) throws(SoundstageError) -> OpaquePointer {
        do {
            return try OpenAL.createContext(on: raw, attributes, for: what)
        } catch {
            close()
            throw error
        }
    }

    /// Whether the device has ALC extension `name`.
    func hasExtension(_ name: String) -> Bool { alcIsExtensionPresent(raw, name) != 0 }

    /// Whether a loopback device can render float samples in `layout` at `sampleRate`.
    func canRender(sampleRate: Int, layout: ChannelLayout) -> Bool {
        alcIsRenderFormatSupportedSOFT(raw, ALCsizei(sampleRate), layout.alcValue, ALC_FLOAT_SOFT) != 0
    }

    /// The rate the device mixes at (`ALC_FREQUENCY`), 0 if it does not say.
    var frequency: Int {
        var rate: ALCint = 0
        alcGetIntegerv(raw, ALC_FREQUENCY, 1, &rate)
        return Int(rate)
    }

    /// Whether the output is still there (`ALC_CONNECTED`; true when the device cannot tell).
    var isConnected: Bool {
        var connected: ALCint = 1
        alcGetIntegerv(raw, ALC_CONNECTED, 1, &connected)
        return connected != 0
    }

    /// Renders `frames` float frames into `output` (a loopback device).
    func render(into output: UnsafeMutablePointer<Float>, frames: Int) throws(SoundstageError) {
        try OpenAL.alc(raw, "alcRenderSamplesSOFT") { alcRenderSamplesSOFT(raw, output, ALCsizei(frames)) }
    }

    /// Pauses or resumes a real output's mixing (ALC_SOFT_pause_device); a failure is an OpenAL bug, counted.
    func setPaused(_ paused: Bool) {
        guard hasExtension("ALC_SOFT_pause_device") else { return }
        do throws(SoundstageError) {
            if paused {
                try OpenAL.alc(raw, "alcDevicePauseSOFT") { alcDevicePauseSOFT(raw) }
            } else {
                try OpenAL.alc(raw, "alcDeviceResumeSOFT") { alcDeviceResumeSOFT(raw) }
            }
        } catch {
            UnexpectedOpenALErrors.record(error)
        }
    }
}

extension Device {
    static func attributes(kind: Kind, sampleRate: Int, layout: ChannelLayout, hrtf: Bool?, hrtfID: Int?,
                           budget: Int, sends: Int) -> [ALCint] {
        var list: [ALCint] = [ALC_MONO_SOURCES, ALCint(budget), ALC_STEREO_SOURCES, 0, ALC_MAX_AUXILIARY_SENDS, ALCint(sends)]
        if kind != .output {
            list += [ALC_FORMAT_CHANNELS_SOFT, layout.alcValue, ALC_FORMAT_TYPE_SOFT, ALC_FLOAT_SOFT,
                     ALC_FREQUENCY, ALCint(sampleRate), ALC_OUTPUT_LIMITER_SOFT, ALC_FALSE]
        }
        if let hrtf {
            list += [ALC_HRTF_SOFT, hrtf ? ALC_TRUE : ALC_FALSE]
            if let hrtfID { list += [ALC_HRTF_ID_SOFT, ALCint(hrtfID)] }
        }
        return list + [0]
    }

    static func hrtfNames(_ device: OpaquePointer) -> [String] {
        guard alcIsExtensionPresent(device, "ALC_SOFT_HRTF") != 0 else { return [] }
        var count: ALCint = 0
        alcGetIntegerv(device, ALC_NUM_HRTF_SPECIFIERS_SOFT, 1, &count)
        return (0..<max(0, Int(count))).compactMap { index in
            alcGetStringiSOFT(device, ALC_HRTF_SPECIFIER_SOFT, ALCsizei(index)).map { String(cString: $0) }
        }
    }

    static func splitDoubleNullList(_ list: UnsafePointer<ALCchar>?) -> [String] {
        guard var cursor = list else { return [] }
        var names: [String] = []
        while cursor.pointee != 0 {
            let name = String(cString: cursor)
            names.append(name)
            cursor += name.utf8.count + 1
        }
        return names
    }

    /// Names of the output devices OpenAL can open (`ALC_ALL_DEVICES_SPECIFIER`).
    public static func outputDeviceNames() -> [String] {
        let list = alcIsExtensionPresent(nil, "ALC_ENUMERATE_ALL_EXT") != 0
            ? alcGetString(nil, ALC_ALL_DEVICES_SPECIFIER) : alcGetString(nil, ALC_DEVICE_SPECIFIER)
        return splitDoubleNullList(list)
    }

    /// The default output device's name, if OpenAL reports one.
    public static func defaultOutputDeviceName() -> String? {
        let name = alcIsExtensionPresent(nil, "ALC_ENUMERATE_ALL_EXT") != 0
            ? alcGetString(nil, ALC_DEFAULT_ALL_DEVICES_SPECIFIER) : alcGetString(nil, ALC_DEFAULT_DEVICE_SPECIFIER)
        return name.map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Opens an output `ALCdevice` (nil: the default one).
    static func openOutputHandle(_ name: String?) throws(SoundstageError) -> DeviceHandle {
        guard let raw = alcOpenDevice(name) else {
            throw SoundstageError(.noOutputDevice, "cannot open \(name.map { "the output device '\($0)'" } ?? "the default output device")")
        }
        return DeviceHandle(raw: raw)
    }

    /// Opens a new loopback `ALCdevice` (its format is set by the context attributes).
    static func openLoopbackHandle() throws(SoundstageError) -> DeviceHandle {
        guard let raw = alcLoopbackOpenDeviceSOFT(nil) else {
            throw SoundstageError(.extensionMissing, "ALC_SOFT_loopback is not available")
        }
        return DeviceHandle(raw: raw)
    }
}
