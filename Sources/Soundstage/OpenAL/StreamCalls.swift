import COpenAL
import SoundFile

/// An OpenAL sample format (`AL_FORMAT_*`), for code outside this folder.
typealias ALFormat = ALenum

/// The calls a streaming source makes on its queue of buffers, each named once.
extension ALCalls {
    /// Makes `count` OpenAL buffers.
    func makeBuffers(_ count: Int) throws(SoundstageError) -> [ALuint] {
        var ids = [ALuint](repeating: 0, count: count)
        try call("alGenBuffers") { alGenBuffers(ALsizei(count), &ids) }
        return ids
    }

    /// Deletes buffers on the way out (a failure is dropped: they are gone either way).
    func deleteBuffers(_ ids: [ALuint]) {
        freeing { ids.withUnsafeBufferPointer { alDeleteBuffers(ALsizei($0.count), $0.baseAddress) } }
    }

    /// Copies float samples into buffer `id`. A stream's samples come from a file as it plays:
    /// any NaN, infinity or absurd value is made playable here (see ``PlayableSamples``) rather
    /// than failing the stream halfway.
    func fill(_ id: ALuint, format: ALFormat, samples: [Float], sampleRate: Int) throws(SoundstageError) {
        var samples = samples
        if samples.withUnsafeBufferPointer(PlayableSamples.firstUnplayable) != nil {
            _ = samples.withUnsafeMutableBufferPointer { PlayableSamples.sanitize($0) }
        }
        try call("alBufferData") {
            samples.withUnsafeBytes { alBufferData(id, format, $0.baseAddress, ALsizei($0.count), ALsizei(sampleRate)) }
        }
    }

    /// The device of the current context (where buffers made now live).
    var currentDevice: OpaquePointer? { alcGetContextsDevice(alcGetCurrentContext()) }

    /// How many of `name`'s queued buffers have played.
    func processedBufferCount(_ name: ALuint) throws(SoundstageError) -> Int {
        var processed: ALint = 0
        try call("alGetSourcei(AL_BUFFERS_PROCESSED)") { alGetSourcei(name, AL_BUFFERS_PROCESSED, &processed) }
        return Int(processed)
    }

    /// Takes the oldest played buffer off `name`'s queue.
    func unqueueBuffer(from name: ALuint) throws(SoundstageError) -> ALuint {
        var id: ALuint = 0
        try call("alSourceUnqueueBuffers") { alSourceUnqueueBuffers(name, 1, &id) }
        return id
    }

    /// What `name` is doing, throwing when OpenAL cannot say.
    func stateOrThrow(of name: ALuint) throws(SoundstageError) -> OpenALSourceState {
        var value: ALint = 0
        try call("alGetSourcei(AL_SOURCE_STATE)") { alGetSourcei(name, AL_SOURCE_STATE, &value) }
        switch value {
        case AL_PLAYING: return .playing
        case AL_PAUSED: return .paused
        case AL_INITIAL: return .initial
        default: return .stopped
        }
    }
}
