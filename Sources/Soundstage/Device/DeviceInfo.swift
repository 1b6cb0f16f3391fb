/// What a device is and can do: OpenAL's version strings, output format, extensions, HRTFs
/// and the source limit. Read with ``Device/info``.
public struct DeviceInfo: Sendable, Codable, Equatable {
    /// The device's name (`ALC_DEVICE_SPECIFIER`, or `ALC_ALL_DEVICES_SPECIFIER`).
    public var name: String
    /// `"output"` (OpenAL Soft's own), `"desktop"` (Soundstage's stream on PulseAudio/PipeWire) or `"loopback"`.
    public var kind: String
    /// `AL_VERSION`, e.g. `1.1 ALSOFT 1.19.1`.
    public var version: String
    /// `AL_RENDERER`.
    public var renderer: String
    /// `AL_VENDOR`.
    public var vendor: String
    /// Output frames per second (`ALC_FREQUENCY`).
    public var sampleRate: Int
    /// Output channel layout.
    public var layout: String
    /// Frames per mixer update: `ALC_FREQUENCY / ALC_REFRESH` for outputs, the engine's update
    /// interval for loopback devices.
    public var updateFrames: Int
    /// Whether HRTF mixing is on (`ALC_HRTF_SOFT`).
    public var hrtfEnabled: Bool
    /// Why HRTF is on or off (`ALC_HRTF_STATUS_SOFT`), e.g. `disabled`, `enabled`, `denied`.
    public var hrtfStatus: String
    /// HRTFs the device can use (`ALC_HRTF_SPECIFIER_SOFT`).
    public var hrtfNames: [String]
    /// How many sources one scene may have at most (`ALC_MONO_SOURCES` + `ALC_STEREO_SOURCES`).
    public var sourceLimit: Int
    /// ALC (device) extensions.
    public var deviceExtensions: [String]
    /// AL (context) extensions.
    public var extensions: [String]
    /// Output latency in seconds, if reported: what the desktop server reports for Soundstage's
    /// stream (`pa_stream_get_latency`), or `ALC_DEVICE_LATENCY_SOFT` (ALC_SOFT_device_clock).
    public var latency: Double?
    /// Whether a real input (a microphone, a line or virtual input: not a sink's monitor) exists
    /// on the desktop server the device uses (``AudioRecorder/captureAvailable(server:)``);
    /// false when no server answers, since recording needs one.
    public var captureAvailable: Bool
}
