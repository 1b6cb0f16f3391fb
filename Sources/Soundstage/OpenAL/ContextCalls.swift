import COpenAL

/// The calls a scene makes on its context as a whole — its physics, batches of changes,
/// starting sources together, making and deleting OpenAL sources — each named once.
extension ALCalls {
    /// Holds every change from now until ``processUpdates()`` (`alDeferUpdatesSOFT`).
    func deferUpdates() {
        must("alDeferUpdatesSOFT") { alDeferUpdatesSOFT() }
    }

    /// Applies the held changes at once (`alProcessUpdatesSOFT`).
    func processUpdates() {
        must("alProcessUpdatesSOFT") { alProcessUpdatesSOFT() }
    }

    /// Starts `names` together, on the same sample (`alSourcePlayv`).
    func playTogether(_ names: [ALuint]) {
        guard !names.isEmpty else { return }
        must("alSourcePlayv") { names.withUnsafeBufferPointer { alSourcePlayv(ALsizei($0.count), $0.baseAddress) } }
    }

    /// Sets the context's distance model.
    func setDistanceModel(_ model: DistanceModel) {
        must("alDistanceModel") { alDistanceModel(model.alValue) }
    }

    /// Sets the context's Doppler factor.
    func setDopplerFactor(_ factor: Float) {
        must("alDopplerFactor") { alDopplerFactor(factor) }
    }

    /// Sets the context's speed of sound.
    func setSpeedOfSound(_ speed: Float) {
        must("alSpeedOfSound") { alSpeedOfSound(speed) }
    }

    /// Makes one OpenAL source.
    func makeSource() throws(SoundstageError) -> ALuint {
        var name: ALuint = 0
        try call("alGenSources") { alGenSources(1, &name) }
        return name
    }

    /// Stops and deletes `names` on the way out (whatever OpenAL says, they are gone).
    func deleteSources(_ names: [ALuint]) {
        freeing {
            names.withUnsafeBufferPointer { names in
                alSourceStopv(ALsizei(names.count), names.baseAddress)
                alDeleteSources(ALsizei(names.count), names.baseAddress)
            }
        }
    }
}

/// A context attribute list (`ALC_FREQUENCY`, value, ..., 0), for code outside this folder.
typealias ALContextAttributes = [ALCint]
