
// Opening devices: the desktop stream, OpenAL's own output, the loopback renderer.
extension Device {
    // MARK: Opening

    /// Opens the system's default output device (`alcOpenDevice(NULL)`).
    ///
    /// - Parameters:
    ///   - hrtf: `true` to request HRTF, `false` to forbid it, nil for OpenAL's default.
    ///   - reverbZones: how many reverb zones a scene may hold (0...4), see ``defaultReverbZones``.
    ///   - idleTimeout: seconds without a sound (plus the longest reverb tail) after which the
    ///     device pauses (`alcDevicePauseSOFT`: OpenAL Soft's mixer stops, its stream corks) until
    ///     the next sound; 0 never (see ``DesktopOutputOptions/idleTimeout``), 0...3600.
    /// - Throws: `.noOutputDevice` when none can be opened — on a machine without a sound card
    ///   OpenAL Soft does not fall back. Use ``loopback(sampleRate:layout:hrtf:hrtfName:updateFrames:)``
    ///   to render offline instead, or set `ALSOFT_DRIVERS=null` for a silent real-time device.
    ///
    /// ALSA and OpenAL Soft print lines on stderr while probing for a sound card that is not
    /// there; a program that wants them hidden wraps the call in
    /// ``Soundstage/silencingStandardError(_:)`` (the library never redirects stderr itself).
    public static func openDefault(hrtf: Bool? = nil, reverbZones: Int = defaultReverbZones, idleTimeout: Double = 2) throws -> Device {
        try open(name: nil, hrtf: hrtf, reverbZones: reverbZones, idleTimeout: idleTimeout)
    }

    /// Opens the output device called `name` (see ``outputDeviceNames()``); the options as
    /// ``openDefault(hrtf:reverbZones:idleTimeout:)``'s.
    public static func open(named name: String, hrtf: Bool? = nil, reverbZones: Int = defaultReverbZones,
                            idleTimeout: Double = 2) throws -> Device {
        try open(name: name, hrtf: hrtf, reverbZones: reverbZones, idleTimeout: idleTimeout)
    }

    static func open(name: String?, hrtf: Bool?, reverbZones: Int, idleTimeout: Double) throws -> Device {
        try validateReverbZones(reverbZones)
        guard idleTimeout.isFinite, (0...3_600).contains(idleTimeout) else {
            throw SoundstageError(.invalidArgument, "idle timeout \(idleTimeout) s is outside 0...3600 (0: never rest)")
        }
        guard let handle = DeviceHandle.openOutput(name) else {
            let what = name.map { "the output device '\($0)'" } ?? "the default output device"
            throw SoundstageError(.noOutputDevice,
                                  "cannot open \(what): no sound card or audio server is available. "
                                  + "Render offline with Device.loopback(...) (the CLI does this by itself), "
                                  + "or set ALSOFT_DRIVERS=null for a silent device",
                                  subject: name, cause: OpenAL.noDeviceOpened)
        }
        return try Device(handle: handle, kind: .output, sampleRate: 0, layout: .stereo,
                          hrtf: hrtf, hrtfID: nil, updateFrames: 0, reverbZones: reverbZones, idleTimeout: idleTimeout)
    }

    /// Opens the best output there is: Soundstage's own stream on the desktop server when one
    /// answers (``openDesktop(_:)``), else OpenAL Soft's own output (ALSA).
    ///
    /// - Parameters:
    ///   - backend: `.automatic` tries the desktop server, then OpenAL; the others only that one.
    ///   - desktop: how to open the desktop stream (application name, role, latency, server).
    /// - Throws: `.noOutputDevice` when nothing opens (render to a file instead); `.audioServer`
    ///   when a server answers but refuses the stream.
    public static func openOutput(backend: OutputBackend = .automatic, desktop: DesktopOutputOptions = DesktopOutputOptions())
        throws -> Device {
        switch backend {
        case .desktop:
            return try openDesktop(desktop)
        case .openAL:
            return try openDefault(hrtf: desktop.hrtf, reverbZones: desktop.reverbZones, idleTimeout: desktop.idleTimeout)
        case .automatic:
            do {
                return try openDesktop(desktop)
            } catch let error as SoundstageError where error.code == .noOutputDevice {
                return try openDefault(hrtf: desktop.hrtf, reverbZones: desktop.reverbZones, idleTimeout: desktop.idleTimeout)
            }
        }
    }

