#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif

/// What a device's mix looks like at one moment: every scene's listener, sources, groups and
/// reverb zones, the voices real and virtual, the meters, the render's work and the output's
/// state. Taken by ``Device/mixSnapshot(meters:)`` for the live view (and anything else that
/// wants to draw or log the mix); `Codable`, so it goes to a browser as JSON as it is.
public struct MixSnapshot: Sendable, Codable, Equatable {
    /// The device's mix time (seconds of audio mixed).
    public var time: Double
    /// The device's sample rate.
    public var sampleRate: Int
    /// The render's work so far (``Device/renderLoad``): two snapshots give its share of a core.
    public var busySeconds: Double
    /// Seconds of audio the render mixed (the other half of ``busySeconds``'s ratio).
    public var audioSeconds: Double
    /// The output: backend, server, sink, underruns, the user's volume.
    public var output: OutputStatus
    /// The output's levels since the previous snapshot (nil when output metering is off).
    public var outputLevels: Levels?
    /// The device's scenes, in the order they were made.
    public var scenes: [SceneSnapshot]

    /// Levels per channel in dBFS (−160: silence), from a ``LevelMeter``.
    public struct Levels: Sendable, Codable, Equatable {
        /// RMS level of each channel.
        public var average: [Float]
        /// Peak level of each channel.
        public var peak: [Float]

        /// The levels of `meter`.
        public init(_ meter: LevelMeter) {
            average = meter.averagePower
            peak = meter.peakPower
        }
    }
}

/// One scene in a ``MixSnapshot``.
public struct SceneSnapshot: Sendable, Codable, Equatable {
    /// An identifier that stays the same for the scene's life.
    public var id: Int
    /// The listener: where it is and where it faces.
    public var listener: ListenerSnapshot
    /// The distance model's name (``DistanceModel``).
    public var distanceModel: String
    /// How many sources may play for real (OpenAL sources).
    public var sourceBudget: Int
    /// Whether the scene manages voices (``Scene/virtualizesVoices``).
    public var virtualizesVoices: Bool
    /// Playing sources with an OpenAL source.
    public var realVoices: Int
    /// Playing sources the voice manager keeps virtual.
    public var virtualVoices: Int
    /// Voices stolen so far (``VoiceStatistics/steals``).
    public var steals: Int
    /// The scene's levels since the previous snapshot (nil when its metering is off).
    public var levels: MixSnapshot.Levels?
    /// The scene's groups.
    public var groups: [GroupSnapshot]
    /// The reverb zones.
    public var zones: [ZoneSnapshot]
    /// The sources that play, are paused or are virtual (stopped ones are not in the mix).
    public var sources: [SourceSnapshot]
    /// The latest voice events (stolen, virtualized, realized), oldest first, at most 16.
    public var recentVoiceEvents: [VoiceEventSnapshot]
}

/// The listener in a ``SceneSnapshot``.
public struct ListenerSnapshot: Sendable, Codable, Equatable {
    /// Where it is.
    public var position: Vector3
    /// Where it faces.
    public var at: Vector3
    /// Its up vector.
    public var up: Vector3
    /// Its gain, ducking included.
    public var gain: Float
}

/// A group in a ``SceneSnapshot``.
public struct GroupSnapshot: Sendable, Codable, Equatable {
    /// Its name.
    public var name: String
    /// Its parent's name.
    public var parent: String?
    /// Its own gain.
    public var gain: Float
    /// The gain its sources get from it and its parents (ducking and fades included).
    public var effectiveGain: Float
    /// Whether it is muted.
    public var muted: Bool
    /// Whether it is paused.
    public var paused: Bool
    /// Its levels since the previous snapshot (nil when its metering is off).
    public var levels: MixSnapshot.Levels?
}

/// A reverb zone in a ``SceneSnapshot``.
public struct ZoneSnapshot: Sendable, Codable, Equatable {
    /// Its name.
    public var name: String
    /// Its preset's name.
    public var preset: String
    /// `everywhere`, `sphere` or `box`.
    public var shape: String
    /// A sphere's center, or a box's lower corner.
    public var center: Vector3?
    /// A sphere's radius.
    public var radius: Float?
    /// A box's upper corner.
    public var upper: Vector3?
    /// How far outside the region it fades out.
    public var fade: Float
    /// How much of it the listener hears now, 0…1.
    public var weight: Float
}

