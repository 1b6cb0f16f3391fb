import ArgumentParser
import AudioToolbox
import SoundstageErrors
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// `soundstage afconvert [options] INPUT [OUTPUT]`: Apple's `afconvert`, built on Soundstage's
/// Extended Audio File Services as Apple's is, so a game's asset scripts written for macOS run with
/// the command's name changed (docs/cli.md).
struct AFConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "afconvert",
        abstract: "Convert audio files as Apple's afconvert does: file type, data format, rate, channels, bit rate.",
        discussion: """
            Options as afconvert's: -f FILE_FORMAT (caff, m4af, mp4f, m4bf, WAVE, AIFF, AIFC, adts), \
            -d DATA_FORMAT[@RATE][/FLAGS][#FRAMES] (aac, alac, ima4, ulaw, alaw, ilbc (8 kHz mono; #160 for \
            20 ms frames), or PCM as \
            [BE|LE]{F|[U]I}{8|16|24|32|64}, e.g. LEI16, BEF32@48000), -c CHANNELS, -b BIT_RATE, \
            -q CODEC_QUALITY (0-127), -r SRC_QUALITY (0-127), -o OUTPUT, -v, --soundcheck-generate \
            (accepted; no SoundCheck data is written), -hf (file types and their data formats), -hd \
            (data formats), -h. Exit status 1 when a file cannot be converted, 64 for a usage error.
            """)

    @Argument(parsing: .captureForPassthrough, help: "[options] INPUT [OUTPUT]")
    var arguments: [String] = []

    /// A usage error: one stderr line, status 64.
    struct Usage: Error {
        let message: String
    }

    /// A conversion that failed: one stderr line, status 1.
    struct Failure: Error {
        let message: String
    }

    /// What the options ask for.
    struct Options {
        var fileType: AudioFileTypeID?
        var dataFormat: DataFormat?
        var channels: UInt32?
        var bitRate: UInt32?
        var quality: UInt32?
        var srcQuality: UInt32?
        var output: String?
        var verbose = false
        var soundCheck = false
        var files: [String] = []
    }

    func run() throws {
        let options: Options
        do {
            guard let parsed = try Self.parse(arguments) else { return }   // a help was printed
            options = parsed
        } catch let usage as Usage {
            Terminal.writeLine("soundstage afconvert: " + SoundstageError.escapingControlCharacters(usage.message)
                               + " (usage: soundstage afconvert [options] INPUT [OUTPUT]; -h lists the options)")
            throw ExitCode(64)
        }
        if options.soundCheck {
            Terminal.writeLine("soundstage afconvert: note: --soundcheck-generate accepted and ignored (Audio File Services writes no SoundCheck data)")
        }
        do {
            try Self.convert(options)
        } catch let failure as Failure {
            Terminal.writeLine("soundstage afconvert: " + SoundstageError.escapingControlCharacters(failure.message))
            throw ExitCode.failure
        } catch let usage as Usage {
            Terminal.writeLine("soundstage afconvert: " + SoundstageError.escapingControlCharacters(usage.message))
            throw ExitCode(64)
        }
    }

    // MARK: - Options

    /// The options; nil when a help was asked for (and printed).
    static func parse(_ arguments: [String]) throws -> Options? {
        var options = Options()
        var index = 0
        var onlyFiles = false
        func value(_ name: String) throws -> String {
            index += 1
            guard index < arguments.count else { throw Usage(message: "\(name) needs a value") }
            return arguments[index]
        }
        func number(_ name: String, _ range: ClosedRange<UInt32>) throws -> UInt32 {
            let text = try value(name)
            guard let n = UInt32(text), range.contains(n) else { throw Usage(message: "\(name) takes a number in \(range.lowerBound)-\(range.upperBound), not '\(text)'") }
            return n
        }
        while index < arguments.count {
            let argument = arguments[index]
            defer { index += 1 }
            if onlyFiles || !argument.hasPrefix("-") || argument == "-" {
                options.files.append(argument)
                continue
            }
            switch argument {
            case "--": onlyFiles = true
            case "-f", "--file":
                let text = try value(argument)
                guard let type = fileTypes.first(where: { $0.code == text }) else {
                    throw Usage(message: "unknown file format '\(text)' (afconvert -hf lists them)")
                }
                options.fileType = type.id
            case "-d", "--data": options.dataFormat = try DataFormat(parsing: try value(argument))
            case "-c", "--channels": options.channels = try number(argument, 1...8)
            case "-b", "--bitrate": options.bitRate = try number(argument, 1...100_000_000)
            case "-q", "--quality": options.quality = try number(argument, 0...127)
            case "-r", "--src-quality": options.srcQuality = try number(argument, 0...127)
            case "-o": options.output = try value(argument)
            case "-v", "--verbose": options.verbose = true
            case "--soundcheck-generate": options.soundCheck = true
            case "-hf", "--help-formats":
                print(fileFormatsHelp(), terminator: "")
                return nil
            case "-hd", "--help-data":
                print(dataFormatsHelp(), terminator: "")
                return nil
            case "-h", "--help":
                print(helpMessage())
                return nil
            default:
                throw Usage(message: "unknown option '\(argument)'")
            }
        }
        switch options.files.count {
        case 0: throw Usage(message: "no input file given")
        case 1: break
        case 2:
            guard options.output == nil else { throw Usage(message: "two outputs given (-o and a second file)") }
            options.output = options.files.removeLast()
        default: throw Usage(message: "more than one input file given")
        }
        return options
    }

    /// The file types afconvert writes here, by their codes, with a name and extensions.
    static let fileTypes: [(code: String, id: AudioFileTypeID, name: String, extensions: [String])] = [
        ("caff", kAudioFileCAFType, "CAF", ["caf"]),
        ("m4af", kAudioFileM4AType, "Apple MPEG-4 Audio", ["m4a", "m4r"]),
        ("mp4f", kAudioFileMPEG4Type, "MPEG-4 Audio", ["mp4"]),
        ("m4bf", kAudioFileM4BType, "Apple MPEG-4 AudioBooks", ["m4b"]),
        ("WAVE", kAudioFileWAVEType, "WAVE", ["wav", "wave"]),
        ("AIFF", kAudioFileAIFFType, "AIFF", ["aif", "aiff"]),
        ("AIFC", kAudioFileAIFCType, "AIFC", ["aifc", "aiff", "aif"]),
        ("adts", kAudioFileAAC_ADTSType, "AAC ADTS", ["aac", "adts"]),
    ]

    // MARK: - Data formats

    /// A `-d` argument: a codec or a PCM spelling, with an optional rate, flags and frames a packet.
    struct DataFormat {
        enum Kind {
            case coded(AudioFormatID)
            case pcm(float: Bool, signed: Bool, bits: UInt32, bigEndian: Bool?)
        }
        var kind: Kind
        var sampleRate: Double?
        var flags: AudioFormatFlags?
        var framesPerPacket: UInt32?

        /// The codecs afconvert users name, with their four-character codes.
        static let names: [String: AudioFormatID] = [
            "aac": kAudioFormatMPEG4AAC, "aac ": kAudioFormatMPEG4AAC, "alac": kAudioFormatAppleLossless, "ima4": kAudioFormatAppleIMA4,
            "ulaw": kAudioFormatULaw, "alaw": kAudioFormatALaw, "aach": kAudioFormatMPEG4AAC_HE, "aacp": kAudioFormatMPEG4AAC_HE_V2,
            ".mp3": kAudioFormatMPEGLayer3, "flac": kAudioFormatFLAC, "opus": kAudioFormatOpus, "ilbc": kAudioFormatiLBC,
        ]

        init(parsing text: String) throws {
            var body = Substring(text)
            if let hash = body.lastIndex(of: "#") {
                guard let frames = UInt32(body[body.index(after: hash)...]), frames > 0 else { throw Usage(message: "bad frames a packet in '\(text)'") }
                framesPerPacket = frames
                body = body[..<hash]
            }
            if let slash = body.lastIndex(of: "/") {
                guard let value = UInt32(body[body.index(after: slash)...], radix: 16) else { throw Usage(message: "bad format flags in '\(text)' (hexadecimal)") }
                flags = value
                body = body[..<slash]
            }
            if let at = body.lastIndex(of: "@") {
                guard let rate = Double(body[body.index(after: at)...]), rate.isFinite, rate >= 1, rate <= 768_000 else {
                    throw Usage(message: "bad sample rate in '\(text)'")
                }
                sampleRate = rate
                body = body[..<at]
            }
            if let id = Self.names[String(body)] ?? Self.names[String(body).lowercased()] {
                kind = .coded(id)
                return
            }
            // [BE|LE]{F|[U]I}{8|16|24|32|64}
            var rest = body
            var bigEndian: Bool?
            if rest.hasPrefix("BE") { bigEndian = true; rest = rest.dropFirst(2) } else if rest.hasPrefix("LE") { bigEndian = false; rest = rest.dropFirst(2) }
            var float = false, signed = true
            if rest.hasPrefix("F") { float = true; rest = rest.dropFirst() } else if rest.hasPrefix("UI") { signed = false; rest = rest.dropFirst(2) }
            else if rest.hasPrefix("I") { rest = rest.dropFirst() } else if body.count == 4 {
                kind = .coded(body.utf8.reduce(0) { $0 << 8 | UInt32($1) })   // any other four-character code
                return
            } else {
                throw Usage(message: "unknown data format '\(text)' (afconvert -hd lists them)")
            }
            guard let bits = UInt32(rest), (float ? [32, 64] : [8, 16, 24, 32]).contains(bits) else {
                throw Usage(message: "unknown data format '\(text)' (PCM is [BE|LE]{F|[U]I}{8|16|24|32|64}, floats 32 or 64 bits)")
            }
            guard signed || bits == 8 else { throw Usage(message: "unsigned PCM is 8-bit only: '\(text)'") }
            kind = .pcm(float: float, signed: signed, bits: bits, bigEndian: bigEndian)
        }
    }

    /// The output's description from the options and the input's.
    static func outputFormat(_ options: Options, input: AudioStreamBasicDescription, sourceBits: UInt32,
                             fileType: AudioFileTypeID) throws -> AudioStreamBasicDescription {
        // iLBC is 8 kHz mono speech: other input is converted to that unless the options say otherwise.
        let ilbc = { if case .coded(kAudioFormatiLBC) = options.dataFormat?.kind { true } else { false } }()
        let rate = options.dataFormat?.sampleRate ?? (ilbc ? 8_000 : input.mSampleRate)
        let channels = options.channels ?? (ilbc ? 1 : input.mChannelsPerFrame)
        let kind: DataFormat.Kind
        if let given = options.dataFormat?.kind {
            kind = given
        } else if input.mFormatID == kAudioFormatLinearPCM {
            let float = input.mFormatFlags & kAudioFormatFlagIsFloat != 0
            kind = .pcm(float: float, signed: float || input.mFormatFlags & kAudioFormatFlagIsSignedInteger != 0 || input.mBitsPerChannel != 8,
                        bits: input.mBitsPerChannel, bigEndian: nil)
        } else {
            kind = .coded(input.mFormatID)   // decoded and encoded again
        }
        switch kind {
        case .coded(let id):
            var flags = options.dataFormat?.flags ?? 0
            if id == kAudioFormatAppleLossless && options.dataFormat?.flags == nil {
                flags = switch sourceBits {
                case ...16: kAppleLosslessFormatFlag_16BitSourceData
                case ...20: kAppleLosslessFormatFlag_20BitSourceData
                case ...24: kAppleLosslessFormatFlag_24BitSourceData
                default: kAppleLosslessFormatFlag_32BitSourceData
                }
            }
            return AudioStreamBasicDescription(mSampleRate: rate, mFormatID: id, mFormatFlags: flags, mBytesPerPacket: 0,
                                               mFramesPerPacket: options.dataFormat?.framesPerPacket ?? 0, mBytesPerFrame: 0,
                                               mChannelsPerFrame: channels, mBitsPerChannel: 0, mReserved: 0)
        case .pcm(let float, var signed, let bits, let stated):
            // Without BE or LE: the container's own order (WAVE little, AIFF big, CAF and AIFC native).
            let bigEndian = stated ?? (fileType == kAudioFileAIFFType)
            if fileType == kAudioFileWAVEType && bits == 8 { signed = false }   // WAVE's 8-bit samples are unsigned
            var flags: AudioFormatFlags = float ? kAudioFormatFlagIsFloat : (signed ? kAudioFormatFlagIsSignedInteger : 0)
            flags |= kAudioFormatFlagIsPacked
            if bigEndian && bits > 8 { flags |= kAudioFormatFlagIsBigEndian }
            if let extra = options.dataFormat?.flags { flags = extra }
            let bytes = bits / 8 * channels
            return AudioStreamBasicDescription(mSampleRate: rate, mFormatID: kAudioFormatLinearPCM, mFormatFlags: flags, mBytesPerPacket: bytes,
                                               mFramesPerPacket: 1, mBytesPerFrame: bytes, mChannelsPerFrame: channels, mBitsPerChannel: bits, mReserved: 0)
        }
    }

    // MARK: - Converting

    /// Converts as the options say.
    static func convert(_ options: Options) throws {
        let inputPath = options.files[0]
        let fileType: AudioFileTypeID
        if let given = options.fileType {
            fileType = given
        } else if let output = options.output {
            let ext = URL(fileURLWithPath: output).pathExtension.lowercased()
            fileType = fileTypes.first { $0.extensions.contains(ext) }?.id ?? kAudioFileCAFType
        } else {
            fileType = kAudioFileCAFType
        }
        let outputPath: String
        if let output = options.output {
            outputPath = output
        } else {
            // afconvert's own: the input's name with the type's extension, beside it.
            let ext = fileTypes.first { $0.id == fileType }!.extensions[0]
            outputPath = URL(fileURLWithPath: inputPath).deletingPathExtension().appendingPathExtension(ext).path
            guard outputPath != URL(fileURLWithPath: inputPath).path else {
                throw Usage(message: "no output file given, and the input already has the .\(ext) extension")
            }
        }

        // Inputs are regular files (a FIFO would wait for a writer, a directory is no audio).
        var info = stat()
        if stat(inputPath, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
            throw Failure(message: "\(inputPath): not a regular file")
        }
        if let inputReal = realPath(inputPath), inputReal == realPath(outputPath) {
            throw Failure(message: "\(outputPath): the output is the input (it would be erased before it is read)")
        }
        var opened: ExtAudioFileRef?
        var status = ExtAudioFileOpenURL(URL(fileURLWithPath: inputPath) as CFURL, &opened)
        guard status == noErr, let input = opened else { throw Failure(message: "\(inputPath): ExtAudioFileOpenURL failed: \(explain(status))") }
        defer { ExtAudioFileDispose(input) }
        var inputFormat = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        ExtAudioFileGetProperty(input, kExtAudioFileProperty_FileDataFormat, &size, &inputFormat)
        var sourceBits: UInt32 = 16
        var audioFile: AudioFileID?
        size = UInt32(MemoryLayout<AudioFileID?>.size)
        if ExtAudioFileGetProperty(input, kExtAudioFileProperty_AudioFile, &size, &audioFile) == noErr, let audioFile {
            var depth: Int32 = 0
            size = 4
            if AudioFileGetProperty(audioFile, kAudioFilePropertySourceBitDepth, &size, &depth) == noErr, depth > 0 { sourceBits = UInt32(depth) }
        }
        if inputFormat.mFormatID == kAudioFormatAppleLossless {
            sourceBits = [kAppleLosslessFormatFlag_20BitSourceData: 20, kAppleLosslessFormatFlag_24BitSourceData: 24,
                          kAppleLosslessFormatFlag_32BitSourceData: 32][inputFormat.mFormatFlags] ?? 16
        }
        var outputFormat = try outputFormat(options, input: inputFormat, sourceBits: sourceBits, fileType: fileType)

        // Both sides meet in Float64 (which holds every sample of every format exactly), at the
        // output's rate and channels: the input's converter resamples and maps channels.
        var client = AudioStreamBasicDescription(mSampleRate: outputFormat.mSampleRate, mFormatID: kAudioFormatLinearPCM,
                                                 mFormatFlags: kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked,
                                                 mBytesPerPacket: 8 * outputFormat.mChannelsPerFrame, mFramesPerPacket: 1,
                                                 mBytesPerFrame: 8 * outputFormat.mChannelsPerFrame,
                                                 mChannelsPerFrame: outputFormat.mChannelsPerFrame, mBitsPerChannel: 64, mReserved: 0)
        let clientSize = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        status = ExtAudioFileSetProperty(input, kExtAudioFileProperty_ClientDataFormat, clientSize, &client)
        guard status == noErr else { throw Failure(message: "\(inputPath): cannot be decoded here: \(explain(status))") }
        if let quality = options.srcQuality, let converter = converter(of: input) {
            var value = quality
            _ = AudioConverterSetProperty(converter, kAudioConverterSampleRateConverterQuality, 4, &value)
            var config: UnsafeRawPointer?
            _ = ExtAudioFileSetProperty(input, kExtAudioFileProperty_ConverterConfig, UInt32(MemoryLayout<UnsafeRawPointer?>.size), &config)
        }

        var created: ExtAudioFileRef?
        status = ExtAudioFileCreateWithURL(URL(fileURLWithPath: outputPath) as CFURL, fileType, &outputFormat, nil,
                                           AudioFileFlags.eraseFile.rawValue, &created)
        guard status == noErr, let output = created else {
            throw Failure(message: "\(outputPath): ExtAudioFileCreateWithURL failed: \(explain(status))")
        }
        var succeeded = false
        defer {
            let disposed = ExtAudioFileDispose(output)
            if !succeeded || disposed != noErr { unlink(outputPath) }
        }
        status = ExtAudioFileSetProperty(output, kExtAudioFileProperty_ClientDataFormat, clientSize, &client)
        guard status == noErr else { throw Failure(message: "\(outputPath): cannot be encoded here: \(explain(status))") }
        if options.bitRate != nil || options.quality != nil, let converter = converter(of: output) {
            if var bitRate = options.bitRate {
                status = AudioConverterSetProperty(converter, kAudioConverterEncodeBitRate, 4, &bitRate)
                guard status == noErr else { throw Failure(message: "\(outputPath): bit rate \(bitRate): \(explain(status))") }
            }
            if var quality = options.quality { _ = AudioConverterSetProperty(converter, kAudioConverterCodecQuality, 4, &quality) }
            var config: UnsafeRawPointer?
            _ = ExtAudioFileSetProperty(output, kExtAudioFileProperty_ConverterConfig, UInt32(MemoryLayout<UnsafeRawPointer?>.size), &config)
        }
        if options.verbose {
            print("Input file: \(inputPath), \(lengthFrames(input)) frames")
            print("Formats:")
            print("  Input file     \(StreamDescriptionText.describe(inputFormat))")
            print("  Output file    \(StreamDescriptionText.describe(fileFormat(output)))")
            print("  Client         \(StreamDescriptionText.describe(client))")
        }

        // The copy: 8,192 frames at a time through the client format.
        let chunk = 8_192
        let bytesPerFrame = Int(client.mBytesPerFrame)
        let memory = UnsafeMutableRawPointer.allocate(byteCount: chunk * bytesPerFrame, alignment: 16)
        defer { memory.deallocate() }
        var list = AudioBufferList()
        var total = 0
        while true {
            list.mNumberBuffers = 1
            list.mBuffers = AudioBuffer(mNumberChannels: client.mChannelsPerFrame, mDataByteSize: UInt32(chunk * bytesPerFrame), mData: memory)
            var frames = UInt32(chunk)
            status = ExtAudioFileRead(input, &frames, &list)
            guard status == noErr else { throw Failure(message: "\(inputPath): ExtAudioFileRead failed after \(total) frames: \(explain(status))") }
            if frames == 0 { break }
            status = ExtAudioFileWrite(output, frames, &list)
            guard status == noErr else { throw Failure(message: "\(outputPath): ExtAudioFileWrite failed after \(total) frames: \(explain(status))") }
            total += Int(frames)
        }
        if options.verbose { print("Output file: \(outputPath), \(total) frames") }
        succeeded = true
    }

    /// The path with every symbolic link resolved, or nil when nothing is there.
    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func converter(of file: ExtAudioFileRef) -> AudioConverterRef? {
        var converter: AudioConverterRef?
        var size = UInt32(MemoryLayout<AudioConverterRef?>.size)
        return ExtAudioFileGetProperty(file, kExtAudioFileProperty_AudioConverter, &size, &converter) == noErr ? converter : nil
    }

    private static func fileFormat(_ file: ExtAudioFileRef) -> AudioStreamBasicDescription {
        var format = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        ExtAudioFileGetProperty(file, kExtAudioFileProperty_FileDataFormat, &size, &format)
        return format
    }

    private static func lengthFrames(_ file: ExtAudioFileRef) -> Int64 {
        var frames: Int64 = 0
        var size = UInt32(MemoryLayout<Int64>.size)
        ExtAudioFileGetProperty(file, kExtAudioFileProperty_FileLengthFrames, &size, &frames)
        return frames
    }

    /// A status as afconvert's user needs it: what went wrong, and Apple's code.
    static func explain(_ status: OSStatus) -> String {
        let meaning: String? = switch status {
        case kAudioFileUnsupportedDataFormatError: "a data format this file type cannot hold, or one not encoded here"
        case kAudioConverterErr_OutputSampleRateOutOfRange, kAudioConverterErr_InputSampleRateOutOfRange:
            "a sample rate the codec does not take"
        case kAudioFileUnsupportedFileTypeError: "not an audio file type read or written here"
        case kExtAudioFileError_InvalidDataFormat: "not a data format that can be"
        case kAudioConverterErr_PropertyNotSupported: "the codec has no such setting"
        default: nil
        }
        guard let meaning else { return StreamDescriptionText.explain(status) }
        let code = StreamDescriptionText.code(UInt32(bitPattern: status))
        return "\(meaning) (\(code.hasPrefix("'") ? code : String(status)))"
    }

    // MARK: - Help

    /// The data formats afconvert encodes here: those a converter from PCM makes.
    static func encodableFormats() -> [AudioFormatID] {
        let candidates: [AudioFormatID] = [kAudioFormatMPEG4AAC, kAudioFormatAppleLossless, kAudioFormatAppleIMA4, kAudioFormatULaw, kAudioFormatALaw,
                                           kAudioFormatMPEG4AAC_HE, kAudioFormatMPEGLayer3, kAudioFormatFLAC, kAudioFormatOpus, kAudioFormatiLBC]
        return candidates.filter { id in
            var pcm = AudioStreamBasicDescription(mSampleRate: 44_100, mFormatID: kAudioFormatLinearPCM, mFormatFlags: kAudioFormatFlagsNativeFloatPacked,
                                                  mBytesPerPacket: 8, mFramesPerPacket: 1, mBytesPerFrame: 8, mChannelsPerFrame: 2, mBitsPerChannel: 32, mReserved: 0)
            var coded = AudioStreamBasicDescription(mSampleRate: id == kAudioFormatiLBC ? 8_000 : 44_100, mFormatID: id, mFormatFlags: 0, mBytesPerPacket: 0,
                                                    mFramesPerPacket: 0, mBytesPerFrame: 0, mChannelsPerFrame: id == kAudioFormatiLBC ? 1 : 2, mBitsPerChannel: 0, mReserved: 0)
            var converter: AudioConverterRef?
            guard AudioConverterNew(&pcm, &coded, &converter) == noErr, let converter else { return false }
            AudioConverterDispose(converter)
            return true
        }
    }

    /// `-hf`: each file type and the data formats it takes here (afconvert's layout).
    static func fileFormatsHelp() -> String {
        let encodable = Set(encodableFormats() + [kAudioFormatLinearPCM])
        var lines = ["Audio file and data formats:"]
        for type in fileTypes {
            var typeID = type.id
            var size: UInt32 = 0
            var formats: [AudioFormatID] = []
            if AudioFileGetGlobalInfoSize(kAudioFileGlobalInfo_AvailableFormatIDs, 4, &typeID, &size) == noErr, size > 0 {
                formats = [AudioFormatID](repeating: 0, count: Int(size) / 4)
                _ = AudioFileGetGlobalInfo(kAudioFileGlobalInfo_AvailableFormatIDs, 4, &typeID, &size, &formats)
            }
            let written = formats.filter { encodable.contains($0) }.map { StreamDescriptionText.code($0) }.sorted()
            lines.append("    '\(type.code)' = \(type.name) (.\(type.extensions.joined(separator: ", .")))")
            lines.append("               data_formats: " + written.joined(separator: " "))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `-hd`: the data formats `-d` takes here.
    static func dataFormatsHelp() -> String {
        let names: [AudioFormatID: (String, String)] = [
            kAudioFormatMPEG4AAC: ("aac", "MPEG-4 AAC (LC); -b sets its bit rate"),
            kAudioFormatAppleLossless: ("alac", "Apple Lossless (its source depth from the input, or /1 /2 /3 /4 for 16, 20, 24, 32 bits)"),
            kAudioFormatAppleIMA4: ("ima4", "Apple IMA4 ADPCM, 64 frames in 34 bytes a channel"),
            kAudioFormatULaw: ("ulaw", "µ-law (G.711)"),
            kAudioFormatALaw: ("alaw", "A-law (G.711)"),
        ]
        var lines = ["Data formats (-d FORMAT[@RATE][/FLAGS][#FRAMES_PER_PACKET]):"]
        for id in encodableFormats() {
            let (name, text) = names[id] ?? (StreamDescriptionText.code(id), "")
            lines.append("    \(StreamDescriptionText.code(id)) \(name)\(String(repeating: " ", count: max(1, 6 - name.count)))\(text)")
        }
        lines.append("    'lpcm' [BE|LE]{F|[U]I}{8|16|24|32|64}: linear PCM, e.g. LEI16, BEI24, F32@48000, UI8 (floats 32 or 64 bits;")
        lines.append("           without BE or LE, the file type's own order: WAVE little-endian, AIFF big-endian, CAF and AIFC native)")
        return lines.joined(separator: "\n") + "\n"
    }
}
