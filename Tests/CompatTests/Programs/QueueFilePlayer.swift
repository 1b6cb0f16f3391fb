// The Core Audio books' file player on Audio Queue Services, in Swift as iOS and macOS code writes
// it: AudioFileOpenURL; the file's kAudioFilePropertyDataFormat and its packet size upper bound
// sizing three buffers of half a second (the books' CalculateBytesForTime); an output queue whose
// callback reads the next packets with AudioFileReadPacketData and their packet descriptions and
// enqueues them, and at the end of the file stops the queue, not immediately, so that what is
// queued plays out; the file's magic cookie copied to the queue; the buffers primed by calling the
// callback by hand. The callback is either a closure literal with the player passed as its user
// data (`Unmanaged.passUnretained(self).toOpaque()`) and a NULL run loop, or a block on a
// dispatch queue (AudioQueueNewOutputWithDispatchQueue). The books' main thread, which runs its
// run loop until the callback says the file is done, is Tests/C/audio_queue_player.c's (a test
// here has no main thread to run it on); the program that links this starts the queue and renders
// the device. `startTogether` is the books' synchronised start. `renderOffline(to:)` is Apple's offline
// render (AQOfflineRenderTest): AudioQueueSetOfflineRenderFormat, a first render of 0 frames, then
// 4,096 frames at a time written through Extended Audio File Services until nothing comes out.
// The imports are iOS's.
import AudioToolbox
import Foundation

enum QueueFilePlayerError: Error {
    case failed(OSStatus, String)
}

final class QueueFilePlayer: @unchecked Sendable {
    // @unchecked: the callback touches the read position and `isDone` on the queue's thread (or
    // dispatch queue) while the program's thread reads `isDone`; both go through `lock`.
    /// How the queue calls back.
    enum Callbacks { case function, dispatchQueue }

    private let lock = NSLock()
    private var playbackFile: AudioFileID?
    private(set) var dataFormat = AudioStreamBasicDescription()
    private var packetPosition: Int64 = 0
    private var numPacketsToRead: UInt32 = 0
    private var packetDescs: UnsafeMutablePointer<AudioStreamPacketDescription>?
    private var done = false
    private(set) var queue: AudioQueueRef?
    private let callbackQueue = DispatchQueue(label: "org.soundstage.programs.file-player")
    /// Buffers the callback filled, including the three primed by hand.
    private(set) var buffersFilled = 0

    static let kNumberPlaybackBuffers = 3

    private static func check(_ status: OSStatus, _ operation: String) throws {
        if status != noErr { throw QueueFilePlayerError.failed(status, operation) }
    }

    /// Whether the callback reached the end of the file.
    var isDone: Bool { lock.withLock { done } }

    /// Opens `url` and makes the queue, its buffers primed.
    init(url: URL, callbacks: Callbacks = .function) throws {
        try Self.check(AudioFileOpenURL(url as CFURL, .readPermission, 0, &playbackFile), "AudioFileOpenURL failed")
        guard let file = playbackFile else { throw QueueFilePlayerError.failed(-1, "no file") }
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        try Self.check(AudioFileGetProperty(file, kAudioFilePropertyDataFormat, &size, &dataFormat), "couldn't get the file's data format")

        switch callbacks {
        case .function:
            try Self.check(AudioQueueNewOutput(&dataFormat, { userData, queue, buffer in
                Unmanaged<QueueFilePlayer>.fromOpaque(userData!).takeUnretainedValue().fill(queue, buffer)
            }, Unmanaged.passUnretained(self).toOpaque(), nil, nil, 0, &queue), "AudioQueueNewOutput failed")
        case .dispatchQueue:
            try Self.check(AudioQueueNewOutputWithDispatchQueue(&queue, &dataFormat, 0, callbackQueue) { [unowned self] queue, buffer in
                fill(queue, buffer)
            }, "AudioQueueNewOutputWithDispatchQueue failed")
        }
        guard let queue else { throw QueueFilePlayerError.failed(-1, "no queue") }

        // Half a second a buffer, bounded as the books bound it.
        var maxPacketSize: UInt32 = 0
        size = UInt32(MemoryLayout<UInt32>.size)
        try Self.check(AudioFileGetProperty(file, kAudioFilePropertyPacketSizeUpperBound, &size, &maxPacketSize), "couldn't get the file's max packet size")
        let bufferByteSize = Self.calculateBytes(for: dataFormat, maxPacketSize: maxPacketSize, seconds: 0.5, packets: &numPacketsToRead)
        let isFormatVBR = dataFormat.mBytesPerPacket == 0 || dataFormat.mFramesPerPacket == 0
        if isFormatVBR {
            packetDescs = .allocate(capacity: Int(numPacketsToRead))
        }

        copyEncoderCookie(from: file, to: queue)

        for _ in 0..<Self.kNumberPlaybackBuffers {
            var buffer: AudioQueueBufferRef?
            try Self.check(AudioQueueAllocateBuffer(queue, bufferByteSize, &buffer), "AudioQueueAllocateBuffer failed")
            guard let buffer else { break }
            if callbacks == .dispatchQueue {
                callbackQueue.sync { fill(queue, buffer) }
            } else {
                fill(queue, buffer)
            }
            if isDone { break }
        }
    }

