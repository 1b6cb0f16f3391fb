// ALC_ASA_REVERB_ROOM_TYPE's rooms as EFX reverb presets (OpenAL Soft's efx-presets.h, carried in
// Soundstage's ReverbPreset), chosen for a decay that grows with the room as Apple's list does, and
// ALC_ASA_REVERB_GLOBAL_LEVEL as the reverb's gain.
import COpenAL
import Soundstage
#if canImport(Glibc)
import Glibc
#endif

enum ASARoom {
    /// The preset of each room type, by the type's value (ALC_ASA_REVERB_ROOM_TYPE_SmallRoom = 0, ...).
    static let presets: [ReverbPreset] = [
        .room,               // SmallRoom: 0.40 s
        .prefabSchoolRoom,   // MediumRoom: 0.98 s
        .generic,            // LargeRoom: 1.49 s
        .castleHall,         // MediumHall: 3.14 s
        .concertHall,        // LargeHall: 3.92 s
        .bathroom,           // Plate: 1.49 s, dense and bright
        .stoneRoom,          // MediumChamber: 2.31 s
        .cave,               // LargeChamber: 2.91 s
        .domeSaintPauls,     // Cathedral: 10.48 s
        .woodenLargeRoom,    // LargeRoom2: 2.65 s
        .woodenHall,         // MediumHall2: 3.45 s
        .auditorium,         // MediumHall3: 4.32 s
        .arena,              // LargeHall2: 7.24 s
    ]

    static func isRoomType(_ type: ALint) -> Bool { presets.indices.contains(Int(type)) }

    private static let parameters: [(ALenum, KeyPath<ReverbPreset, Float> & Sendable)] = [
        (AL_EAXREVERB_DENSITY, \.density), (AL_EAXREVERB_DIFFUSION, \.diffusion), (AL_EAXREVERB_GAINHF, \.gainHF),
        (AL_EAXREVERB_GAINLF, \.gainLF), (AL_EAXREVERB_DECAY_TIME, \.decayTime), (AL_EAXREVERB_DECAY_HFRATIO, \.decayHFRatio),
        (AL_EAXREVERB_DECAY_LFRATIO, \.decayLFRatio), (AL_EAXREVERB_REFLECTIONS_GAIN, \.reflectionsGain),
        (AL_EAXREVERB_REFLECTIONS_DELAY, \.reflectionsDelay), (AL_EAXREVERB_LATE_REVERB_GAIN, \.lateReverbGain),
        (AL_EAXREVERB_LATE_REVERB_DELAY, \.lateReverbDelay), (AL_EAXREVERB_ECHO_TIME, \.echoTime),
        (AL_EAXREVERB_ECHO_DEPTH, \.echoDepth), (AL_EAXREVERB_MODULATION_TIME, \.modulationTime),
        (AL_EAXREVERB_MODULATION_DEPTH, \.modulationDepth), (AL_EAXREVERB_AIR_ABSORPTION_GAINHF, \.airAbsorptionGainHF),
        (AL_EAXREVERB_HFREFERENCE, \.hfReference), (AL_EAXREVERB_LFREFERENCE, \.lfReference),
        (AL_EAXREVERB_ROOM_ROLLOFF_FACTOR, \.roomRolloffFactor),
    ]

    /// Loads room `type`'s preset into the EAX reverb `effect`, its gain raised or lowered by
    /// `level` dB (held at EFX's maximum gain of 1: most presets' 0.3162 leaves room for +10 dB).
    static func load(_ type: ALint, level: ALfloat, into effect: ALuint) {
        let preset = presets[Int(type)]
        for (parameter, value) in parameters { alEffectf(effect, parameter, preset[keyPath: value]) }
        alEffectf(effect, AL_EAXREVERB_GAIN, min(1, preset.gain * ALfloat(pow(10, Double(level) / 20))))
        alEffecti(effect, AL_EAXREVERB_DECAY_HFLIMIT, preset.decayHFLimit ? AL_TRUE : AL_FALSE)
    }
}
