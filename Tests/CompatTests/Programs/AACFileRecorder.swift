// A recorder that encodes what the microphone delivers to AAC itself and writes the packets
// through Audio File Services, as apps that tap the input write their M4A files (and as the Core
// Audio books' recorder writes a queue's packets): an AudioConverter from the input's float PCM to
// AAC (its bit rate set, its maximum packet size asked); AudioFileCreateWithURL with the
// converter's completed description; the encoder's magic cookie copied into the file's
// kAudioFilePropertyMagicCookieData before the first packet and again at the end (the books'
// MyCopyEncoderCookieToFile); each buffer the input delivers pulled through
// AudioConverterFillComplexBuffer's input procedure, which says "no more for now" when it has
// given it; AudioFileWritePackets with the converter's packet descriptions; and at stop, the
// encoder flushed, then kAudioConverterPrimeInfo's leading frames and the frames recorded written
// as kAudioFilePropertyPacketTableInfo, so that players trim the encoder's priming and padding.
// The imports are iOS's.
import AudioToolbox
import Foundation

enum AACFileRecorderError: Error {
    case failed(OSStatus, String)
}

/// The input procedure's "the buffer was given: no more until the next one" (not an Apple code).
private let kRecorderNoMoreInputNow: OSStatus = -66_999

final class AACFileRecorder {
    let inputFormat: AudioStreamBasicDescription
    private(set) var outputFormat = AudioStreamBasicDescription()
    private var audioFile: AudioFileID?
    private var converter: AudioConverterRef?
    private var maxPacketSize: UInt32 = 0
    private let packetsPerWrite: UInt32 = 16
    private var outputBuffer: UnsafeMutableRawPointer?
    private var packetDescriptions: [AudioStreamPacketDescription]
    /// The next packet's index in the file, and the input frames given to the encoder.
    private(set) var packetIndex: Int64 = 0
    private(set) var framesRecorded: Int64 = 0
    /// The input buffer being encoded: where it is, how many frames, and whether it was given.
    private var pendingInput: UnsafeRawPointer?
    private var pendingFrames: UInt32 = 0
    private var isFlushing = false

    private static func check(_ status: OSStatus, _ operation: String) throws {
        if status != noErr { throw AACFileRecorderError.failed(status, operation) }
    }

    /// A recorder of `channels` channels of float PCM at `sampleRate` into a new file at `url`
    /// (`kAudioFileM4AType` or `kAudioFileCAFType`).
    init(url: URL, fileType: AudioFileTypeID = kAudioFileM4AType, sampleRate: Double = 44_100, channels: UInt32 = 1,
         bitRate: UInt32 = 96_000) throws {
        inputFormat = AudioStreamBasicDescription(mSampleRate: sampleRate, mFormatID: kAudioFormatLinearPCM,
                                                  mFormatFlags: kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked,
                                                  mBytesPerPacket: 4 * channels, mFramesPerPacket: 1, mBytesPerFrame: 4 * channels,
                                                  mChannelsPerFrame: channels, mBitsPerChannel: 32, mReserved: 0)
        outputFormat = AudioStreamBasicDescription(mSampleRate: sampleRate, mFormatID: kAudioFormatMPEG4AAC,
                                                   mFormatFlags: UInt32(MPEG4ObjectID.AAC_LC.rawValue), mBytesPerPacket: 0,
                                                   mFramesPerPacket: 1024, mBytesPerFrame: 0, mChannelsPerFrame: channels,
                                                   mBitsPerChannel: 0, mReserved: 0)
        packetDescriptions = [AudioStreamPacketDescription](repeating: AudioStreamPacketDescription(), count: Int(packetsPerWrite))

        var source = inputFormat
        try Self.check(AudioConverterNew(&source, &outputFormat, &converter), "AudioConverterNew")
        var rate = bitRate
        try Self.check(AudioConverterSetProperty(converter!, kAudioConverterEncodeBitRate, UInt32(MemoryLayout<UInt32>.size), &rate),
                       "kAudioConverterEncodeBitRate")

        // The encoder's own description (bytes per packet and so on) is what the file holds.
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        try Self.check(AudioConverterGetProperty(converter!, kAudioConverterCurrentOutputStreamDescription, &size, &outputFormat),
                       "kAudioConverterCurrentOutputStreamDescription")
        size = UInt32(MemoryLayout<UInt32>.size)
        try Self.check(AudioConverterGetProperty(converter!, kAudioConverterPropertyMaximumOutputPacketSize, &size, &maxPacketSize),
                       "kAudioConverterPropertyMaximumOutputPacketSize")
        outputBuffer = malloc(Int(maxPacketSize * packetsPerWrite))

        try Self.check(AudioFileCreateWithURL(url as CFURL, fileType, &outputFormat, .eraseFile, &audioFile), "AudioFileCreateWithURL")
        try copyEncoderCookieToFile()
    }

    deinit {
        if let converter = converter { AudioConverterDispose(converter) }
        if let audioFile = audioFile { AudioFileClose(audioFile) }
        free(outputBuffer)
    }