    deinit {
        if let queue { AudioQueueDispose(queue, true) }
        if let playbackFile { AudioFileClose(playbackFile) }
        packetDescs?.deallocate()
    }

    /// The books' CalculateBytesForTime: a buffer for `seconds` of the format, at least 16 KB
    /// unless a packet is larger, at most 64 KB; the packets it holds.
    static func calculateBytes(for format: AudioStreamBasicDescription, maxPacketSize: UInt32, seconds: Double,
                               packets: inout UInt32) -> UInt32 {
        let maxBufferSize: UInt32 = 0x10000, minBufferSize: UInt32 = 0x4000
        var bufferSize: UInt32
        if format.mFramesPerPacket != 0 {
            let numPacketsForTime = format.mSampleRate / Double(format.mFramesPerPacket) * seconds
            bufferSize = UInt32(numPacketsForTime * Double(maxPacketSize))
        } else {
            bufferSize = max(maxBufferSize, maxPacketSize)
        }
        if bufferSize > maxBufferSize && bufferSize > maxPacketSize {
            bufferSize = maxBufferSize
        } else if bufferSize < minBufferSize {
            bufferSize = minBufferSize
        }
        packets = max(1, bufferSize / max(1, maxPacketSize))
        return bufferSize
    }

    /// The books' MyCopyEncoderCookieToQueue.
    private func copyEncoderCookie(from file: AudioFileID, to queue: AudioQueueRef) {
        var propertySize: UInt32 = 0
        guard AudioFileGetPropertyInfo(file, kAudioFilePropertyMagicCookieData, &propertySize, nil) == noErr, propertySize > 0 else { return }
        let magicCookie = UnsafeMutableRawPointer.allocate(byteCount: Int(propertySize), alignment: 1)
        defer { magicCookie.deallocate() }
        if AudioFileGetProperty(file, kAudioFilePropertyMagicCookieData, &propertySize, magicCookie) == noErr {
            AudioQueueSetProperty(queue, kAudioQueueProperty_MagicCookie, magicCookie, propertySize)
        }
    }

    /// The output callback: the next packets of the file, or a deferred stop at its end.
    private func fill(_ queue: AudioQueueRef, _ buffer: AudioQueueBufferRef) {
        lock.lock()
        defer { lock.unlock() }
        guard !done, let playbackFile else { return }
        var numBytes = buffer.pointee.mAudioDataBytesCapacity
        var nPackets = numPacketsToRead
        let status = AudioFileReadPacketData(playbackFile, false, &numBytes, packetDescs, packetPosition, &nPackets, buffer.pointee.mAudioData)
        if (status == noErr || status == kAudioFileEndOfFileError) && nPackets > 0 {
            buffer.pointee.mAudioDataByteSize = numBytes
            AudioQueueEnqueueBuffer(queue, buffer, packetDescs != nil ? nPackets : 0, packetDescs)
            packetPosition += Int64(nPackets)
            buffersFilled += 1
        } else {
            AudioQueueStop(queue, false)
            done = true
        }
    }

    /// AudioQueueStart, now.
    func start() throws {
        guard let queue else { return }
        try Self.check(AudioQueueStart(queue, nil), "AudioQueueStart failed")
    }

    /// kAudioQueueProperty_IsRunning.
    var isRunning: Bool {
        guard let queue else { return false }
        var running: UInt32 = 0
        var size = UInt32(MemoryLayout<UInt32>.size)
        return AudioQueueGetProperty(queue, kAudioQueueProperty_IsRunning, &running, &size) == noErr && running != 0
    }

