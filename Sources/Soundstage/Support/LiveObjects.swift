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
    /// Live EFX auxiliary effect slots (one per reverb zone).
    public var effectSlots = 0
    /// Live EFX effects (one per scene using effects).
    public var effects = 0
    /// Live EFX filters (one per scene using effects).
    public var filters = 0

    /// Creates counts.
    public init(devices: Int = 0, contexts: Int = 0, buffers: Int = 0, sources: Int = 0,
                effectSlots: Int = 0, effects: Int = 0, filters: Int = 0) {
        self.devices = devices
        self.contexts = contexts
        self.buffers = buffers
        self.sources = sources
        self.effectSlots = effectSlots
        self.effects = effects
        self.filters = filters
    }

    /// Whether every count is zero.
    public var isZero: Bool { self == LiveObjectCounts() }

    /// e.g. `devices 1, contexts 2, buffers 3, sources 4` (EFX objects when there are any).
    public var description: String {
        let base = "devices \(devices), contexts \(contexts), buffers \(buffers), sources \(sources)"
        guard effectSlots + effects + filters > 0 else { return base }
        return base + ", effect slots \(effectSlots), effects \(effects), filters \(filters)"
    }
}

/// Process-wide counters of live OpenAL objects, updated where objects are created and freed.
enum LiveObjects {
    static let devices = Atomic<Int>(0)
    static let contexts = Atomic<Int>(0)
    static let buffers = Atomic<Int>(0)
    static let sources = Atomic<Int>(0)
    static let effectSlots = Atomic<Int>(0)
    static let effects = Atomic<Int>(0)
    static let filters = Atomic<Int>(0)

    static var snapshot: LiveObjectCounts {
        LiveObjectCounts(devices: devices.load(ordering: .relaxed), contexts: contexts.load(ordering: .relaxed),
                         buffers: buffers.load(ordering: .relaxed), sources: sources.load(ordering: .relaxed),
                         effectSlots: effectSlots.load(ordering: .relaxed), effects: effects.load(ordering: .relaxed),
                         filters: filters.load(ordering: .relaxed))
    }
}

/// Process-wide facts about Soundstage's OpenAL objects.
public enum Soundstage {
    /// The OpenAL objects alive in this process, across all devices. Use
    /// ``Device/liveObjects`` for one device when other code may be creating objects concurrently.
    public static var liveObjects: LiveObjectCounts { LiveObjects.snapshot }
}
