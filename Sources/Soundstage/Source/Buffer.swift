import COpenAL
import NIOConcurrencyHelpers
import SoundFile

/// Decoded audio in an OpenAL buffer, shared by any number of sources on its device's scenes.
///
/// Mono buffers are spatialized (position, distance, cone and Doppler apply); buffers with two or
/// more channels play unspatialized, straight to the output channels. The buffer is freed when
/// the last reference goes (sources keep their buffer alive) or when its device closes. It keeps
/// its samples in memory too, so a device migration (a vanished output, ``Device/switchOutput(to:)``)
/// can upload it again.
public final class Buffer: Sendable {
    /// The device the buffer lives on.
    public let device: Device
    /// A name for messages: the file path, or what the caller passed.
    public let name: String?
    /// Channels per frame.
    public let channels: Int
    /// Frames per second of the data.
    public let sampleRate: Int
    /// Number of frames.
    public let frames: Int
    /// The samples, for uploading again after a migration.
    let audio: AudioBuffer
    /// The OpenAL buffer name on the device's current output (0 once freed).
    private let idBox: NIOLockedValueBox<ALuint>
    /// Its levels for metering, computed the first time a metered source plays it.
    private let levelsBox = NIOLockedValueBox<BlockLevels?>(nil)

    /// The buffer's precomputed levels (made once, on first use).
    var levels: BlockLevels {
        levelsBox.withLockedValue { box in
            if let levels = box { return levels }
            let made = BlockLevels(audio.samples, channels: audio.channels)
            box = made
            return made
        }
    }

    /// The OpenAL buffer name on the device's current output.
    var id: ALuint { idBox.withLockedValue { $0 } }

    /// Length in seconds.
    public var duration: Double { Double(frames) / Double(sampleRate) }

    /// Whether sources playing this buffer are positioned in 3D (only mono buffers are).
    public var isSpatialized: Bool { channels == 1 }

    init(device: Device, audio: AudioBuffer, name: String?) throws {
        guard Self.alFormat(channels: audio.channels) != nil else {
            throw SoundstageError(.unsupportedFormat,
                                  "\(audio.channels)-channel audio cannot be played; use 1, 2, 4, 6, 7 or 8 channels",
                                  subject: name)
        }
        guard audio.frames > 0 else {
            throw SoundstageError(.invalidArgument, "the audio has no frames", subject: name)
        }
        guard SampleRateLimits.decoded.contains(audio.sampleRate) else {
            throw SoundstageError(.invalidArgument, "sample rate \(audio.sampleRate) is out of range "
                                  + SampleRateLimits.describe(SampleRateLimits.decoded), subject: name)
        }
        guard audio.samples.count * MemoryLayout<Float>.size < Int(Int32.max) else {
            throw SoundstageError(.tooLarge, "\(audio.samples.count * 4) bytes exceed OpenAL's 2 GiB buffer limit; stream it instead",
                                  subject: name)
        }
        let newID = try Self.upload(audio, name: name, into: device.resourceContext)
        self.device = device
        self.name = name
        self.channels = audio.channels
        self.sampleRate = audio.sampleRate
        self.frames = audio.frames
        self.audio = audio
        self.idBox = NIOLockedValueBox(newID)
        guard device.adopt(self) else {
            Self.delete(newID, in: device.resourceContext)
            idBox.withLockedValue { $0 = 0 }
            throw SoundstageError(.released, "the device is closed", subject: name)
        }
    }

    deinit {
        device.forget(self)
    }

    /// Records the name after a migration re-uploaded the samples (device use only).
    func replaceID(_ id: ALuint) { idBox.withLockedValue { $0 = id } }

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
                alDeleteBuffers(1, &newID)
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