    /// The pan of the queue's sound, -1 (left) to 1 (right).
    func setPan(_ pan: Float) throws {
        guard let queue else { return }
        try Self.check(AudioQueueSetParameter(queue, kAudioQueueParam_Pan, pan), "AudioQueueSetParameter failed")
    }

    /// Starts `players` for one time of the device's clock, `lead` seconds from now, as the
    /// books' synchronised start does: the first queue's AudioQueueDeviceGetCurrentTime, the lead
    /// added, the device's nearest start time to that, and every queue started for it.
    static func startTogether(_ players: [QueueFilePlayer], lead: Double) throws {
        guard let first = players.first?.queue else { return }
        var now = AudioTimeStamp()
        try check(AudioQueueDeviceGetCurrentTime(first, &now), "AudioQueueDeviceGetCurrentTime failed")
        var rate: Float64 = 0
        var size = UInt32(MemoryLayout<Float64>.size)
        try check(AudioQueueGetProperty(first, kAudioQueueDeviceProperty_SampleRate, &rate, &size), "couldn't get the device's rate")
        var start = AudioTimeStamp()
        start.mFlags = .sampleTimeValid
        start.mSampleTime = now.mSampleTime + lead * rate
        try check(AudioQueueDeviceGetNearestStartTime(first, &start, 0), "AudioQueueDeviceGetNearestStartTime failed")
        for player in players {
            guard let queue = player.queue else { continue }
            try check(AudioQueueStart(queue, &start), "AudioQueueStart failed")
        }
    }

    /// Apple's offline render into a 16-bit stereo CAF file at the file's rate; the frames written.
    func renderOffline(to url: URL) throws -> Int {
        guard let queue else { return 0 }
        var renderFormat = AudioStreamBasicDescription(mSampleRate: dataFormat.mSampleRate, mFormatID: kAudioFormatLinearPCM,
                                                       mFormatFlags: kLinearPCMFormatFlagIsSignedInteger | kLinearPCMFormatFlagIsPacked,
                                                       mBytesPerPacket: 4, mFramesPerPacket: 1, mBytesPerFrame: 4, mChannelsPerFrame: 2,
                                                       mBitsPerChannel: 16, mReserved: 0)
        var layout = AudioChannelLayout()
        layout.mChannelLayoutTag = kAudioChannelLayoutTag_Stereo
        try Self.check(AudioQueueSetOfflineRenderFormat(queue, &renderFormat, &layout), "AudioQueueSetOfflineRenderFormat failed")
        var outFile: ExtAudioFileRef?
        try Self.check(ExtAudioFileCreateWithURL(url as CFURL, kAudioFileCAFType, &renderFormat, nil, AudioFileFlags.eraseFile.rawValue, &outFile),
                       "ExtAudioFileCreateWithURL failed")
        guard let outFile else { return 0 }
        defer { ExtAudioFileDispose(outFile) }
        try Self.check(AudioQueueStart(queue, nil), "AudioQueueStart failed")

        let captureFrames: UInt32 = 4_096
        var captureBuffer: AudioQueueBufferRef?
        try Self.check(AudioQueueAllocateBuffer(queue, captureFrames * renderFormat.mBytesPerFrame, &captureBuffer), "AudioQueueAllocateBuffer failed")
        guard let captureBuffer else { return 0 }
        var timeStamp = AudioTimeStamp()
        timeStamp.mFlags = .sampleTimeValid
        timeStamp.mSampleTime = 0
        // The first render, of no frames, starts the clock.
        try Self.check(AudioQueueOfflineRender(queue, &timeStamp, captureBuffer, 0), "AudioQueueOfflineRender failed")
        var written = 0
        while true {
            try Self.check(AudioQueueOfflineRender(queue, &timeStamp, captureBuffer, captureFrames), "AudioQueueOfflineRender failed")
            let frames = captureBuffer.pointee.mAudioDataByteSize / renderFormat.mBytesPerFrame
            if frames == 0 { break }
            var list = AudioBufferList(mNumberBuffers: 1,
                                       mBuffers: AudioBuffer(mNumberChannels: 2, mDataByteSize: captureBuffer.pointee.mAudioDataByteSize,
                                                             mData: captureBuffer.pointee.mAudioData))
            try Self.check(ExtAudioFileWrite(outFile, frames, &list), "ExtAudioFileWrite failed")
            written += Int(frames)
            timeStamp.mSampleTime += Double(frames)
        }
        return written
    }
}
