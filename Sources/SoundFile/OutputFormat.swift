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

    /// Every named format, by its command-line name.
    public static let named: [(name: String, format: OutputFormat)] = [
        ("wav-pcm16", .wavPCM16), ("wav-pcm24", .wavPCM24), ("wav-f32", .wavFloat32), ("wav-ima4", .wavIMA4),
        ("wav-msadpcm", .wavMSADPCM), ("wav-ulaw", .wavULaw), ("wav-alaw", .wavALaw), ("wav-pcm8", .wavPCM8),
        ("caf-pcm16", .cafPCM16), ("caf-ima4", .cafIMA4), ("caf-alac", .cafALAC), ("caf-ulaw", .cafULaw),
        ("aiff-pcm16", .aiffPCM16), ("au-pcm16", .auPCM16), ("flac", .flac), ("ogg", .oggVorbis),
        ("opus", .opus), ("mp3", .mp3),
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
        default: return nil
        }
    }

    /// The command-line name, or `container-encoding` for unnamed pairs.
    public var name: String {
        Self.named.first(where: { $0.format == self })?.name ?? "\(container.rawValue)-\(encoding.rawValue)"
    }

    /// The command-line name.
    public var description: String { name }
}
