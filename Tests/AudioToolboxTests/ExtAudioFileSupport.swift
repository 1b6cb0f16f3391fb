import AudioToolbox
import Foundation

// What the Extended Audio File Services tests share: a file read to the end in a client format,
// the way iOS code writes the loop (an AudioBufferList over its own memory, ExtAudioFileRead until
// it gives 0 frames), and a file written from a buffer of frames.

/// What reading a whole file gave: each buffer's bytes, the frames, the status that ended it.
struct ExtRead {
    var buffers: [[UInt8]]
    var frames = 0
    var status: OSStatus = noErr
    var calls = 0
}

/// Opens `url`, sets `client` as its client format (nil: leave the file's) and reads it all,
/// `chunk` frames a call.
func extRead(_ url: URL, client: AudioStreamBasicDescription?, chunk: Int = 4_096,
             setUp: (ExtAudioFileRef) -> Void = { _ in }) -> ExtRead {
    var file: ExtAudioFileRef?
    let opened = ExtAudioFileOpenURL(url as CFURL, &file)
    guard opened == noErr, let file else { return ExtRead(buffers: [], status: opened) }
    defer { ExtAudioFileDispose(file) }
    var format = AudioStreamBasicDescription()
    if var client {
        let status = ExtAudioFileSetProperty(file, kExtAudioFileProperty_ClientDataFormat,
                                             UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &client)
        guard status == noErr else { return ExtRead(buffers: [], status: status) }
    }
    var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
    ExtAudioFileGetProperty(file, kExtAudioFileProperty_ClientDataFormat, &size, &format)
    setUp(file)
    return extReadAll(file, format: format, chunk: chunk)
}

/// Reads what is left of an open file in its client format `format`.
func extReadAll(_ file: ExtAudioFileRef, format: AudioStreamBasicDescription, chunk: Int = 4_096, limit: Int = .max) -> ExtRead {
    let nonInterleaved = format.mFormatFlags & kAudioFormatFlagIsNonInterleaved != 0
    let bufferCount = nonInterleaved ? Int(format.mChannelsPerFrame) : 1
    let bytesPerFrame = Int(format.mBytesPerFrame)
    var result = ExtRead(buffers: Array(repeating: [], count: bufferCount))
    let list = AudioBufferList.allocate(maximumBuffers: bufferCount)
    defer { free(list.unsafeMutablePointer) }
    let memory = (0..<bufferCount).map { _ in UnsafeMutableRawPointer.allocate(byteCount: chunk * bytesPerFrame, alignment: 16) }
    defer { memory.forEach { $0.deallocate() } }
    while result.frames < limit {
        let wanted = min(chunk, limit - result.frames)
        for i in 0..<bufferCount {
            list[i] = AudioBuffer(mNumberChannels: nonInterleaved ? 1 : format.mChannelsPerFrame,
                                  mDataByteSize: UInt32(wanted * bytesPerFrame), mData: memory[i])
        }
        var frames = UInt32(wanted)
        result.status = ExtAudioFileRead(file, &frames, list.unsafeMutablePointer)
        result.calls += 1
        for i in 0..<bufferCount {
            result.buffers[i] += UnsafeRawBufferPointer(start: memory[i], count: Int(list[i].mDataByteSize))
        }
        result.frames += Int(frames)
        if result.status != noErr || frames == 0 { break }
    }
    return result
}

/// Creates `url` as a file of `type` holding `fileFormat`, sets `client` and writes `samples`
/// (interleaved bytes of the client format) in calls of `chunk` frames; returns the first failure.
@discardableResult
func extWrite(_ url: URL, type: AudioFileTypeID, fileFormat: AudioStreamBasicDescription, client: AudioStreamBasicDescription,
              bytes: [UInt8], chunk: Int = 1_000, setUp: (ExtAudioFileRef) -> Void = { _ in }) -> OSStatus {
    var file: ExtAudioFileRef?
    var format = fileFormat
    var status = ExtAudioFileCreateWithURL(url as CFURL, type, &format, nil, AudioFileFlags.eraseFile.rawValue, &file)
    guard status == noErr, let file else { return status }
    var clientFormat = client
    status = ExtAudioFileSetProperty(file, kExtAudioFileProperty_ClientDataFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size),
                                     &clientFormat)
    guard status == noErr else {
        ExtAudioFileDispose(file)
        return status
    }
    setUp(file)
    let bytesPerFrame = Int(client.mBytesPerFrame)
    let frames = bytes.count / bytesPerFrame
    var list = AudioBufferList()
    var position = 0
    while position < frames && status == noErr {
        let n = min(chunk, frames - position)
        status = bytes.withUnsafeBytes { raw in
            list.mNumberBuffers = 1
            list.mBuffers = AudioBuffer(mNumberChannels: client.mChannelsPerFrame, mDataByteSize: UInt32(n * bytesPerFrame),
                                        mData: UnsafeMutableRawPointer(mutating: raw.baseAddress! + position * bytesPerFrame))
            return ExtAudioFileWrite(file, UInt32(n), &list)
        }
        position += n
    }
    let disposed = ExtAudioFileDispose(file)
    return status != noErr ? status : disposed
}

/// A property of a fixed-size type, as iOS code reads one.
func extProperty<T: BitwiseCopyable>(_ file: ExtAudioFileRef, _ id: ExtAudioFilePropertyID, _ initial: T) -> (OSStatus, T) {
    var value = initial
    var size = UInt32(MemoryLayout<T>.size)
    let status = ExtAudioFileGetProperty(file, id, &size, &value)
    return (status, value)
}

/// Float32 interleaved at `rate`, `channels` channels.
func floatFormat(rate: Double = 44_100, channels: UInt32 = 2) -> AudioStreamBasicDescription {
    pcmFormat(rate: rate, channels: channels, bits: 32, float: true)
}

/// Signed 16-bit interleaved, native endian.
func int16Format(rate: Double = 44_100, channels: UInt32 = 2) -> AudioStreamBasicDescription {
    pcmFormat(rate: rate, channels: channels, bits: 16)
}

/// A compressed format as iOS code states one: ID, rate and channels, the rest 0.
func compressedFormat(_ id: AudioFormatID, rate: Double = 44_100, channels: UInt32 = 2, flags: AudioFormatFlags = 0) -> AudioStreamBasicDescription {
    AudioStreamBasicDescription(mSampleRate: rate, mFormatID: id, mFormatFlags: flags, mBytesPerPacket: 0, mFramesPerPacket: 0,
                                mBytesPerFrame: 0, mChannelsPerFrame: channels, mBitsPerChannel: 0, mReserved: 0)
}