/// A source in a ``SceneSnapshot``.
public struct SourceSnapshot: Sendable, Codable, Equatable {
    /// An identifier that stays the same for the source's life.
    public var id: Int
    /// What it plays: its buffer's or stream's file (or the name its buffer was given).
    public var file: String?
    /// `playing` or `paused`.
    public var state: String
    /// Whether the voice manager keeps it virtual (silent, its clock running).
    public var isVirtual: Bool
    /// Why it is virtual, in words (nil when real).
    public var virtualReason: String?
    /// Its group's name.
    public var group: String?
    /// Where it is (relative to the listener when ``headRelative``).
    public var position: Vector3
    /// Its velocity.
    public var velocity: Vector3
    /// Its own gain.
    public var gain: Float
    /// Its pitch, its groups' included.
    public var pitch: Float
    /// Whether it loops.
    public var looping: Bool
    /// Whether its position is relative to the listener.
    public var headRelative: Bool
    /// Whether it is positioned in 3D (mono).
    public var spatialized: Bool
    /// Whether it streams from a file.
    public var streaming: Bool
    /// Its distance model parameters.
    public var referenceDistance: Float
    /// Beyond this distance it gets no quieter.
    public var maxDistance: Float
    /// How fast it gets quieter with distance.
    public var rolloffFactor: Float
    /// Its voice priority.
    public var priority: Int
    /// How loud it reaches the listener (``Source/audibility``), in dB (−160: inaudible).
    public var level: Float
}

/// A voice event in a ``SceneSnapshot``.
public struct VoiceEventSnapshot: Sendable, Codable, Equatable {
    /// `stolen`, `virtualized` or `realized`.
    public var kind: String
    /// The source's ``SourceSnapshot/id``.
    public var source: Int
    /// Its file.
    public var file: String?
    /// The mix time it happened.
    public var time: Double
}

/// The meters a device turned on for its snapshots (``Device/metersForSnapshots``).
struct SnapshotMetering {
    var on = false
    var output = false
    var scenes: [Device.WeakScene] = []
    var groups: [Scene.WeakGroup] = []
}

extension Device {
    /// Whether snapshots have meters to read: true turns on the output's meter and every scene's
    /// and group's (those made later too, at the next snapshot); false turns off again those it
    /// turned on — meters the game turned on itself stay on. Metering costs render time (see
    /// docs/benchmarks.md), so the live view turns this on only while a browser watches.
    /// Reading a meter resets it: a game that reads the same meters meanwhile shares their
    /// readings with the snapshots.
    public var metersForSnapshots: Bool {
        get { snapshotMetering.withLockedValue { $0.on } }
        set {
            if newValue {
                snapshotMetering.withLockedValue { $0.on = true }
                turnOnSnapshotMeters()
            } else {
                let taken = snapshotMetering.withLockedValue { metering -> SnapshotMetering in
                    defer { metering = SnapshotMetering() }
                    return metering
                }
                if taken.output { isOutputMeteringEnabled = false }
                taken.scenes.forEach { $0.scene?.isMeteringEnabled = false }
                taken.groups.forEach { $0.group?.isMeteringEnabled = false }
            }
        }
    }

    /// Turns on the meters that are off, noting them (``metersForSnapshots`` is on).
    private func turnOnSnapshotMeters() {
        let scenes = liveScenes().filter { !$0.isClosed }
        var turned = SnapshotMetering(on: true)
        if !isOutputMeteringEnabled {
            isOutputMeteringEnabled = true
            turned.output = true
        }
        for scene in scenes {
            if !scene.isMeteringEnabled {
                scene.isMeteringEnabled = true
                turned.scenes.append(WeakScene(scene: scene, id: ObjectIdentifier(scene)))
            }
            for group in scene.withState({ state, _ in state.groups.compactMap(\.group) }) where !group.isMeteringEnabled {
                group.isMeteringEnabled = true
                turned.groups.append(Scene.WeakGroup(group: group))
            }
        }
        snapshotMetering.withLockedValue { metering in
            metering.output = metering.output || turned.output
            metering.scenes += turned.scenes
            metering.groups += turned.groups
        }
    }

    /// A snapshot of the mix now: each scene read under its lock once, no OpenAL call, no
    /// allocation on the render's path. With `meters`, it also reads (and so resets) the
    /// output's, scenes' and groups' meters where their metering is on. Without `details` it is
    /// quicker: virtual voices carry no ``SourceSnapshot/virtualReason``, and reverb zones and
    /// recent voice events are left out (what changes every frame is all there).
    public func mixSnapshot(meters: Bool = true, details: Bool = true) -> MixSnapshot {
        if meters && metersForSnapshots { turnOnSnapshotMeters() }
        let load = renderLoad
        let scenes = liveScenes().filter { !$0.isClosed }
        return MixSnapshot(time: mixTime, sampleRate: sampleRate, busySeconds: load.busySeconds, audioSeconds: load.audioSeconds,
                           output: outputStatus, outputLevels: meters ? outputLevels().map(MixSnapshot.Levels.init) : nil,
                           scenes: scenes.map { $0.snapshot(meters: meters, details: details) })
    }
}
