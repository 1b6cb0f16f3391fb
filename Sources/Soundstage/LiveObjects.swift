import Synchronization

/// How many OpenAL objects Soundstage holds: devices, contexts (one per scene, plus one
/// resource context per device), buffers and sources. All zero once everything is released.
public struct LiveObjectCounts: Sendable, Equatable, CustomStringConvertible {
    /// Open `ALCdevice`s.
    public var devices = 0
    /// Live `ALCcontext`s.
    public var contexts = 0
    /// Live OpenAL buffers.
    public var buffers = 0
    /// Live OpenAL sources (playing, paused or pooled for reuse).
    public var sources = 0

    /// Creates counts.
    public init(devices: Int = 0, contexts: Int = 0, buffers: Int = 0, sources: Int = 0) {
        self.devices = devices
        self.contexts = contexts
        self.buffers = buffers
        self.sources = sources
    }

    /// Whether every count is zero.
    public var isZero: Bool { self == LiveObjectCounts() }

    /// e.g. `devices 1, contexts 2, buffers 3, sources 4`.
    public var description: String {
        "devices \(devices), contexts \(contexts), buffers \(buffers), sources \(sources)"
    }
}

/// Process-wide counters of live OpenAL objects, updated where objects are created and freed.
enum LiveObjects {
    static let devices = Atomic<Int>(0)
    static let contexts = Atomic<Int>(0)
    static let buffers = Atomic<Int>(0)
    static let sources = Atomic<Int>(0)

    static var snapshot: LiveObjectCounts {
        LiveObjectCounts(devices: devices.load(ordering: .relaxed), contexts: contexts.load(ordering: .relaxed),
                         buffers: buffers.load(ordering: .relaxed), sources: sources.load(ordering: .relaxed))
    }
}

/// Process-wide facts about Soundstage's OpenAL objects.
public enum Soundstage {
    /// The OpenAL objects alive in this process, across all devices. Use
    /// ``Device/liveObjects`` for one device when other code may be creating objects concurrently.
    public static var liveObjects: LiveObjectCounts { LiveObjects.snapshot }
}