    /// Opens Soundstage's own playback stream on the desktop audio server — PulseAudio, or
    /// PipeWire through pipewire-pulse — and renders the mix into it on a thread of its own.
    ///
    /// Unlike OpenAL Soft's PulseAudio backend, the stream follows the default sink, carries on
    /// (at the same offsets) when its sink is pulled, names the game and its `media.role`, uses
    /// the latency in `options` (20 ms by default), pauses when the server asks
    /// (``OutputEvent/pauseRequested``) and plays out every tail before closing (``drain(timeout:)``).
    /// - Throws: `.noOutputDevice` when no server answers; `.audioServer` when it refuses the
    ///   stream; `.invalidArgument` for a latency outside 0.005...0.5 s or a bad format.
    public static func openDesktop(_ options: DesktopOutputOptions = DesktopOutputOptions()) throws -> Device {
        guard SampleRateLimits.mix.contains(options.sampleRate) else {
            throw SoundstageError(.invalidArgument, "sample rate \(options.sampleRate) is outside \(SampleRateLimits.describe(SampleRateLimits.mix))")
        }
        try validateUpdateFrames(options.updateFrames, sampleRate: options.sampleRate)
        try validateReverbZones(options.reverbZones)
        let output = try DesktopOutput(options: options, sampleRate: options.sampleRate, channels: options.layout.channelCount)
        let handle = try openLoopbackHandle()
        let update = options.updateFrames ?? max(1, options.sampleRate / 200)
        let device = try Device(handle: handle, kind: .desktop, sampleRate: options.sampleRate,
                                layout: options.layout, hrtf: options.hrtf, hrtfID: nil, updateFrames: update,
                                reverbZones: options.reverbZones, desktop: output)
        output.start(rendering: device)
        return device
    }

    /// Opens an offline renderer (ALC_SOFT_loopback) that mixes float samples into memory,
    /// deterministically and as fast as the CPU allows.
    ///
    /// - Parameters:
    ///   - sampleRate: output frames per second.
    ///   - layout: output channels; HRTF needs `.stereo`.
    ///   - hrtf: `true` to request HRTF (binaural) mixing, `false` to forbid it, nil for OpenAL's default.
    ///   - hrtfName: a specific HRTF from ``DeviceInfo/hrtfNames``.
    ///   - updateFrames: frames between engine updates (completion checks); default 10 ms.
    ///   - reverbZones: how many reverb zones a scene may hold (0...4), see ``defaultReverbZones``.
    public static func loopback(sampleRate: Int = 48_000, layout: ChannelLayout = .stereo, hrtf: Bool? = false,
                                hrtfName: String? = nil, updateFrames: Int? = nil,
                                reverbZones: Int = defaultReverbZones) throws -> Device {
        guard SampleRateLimits.mix.contains(sampleRate) else {
            throw SoundstageError(.invalidArgument, "loopback sample rate \(sampleRate) is outside \(SampleRateLimits.describe(SampleRateLimits.mix))")
        }
        try validateUpdateFrames(updateFrames, sampleRate: sampleRate)
        try validateReverbZones(reverbZones)
        let handle = try openLoopbackHandle()
        guard handle.canRender(sampleRate: sampleRate, layout: layout) else {
            handle.close()
            throw SoundstageError(.invalidArgument, "the loopback device cannot render \(layout.rawValue) at \(sampleRate) Hz")
        }
        var hrtfID: Int?
        if let hrtfName {
            let names = hrtfNames(handle.raw)
            guard let index = names.firstIndex(of: hrtfName) else {
                handle.close()
                throw SoundstageError(.invalidArgument, "no HRTF named '\(hrtfName)'; available: \(names.joined(separator: ", "))")
            }
            hrtfID = index
        }
        let update = updateFrames ?? max(1, sampleRate / 100)
        return try Device(handle: handle, kind: .loopback, sampleRate: sampleRate, layout: layout,
                          hrtf: hrtfName != nil ? true : hrtf, hrtfID: hrtfID, updateFrames: update,
                          reverbZones: reverbZones)
    }

    /// How many reverb zones a scene may hold unless a device is opened with another count: 4.
    ///
    /// Each zone a scene may hold is an auxiliary send on every OpenAL source, and OpenAL Soft
    /// pays for the sends in every mix whether a zone uses them or not: 4 sends instead of
    /// OpenAL's default 2 cost about 8 % more render CPU with 256 moving sources
    /// (`soundstage-bench`, docs/benchmarks.md). A game with fewer zones opens its device with
    /// fewer (`reverbZones: 0` when it has none).
    public static let defaultReverbZones = 4

    /// The reverb zone counts a device accepts.
    public static let reverbZoneRange = 0...4

    static func validateReverbZones(_ count: Int) throws {
        guard reverbZoneRange.contains(count) else {
            throw SoundstageError(.invalidArgument, "reverbZones \(count) is outside \(reverbZoneRange.lowerBound)...\(reverbZoneRange.upperBound)")
        }
    }

    /// An update interval must be at least one frame and at most a second (0 would never advance).
    static func validateUpdateFrames(_ frames: Int?, sampleRate: Int) throws {
        guard let frames else { return }
        guard frames >= 1, frames <= sampleRate else {
            throw SoundstageError(.invalidArgument, "updateFrames \(frames) is outside 1...\(sampleRate) (one second)")
        }
    }
}
