import COpenAL

/// What OpenAL says an OpenAL source is doing (`AL_SOURCE_STATE`).
enum OpenALSourceState {
    case initial, playing, paused, stopped
}

/// The calls made on one OpenAL source — playing, pausing, stopping, its buffers and offsets —
/// each named once. The `must` ones treat an error as an engine bug (counted, never trapping);
/// the throwing ones are calls OpenAL may refuse for a reason the caller reports.
extension ALCalls {
    /// Starts or resumes `name` (`alSourcePlay`); an error is an engine bug.
    func play(_ name: ALuint) {
        must("alSourcePlay") { alSourcePlay(name) }
    }

    /// Starts or resumes `name`, throwing what OpenAL refuses.
    func playOrThrow(_ name: ALuint) throws(SoundstageError) {
        try call("alSourcePlay") { alSourcePlay(name) }
    }

    /// Stops `name`.
    func stop(_ name: ALuint) {
        must("alSourceStop") { alSourceStop(name) }
    }

    /// Stops `name` and returns it to the initial state (`alSourceRewind`): offset 0, and no buffer
    /// of a queue counted as processed, as a new source.
    func rewind(_ name: ALuint) {
        must("alSourceRewind") { alSourceRewind(name) }
    }

    /// Detaches every buffer from `name` (which must be stopped).
    func detachBuffers(from name: ALuint) {
        must("alSourcei(AL_BUFFER)") { alSourcei(name, AL_BUFFER, 0) }
    }

    /// Attaches `buffer` to `name` (replacing its queue).
    func attach(_ buffer: ALuint, to name: ALuint) {
        must("alSourcei(AL_BUFFER)") { alSourcei(name, AL_BUFFER, ALint(bitPattern: buffer)) }
    }

    /// Queues `buffers` on `name`, in order.
    func queue(_ buffers: [ALuint], on name: ALuint) throws(SoundstageError) {
        var buffers = buffers
        try call("alSourceQueueBuffers") { alSourceQueueBuffers(name, ALsizei(buffers.count), &buffers) }
    }

    /// How many buffers are queued on `name`.
    func queuedBufferCount(_ name: ALuint) throws(SoundstageError) -> Int {
        var queued: ALint = 0
        try call("alGetSourcei(AL_BUFFERS_QUEUED)") { alGetSourcei(name, AL_BUFFERS_QUEUED, &queued) }
        return Int(queued)
    }

    /// What `name` is doing.
    func state(of name: ALuint) -> OpenALSourceState {
        var value: ALint = 0
        must("alGetSourcei(AL_SOURCE_STATE)") { alGetSourcei(name, AL_SOURCE_STATE, &value) }
        switch value {
        case AL_PLAYING: return .playing
        case AL_PAUSED: return .paused
        case AL_INITIAL: return .initial
        default: return .stopped
        }
    }

    /// Moves `name` to sample frame `frames` of its queue: a whole frame (`alSourcei`), or, when
    /// `exact`, the fractional position in double precision (`alSourcedSOFT`).
    func setSampleOffset(_ name: ALuint, frames: Double, exact: Bool) throws(SoundstageError) {
        if exact {
            try call("alSourcedSOFT(AL_SAMPLE_OFFSET)") { alSourcedSOFT(name, AL_SAMPLE_OFFSET, frames) }
        } else {
            try call("alSourcei(AL_SAMPLE_OFFSET)") { alSourcei(name, AL_SAMPLE_OFFSET, ALint(clamping: Int(frames.rounded()))) }
        }
    }
}