    /// The books' MyCopyEncoderCookieToFile: the converter's cookie, when it has one, into the file.
    private func copyEncoderCookieToFile() throws {
        var cookieSize: UInt32 = 0
        let status = AudioConverterGetPropertyInfo(converter!, kAudioConverterCompressionMagicCookie, &cookieSize, nil)
        guard status == noErr, cookieSize > 0 else { return }
        let magicCookie = UnsafeMutablePointer<UInt8>.allocate(capacity: Int(cookieSize))
        defer { magicCookie.deallocate() }
        try Self.check(AudioConverterGetProperty(converter!, kAudioConverterCompressionMagicCookie, &cookieSize, magicCookie),
                       "kAudioConverterCompressionMagicCookie")
        try Self.check(AudioFileSetProperty(audioFile!, kAudioFilePropertyMagicCookieData, cookieSize, magicCookie),
                       "kAudioFilePropertyMagicCookieData")
    }

    /// Encodes one buffer the input delivered (`frames` interleaved frames of `inputFormat`) and
    /// writes the packets that are ready.
    func append(_ samples: UnsafePointer<Float>, frames: UInt32) throws {
        pendingInput = UnsafeRawPointer(samples)
        pendingFrames = frames
        framesRecorded += Int64(frames)
        try writeReadyPackets()
    }

    /// Flushes the encoder, writes its last packets, the cookie and the packet table, and closes
    /// the file.
    func stop() throws {
        isFlushing = true
        try writeReadyPackets()
        try copyEncoderCookieToFile()

        // The priming the encoder put in front, and the padding after the last frame.
        var primeInfo = AudioConverterPrimeInfo()
        var size = UInt32(MemoryLayout<AudioConverterPrimeInfo>.size)
        try Self.check(AudioConverterGetProperty(converter!, kAudioConverterPrimeInfo, &size, &primeInfo), "kAudioConverterPrimeInfo")
        let totalFrames = packetIndex * Int64(outputFormat.mFramesPerPacket)
        var packetTable = AudioFilePacketTableInfo(mNumberValidFrames: framesRecorded, mPrimingFrames: Int32(primeInfo.leadingFrames),
                                                   mRemainderFrames: Int32(totalFrames - framesRecorded - Int64(primeInfo.leadingFrames)))
        try Self.check(AudioFileSetProperty(audioFile!, kAudioFilePropertyPacketTableInfo,
                                            UInt32(MemoryLayout<AudioFilePacketTableInfo>.size), &packetTable),
                       "kAudioFilePropertyPacketTableInfo")

        try Self.check(AudioFileClose(audioFile!), "AudioFileClose")
        audioFile = nil
    }

    /// Pulls packets out of the converter until it wants more input than it has been given.
    private func writeReadyPackets() throws {
        let context = Unmanaged.passUnretained(self).toOpaque()
        while true {
            var ioOutputDataPackets = packetsPerWrite
            var outputBufferList = AudioBufferList(mNumberBuffers: 1,
                                                   mBuffers: AudioBuffer(mNumberChannels: outputFormat.mChannelsPerFrame,
                                                                         mDataByteSize: maxPacketSize * packetsPerWrite,
                                                                         mData: outputBuffer))
            let status = AudioConverterFillComplexBuffer(converter!, recorderInputProc, context, &ioOutputDataPackets,
                                                         &outputBufferList, &packetDescriptions)
            if status != noErr && status != kRecorderNoMoreInputNow {
                throw AACFileRecorderError.failed(status, "AudioConverterFillComplexBuffer")
            }
            if ioOutputDataPackets > 0 {
                try Self.check(AudioFileWritePackets(audioFile!, false, outputBufferList.mBuffers.mDataByteSize, &packetDescriptions,
                                                     packetIndex, &ioOutputDataPackets, outputBuffer),
                               "AudioFileWritePackets")
                packetIndex += Int64(ioOutputDataPackets)
            }
            // The input is used up (or, flushing, the encoder is empty).
            if status == kRecorderNoMoreInputNow || ioOutputDataPackets == 0 { return }
        }
    }

    /// The input procedure's work: the pending buffer once, then "no more for now" (or, when
    /// flushing, the end of the stream).
    fileprivate func supply(_ ioNumberDataPackets: UnsafeMutablePointer<UInt32>, _ ioData: UnsafeMutablePointer<AudioBufferList>) -> OSStatus {
        guard let input = pendingInput, pendingFrames > 0 else {
            ioNumberDataPackets.pointee = 0
            return isFlushing ? noErr : kRecorderNoMoreInputNow
        }
        ioData.pointee.mNumberBuffers = 1
        ioData.pointee.mBuffers.mData = UnsafeMutableRawPointer(mutating: input)
        ioData.pointee.mBuffers.mDataByteSize = pendingFrames * inputFormat.mBytesPerFrame
        ioData.pointee.mBuffers.mNumberChannels = inputFormat.mChannelsPerFrame
        ioNumberDataPackets.pointee = pendingFrames
        pendingInput = nil
        pendingFrames = 0
        return noErr
    }
}

private func recorderInputProc(_ inAudioConverter: AudioConverterRef, _ ioNumberDataPackets: UnsafeMutablePointer<UInt32>,
                               _ ioData: UnsafeMutablePointer<AudioBufferList>,
                               _ outDataPacketDescription: UnsafeMutablePointer<UnsafeMutablePointer<AudioStreamPacketDescription>?>?,
                               _ inUserData: UnsafeMutableRawPointer?) -> OSStatus {
    let recorder = Unmanaged<AACFileRecorder>.fromOpaque(inUserData!).takeUnretainedValue()
    return recorder.supply(ioNumberDataPackets, ioData)
}
