import COpenAL

/// The OpenAL side of a source's effects (EFX): its direct filter, air absorption and sends.
extension Source {
    /// Sets the direct low-pass (occlusion + obstruction), air absorption and a send to every
    /// zone (level, low-passed by occlusion) on `n`. Nothing while the scene uses no effects.
    static func applyEffects(_ n: ALuint, _ p: Properties, _ sends: [ObjectIdentifier: Float], _ fx: SceneEffects,
                             _ al: borrowing ALCalls) {
        guard fx.inUse else { return }
        let filter = fx.filter
        let filterID = ALint(bitPattern: filter)
        let dryHF = shelfGain(decibels: p.occlusion + p.obstruction)
        al.must("alFilterf(AL_LOWPASS_GAIN)") { alFilterf(filter, AL_LOWPASS_GAIN, 1) }
        al.must("alFilterf(AL_LOWPASS_GAINHF)") { alFilterf(filter, AL_LOWPASS_GAINHF, dryHF) }
        al.must("alSourcei(AL_DIRECT_FILTER)") { alSourcei(n, AL_DIRECT_FILTER, filterID) }
        al.must("alSourcef(AL_AIR_ABSORPTION_FACTOR)") { alSourcef(n, AL_AIR_ABSORPTION_FACTOR, p.airAbsorption) }
        let wetHF = shelfGain(decibels: p.occlusion)
        for index in 0..<fx.sendCount {
            if index < fx.zones.count, let zone = fx.zones[index] {
                let level = sends[ObjectIdentifier(zone)] ?? p.reverbSend
                al.must("alFilterf(AL_LOWPASS_GAIN)") { alFilterf(filter, AL_LOWPASS_GAIN, level) }
                al.must("alFilterf(AL_LOWPASS_GAINHF)") { alFilterf(filter, AL_LOWPASS_GAINHF, wetHF) }
                al.must("alSource3i(AL_AUXILIARY_SEND_FILTER)") {
                    alSource3i(n, AL_AUXILIARY_SEND_FILTER, ALint(bitPattern: zone.state.slot), ALint(index), filterID)
                }
            } else {
                al.must("alSource3i(AL_AUXILIARY_SEND_FILTER)") {
                    alSource3i(n, AL_AUXILIARY_SEND_FILTER, ALint(AL_EFFECTSLOT_NULL), ALint(index), ALint(AL_FILTER_NULL))
                }
            }
        }
    }
}
