// ALC_EXT_ASA's state (OpenAL/oalMacOSX_OALExtensions.h): what each context's listener and sources
// were given, and the EFX objects that make it heard on OpenAL Soft: one auxiliary effect slot
// holding an EAX reverb (its effect the reverb when the reverb is on, none when off) and one
// low-pass filter whose settings are copied into each source's direct path and reverb send (EFX
// copies a filter's settings when it is attached, so one filter serves every source).
import COpenAL
import NIOConcurrencyHelpers
#if canImport(Glibc)
import Glibc
#endif

/// What a source of a context was given.
struct ASASource {
    /// ALC_ASA_REVERB_SEND_LEVEL, 0 (dry) … 1 (wet).
    var sendLevel: ALfloat = 0
    /// ALC_ASA_OCCLUSION in dB, -100 … 0.
    var occlusion: ALfloat = 0
    /// ALC_ASA_OBSTRUCTION in dB, -100 … 0.
    var obstruction: ALfloat = 0
}

/// What a context's listener was given, its sources, and the EFX objects made for them.
struct ASAContext {
    var reverbOn = false
    var roomType = ALint(ALC_ASA_REVERB_ROOM_TYPE_LargeRoom)
    var globalLevel: ALfloat = 0
    var quality = ALint(ALC_ASA_REVERB_QUALITY_High)
    var eqGain: ALfloat = 0
    var eqBandwidth: ALfloat = 0
    var eqFrequency: ALfloat = 0
    var sources: [ALuint: ASASource] = [:]
    /// The EFX objects, 0 until first needed.
    var slot: ALuint = 0, effect: ALuint = 0, filter: ALuint = 0

    /// Makes the slot, effect and filter if they are not there (the context current), and loads
    /// the reverb as the listener's settings say.
    /// - Throws: `.invalidOperation` when OpenAL Soft makes no more of them (its error recorded).
    mutating func prepareEffects() throws(ALError) {
        if slot != 0, alIsAuxiliaryEffectSlot(slot) != 0, alIsEffect(effect) != 0, alIsFilter(filter) != 0 { return }
        slot = 0; effect = 0; filter = 0
        alGenAuxiliaryEffectSlots(1, &slot)
        alGenEffects(1, &effect)
        alGenFilters(1, &filter)
        guard slot != 0, effect != 0, filter != 0 else { throw .invalidOperation }
        alEffecti(effect, AL_EFFECT_TYPE, AL_EFFECT_EAXREVERB)
        alFilteri(filter, AL_FILTER_TYPE, AL_FILTER_LOWPASS)
        updateReverb()
        for source in sources.keys where alIsSource(source) != 0 { apply(to: source) }   // made again: see ASARegistry
    }

    /// Loads the room's preset at the global level into the slot, or empties it when the reverb is off.
    func updateReverb() {
        guard slot != 0 else { return }
        if reverbOn {
            ASARoom.load(roomType, level: globalLevel, into: effect)
            alAuxiliaryEffectSloti(slot, AL_EFFECTSLOT_EFFECT, ALint(bitPattern: effect))
        } else {
            alAuxiliaryEffectSloti(slot, AL_EFFECTSLOT_EFFECT, AL_EFFECT_NULL)
        }
    }

    /// Sets `source`'s direct filter and reverb send from what it was given. Occlusion low-passes
    /// both paths, obstruction the direct one only (Apple: occlusion is after the reverb send's tap,
    /// obstruction before); each lowers the level above 5 kHz by its full amount and below by a
    /// quarter of it (occlusion; EAX's default low-frequency ratio) or not at all (obstruction).
    func apply(to source: ALuint) {
        let given = sources[source] ?? ASASource()
        let occluded = decibels(given.occlusion), obstructed = decibels(given.obstruction)
        let low = occluded.squareRoot().squareRoot()   // a quarter of the occlusion's dB
        if given.occlusion == 0, given.obstruction == 0 {
            alSourcei(source, AL_DIRECT_FILTER, AL_FILTER_NULL)
        } else {
            lowPass(gain: low, gainHF: occluded * obstructed / low)
            alSourcei(source, AL_DIRECT_FILTER, ALint(bitPattern: filter))
        }
        if given.sendLevel == 0 {
            alSource3i(source, AL_AUXILIARY_SEND_FILTER, AL_EFFECTSLOT_NULL, 0, AL_FILTER_NULL)
        } else {
            lowPass(gain: given.sendLevel * low, gainHF: occluded / low)
            alSource3i(source, AL_AUXILIARY_SEND_FILTER, ALint(bitPattern: slot), 0, ALint(bitPattern: filter))
        }
    }

