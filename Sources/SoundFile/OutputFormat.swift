import SoundstageErrors
import NumberText
/// A container and encoding to write, with a short name for command lines (`wav-pcm16`, `caf-ima4`, ...).
public struct OutputFormat: Sendable, Hashable, CustomStringConvertible {
    /// The container to write.
    public var container: Container
    /// The sample encoding to write.
    public var encoding: SampleEncoding

    /// Creates a format. Not every pair is writable; ``SoundFileWriter`` says which are not.
    public init(container: Container, encoding: SampleEncoding) {
        self.container = container
        self.encoding = encoding
    }

    /// WAV, 16-bit PCM.
    public static let wavPCM16 = OutputFormat(container: .wav, encoding: .pcm16)
    /// WAV, 24-bit PCM.
    public static let wavPCM24 = OutputFormat(container: .wav, encoding: .pcm24)
    /// WAV, 32-bit float: lossless for rendered mixes.
    public static let wavFloat32 = OutputFormat(container: .wav, encoding: .float32)
    /// WAV, IMA ADPCM (4:1, cheap to decode).
    public static let wavIMA4 = OutputFormat(container: .wav, encoding: .imaADPCM)
    /// WAV, Microsoft ADPCM.
    public static let wavMSADPCM = OutputFormat(container: .wav, encoding: .msADPCM)
    /// WAV, µ-law.
    public static let wavULaw = OutputFormat(container: .wav, encoding: .ulaw)
    /// WAV, A-law.
    public static let wavALaw = OutputFormat(container: .wav, encoding: .alaw)
    /// WAV, unsigned 8-bit PCM.
    public static let wavPCM8 = OutputFormat(container: .wav, encoding: .pcmU8)
    /// CAF, 16-bit PCM: the recommended format for uncompressed game sounds.
    public static let cafPCM16 = OutputFormat(container: .caf, encoding: .pcm16)
    /// CAF, Apple IMA4 (4:1, cheap to decode); written by Soundstage's own codec.
    public static let cafIMA4 = OutputFormat(container: .caf, encoding: .imaADPCM)
    /// CAF with iLBC packets laid out as iOS writes `kAudioFormatiLBC` (`'ilbc'`, 8 kHz mono, the
    /// packets' frames and bytes in `desc`): 30 ms frames of 50 bytes (13.33 kbit/s) by default,
    /// 20 ms frames of 38 bytes when the writer's bit rate is above 14 000 (15.2 kbit/s); coded
    /// by Soundstage's own ``ILBCEncoder``.
    public static let cafILBC = OutputFormat(container: .caf, encoding: .ilbc)
    /// CAF, Apple Lossless (16-bit).
    public static let cafALAC = OutputFormat(container: .caf, encoding: .alac16)
    /// CAF, µ-law.
    public static let cafULaw = OutputFormat(container: .caf, encoding: .ulaw)
    /// AIFF, 16-bit PCM.
    public static let aiffPCM16 = OutputFormat(container: .aiff, encoding: .pcm16)
    /// AU, 16-bit PCM.
    public static let auPCM16 = OutputFormat(container: .au, encoding: .pcm16)
    /// FLAC, 16-bit.
    public static let flac = OutputFormat(container: .flac, encoding: .flac)
    /// Ogg Vorbis.
    public static let oggVorbis = OutputFormat(container: .ogg, encoding: .vorbis)
    /// Ogg Opus (sample rates 8, 12, 16, 24 or 48 kHz only).
    public static let opus = OutputFormat(container: .ogg, encoding: .opus)
    /// MP3 (MPEG Layer III).
    public static let mp3 = OutputFormat(container: .mpeg, encoding: .mpegLayer3)
    /// Sony Wave64, 16-bit PCM: WAV without the size limit.
    public static let w64PCM16 = OutputFormat(container: .wav64, encoding: .pcm16)
    /// Sony Wave64, 32-bit float: WAV without the size limit, lossless for rendered mixes.
    public static let w64Float32 = OutputFormat(container: .wav64, encoding: .float32)

    /// M4A (MPEG-4 audio), AAC-LC: what iOS records and plays; written through FFmpeg.
    public static let m4aAAC = OutputFormat(container: .mp4, encoding: .aac)
    /// M4A, Apple Lossless (16-bit); written through FFmpeg.
    public static let m4aALAC = OutputFormat(container: .mp4, encoding: .alac16)
    /// ADTS (raw `.aac`), AAC-LC: no container index, so no gapless length; written through FFmpeg.
    public static let adtsAAC = OutputFormat(container: .adts, encoding: .aac)
    /// CAF with AAC: named so that asking for it gets a clear refusal — FFmpeg's CAF writer
    /// does not take AAC (use ``m4aAAC``).
    public static let cafAAC = OutputFormat(container: .caf, encoding: .aac)

