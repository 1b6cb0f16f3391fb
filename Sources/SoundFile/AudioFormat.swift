/// The container (file type) an audio file uses.
public enum Container: String, Sendable, Codable, CaseIterable {
    /// RIFF WAVE (`.wav`), including WAVE_FORMAT_EXTENSIBLE.
    case wav
    /// Apple/SGI AIFF or AIFF-C (`.aif`, `.aiff`).
    case aiff
    /// Sun/NeXT AU (`.au`, `.snd`).
    case au
    /// Apple Core Audio Format (`.caf`).
    case caf
    /// Native FLAC (`.flac`).
    case flac
    /// Xiph Ogg (`.ogg`, `.oga`, `.opus`).
    case ogg
    /// An MPEG audio stream (`.mp3`).
    case mpeg
    /// Sony Wave64 or RF64: 64-bit variants of WAV.
    case wav64
    /// MPEG-4 / QuickTime (`.m4a`, `.mp4`, `.mov`), read and written through FFmpeg.
    case mp4
    /// Raw AAC with ADTS headers (`.aac`), read through FFmpeg.
    case adts
    /// Another container libsndfile reads (PAF, SVX, NIST, VOC, ...).
    case other

    /// The usual file name extension, without the dot.
    public var fileExtension: String {
        switch self {
        case .wav: "wav"
        case .aiff: "aiff"
        case .au: "au"
        case .caf: "caf"
        case .flac: "flac"
        case .ogg: "ogg"
        case .mpeg: "mp3"
        case .wav64: "w64"
        case .mp4: "m4a"
        case .adts: "aac"
        case .other: "raw"
        }
    }
}

/// How samples are encoded inside the container.
public enum SampleEncoding: String, Sendable, Codable, CaseIterable {
    /// Signed 8-bit linear PCM.
    case pcmS8
    /// Unsigned 8-bit linear PCM (8-bit WAV).
    case pcmU8
    /// Signed 16-bit linear PCM.
    case pcm16
    /// Signed 24-bit linear PCM.
    case pcm24
    /// Signed 32-bit linear PCM.
    case pcm32
    /// 32-bit IEEE float.
    case float32
    /// 64-bit IEEE float.
    case float64
    /// G.711 µ-law.
    case ulaw
    /// G.711 A-law.
    case alaw
    /// IMA ADPCM (in WAV: Microsoft's DVI layout; in CAF: Apple's `ima4`).
    case imaADPCM
    /// Microsoft ADPCM.
    case msADPCM
    /// GSM 6.10.
    case gsm610
    /// Apple Lossless, 16-bit.
    case alac16
    /// Apple Lossless, 20-bit.
    case alac20
    /// Apple Lossless, 24-bit.
    case alac24
    /// Apple Lossless, 32-bit.
    case alac32
    /// FLAC, 16 or 24 bits (the depth is not reported separately).
    case flac
    /// Ogg Vorbis.
    case vorbis
    /// Ogg Opus.
    case opus
    /// MPEG-1 Layer I.
    case mpegLayer1
    /// MPEG-1 Layer II.
    case mpegLayer2
    /// MPEG Layer III (MP3).
    case mpegLayer3
    /// MPEG-4 AAC: LC, HE-AAC (SBR) or HE-AAC v2 (SBR + PS); ``CodecDetails/profile`` says which.
    case aac
    /// iLBC (RFC 3951): 8 kHz mono speech in 20 ms (38-byte) or 30 ms (50-byte) frames.
    case ilbc
    /// Another encoding libsndfile decodes.
    case other

    /// Whether a header's frame count can be trusted: PCM-like encodings, whose count libsndfile
    /// derives from the size of the data. FLAC, ALAC and lossy headers only claim a count.
    public var frameCountIsMeasured: Bool {
        switch self {
        case .pcmS8, .pcmU8, .pcm16, .pcm24, .pcm32, .float32, .float64, .ulaw, .alaw, .imaADPCM, .msADPCM: true
        default: false
        }
    }