    private func lowPass(gain: ALfloat, gainHF: ALfloat) {
        alFilterf(filter, AL_LOWPASS_GAIN, min(max(gain, 0), 1))
        alFilterf(filter, AL_LOWPASS_GAINHF, min(max(gainHF, 0), 1))
    }

    private func decibels(_ level: ALfloat) -> ALfloat { ALfloat(pow(10, Double(level) / 20)) }
}

/// Every context's ASA state, by the context's address. A context destroyed through
/// <OpenAL/alc.h>'s alcDestroyContext leaves it; one destroyed otherwise leaves a state whose EFX
/// objects `prepareEffects` finds gone and makes again should a new context get its address.
enum ASARegistry {
    private static let contexts = NIOLockedValueBox<[UInt: ASAContext]>([:])

    private static func key(_ context: OpaquePointer) -> UInt { UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(context))) }

    /// Runs `body` on the state of `context` (the current context), under the registry's lock.
    static func withContext<T>(_ context: OpaquePointer, _ body: (inout ASAContext) throws(ALError) -> T) throws(ALError) -> T {
        try contexts.withLockedValue { contexts in
            Result { () throws(ALError) -> T in try body(&contexts[key(context), default: ASAContext()]) }
        }.get()
    }

    /// Takes the state of `context` out of the registry.
    static func remove(_ context: OpaquePointer) -> ASAContext? {
        contexts.withLockedValue { $0.removeValue(forKey: key(context)) }
    }

    /// Forgets what `sources` of `context` were given.
    static func forget(_ sources: [ALuint], of context: OpaquePointer) {
        contexts.withLockedValue { contexts in
            for source in sources { contexts[key(context)]?.sources.removeValue(forKey: source) }
        }
    }
}

/// `alcDestroyContext` through <OpenAL/alc.h>: deletes the ASA effect and filter made for the
/// context (EFX's effects and filters belong to the device and would outlive it), then OpenAL Soft's.
@c @implementation
public func soundstage_alcDestroyContext(_ context: OpaquePointer!) {
    if let context, let state = ASARegistry.remove(context), state.effect != 0 || state.filter != 0 {
        let previous = alcGetThreadContext()
        if alcSetThreadContext(context) != 0 {
            var effect = state.effect, filter = state.filter
            if alIsEffect(effect) != 0 { alDeleteEffects(1, &effect) }
            if alIsFilter(filter) != 0 { alDeleteFilters(1, &filter) }
            _ = alcSetThreadContext(previous)
        }
    }
    COpenAL.alcDestroyContext(context)
}

/// `alDeleteSources` through <OpenAL/al.h>: OpenAL Soft's, and the ASA settings of the sources it
/// deletes are forgotten (OpenAL Soft gives a deleted source's name to the next new one).
@c @implementation
public func soundstage_alDeleteSources(_ n: ALsizei, _ sources: UnsafePointer<ALuint>!) {
    var deleted: [ALuint] = []
    if n > 0, let sources, alcGetCurrentContext() != nil {
        let names = UnsafeBufferPointer(start: sources, count: Int(n))
        if names.allSatisfy({ alIsSource($0) != 0 }) { deleted = Array(names) }   // OpenAL Soft deletes all or none
    }
    COpenAL.alDeleteSources(n, sources)
    if !deleted.isEmpty, let context = alcGetCurrentContext() { ASARegistry.forget(deleted, of: context) }
}
