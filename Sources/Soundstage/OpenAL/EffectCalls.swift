import COpenAL

/// The EFX calls a scene makes for its reverb zones and filters, each named once.
extension ALCalls {
    /// Makes an auxiliary effect slot.
    func makeEffectSlot() throws(SoundstageError) -> ALuint {
        var slot: ALuint = 0
        try call("alGenAuxiliaryEffectSlots") { alGenAuxiliaryEffectSlots(1, &slot) }
        return slot
    }

    /// Parks a slot no zone uses any more: no effect (its state, and anything it held, is
    /// dropped) and no gain, ready for the scene's next zone. Slots are never deleted while their
    /// context lives: OpenAL Soft 1.19.1 leaves a NULL hole in the context's slot list for a
    /// deleted slot, and `alcCreateContext` (any new scene on the device) dereferences it while
    /// it re-initializes the device's contexts (`UpdateDeviceParams`): a crash. The context's
    /// destruction frees its slots.
    func parkEffectSlot(_ slot: ALuint) {
        must("alAuxiliaryEffectSloti(AL_EFFECTSLOT_EFFECT)") { alAuxiliaryEffectSloti(slot, AL_EFFECTSLOT_EFFECT, AL_EFFECT_NULL) }
        must("alAuxiliaryEffectSlotf(AL_EFFECTSLOT_GAIN)") { alAuxiliaryEffectSlotf(slot, AL_EFFECTSLOT_GAIN, 0) }
    }

    /// Makes the scene's scratch objects: a low-pass filter and an EAX reverb effect.
    func makeLowpassAndReverb() throws(SoundstageError) -> (filter: ALuint, effect: ALuint) {
        var filter: ALuint = 0, effect: ALuint = 0
        try call("alGenFilters") { alGenFilters(1, &filter) }
        must("alFilteri(AL_FILTER_TYPE)") { alFilteri(filter, AL_FILTER_TYPE, AL_FILTER_LOWPASS) }
        do throws(SoundstageError) {
            try call("alGenEffects") { alGenEffects(1, &effect) }
        } catch {
            freeing { alDeleteFilters(1, &filter) }
            throw error
        }
        must("alEffecti(AL_EFFECT_TYPE)") { alEffecti(effect, AL_EFFECT_TYPE, AL_EFFECT_EAXREVERB) }
        return (filter, effect)
    }

    /// Deletes the scratch filter and effect on the way out.
    func deleteLowpassAndReverb(filter: ALuint, effect: ALuint) {
        var filter = filter, effect = effect
        freeing {
            alDeleteEffects(1, &effect)
            alDeleteFilters(1, &filter)
        }
    }

    /// Copies `effect` (loaded with a preset) into `slot`.
    func load(_ effect: ALuint, into slot: ALuint) {
        must("alAuxiliaryEffectSloti(AL_EFFECTSLOT_EFFECT)") { alAuxiliaryEffectSloti(slot, AL_EFFECTSLOT_EFFECT, ALint(bitPattern: effect)) }
    }

    /// Drops what a slot's effect holds (its delay lines and filters, after a non-finite sample
    /// poisoned them): OpenAL Soft makes a new effect state only when the slot's effect type
    /// changes, so the slot goes to no effect; the caller loads the effect again.
    func clearEffectState(of slot: ALuint) {
        must("alAuxiliaryEffectSloti(AL_EFFECTSLOT_EFFECT)") { alAuxiliaryEffectSloti(slot, AL_EFFECTSLOT_EFFECT, AL_EFFECT_NULL) }
    }

    /// Sets a slot's output gain.
    func setGain(_ gain: Float, ofSlot slot: ALuint) {
        must("alAuxiliaryEffectSlotf(AL_EFFECTSLOT_GAIN)") { alAuxiliaryEffectSlotf(slot, AL_EFFECTSLOT_GAIN, gain) }
    }

    /// Disconnects send `index` of OpenAL source `name` from any slot.
    func clearSend(_ index: Int, of name: ALuint) {
        must("alSource3i(AL_AUXILIARY_SEND_FILTER)") {
            alSource3i(name, AL_AUXILIARY_SEND_FILTER, AL_EFFECTSLOT_NULL, ALint(index), AL_FILTER_NULL)
        }
    }
}

extension Device {
    /// Whether the device has ALC_EXT_EFX, and how many auxiliary sends a source gets.
    var effectSends: (available: Bool, sends: Int) {
        let device = handle.raw
        guard alcIsExtensionPresent(device, "ALC_EXT_EFX") != 0 else { return (false, 0) }
        var sends: ALCint = 0
        alcGetIntegerv(device, ALC_MAX_AUXILIARY_SENDS, 1, &sends)
        return (true, Int(sends))
    }
}