    /// Whether the encoding is lossy-compressed, so `frames` may be approximate until decoded.
    public var isCompressed: Bool {
        switch self {
        case .vorbis, .opus, .mpegLayer1, .mpegLayer2, .mpegLayer3, .gsm610, .aac, .ilbc: true
        default: false
        }
    }
}

/// What an audio file holds: the counterpart of Core Audio's stream description.
///
/// For compressed encodings (Ogg, MP3) ``frames`` comes from the file's headers and can be
/// approximate; ``SoundFile/readAll()`` reports the exact count it decoded.
public struct AudioFormat: Sendable, Equatable, Codable, CustomStringConvertible {
    /// The container (file type).
    public var container: Container
    /// The sample encoding inside the container.
    public var encoding: SampleEncoding
    /// Frames per second.
    public var sampleRate: Int
    /// Interleaved channels per frame.
    public var channels: Int
    /// Number of frames (one sample per channel each).
    public var frames: Int64

    /// Creates a description.
    public init(container: Container, encoding: SampleEncoding, sampleRate: Int, channels: Int, frames: Int64) {
        self.container = container
        self.encoding = encoding
        self.sampleRate = sampleRate
        self.channels = channels
        self.frames = frames
    }

    /// Length in seconds (`frames / sampleRate`).
    public var duration: Double {
        sampleRate > 0 ? Double(frames) / Double(sampleRate) : 0
    }

    /// e.g. `wav pcm16, 48000 Hz, 2 ch, 96000 frames (2.000 s)`.
    public var description: String {
        let seconds = (duration * 1000).rounded() / 1000
        return "\(container.rawValue) \(encoding.rawValue), \(sampleRate) Hz, \(channels) ch, \(frames) frames (\(seconds) s)"
    }
}

/// What a compressed stream's codec says beyond its ``AudioFormat``: for the files FFmpeg
/// decodes (AAC, HE-AAC, ALAC in MPEG-4, CAF and ADTS).
public struct CodecDetails: Sendable, Equatable, Codable, CustomStringConvertible {
    /// FFmpeg's name of the codec: `aac` or `alac`.
    public var codec: String
    /// The codec profile, e.g. `LC`, `HE-AAC`, `HE-AACv2`; nil when the codec has none.
    public var profile: String?
    /// The stream's bit rate in bits per second, when the file or codec states it.
    public var bitRate: Int?
    /// The encoder's priming frames (its delay) before the audio, trimmed when decoding; nil
    /// when the container does not say (ADTS).
    public var primingFrames: Int64?
    /// The encoder's padding after the audio to fill its last packet, trimmed when decoding;
    /// nil when the container does not say.
    public var remainderFrames: Int64?
    /// Whether the container states the audio's exact length (an MPEG-4 edit list, a CAF
    /// packet table), so decoding is trimmed to it and a loop has no gap. ADTS does not.
    public var gapless: Bool
    /// The library that decodes it and its versions: `FFmpeg (libavformat 59.27.100, ...)`.
    public var decoder: String

    /// Creates a description.
    public init(codec: String, profile: String?, bitRate: Int?, primingFrames: Int64?, remainderFrames: Int64?,
                gapless: Bool, decoder: String) {
        self.codec = codec
        self.profile = profile
        self.bitRate = bitRate
        self.primingFrames = primingFrames
        self.remainderFrames = remainderFrames
        self.gapless = gapless
        self.decoder = decoder
    }

    /// `aac LC, 128 kb/s, priming 1024, remainder 128, gapless`.
    public var description: String {
        var parts = [profile.map { "\(codec) \($0)" } ?? codec]
        if let bitRate { parts.append("\((bitRate + 500) / 1000) kb/s") }
        parts.append("priming " + (primingFrames.map(String.init) ?? "not stated"))
        parts.append("remainder " + (remainderFrames.map(String.init) ?? "not stated"))
        parts.append(gapless ? "gapless" : "not gapless (the container does not state the length)")
        return parts.joined(separator: ", ")
    }
}
