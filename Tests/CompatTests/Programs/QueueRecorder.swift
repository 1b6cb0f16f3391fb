// SpeakHere's recorder, and the Core Audio books', on an input queue, in Swift with the
// dispatch-queue block form as iOS code since iOS 10 writes it: the record format asked for by ID,
// rate and channels only (AAC), completed by the queue and read back with
// kAudioQueueProperty_StreamDescription; a CAF file made for it (AudioFileCreateWithURL); the
// encoder's magic cookie copied into the file before recording and again after; three buffers of
// half a second sized from kAudioQueueProperty_MaximumOutputPacketSize (MyComputeRecordBufferSize);
// a block on the app's dispatch queue (AudioQueueNewInputWithDispatchQueue) that writes each
// buffer's packets with their descriptions (AudioFileWritePackets) and enqueues it again while
// recording; AudioQueueStop(queue, true), then (on the callback queue, after the blocks the stop
// handed the buffers back to) the cookie again, AudioQueueDispose and AudioFileClose. The imports
// are iOS's.
import AudioToolbox
import Foundation

enum QueueRecorderError: Error {
    case failed(OSStatus, String)
}

final class QueueRecorder: @unchecked Sendable {
    // @unchecked: the block runs on `callbackQueue`; `recordPacket`, `blockCount` and
    // `isRunning` are touched there, and by the program only through `callbackQueue.sync`.
    private var recordFile: AudioFileID?
    private var queue: AudioQueueRef?
    private var recordPacket: Int64 = 0
    private var isRunning = false
    private let callbackQueue = DispatchQueue(label: "org.soundstage.programs.recorder")
    /// The format the queue records, completed by it.
    private(set) var recordFormat = AudioStreamBasicDescription()
    /// Packets written to the file, and the blocks that ran.
    var packetsWritten: Int64 { callbackQueue.sync { recordPacket } }
    var blocks: Int { callbackQueue.sync { blockCount } }
    private var blockCount = 0

    static let kNumberRecordBuffers = 3

    private static func check(_ status: OSStatus, _ operation: String) throws {
        if status != noErr { throw QueueRecorderError.failed(status, operation) }
    }

    /// A recorder of `channels` channels of AAC at `sampleRate` into a new CAF file at `url`.
    init(url: URL, sampleRate: Double = 44_100, channels: UInt32 = 1) throws {
        recordFormat.mFormatID = kAudioFormatMPEG4AAC
        recordFormat.mSampleRate = sampleRate
        recordFormat.mChannelsPerFrame = channels
        try Self.check(AudioQueueNewInputWithDispatchQueue(&queue, &recordFormat, 0, callbackQueue) { [unowned self] queue, buffer, _, packets, descriptions in
            blockCount += 1
            if packets > 0, let recordFile {
                var count = packets
                if AudioFileWritePackets(recordFile, false, buffer.pointee.mAudioDataByteSize, descriptions, recordPacket, &count,
                                         buffer.pointee.mAudioData) == noErr {
                    recordPacket += Int64(count)
                }
            }
            if isRunning { AudioQueueEnqueueBuffer(queue, buffer, 0, nil) }
        }, "AudioQueueNewInputWithDispatchQueue failed")
        guard let queue else { throw QueueRecorderError.failed(-1, "no queue") }

        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        try Self.check(AudioQueueGetProperty(queue, kAudioQueueProperty_StreamDescription, &recordFormat, &size),
                       "couldn't get the queue's format")
        try Self.check(AudioFileCreateWithURL(url as CFURL, kAudioFileCAFType, &recordFormat, .eraseFile, &recordFile),
                       "AudioFileCreateWithURL failed")
        copyEncoderCookieToFile()

        let bufferByteSize = try computeRecordBufferSize(seconds: 0.5)
        for _ in 0..<Self.kNumberRecordBuffers {
            var buffer: AudioQueueBufferRef?
            try Self.check(AudioQueueAllocateBuffer(queue, bufferByteSize, &buffer), "AudioQueueAllocateBuffer failed")
            try Self.check(AudioQueueEnqueueBuffer(queue, buffer!, 0, nil), "AudioQueueEnqueueBuffer failed")
        }
    }

    deinit {
        if let queue { AudioQueueDispose(queue, true) }
        if let recordFile { AudioFileClose(recordFile) }
    }

    /// The books' MyComputeRecordBufferSize: enough packets for `seconds`, each at most the
    /// queue's largest.
    private func computeRecordBufferSize(seconds: Double) throws -> UInt32 {
        guard let queue else { return 0 }
        let frames = UInt32((seconds * recordFormat.mSampleRate).rounded(.up))
        if recordFormat.mBytesPerFrame > 0 { return frames * recordFormat.mBytesPerFrame }
        var maxPacketSize = recordFormat.mBytesPerPacket
        if maxPacketSize == 0 {
            var size = UInt32(MemoryLayout<UInt32>.size)
            try Self.check(AudioQueueGetProperty(queue, kAudioQueueProperty_MaximumOutputPacketSize, &maxPacketSize, &size),
                           "couldn't get the queue's maximum output packet size")
        }
        let packets = recordFormat.mFramesPerPacket > 0 ? (frames + recordFormat.mFramesPerPacket - 1) / recordFormat.mFramesPerPacket : frames
        return max(1, packets) * maxPacketSize
    }

    /// The books' MyCopyEncoderCookieToFile.
    private func copyEncoderCookieToFile() {
        guard let queue, let recordFile else { return }
        var propertySize: UInt32 = 0
        guard AudioQueueGetPropertySize(queue, kAudioQueueProperty_MagicCookie, &propertySize) == noErr, propertySize > 0 else { return }
        let magicCookie = UnsafeMutableRawPointer.allocate(byteCount: Int(propertySize), alignment: 1)
        defer { magicCookie.deallocate() }
        if AudioQueueGetProperty(queue, kAudioQueueProperty_MagicCookie, magicCookie, &propertySize) == noErr {
            AudioFileSetProperty(recordFile, kAudioFilePropertyMagicCookieData, propertySize, magicCookie)
        }
    }

    func start() throws {
        guard let queue else { return }
        callbackQueue.sync { isRunning = true }
        try Self.check(AudioQueueStart(queue, nil), "AudioQueueStart failed")
    }

    /// Stops, writes the cookie again and closes the file. The stop hands the buffers back to the
    /// blocks (the front one with what it holds) on the callback queue: the file is finished there
    /// after them, so that the last packets are written before it closes.
    func stop() throws {
        guard let queue else { return }
        callbackQueue.sync { isRunning = false }
        try Self.check(AudioQueueStop(queue, true), "AudioQueueStop failed")
        callbackQueue.sync {}
        copyEncoderCookieToFile()
        AudioQueueDispose(queue, true)
        self.queue = nil
        if let recordFile { AudioFileClose(recordFile) }
        recordFile = nil
    }
}
