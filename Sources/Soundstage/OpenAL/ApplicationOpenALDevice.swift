import COpenAL

/// An OpenAL Soft output device that the program opened itself with `alcOpenDevice`, outside
/// Soundstage: an iOS game's OpenAL code, ported unchanged.
///
/// On iOS the system silences such a device while the app's audio session is interrupted, and
/// gives it back when the interruption ends; the app's interruption listener only makes its
/// context current again. OpenAL Soft does nothing of the kind by itself (making no context
/// current, or `alcSuspendContext`, leaves its sources sounding), so `SoundstageCompat` plays
/// the system's part with this type: ``pause()`` at the start of an interruption and
/// ``resume()`` at its end.
///
/// Soundstage's own devices are never found here: Soundstage makes its contexts current per
/// thread only (`alcSetThreadContext`), never process-wide.
public struct ApplicationOpenALDevice: Sendable, Equatable {
    private let handle: DeviceHandle

    /// The device of the context the program made current process-wide with
    /// `alcMakeContextCurrent`, if there is one (`alcGetContextsDevice(alcGetCurrentContext())`
    /// with this thread's own context set aside for the look-up).
    public static func ofCurrentContext() -> ApplicationOpenALDevice? {
        // alcGetCurrentContext answers the calling thread's context first; Soundstage may have
        // set one on this thread. Set it aside, read the process-wide one, put it back.
        let threadContext = alcGetThreadContext()
        if threadContext != nil { _ = alcSetThreadContext(nil) }
        defer { if threadContext != nil { _ = alcSetThreadContext(threadContext) } }
        guard let context = alcGetCurrentContext(), let device = alcGetContextsDevice(context) else { return nil }
        return ApplicationOpenALDevice(handle: DeviceHandle(raw: device))
    }

    /// Stops the device's mixing and output (`alcDevicePauseSOFT`, ALC_SOFT_pause_device). Its
    /// sources keep their state and offsets; what the device had queued (tens of milliseconds)
    /// is dropped, as a pause of the hardware drops it.
    /// - Throws: `.openAL` when the device is no longer open or cannot pause (a loopback or
    ///   capture device), `.extensionMissing` without ALC_SOFT_pause_device.
    public func pause() throws(SoundstageError) {
        try requirePauseExtension()
        let raw = handle.raw
        try OpenAL.alc(raw, "alcDevicePauseSOFT") { alcDevicePauseSOFT(raw) }
    }

    /// Starts the device again after ``pause()`` (`alcDeviceResumeSOFT`).
    /// - Throws: `.openAL` when the device was closed meanwhile (OpenAL Soft checks the handle
    ///   against its open devices first, so a stale one is an error, never a crash).
    public func resume() throws(SoundstageError) {
        try requirePauseExtension()
        let raw = handle.raw
        try OpenAL.alc(raw, "alcDeviceResumeSOFT") { alcDeviceResumeSOFT(raw) }
    }

    private func requirePauseExtension() throws(SoundstageError) {
        guard alcIsExtensionPresent(handle.raw, "ALC_SOFT_pause_device") != 0 else {
            // alcIsExtensionPresent sets ALC_INVALID_DEVICE for a closed device: read it, so it is not left for the program.
            let error = alcGetError(handle.raw)
            if error != ALC_NO_ERROR {
                throw SoundstageError(.openAL, "the program's OpenAL device is no longer open",
                                      cause: .openAL(function: "alcIsExtensionPresent", error: error, name: OpenAL.alcErrorName(error)))
            }
            throw SoundstageError(.extensionMissing, "the program's OpenAL device cannot pause (no ALC_SOFT_pause_device)")
        }
    }
}
