// A command-line file converter in the style of the Core Audio books and of Apple's
// iPhoneExtAudioFileConvertTest (its DoConvertFile, ported to Swift as iOS developers port it):
// Extended Audio File Services opens the source; the destination's format names only the codec,
// the rate and the channels, and Audio Format Services' FormatInfo completes it; the destination
// is created with ExtAudioFileCreateWithURL; both files get the same client format (the source's
// own when it is PCM); the destination's converter is asked whether it can resume after an
// interruption; then 32 KB of PCM at a time is read from one and written to the other until the
// source gives 0 frames. CheckError reports the failing call with its four-character code, as the
// books' does (it throws here instead of calling exit(1), so that `main` can return a status).
// The imports are iOS's.
//
//   convertfile [-d aac|alac|ima4|lpcm] [-f caff|m4af|WAVE] [-r rate] input output
import AudioToolbox
import Foundation

enum ConvertFile {
    struct Failure: Error, CustomStringConvertible {
        let status: OSStatus
        let operation: String
        var description: String { return "Error: \(operation) (\(ConvertFile.describe(status)))" }
    }

    /// The books' CheckError: the call's status, as a four-character code when it reads as one.
    static func CheckError(_ error: OSStatus, _ operation: String) throws {
        guard error != noErr else { return }
        throw Failure(status: error, operation: operation)
    }

    static func describe(_ error: OSStatus) -> String {
        let bytes = withUnsafeBytes(of: UInt32(bitPattern: error).bigEndian) { Array($0) }
        if bytes.allSatisfy({ isprint(Int32($0)) != 0 }) {
            return "'" + String(decoding: bytes, as: UTF8.self) + "'"
        }
        return "\(error)"
    }

