import ArgumentParser
import Soundstage

/// `soundstage reverb-presets`: the reverb presets `--reverb` and scene files accept.
struct ReverbPresetsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reverb-presets",
        abstract: "List the reverb presets (the 113 of OpenAL Soft's efx-presets.h), one name per line.",
        discussion: "Use a name with 'play --reverb', 'run --reverb', 'render --reverb' or a scene file's \"reverb\" zones.")

    @Flag(name: .long, help: "Print every preset's settings as JSON instead.")
    var json = false

    func run() throws {
        if json {
            try Terminal.printJSON(ReverbPreset.all)
        } else {
            for preset in ReverbPreset.all { print(preset.name) }
        }
    }
}

extension ReverbPreset: ExpressibleByArgument {
    /// Parses a preset name such as `cave` or `castle-small-room`.
    public init?(argument: String) {
        guard let preset = ReverbPreset.named(argument) else { return nil }
        self = preset
    }
}

/// The EFX options `play` shares with other commands.
struct EffectOptions: ParsableArguments {
    @Option(name: .long, help: "Play in a reverb preset, e.g. cave, concert-hall (see 'soundstage reverb-presets').")
    var reverb: ReverbPreset?

    @Option(name: .long, parsing: .unconditional, help: "Muffle the sound and its reverb as behind a wall: dB off the high frequencies (-100...0).")
    var occlusion: Float = 0

    @Option(name: .long, parsing: .unconditional, help: "Muffle the direct sound only: dB off the high frequencies (-100...0).")
    var obstruction: Float = 0

    @Option(name: .customLong("air-absorption"), help: "High-frequency loss with distance, 0...10 (1 = real air).")
    var airAbsorption: Float = 0

    func validate() throws {
        guard occlusion.isFinite, (-100...0).contains(occlusion) else { throw ValidationError("--occlusion must be between -100 and 0 dB") }
        guard obstruction.isFinite, (-100...0).contains(obstruction) else { throw ValidationError("--obstruction must be between -100 and 0 dB") }
        guard airAbsorption.isFinite, (0...10).contains(airAbsorption) else { throw ValidationError("--air-absorption must be between 0 and 10") }
    }

    /// How long the reverb rings after the sound (its decay time), or 0.
    var tail: Double { reverb.map { Double($0.decayTime) } ?? 0 }

    /// Adds the reverb zone to `scene`.
    func prepare(_ scene: Scene) throws {
        if let reverb { try scene.makeReverbZone(reverb.name, preset: reverb) }
    }

    /// Sets the source's filters.
    func configure(_ source: Source) {
        if occlusion != 0 { source.occlusion = occlusion }
        if obstruction != 0 { source.obstruction = obstruction }
        if airAbsorption != 0 { source.airAbsorption = airAbsorption }
    }
}
