import COpenAL

/// The OpenAL side of ``ReverbPreset``: each setting's EFX parameter, and loading a preset into
/// an EAX reverb effect.
extension ReverbPreset {
    /// The scalar settings by their scene-file names, with their OpenAL parameters.
    static let scalarParameters: [(key: String, parameter: ALenum, value: WritableKeyPath<ReverbPreset, Float> & Sendable)] = [
        ("density", AL_EAXREVERB_DENSITY, \.density),
        ("diffusion", AL_EAXREVERB_DIFFUSION, \.diffusion),
        ("gain", AL_EAXREVERB_GAIN, \.gain),
        ("gainHF", AL_EAXREVERB_GAINHF, \.gainHF),
        ("gainLF", AL_EAXREVERB_GAINLF, \.gainLF),
        ("decayTime", AL_EAXREVERB_DECAY_TIME, \.decayTime),
        ("decayHFRatio", AL_EAXREVERB_DECAY_HFRATIO, \.decayHFRatio),
        ("decayLFRatio", AL_EAXREVERB_DECAY_LFRATIO, \.decayLFRatio),
        ("reflectionsGain", AL_EAXREVERB_REFLECTIONS_GAIN, \.reflectionsGain),
        ("reflectionsDelay", AL_EAXREVERB_REFLECTIONS_DELAY, \.reflectionsDelay),
        ("lateReverbGain", AL_EAXREVERB_LATE_REVERB_GAIN, \.lateReverbGain),
        ("lateReverbDelay", AL_EAXREVERB_LATE_REVERB_DELAY, \.lateReverbDelay),
        ("echoTime", AL_EAXREVERB_ECHO_TIME, \.echoTime),
        ("echoDepth", AL_EAXREVERB_ECHO_DEPTH, \.echoDepth),
        ("modulationTime", AL_EAXREVERB_MODULATION_TIME, \.modulationTime),
        ("modulationDepth", AL_EAXREVERB_MODULATION_DEPTH, \.modulationDepth),
        ("airAbsorptionGainHF", AL_EAXREVERB_AIR_ABSORPTION_GAINHF, \.airAbsorptionGainHF),
        ("hfReference", AL_EAXREVERB_HFREFERENCE, \.hfReference),
        ("lfReference", AL_EAXREVERB_LFREFERENCE, \.lfReference),
        ("roomRolloffFactor", AL_EAXREVERB_ROOM_ROLLOFF_FACTOR, \.roomRolloffFactor),
    ]

    /// Loads the preset into the EAX reverb effect `effect` (the context current).
    /// - Throws: `.invalidArgument` naming the first value OpenAL refuses as out of range.
    func load(into effect: ALuint, _ al: borrowing ALCalls) throws(SoundstageError) {
        func refused(_ key: String, _ value: String) -> SoundstageError {
            SoundstageError(.invalidArgument, "reverb preset '\(name)': \(key) = \(value) is outside the EFX range")
        }
        for (key, parameter, path) in Self.scalarParameters {
            let value = self[keyPath: path]
            do { try al.call("alEffectf") { alEffectf(effect, parameter, value) } } catch { throw refused(key, "\(value)") }
        }
        for (key, parameter, pan) in [("reflectionsPan", AL_EAXREVERB_REFLECTIONS_PAN, reflectionsPan),
                                      ("lateReverbPan", AL_EAXREVERB_LATE_REVERB_PAN, lateReverbPan)] {
            var xyz: [ALfloat] = [pan.x, pan.y, pan.z]
            do { try al.call("alEffectfv") { alEffectfv(effect, parameter, &xyz) } } catch { throw refused(key, "\(pan)") }
        }
        al.must("alEffecti(AL_EAXREVERB_DECAY_HFLIMIT)") {
            alEffecti(effect, AL_EAXREVERB_DECAY_HFLIMIT, decayHFLimit ? AL_TRUE : AL_FALSE)
        }
    }
}