    /// A four-character code from a command-line word: "aac" is 'aac ', "caff" is 'caff'.
    static func fourCharCode(_ word: String) -> UInt32 {
        let padded = Array((word + "    ").utf8.prefix(4))
        return padded.reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// Converts `sourceURL` to `destinationURL`: a file of `fileType` holding `outputFormat` at
    /// `outputSampleRate` (0: the source's rate). Returns the frames read from the source.
    @discardableResult
    static func DoConvertFile(_ sourceURL: URL, _ destinationURL: URL, _ outputFormat: AudioFormatID, _ outputSampleRate: Float64,
                              _ fileType: AudioFileTypeID) throws -> Int64 {
        var sourceFile: ExtAudioFileRef?
        var destinationFile: ExtAudioFileRef?
        defer {
            if let sourceFile = sourceFile { ExtAudioFileDispose(sourceFile) }
        }

        try CheckError(ExtAudioFileOpenURL(sourceURL as CFURL, &sourceFile), "ExtAudioFileOpenURL failed")

        var srcFormat = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        try CheckError(ExtAudioFileGetProperty(sourceFile!, kExtAudioFileProperty_FileDataFormat, &size, &srcFormat),
                       "couldn't get source data format")
        print("Source file format: \(srcFormat.mSampleRate) Hz, \(srcFormat.mChannelsPerFrame) channels")

        // The destination: 16-bit PCM for linear PCM, otherwise the codec's own description,
        // completed by Audio Format Services.
        var dstFormat = AudioStreamBasicDescription()
        dstFormat.mSampleRate = outputSampleRate == 0 ? srcFormat.mSampleRate : outputSampleRate
        if outputFormat == kAudioFormatLinearPCM {
            dstFormat.mFormatID = outputFormat
            dstFormat.mChannelsPerFrame = srcFormat.mChannelsPerFrame
            dstFormat.mBitsPerChannel = 16
            dstFormat.mBytesPerPacket = 2 * dstFormat.mChannelsPerFrame
            dstFormat.mBytesPerFrame = 2 * dstFormat.mChannelsPerFrame
            dstFormat.mFramesPerPacket = 1
            dstFormat.mFormatFlags = kLinearPCMFormatFlagIsPacked | kLinearPCMFormatFlagIsSignedInteger
        } else {
            dstFormat.mFormatID = outputFormat
            dstFormat.mChannelsPerFrame = srcFormat.mChannelsPerFrame
            size = UInt32(MemoryLayout.size(ofValue: dstFormat))
            try CheckError(AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, 0, nil, &size, &dstFormat),
                           "couldn't create destination data format")
        }
        print("Destination file format: \(dstFormat.mSampleRate) Hz, \(dstFormat.mChannelsPerFrame) channels, "
              + "\(dstFormat.mFramesPerPacket) frames a packet")

        try CheckError(ExtAudioFileCreateWithURL(destinationURL as CFURL, fileType, &dstFormat, nil, AudioFileFlags.eraseFile.rawValue,
                                                 &destinationFile), "ExtAudioFileCreateWithURL failed!")
        var disposed = false
        defer {
            if !disposed, let destinationFile = destinationFile { ExtAudioFileDispose(destinationFile) }
        }

        // The client format: the source's when it is PCM, otherwise float at the source's rate.
        var clientFormat: AudioStreamBasicDescription
        if srcFormat.mFormatID == kAudioFormatLinearPCM {
            clientFormat = srcFormat
        } else {
            clientFormat = AudioStreamBasicDescription(mSampleRate: srcFormat.mSampleRate, mFormatID: kAudioFormatLinearPCM,
                                                       mFormatFlags: kAudioFormatFlagsNativeFloatPacked,
                                                       mBytesPerPacket: 4 * srcFormat.mChannelsPerFrame, mFramesPerPacket: 1,
                                                       mBytesPerFrame: 4 * srcFormat.mChannelsPerFrame,
                                                       mChannelsPerFrame: srcFormat.mChannelsPerFrame, mBitsPerChannel: 32, mReserved: 0)
        }
        size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        try CheckError(ExtAudioFileSetProperty(sourceFile!, kExtAudioFileProperty_ClientDataFormat, size, &clientFormat),
                       "couldn't set source client format")
        try CheckError(ExtAudioFileSetProperty(destinationFile!, kExtAudioFileProperty_ClientDataFormat, size, &clientFormat),
                       "couldn't set destination client format")

        // Can the audio converter (owned by the ExtAudioFile) resume conversion after an interruption?
        var audioConverter: AudioConverterRef?
        size = UInt32(MemoryLayout<AudioConverterRef?>.size)
        try CheckError(ExtAudioFileGetProperty(destinationFile!, kExtAudioFileProperty_AudioConverter, &size, &audioConverter),
                       "Couldn't get Audio Converter!")
        var canResumeFromInterruption: UInt32 = 1
        size = UInt32(MemoryLayout.size(ofValue: canResumeFromInterruption))
        if let audioConverter = audioConverter,
           AudioConverterGetProperty(audioConverter, kAudioConverterPropertyCanResumeFromInterruption, &size,
                                     &canResumeFromInterruption) == noErr {
            print("Audio Converter \(canResumeFromInterruption != 0 ? "CAN" : "CANNOT") continue after interruption!")
        }

        // Read 32 KB of PCM, write it, until the source gives no more.
        let bufferByteSize: UInt32 = 32768
        var srcBuffer = [UInt8](repeating: 0, count: Int(bufferByteSize))
        var sourceFrameOffset: Int64 = 0
        while true {
            var numFrames = bufferByteSize / clientFormat.mBytesPerFrame
            try srcBuffer.withUnsafeMutableBytes { bytes in
                var fillBufList = AudioBufferList(mNumberBuffers: 1,
                                                  mBuffers: AudioBuffer(mNumberChannels: clientFormat.mChannelsPerFrame,
                                                                        mDataByteSize: bufferByteSize, mData: bytes.baseAddress))
                try CheckError(ExtAudioFileRead(sourceFile!, &numFrames, &fillBufList), "ExtAudioFileRead failed!")
                if numFrames > 0 {
                    try CheckError(ExtAudioFileWrite(destinationFile!, numFrames, &fillBufList), "ExtAudioFileWrite failed!")
                }
            }
            if numFrames == 0 { break }   // end of file
            sourceFrameOffset += Int64(numFrames)
        }

        // Disposing the destination flushes the encoder and writes the cookie and packet table.
        disposed = true
        try CheckError(ExtAudioFileDispose(destinationFile!), "ExtAudioFileDispose failed!")
        print("Converted \(sourceFrameOffset) frames")
        return sourceFrameOffset
    }

    /// The command line: `convertfile [-d aac|alac|ima4|lpcm] [-f caff|m4af|WAVE] [-r rate] input output`.
    /// Returns the process's exit status.
    static func main(_ arguments: [String]) -> Int32 {
        var outputFormat = kAudioFormatMPEG4AAC
        var fileType = kAudioFileCAFType
        var sampleRate: Float64 = 0
        var paths: [String] = []
        var index = 1
        while index < arguments.count {
            let argument = arguments[index]
            if ["-d", "-f", "-r"].contains(argument), index + 1 < arguments.count {
                let value = arguments[index + 1]
                switch argument {
                case "-d": outputFormat = fourCharCode(value)
                case "-f": fileType = fourCharCode(value)
                default: sampleRate = Float64(value) ?? 0
                }
                index += 2
            } else {
                paths.append(argument)
                index += 1
            }
        }
        guard paths.count == 2 else {
            print("usage: convertfile [-d aac|alac|ima4|lpcm] [-f caff|m4af|WAVE] [-r rate] input output")
            return 2
        }
        do {
            try DoConvertFile(URL(fileURLWithPath: paths[0]), URL(fileURLWithPath: paths[1]), outputFormat, sampleRate, fileType)
            return 0
        } catch {
            print("\(error)")
            return 1
        }
    }
}
