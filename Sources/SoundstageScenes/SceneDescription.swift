#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif
import Soundstage

/// A timed scene as a scene file describes it (format 1; see docs/scene-format.md): physics,
/// a listener and sources, each optionally moving along a path.
///
/// Load one with ``SceneDescription/load(path:)``; play it with ``SceneRunner``.
public struct SceneDescription: Sendable, Equatable {
    /// The scene-file format version this describes.
    public static let formatVersion = 1

    /// Sound files longer than this (in seconds) stream unless their source says `"stream": false`;
    /// tones longer than this are generated as a loop. Memory then stays bounded by chunks, not
    /// by the file's length.
    public static let streamingThreshold = 30.0

    /// Length of the scene in seconds.
    public var duration: Double
    /// The distance model of every context.
    public var distanceModel: DistanceModel
    /// Scales Doppler shifts; 0 turns them off.
    public var dopplerFactor: Float
    /// Units per second.
    public var speedOfSound: Float
    /// The listener.
    public var listener: ListenerDescription
    /// The sources, in file order.
    public var sources: [SourceDescription]
    /// Reverb zones, at most ``Scene/maxReverbZones`` (4) per context.
    public var reverbZones: [ReverbZoneDescription] = []
    /// The directory relative sound paths resolve against (the scene file's).
    public var baseDirectory: String
    /// The scene file this was loaded from, for messages.
    public var file: String?

    /// Creates a description.
    public init(duration: Double, distanceModel: DistanceModel = .inverseClamped, dopplerFactor: Float = 1,
                speedOfSound: Float = 343.3, listener: ListenerDescription = ListenerDescription(),
                sources: [SourceDescription], baseDirectory: String = ".") {
        self.duration = duration
        self.distanceModel = distanceModel
        self.dopplerFactor = dopplerFactor
        self.speedOfSound = speedOfSound
        self.listener = listener
        self.sources = sources
        self.baseDirectory = baseDirectory
    }

    /// The names of the contexts the sources ask for, `world` first when present.
    public var contextNames: [String] {
        var names: [String] = []
        for source in sources where !names.contains(source.context) { names.append(source.context) }
        return names.sorted { ($0 == "world" ? 0 : 1, $0) < ($1 == "world" ? 0 : 1, $1) }
    }
}

/// The listener of a scene file.
public struct ListenerDescription: Sendable, Equatable {
    /// Where the listener starts (and stays, without a path).
    public var position = Vector3.zero
    /// Facing direction.
    public var at = Vector3(0, 0, -1)
    /// Up direction.
    public var up = Vector3(0, 1, 0)
    /// Master gain of the world context.
    public var gain: Float = 1
    /// An explicit velocity; nil means "follow from the path".
    public var velocity: Vector3?
    /// Movement over time.
    public var path: Motion?

    /// Creates a listener description.
    public init(position: Vector3 = .zero, at: Vector3 = Vector3(0, 0, -1), up: Vector3 = Vector3(0, 1, 0),
                gain: Float = 1, velocity: Vector3? = nil, path: Motion? = nil) {
        self.position = position
        self.at = at
        self.up = up
        self.gain = gain
        self.velocity = velocity
        self.path = path
    }
}

/// What a source plays.
public enum SoundDescription: Sendable, Equatable {
    /// A sound file, relative to the scene file or absolute.
    case file(String)
    /// A generated tone.
    case tone(Tone)
}

/// One source of a scene file.
public struct SourceDescription: Sendable, Equatable {
    /// A name for messages and for the API.
    public var name: String
    /// What it plays.
    public var sound: SoundDescription
    /// The context it plays in: `world` (default) or any other name, e.g. `ui`; each name is its
    /// own OpenAL context, mixed together.
    public var context = "world"
    /// Whether the sound loops until `stop`.
    public var loop = false
    /// Linear gain.
    public var gain: Float = 1
    /// Pitch multiplier.
    public var pitch: Float = 1
    /// When it starts, in seconds.
    public var start: Double = 0
    /// When it stops, in seconds; nil plays to its end (or the scene's end when looping).
    public var stop: Double?
    /// `AL_REFERENCE_DISTANCE`.
    public var referenceDistance: Float = 1
    /// `AL_ROLLOFF_FACTOR`.
    public var rolloff: Float = 1
    /// `AL_MAX_DISTANCE`.
    public var maxDistance: Float = .greatestFiniteMagnitude
    /// Where it starts (and stays, without a path).
    public var position = Vector3.zero
    /// An explicit velocity; nil means "follow from the path".
    public var velocity: Vector3?
    /// Facing direction, for cones.
    public var direction: Vector3?
    /// Directional cone.
    public var cone: Source.Cone?
    /// Position relative to the listener.
    public var headRelative = false
    /// Movement over time.
    public var path: Motion?
    /// ``Source/occlusion`` in dB (−100…0).
    public var occlusion: Float = 0
    /// ``Source/obstruction`` in dB (−100…0).
    public var obstruction: Float = 0
    /// ``Source/airAbsorption`` (0…10).
    public var airAbsorption: Float = 0
    /// ``Source/reverbSend`` (0…1).
    public var reverbSend: Float = 1
    /// Whether its file streams (``Scene/makeStreamingSource(file:options:)``) instead of being
    /// decoded into a buffer; nil decides by length: a file longer than
    /// ``SceneDescription/streamingThreshold`` streams.
    public var stream: Bool?

    /// Creates a source description.
    public init(name: String, sound: SoundDescription) {
        self.name = name
        self.sound = sound
    }
}

/// A reverb zone of a scene file (``Scene/makeReverbZone(_:preset:region:gain:)``).
public struct ReverbZoneDescription: Sendable, Equatable {
    /// The zone's name (unique in the file).
    public var name: String
    /// Its settings: a named preset, possibly with values changed.
    public var preset: ReverbPreset
    /// Where the listener hears it.
    public var region: ReverbRegion = .everywhere
    /// Its level, 0…1.
    public var gain: Float = 1
    /// The context whose sources send to it (default `world`).
    public var context = "world"

    /// Creates a zone description.
    public init(name: String, preset: ReverbPreset, region: ReverbRegion = .everywhere, gain: Float = 1,
                context: String = "world") {
        self.name = name
        self.preset = preset
        self.region = region
        self.gain = gain
        self.context = context
    }
}
