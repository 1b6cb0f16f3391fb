import Foundation

/// A file type, by its iOS name and uniform type identifier, as `AVAudioPlayer`'s
/// `fileTypeHint:` takes it (`AVFileType.mp3.rawValue`). Soundstage recognises a file by its
/// content, so a hint is never needed, and a wrong one does no harm.
public struct AVFileType: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// MPEG layer 3.
    public static let mp3 = AVFileType("public.mp3")
    /// MPEG-4 audio (AAC or ALAC through FFmpeg).
    public static let m4a = AVFileType("com.apple.m4a-audio")
    /// MPEG-4.
    public static let mp4 = AVFileType("public.mpeg-4")
    /// Core Audio Format.
    public static let caf = AVFileType("com.apple.coreaudio-format")
    /// WAVE.
    public static let wav = AVFileType("com.microsoft.waveform-audio")
    /// AIFF.
    public static let aiff = AVFileType("public.aiff-audio")
    /// AIFF-C.
    public static let aifc = AVFileType("public.aifc-audio")
    /// Sun/NeXT audio.
    public static let au = AVFileType("public.au-audio")
    /// AMR (not decoded by Soundstage).
    public static let amr = AVFileType("org.3gpp.adaptive-multi-rate-audio")
    /// AC-3 (decoded through FFmpeg when it is installed).
    public static let ac3 = AVFileType("public.ac3-audio")
    /// Enhanced AC-3 (through FFmpeg when it is installed).
    public static let eac3 = AVFileType("public.enhanced-ac3-audio")
    /// QuickTime movie (its audio track through FFmpeg).
    public static let mov = AVFileType("com.apple.quicktime-movie")
    /// 3GPP.
    public static let mobile3GPP = AVFileType("public.3gpp")
}

/// The hint's old spelling (`AVFileTypeMPEGLayer3`), as Objective-C-era Swift writes it.
public let AVFileTypeMPEGLayer3 = AVFileType.mp3.rawValue
/// `AVFileTypeAppleM4A`.
public let AVFileTypeAppleM4A = AVFileType.m4a.rawValue
/// `AVFileTypeWAVE`.
public let AVFileTypeWAVE = AVFileType.wav.rawValue
/// `AVFileTypeCoreAudioFormat`.
public let AVFileTypeCoreAudioFormat = AVFileType.caf.rawValue
/// `AVFileTypeAIFF`.
public let AVFileTypeAIFF = AVFileType.aiff.rawValue
