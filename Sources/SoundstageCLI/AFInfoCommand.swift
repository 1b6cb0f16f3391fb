import ArgumentParser
import AudioToolbox
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// `soundstage afinfo [-b] FILE...`: what Apple's `afinfo` prints about audio files, read through
/// Soundstage's Audio File Services, so asset scripts written for macOS run with the command's name
/// changed (docs/cli.md).
struct AFInfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "afinfo",
        abstract: "Describe audio files as Apple's afinfo does: type, data format, duration, packets, bit rate.",
        discussion: """
            Options as afinfo's: -b (brief: one line a file), -h (this help). The files are read \
            through Audio File Services (WAVE, AIFF, AIFC, CAF, M4A, MP3, ADTS). Exit status 1 when \
            a file cannot be read (the others are still described), 64 for a usage error.
            """)

    @Argument(parsing: .captureForPassthrough, help: "[-b] FILE...")
    var arguments: [String] = []

    func run() throws {
        var brief = false
        var files: [String] = []
        var options = true
        for argument in arguments {
            if options && argument == "--" { options = false; continue }
            if options && argument.hasPrefix("-") && argument.count > 1 {
                switch argument {
                case "-b", "--brief": brief = true
                case "-h", "--help": print(Self.helpMessage()); return
                default:
                    Terminal.writeLine("soundstage afinfo: unknown option '\(argument)' (afinfo -h lists them)")
                    throw ExitCode(64)
                }
                continue
            }
            files.append(argument)
        }
        guard !files.isEmpty else {
            Terminal.writeLine("soundstage afinfo: no file given (usage: soundstage afinfo [-b] FILE...)")
            throw ExitCode(64)
        }
        var failed = false
        for path in files {
            do throws(Failure) {
                print(try Self.describe(path, brief: brief), terminator: "")
            } catch {
                Terminal.writeLine("soundstage afinfo: \(path): \(error.message)")
                failed = true
            }
        }
        if failed { throw ExitCode.failure }
    }

    /// Why a file could not be described.
    struct Failure: Error {
        let message: String
    }

    /// afinfo's report of the file at `path`.
    static func describe(_ path: String, brief: Bool) throws(Failure) -> String {
        var fileID: AudioFileID?
        let url = URL(fileURLWithPath: path)
        let status = AudioFileOpenURL(url as CFURL, .readPermission, 0, &fileID)
        guard status == noErr, let file = fileID else {
            throw Failure(message: "AudioFileOpen failed: \(StreamDescriptionText.explain(status))")
        }
        defer { AudioFileClose(file) }
        let type = value(file, kAudioFilePropertyFileFormat, AudioFileTypeID(0)) ?? 0
        let format = value(file, kAudioFilePropertyDataFormat, AudioStreamBasicDescription()) ?? AudioStreamBasicDescription()
        let duration = value(file, kAudioFilePropertyEstimatedDuration, Float64(0)) ?? 0
        if brief {
            return "\(path): \(StreamDescriptionText.code(type)), \(StreamDescriptionText.describe(format)), "
                + "\(String(format6: duration)) sec\n"
        }
        var lines = ["File:           \(path)", "File type ID:   \(codeText(type))", "Num Tracks:     1", "----",
                     "Data format:    \(StreamDescriptionText.describe(format))"]
        if let layout = value(file, kAudioFilePropertyChannelLayout, AudioChannelLayout()) {
            lines.append("                Channel layout: tag 0x\(String(layout.mChannelLayoutTag, radix: 16, uppercase: true))"
                         + (layout.mChannelLayoutTag == kAudioChannelLayoutTag_UseChannelBitmap
                            ? ", bitmap 0x\(String(layout.mChannelBitmap.rawValue, radix: 16, uppercase: true))" : ""))
        } else {
            lines.append("                no channel layout.")
        }
        lines.append("estimated duration: \(String(format6: duration)) sec")
        if let table = value(file, kAudioFilePropertyPacketTableInfo, AudioFilePacketTableInfo()) {
            lines.append("audio \(table.mNumberValidFrames) valid frames + \(table.mPrimingFrames) priming + "
                         + "\(table.mRemainderFrames) remainder = \(table.mNumberValidFrames + Int64(table.mPrimingFrames) + Int64(table.mRemainderFrames))")
        }
        lines.append("audio bytes: \(value(file, kAudioFilePropertyAudioDataByteCount, UInt64(0)) ?? 0)")
        lines.append("audio packets: \(value(file, kAudioFilePropertyAudioDataPacketCount, UInt64(0)) ?? 0)")
        lines.append("bit rate: \(value(file, kAudioFilePropertyBitRate, UInt32(0)) ?? 0) bits per second")
        lines.append("packet size upper bound: \(value(file, kAudioFilePropertyPacketSizeUpperBound, UInt32(0)) ?? 0)")
        lines.append("maximum packet size: \(value(file, kAudioFilePropertyMaximumPacketSize, UInt32(0)) ?? 0)")
        lines.append("audio data file offset: \(value(file, kAudioFilePropertyDataOffset, Int64(0)) ?? 0)")
        lines.append((value(file, kAudioFilePropertyIsOptimized, UInt32(0)) ?? 0) != 0 ? "optimized" : "not optimized")
        if let depth = value(file, kAudioFilePropertySourceBitDepth, Int32(0)) {
            lines.append("source bit depth: \(format.mFormatFlags & kAudioFormatFlagIsFloat != 0 ? "F" : "I")\(depth)")
        }
        lines.append("----")
        return lines.joined(separator: "\n") + "\n"
    }

    /// A fixed-size property, or nil when the file does not have it.
    private static func value<T: BitwiseCopyable>(_ file: AudioFileID, _ id: AudioFilePropertyID, _ initial: T) -> T? {
        var result = initial
        var size = UInt32(MemoryLayout<T>.size)
        return AudioFileGetProperty(file, id, &size, &result) == noErr ? result : nil
    }

    /// A file type as afinfo prints it: the code's characters, unquoted.
    private static func codeText(_ type: AudioFileTypeID) -> String {
        let text = StreamDescriptionText.code(type)
        return text.hasPrefix("'") ? String(text.dropFirst().dropLast()) : text
    }
}

extension String {
    /// `value` with six decimals, as afinfo prints a duration.
    init(format6 value: Double) {
        let scaled = (value * 1_000_000).rounded()
        guard scaled.isFinite, abs(scaled) < 9e18 else {
            self = String(value)
            return
        }
        let whole = Int64(scaled) / 1_000_000, fraction = abs(Int64(scaled) % 1_000_000)
        let digits = String(fraction)
        self = (value < 0 && whole == 0 ? "-" : "") + String(whole) + "." + String(repeating: "0", count: 6 - digits.count) + digits
    }
}
