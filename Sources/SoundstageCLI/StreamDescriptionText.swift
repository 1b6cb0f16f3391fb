import AudioToolbox

// How Apple's command-line tools (afinfo, afconvert) write an AudioStreamBasicDescription and a
// four-character code, so a game's asset scripts that read their output read ours.

enum StreamDescriptionText {
    /// A four-character code as 'abcd' when its bytes are printable, else as a number.
    static func code(_ value: UInt32) -> String {
        let bytes = (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) }
        guard bytes.allSatisfy({ (0x20...0x7E).contains($0) }) else { return String(value) }
        return "'" + String(decoding: bytes, as: UTF8.self) + "'"
    }

    /// A status code as Apple's tools print it ('typ?', or the number) with what it means.
    static func explain(_ status: OSStatus) -> String {
        let meaning: String? = switch status {
        case kAudioFileFileNotFoundError: "no such file"
        case kAudioFilePermissionsError: "permission denied"
        case kAudioFileUnsupportedFileTypeError: "not an audio file type Audio File Services reads"
        case kAudioFileUnsupportedDataFormatError: "a data format not read in this file type"
        case kAudioFileInvalidFileError: "the file is truncated or malformed"
        case kAudio_ParamError: "a bad argument"
        default: nil
        }
        let value = UInt32(bitPattern: status)
        let printable = (0..<4).allSatisfy { (0x20...0x7E).contains(UInt8(truncatingIfNeeded: value >> (24 - 8 * $0))) }
        let code = printable ? code(value) : String(status)
        return meaning.map { "\($0) (\(code))" } ?? "error \(code)"
    }

    /// `2 ch,  44100 Hz, 'lpcm' (0x0000000C) 16-bit little-endian signed integer`, or for a
    /// compressed format its packet sizes, as Core Audio's own descriptions read.
    static func describe(_ d: AudioStreamBasicDescription) -> String {
        let head = pad(String(d.mChannelsPerFrame), 2) + " ch, " + pad(rate(d.mSampleRate), 6) + " Hz, "
            + code(d.mFormatID) + " (0x" + hex(d.mFormatFlags) + ") "
        guard d.mFormatID == kAudioFormatLinearPCM else {
            return head + "\(d.mBitsPerChannel) bits/channel, \(d.mBytesPerPacket) bytes/packet, "
                + "\(d.mFramesPerPacket) frames/packet, \(d.mBytesPerFrame) bytes/frame"
        }
        let flags = d.mFormatFlags
        let isFloat = flags & kAudioFormatFlagIsFloat != 0
        let nonInterleaved = flags & kAudioFormatFlagIsNonInterleaved != 0
        let samples = nonInterleaved ? 1 : max(d.mChannelsPerFrame, 1)
        let container = d.mBytesPerFrame / samples
        var text = "\(d.mBitsPerChannel)-bit"
        if container > 1 { text += flags & kAudioFormatFlagIsBigEndian != 0 ? " big-endian" : " little-endian" }
        if isFloat {
            text += " float"
        } else {
            text += flags & kAudioFormatFlagIsSignedInteger != 0 ? " signed integer" : " unsigned integer"
            let fraction = (flags & kLinearPCMFormatFlagsSampleFractionMask) >> kLinearPCMFormatFlagsSampleFractionShift
            if fraction > 0 { text += " (\(fraction) fractional bits)" }
        }
        if container * 8 != d.mBitsPerChannel && container > 0 {
            text += " in \(container) bytes, " + (flags & kAudioFormatFlagIsAlignedHigh != 0 ? "high-aligned" : "low-aligned")
        }
        if nonInterleaved { text += ", deinterleaved" }
        return head + text
    }

    /// The sample rate without a fraction when it has none.
    static func rate(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }
}
