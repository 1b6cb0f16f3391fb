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
    private let idBox: NIOLockedValueBox<ALName>
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
    var id: ALName { idBox.withLockedValue { $0 } }

    /// Length in seconds.
    public var duration: Double { Double(frames) / Double(sampleRate) }

    /// Whether sources playing this buffer are positioned in 3D (only mono buffers are).
    public var isSpatialized: Bool { channels == 1 }

    /// - Parameter checkingSamples: false only in tests that must get a poisoned sample past
    ///   the check, to prove the output's own guard.
    init(device: Device, audio: AudioBuffer, name: String?, checkingSamples: Bool = true) throws {
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
        if checkingSamples, let bad = audio.samples.withUnsafeBufferPointer(PlayableSamples.firstUnplayable) {
            throw SoundstageError(.invalidArgument, "sample \(bad.index) is \(bad.value): samples must be finite and within "
                                  + "±\(Int(PlayableSamples.maximumMagnitude))", subject: name)
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
    func replaceID(_ id: ALName) { idBox.withLockedValue { $0 = id } }
}
