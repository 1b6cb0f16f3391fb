import COpenAL

/// The OpenAL side of ``Buffer``: uploading samples, deleting, and the sample formats.
extension Buffer {
    /// Creates an OpenAL buffer holding `audio` in `context` (the device's resource context).
    static func upload(_ audio: AudioBuffer, name: String?, into context: ContextHandle) throws(SoundstageError) -> ALuint {
        guard let format = alFormat(channels: audio.channels) else {
            throw SoundstageError(.unsupportedFormat, "\(audio.channels)-channel audio cannot be played", subject: name)
        }
        let bytes = audio.samples.count * MemoryLayout<Float>.size
        var newID: ALuint = 0
        try OpenAL.withContext(context) { al throws(SoundstageError) in
            try al.call("alGenBuffers") { alGenBuffers(1, &newID) }
            do throws(SoundstageError) {
                try al.call("alBufferData") {
                    audio.samples.withUnsafeBytes { raw in
                        alBufferData(newID, format, raw.baseAddress, ALsizei(bytes), ALsizei(audio.sampleRate))
                    }
                }
            } catch {
                al.freeing { alDeleteBuffers(1, &newID) }
                throw SoundstageError(error.code, "OpenAL refused the audio data", subject: name, cause: error.cause)
            }
        }
        LiveObjects.buffers.add(1, ordering: .relaxed)
        return newID
    }

    /// Deletes an OpenAL buffer in `context`.
    static func delete(_ id: ALuint, in context: ContextHandle) {
        var name = id
        try? OpenAL.withContext(context) { al throws(SoundstageError) in
            al.freeing { alDeleteBuffers(1, &name) }
        }
        LiveObjects.buffers.subtract(1, ordering: .relaxed)
    }

    /// The `AL_FORMAT_*32` float format for a channel count (AL_EXT_FLOAT32, AL_EXT_MCFORMATS).
    static func alFormat(channels: Int) -> ALenum? {
        switch channels {
        case 1: AL_FORMAT_MONO_FLOAT32
        case 2: AL_FORMAT_STEREO_FLOAT32
        case 4: AL_FORMAT_QUAD32
        case 6: AL_FORMAT_51CHN32
        case 7: AL_FORMAT_61CHN32
        case 8: AL_FORMAT_71CHN32
        default: nil
        }
    }
}
