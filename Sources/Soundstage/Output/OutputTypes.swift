#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif

/// Which output a device plays on.
public enum OutputBackend: String, Sendable, Codable, CaseIterable {
    /// The desktop audio server if one answers, else OpenAL Soft's own backends (ALSA); the
    /// caller renders to a file when neither opens.
    case automatic
    /// Soundstage's own libpulse stream on PulseAudio, or PipeWire through pipewire-pulse
    /// (``Device/openDesktop(_:)``).
    case desktop
    /// OpenAL Soft's own output (ALSA, or its PulseAudio backend) (``Device/openDefault(hrtf:)``).
    case openAL
}

/// What a stream's audio is, for the desktop server's policy (`media.role`): `module-role-cork`
/// pauses other streams while a `phone` stream plays, ducking modules lower `music`, and so on.
public struct MediaRole: RawRepresentable, Hashable, Sendable, Codable {
    /// The `media.role` property's value.
    public let rawValue: String
    /// Creates a role from its property value.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A game's scenes (the default).
    public static let game = MediaRole(rawValue: "game")
    /// Short event sounds: UI clicks, alerts (what system sounds use).
    public static let event = MediaRole(rawValue: "event")
    /// Music.
    public static let music = MediaRole(rawValue: "music")
    /// A voice call; the server may pause other streams while it plays.
    public static let phone = MediaRole(rawValue: "phone")
}

/// How Soundstage's own stream on the desktop server is opened (``Device/openDesktop(_:)``).
public struct DesktopOutputOptions: Sendable, Equatable {
    /// `application.name`: what pavucontrol and the server show.
    public var applicationName: String
    /// `application.id`, e.g. `org.example.MyGame`.
    public var applicationID: String
    /// `media.name`: the stream's own name.
    public var streamName: String
    /// `media.role`: `game` for scenes, `event` for system sounds.
    public var role: MediaRole
    /// The latency to aim for, from `play()` to the ear, in seconds (0.005...0.5). The server may
    /// grant a little more; ``OutputStatus/latency`` reads back what it reports.
    public var latency: Double
    /// The server to connect to, in libpulse's syntax (`unix:/run/user/1000/pulse/native`); nil
    /// for libpulse's default (`$PULSE_SERVER`, then the user's runtime directory).
    public var server: String?
    /// A sink to play on; nil follows the server's default sink wherever it goes.
    public var sink: String?
    /// Mix rate (Hz).
    public var sampleRate: Int
    /// Channel layout.
    public var layout: ChannelLayout
    /// `true` to mix binaurally (HRTF), `false` not to, nil for OpenAL's default.
    public var hrtf: Bool?
    /// Frames between engine updates (completion checks, fades); default 5 ms.
    public var updateFrames: Int?
    /// How many reverb zones a scene may hold (0...4; ``Device/defaultReverbZones``): the
    /// auxiliary sends each OpenAL source gets. Each costs mixing time whether used or not.
    public var reverbZones: Int
    /// Seconds of silence after which the output rests (0...3600; 0 never rests; default 2):
    /// once nothing plays, every tail has died away, nothing is scheduled within this time and
    /// the mix is not being recorded, the stream is corked (the server may suspend the sink) and
    /// the render thread sleeps, using no CPU. A play, a scheduled start coming due or a mix
    /// recording wakes it; the device's clock counts on through the rest.
    public var idleTimeout: Double

    /// Options with the process's name as the application, the `game` role and 20 ms of latency.
    public init(applicationName: String = ProcessInfo.processInfo.processName, applicationID: String? = nil,
                streamName: String? = nil, role: MediaRole = .game, latency: Double = 0.020, server: String? = nil,
                sink: String? = nil, sampleRate: Int = 48_000, layout: ChannelLayout = .stereo, hrtf: Bool? = nil,
                updateFrames: Int? = nil, reverbZones: Int = Device.defaultReverbZones, idleTimeout: Double = 2) {
        self.applicationName = applicationName
        self.applicationID = applicationID ?? applicationName
        self.streamName = streamName ?? applicationName
        self.role = role
        self.latency = latency
        self.server = server
        self.sink = sink
        self.sampleRate = sampleRate
        self.layout = layout
        self.hrtf = hrtf
        self.updateFrames = updateFrames
        self.reverbZones = reverbZones
        self.idleTimeout = idleTimeout
    }
}

/// Something the desktop server did to Soundstage's stream (``Device/addOutputObserver(_:)``).
/// Route changes come as ``RouteChange``s; these are the rest.
public enum OutputEvent: Sendable, Equatable {
    /// The server asked the stream to pause (`PA_STREAM_EVENT_REQUEST_CORK`, sent by
    /// `module-role-cork` when a `phone` stream starts). Sessions are interrupted.
    case pauseRequested
    /// The server asked the stream to play again (`PA_STREAM_EVENT_REQUEST_UNCORK`).
    case resumeRequested
    /// The user set the stream's volume (linear, 1 = unchanged) or mute, e.g. in pavucontrol.
    /// Soundstage reports it and never sets it back.
    case volumeChanged(volume: Float, muted: Bool)
    /// The stream ran out of audio; `count` is the total so far.
    case underrun(count: Int)
    /// The connection to the server was lost (it stopped or crashed); the engine waits, with its
    /// clock stopped, and reconnects when a server answers again.
    case serverLost(reason: String)
    /// A server answers again and the stream plays on.
    case serverReconnected
}

/// The state of a device's output (``Device/outputStatus``).
public struct OutputStatus: Sendable, Equatable, Codable {
    /// `desktop`, `openAL` or `loopback`.
    public var backend: String
    /// The server's name and version (`pulseaudio 16.1`, `PulseAudio (on PipeWire 0.3.65)`), or
    /// OpenAL's device name.
    public var server: String
    /// The sink the stream plays on now, if known.
    public var sink: String?
    /// The latency Soundstage asked for (seconds), if it chose one.
    public var targetLatency: Double?
    /// The latency the server reports for the stream now (seconds): queued audio plus the
    /// sink's own latency (`pa_stream_get_latency`; `ALC_DEVICE_LATENCY_SOFT` on OpenAL outputs).
    public var latency: Double?
    /// Times the stream ran out of audio while it played (a queue drained before a rest or a
    /// pause runs out as asked, and is not counted).
    public var underruns: Int
    /// The volume the user set on the stream (linear), 1 when untouched.
    public var volume: Float
    /// Whether the user muted the stream.
    public var muted: Bool
    /// Whether the stream is paused: by the server's request, or because no session may sound.
    public var paused: Bool
    /// Whether the stream is connected (false while waiting for a vanished server).
    public var connected: Bool
    /// Whether the output rests because nothing plays (``DesktopOutputOptions/idleTimeout``): its
    /// stream corked, its render thread asleep until something plays.
    public var resting: Bool = false
    /// How many times the output has rested since it opened.
    public var rests: Int = 0
}