    /// Every named format, by its command-line name.
    public static let named: [(name: String, format: OutputFormat)] = [
        ("wav-pcm16", .wavPCM16), ("wav-pcm24", .wavPCM24), ("wav-f32", .wavFloat32), ("wav-ima4", .wavIMA4),
        ("wav-msadpcm", .wavMSADPCM), ("wav-ulaw", .wavULaw), ("wav-alaw", .wavALaw), ("wav-pcm8", .wavPCM8),
        ("caf-pcm16", .cafPCM16), ("caf-ima4", .cafIMA4), ("caf-alac", .cafALAC), ("caf-ulaw", .cafULaw), ("caf-ilbc", .cafILBC),
        ("aiff-pcm16", .aiffPCM16), ("au-pcm16", .auPCM16), ("flac", .flac), ("ogg", .oggVorbis),
        ("opus", .opus), ("mp3", .mp3), ("w64-pcm16", .w64PCM16), ("w64-f32", .w64Float32),
        ("m4a-aac", .m4aAAC), ("m4a-alac", .m4aALAC), ("adts-aac", .adtsAAC), ("caf-aac", .cafAAC),
    ]

    /// Looks a format up by its command-line name (`wav-pcm16`, `caf-ima4`, `flac`, `ogg`, ...).
    public init?(name: String) {
        guard let entry = Self.named.first(where: { $0.name == name.lowercased() }) else { return nil }
        self = entry.format
    }

    /// The format a file name's extension suggests: `.wav` → wav-pcm16, `.caf` → caf-pcm16, ...
    public init?(pathExtensionOf path: String) {
        let ext = path.split(separator: "/").last.flatMap { name -> Substring? in
            guard let dot = name.lastIndex(of: ".") else { return nil }
            return name[name.index(after: dot)...]
        }?.lowercased()
        switch ext {
        case "wav": self = .wavPCM16
        case "caf": self = .cafPCM16
        case "aif", "aiff", "aifc": self = .aiffPCM16
        case "au", "snd": self = .auPCM16
        case "flac": self = .flac
        case "ogg", "oga": self = .oggVorbis
        case "opus": self = .opus
        case "mp3": self = .mp3
        case "w64": self = .w64PCM16
        case "m4a", "mp4": self = .m4aAAC
        case "aac": self = .adtsAAC
        default: return nil
        }
    }

    /// The most audio data the container holds, in bytes, or nil when its length is not limited
    /// in practice. WAV, AIFF and AU keep sizes in 32-bit fields; libsndfile stops at 2 GiB.
    public var maxDataBytes: Int64? {
        switch container {
        case .wav, .aiff, .au: Int64(Int32.max) - (1 << 20)     // a margin for the header
        default: nil
        }
    }

    /// Bytes a frame takes (an estimate for ADPCM), or nil for codecs whose size varies.
    func bytesPerFrame(channels: Int) -> Double? {
        let perSample: Double? = switch encoding {
        case .pcmS8, .pcmU8, .ulaw, .alaw: 1
        case .pcm16: 2
        case .pcm24: 3
        case .pcm32, .float32: 4
        case .float64: 8
        case .imaADPCM, .msADPCM: 0.5
        default: nil
        }
        return perSample.map { $0 * Double(channels) }
    }

    /// Throws `.tooLarge`, naming formats that can, when `seconds` of `channels`-channel audio
    /// at `sampleRate` cannot fit in this container: checked before anything is written.
    public func checkCapacity(seconds: Double, sampleRate: Int, channels: Int, path: String) throws {
        guard let limit = maxDataBytes, let perFrame = bytesPerFrame(channels: channels) else { return }
        let bytes = seconds * Double(sampleRate) * perFrame
        guard bytes > Double(limit) else { return }
        let fits = Double(limit) / (Double(sampleRate) * perFrame)
        throw SoundstageError(.tooLarge,
                              "\(name) holds at most \(Int(fits)) s of \(channels)-channel \(sampleRate) Hz audio "
                              + "(\((Double(limit) / 1e9).fixed(1)) GB)" + ", and \(Int(seconds.rounded(.up))) s needs "
                              + "\((bytes / 1e9).fixed(1)) GB" + "; write a .w64 or .caf file, or use --format w64-f32, caf-pcm16 or flac",
                              subject: path)
    }

    /// The command-line name, or `container-encoding` for unnamed pairs.
    public var name: String {
        Self.named.first(where: { $0.format == self })?.name ?? "\(container.rawValue)-\(encoding.rawValue)"
    }

    /// The command-line name.
    public var description: String { name }
}
