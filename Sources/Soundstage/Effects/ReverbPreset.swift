/// The settings of an EAX reverb (`AL_EFFECT_EAXREVERB`): one of the 113 presets of OpenAL
/// Soft's `efx-presets.h` (``ReverbPreset/cave``, ``ReverbPreset/concertHall``, ...; all in
/// ``all``, by name with ``named(_:)``), or a preset with some values changed.
///
/// ```swift
/// var hall = ReverbPreset.concertHall
/// hall.decayTime = 5
/// let zone = try scene.makeReverbZone("nave", preset: hall)
/// ```
///
/// Values outside the EFX ranges (see `efx.h`, e.g. `decayTime` 0.1…20 s) are refused when a zone
/// uses the preset, with an `.invalidArgument` error naming the value.
public struct ReverbPreset: Sendable, Equatable, Codable {
    /// The preset's name in kebab case, e.g. `castle-small-room` (`EFX_REVERB_PRESET_CASTLE_SMALLROOM`).
    public var name: String
    /// Modal density of the late reverb, 0…1.
    public var density: Float
    /// Echo density of the late reverb, 0…1.
    public var diffusion: Float
    /// Master level of the reverb (reflections and late reverb), 0…1.
    public var gain: Float
    /// High-frequency attenuation of the reverb at ``hfReference``, 0…1.
    public var gainHF: Float
    /// Low-frequency attenuation of the reverb at ``lfReference``, 0…1.
    public var gainLF: Float
    /// Reverberation decay time in seconds, 0.1…20.
    public var decayTime: Float
    /// High-frequency to mid-frequency decay time ratio, 0.1…2.
    public var decayHFRatio: Float
    /// Low-frequency to mid-frequency decay time ratio, 0.1…2.
    public var decayLFRatio: Float
    /// Level of the early reflections, 0…3.16.
    public var reflectionsGain: Float
    /// Delay of the first reflection in seconds, 0…0.3.
    public var reflectionsDelay: Float
    /// Direction the early reflections come from (length ≤ 1; zero: all around).
    public var reflectionsPan: Vector3
    /// Level of the late reverb, 0…10.
    public var lateReverbGain: Float
    /// Delay of the late reverb after the first reflection in seconds, 0…0.1.
    public var lateReverbDelay: Float
    /// Direction the late reverb comes from (length ≤ 1; zero: all around).
    public var lateReverbPan: Vector3
    /// Echo period in seconds, 0.075…0.25.
    public var echoTime: Float
    /// Echo depth, 0…1.
    public var echoDepth: Float
    /// Modulation period in seconds, 0.04…4.
    public var modulationTime: Float
    /// Modulation depth, 0…1.
    public var modulationDepth: Float
    /// High-frequency attenuation per metre of the reverb's air, 0.892…1.
    public var airAbsorptionGainHF: Float
    /// Reference high frequency in Hz, 1,000…20,000.
    public var hfReference: Float
    /// Reference low frequency in Hz, 20…1,000.
    public var lfReference: Float
    /// How the reverb's level falls with distance, 0…10 (0: it does not).
    public var roomRolloffFactor: Float
    /// Whether air absorption limits the high-frequency decay time.
    public var decayHFLimit: Bool

    /// The `efx-presets.h` order of values (the generated presets use it).
    init(_ name: String, _ density: Float, _ diffusion: Float, _ gain: Float, _ gainHF: Float, _ gainLF: Float,
         _ decayTime: Float, _ decayHFRatio: Float, _ decayLFRatio: Float, _ reflectionsGain: Float,
         _ reflectionsDelay: Float, _ reflectionsPan: Vector3, _ lateReverbGain: Float, _ lateReverbDelay: Float,
         _ lateReverbPan: Vector3, _ echoTime: Float, _ echoDepth: Float, _ modulationTime: Float,
         _ modulationDepth: Float, _ airAbsorptionGainHF: Float, _ hfReference: Float, _ lfReference: Float,
         _ roomRolloffFactor: Float, _ decayHFLimit: Bool) {
        self.name = name
        self.density = density
        self.diffusion = diffusion
        self.gain = gain
        self.gainHF = gainHF
        self.gainLF = gainLF
        self.decayTime = decayTime
        self.decayHFRatio = decayHFRatio
        self.decayLFRatio = decayLFRatio
        self.reflectionsGain = reflectionsGain
        self.reflectionsDelay = reflectionsDelay
        self.reflectionsPan = reflectionsPan
        self.lateReverbGain = lateReverbGain
        self.lateReverbDelay = lateReverbDelay
        self.lateReverbPan = lateReverbPan
        self.echoTime = echoTime
        self.echoDepth = echoDepth
        self.modulationTime = modulationTime
        self.modulationDepth = modulationDepth
        self.airAbsorptionGainHF = airAbsorptionGainHF
        self.hfReference = hfReference
        self.lfReference = lfReference
        self.roomRolloffFactor = roomRolloffFactor
        self.decayHFLimit = decayHFLimit
    }

    /// The preset called `name` (kebab case, e.g. `cave`, `castle-small-room`; case and `_`
    /// instead of `-` do not matter), or nil.
    public static func named(_ name: String) -> ReverbPreset? {
        let key = name.lowercased().replacing("_", with: "-")
        return byName[key]
    }

    /// The names of every preset, in the header's order.
    public static var allNames: [String] { all.map(\.name) }

    private static let byName: [String: ReverbPreset] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })

    /// The scalar settings by their scene-file names (`decayTime`, `gainHF`, ...), for readers of
    /// settings such as scene files.
    public static let settingNames: [(name: String, value: WritableKeyPath<ReverbPreset, Float> & Sendable)] =
        scalarParameters.map { ($0.key, $0.value) }
}
