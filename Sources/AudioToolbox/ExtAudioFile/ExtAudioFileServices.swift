#if canImport(Glibc)
import Glibc
#endif

// Extended Audio File Services' functions, for C (AudioToolbox/ExtendedAudioFile.h) and Swift at
// once: `@c @implementation` where the signature holds no Core Foundation type (the compiler
// checks them against the header), `@c(Name)` for the two taking a CFURLRef (their Swift faces,
// taking `url as CFURL`, are in CoreFoundation/SwiftBridging.swift). Nothing here traps on what a
// caller passes: every bad argument is one of Apple's codes.

/// The live extended audio files, by ExtAudioFileRef (a ``HandleTable``, tag 4).
enum ExtAudioFileTable {
    static let table = HandleTable<ExtAudioFileObject>(tag: 4)

    /// How many are live (for tests: nothing leaks).
    static var liveCount: Int { table.count }
}

/// Runs `body` on the object behind `handle`, holding its lock: `kAudio_ParamError` for NULL or a
/// disposed handle.
private func withExtAudioFile(_ handle: ExtAudioFileRef?, _ body: (ExtAudioFileObject) throws(ExtStatus) -> Void) -> OSStatus {
    guard let handle, let object = ExtAudioFileTable.table.object(handle) else { return kAudio_ParamError }
    object.lock.lock()
    defer { object.lock.unlock() }
    if object.disposed { return kAudio_ParamError }
    return osStatus { () throws(ExtStatus) in try body(object) }
}

/// Opens the file at `path` to read and stores its new handle.
func openExtAudioFile(path: String, _ out: UnsafeMutablePointer<ExtAudioFileRef?>) throws(ExtStatus) {
    var file: AudioFileID?
    do throws(FileStatus) {
        try openAudioFile(path: path, permissions: .readPermission, &file)
    } catch {
        throw ExtStatus(error.status)
    }
    guard let file else { throw .parameter }
    do {
        out.pointee = ExtAudioFileTable.table.insert(try ExtAudioFileObject(file: file, ownsFile: true, isWriting: false))
    } catch {
        AudioFileClose(file)
        throw error
    }
}

/// `ExtAudioFileOpenURL` from C: opens a file URL (CoreFoundation/CFURL.h) to read.
@c(ExtAudioFileOpenURL)
public func _ExtAudioFileOpenURL(_ inURL: UnsafeRawPointer?, _ outExtAudioFile: UnsafeMutablePointer<ExtAudioFileRef?>?) -> OSStatus {
    osStatus { () throws(ExtStatus) in
        guard let outExtAudioFile else { throw .parameter }
        outExtAudioFile.pointee = nil
        guard let url = cfURL(inURL) else { throw .parameter }
        try openExtAudioFile(path: url.path, outExtAudioFile)
    }
}

/// The description a file is created with: what FormatInfo completes of `given` (a compressed
/// format may give only its ID, rate and channels).
private func completedFileFormat(_ given: AudioStreamBasicDescription) throws(ExtStatus) -> AudioStreamBasicDescription {
    // As many channels as a file states (and a float frame of them can count in bytes).
    guard given.mSampleRate.isFinite, given.mSampleRate > 0, given.mChannelsPerFrame > 0,
          given.mChannelsPerFrame <= FileLimits.channels else { throw .invalidDataFormat }
    var completed = given
    if given.mFormatID == kAudioFormatLinearPCM {
        guard let layout = PCMLayout(given) else { throw .invalidDataFormat }
        completed = layout.description
    } else {
        // What the format fixes (packet sizes, frames a packet); a format FormatInfo does not know
        // is left as given, for the converter and the container to judge.
        var filled = given
        if (try? FormatInfo.complete(&filled, cookie: nil)) != nil { completed = filled }
    }
    return completed
}

/// Creates the file at `path` to write and stores its new handle.
func createExtAudioFile(path: String, type: AudioFileTypeID, format: UnsafePointer<AudioStreamBasicDescription>?,
                        layout: UnsafePointer<AudioChannelLayout>?, flags: UInt32, _ out: UnsafeMutablePointer<ExtAudioFileRef?>) throws(ExtStatus) {
    guard let given = format?.pointee else { throw .parameter }
    var fileFormat = try completedFileFormat(given)
    var layoutBytes: [UInt8]?
    if let layout {
        let raw = UnsafeRawPointer(layout)
        let count = Int(raw.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
        guard count <= PCMLayout.maximumChannels else { throw .parameter }
        let bytes = Array(UnsafeRawBufferPointer(start: raw, count: 12 + count * MemoryLayout<AudioChannelDescription>.stride))
        guard Int(ChannelLayouts.channelCount(of: bytes)) == Int(fileFormat.mChannelsPerFrame) else { throw .invalidChannelMap }
        layoutBytes = bytes
    }
    // A format this machine cannot encode fails here, before the file is touched (AAC at a rate
    // MPEG-4 does not have, Apple Lossless without FFmpeg, ...).
    if fileFormat.mFormatID != kAudioFormatLinearPCM {
        var pcm = AudioStreamBasicDescription(mSampleRate: fileFormat.mSampleRate, mFormatID: kAudioFormatLinearPCM,
                                              mFormatFlags: kAudioFormatFlagsNativeFloatPacked, mBytesPerPacket: 4 * fileFormat.mChannelsPerFrame,
                                              mFramesPerPacket: 1, mBytesPerFrame: 4 * fileFormat.mChannelsPerFrame,
                                              mChannelsPerFrame: fileFormat.mChannelsPerFrame, mBitsPerChannel: 32, mReserved: 0)
        var trial: AudioConverterRef?
        try check(AudioConverterNew(&pcm, &fileFormat, &trial))
        if let trial { AudioConverterDispose(trial) }
    }
    var file: AudioFileID?
    do throws(FileStatus) {
        try createAudioFile(path: path, type: type, format: &fileFormat, flags: AudioFileFlags(rawValue: flags), &file)
    } catch {
        throw ExtStatus(error.status)
    }
    guard let file else { throw .parameter }
    do {
        let object = try ExtAudioFileObject(file: file, ownsFile: true, isWriting: true, layout: layoutBytes)
        try object.storeFileLayout()
        out.pointee = ExtAudioFileTable.table.insert(object)
    } catch {
        AudioFileClose(file)
        throw error
    }
}

/// `ExtAudioFileCreateWithURL` from C: creates a file at a file URL (CoreFoundation/CFURL.h).
@c(ExtAudioFileCreateWithURL)
public func _ExtAudioFileCreateWithURL(_ inURL: UnsafeRawPointer?, _ inFileType: AudioFileTypeID,
                                       _ inStreamDesc: UnsafePointer<AudioStreamBasicDescription>?,
                                       _ inChannelLayout: UnsafePointer<AudioChannelLayout>?, _ inFlags: UInt32,
                                       _ outExtAudioFile: UnsafeMutablePointer<ExtAudioFileRef?>?) -> OSStatus {
    osStatus { () throws(ExtStatus) in
        guard let outExtAudioFile else { throw .parameter }
        outExtAudioFile.pointee = nil
        guard let url = cfURL(inURL) else { throw .parameter }
        try createExtAudioFile(path: url.path, type: inFileType, format: inStreamDesc, layout: inChannelLayout, flags: inFlags, outExtAudioFile)
    }
}

/// Wraps an open AudioFileID (`ExtAudioFileWrapAudioFileID`); the caller still closes it.
@c @implementation
public func ExtAudioFileWrapAudioFileID(_ inFileID: AudioFileID?, _ inForWriting: Bool,
                                        _ outExtAudioFile: UnsafeMutablePointer<ExtAudioFileRef?>?) -> OSStatus {
    osStatus { () throws(ExtStatus) in
        guard let outExtAudioFile else { throw .parameter }
        outExtAudioFile.pointee = nil
        let open: OpenAudioFile
        do throws(FileStatus) {
            open = try AudioFileTable.file(inFileID)
        } catch {
            throw ExtStatus(error.status)
        }
        guard let inFileID else { throw .parameter }
        if inForWriting && !open.isWritable { throw .permissions }
        let object = try ExtAudioFileObject(file: inFileID, ownsFile: false, isWriting: inForWriting)
        outExtAudioFile.pointee = ExtAudioFileTable.table.insert(object)
    }
}

/// Finishes and frees an extended audio file (`ExtAudioFileDispose`).
@c @implementation
public func ExtAudioFileDispose(_ inExtAudioFile: ExtAudioFileRef?) -> OSStatus {
    guard let inExtAudioFile, let object = ExtAudioFileTable.table.remove(inExtAudioFile) else { return kAudio_ParamError }
    var first: OSStatus = noErr
    // The asynchronous writer first, outside the lock its thread takes: what it holds is written.
    object.stopAsyncWriter()
    let asyncFailure = object.asyncFailure
    if asyncFailure != noErr { first = asyncFailure }
    object.lock.lock()
    defer { object.lock.unlock() }
    object.disposed = true
    let finished = osStatus { () throws(ExtStatus) in try object.finishWriting() }
    if first == noErr { first = finished }
    object.releaseConverter()
    if object.ownsFile {
        let closed = AudioFileClose(object.file)
        if first == noErr { first = closed }
    }
    return first
}

/// Reads frames in the client format (`ExtAudioFileRead`).
@c @implementation
public func ExtAudioFileRead(_ inExtAudioFile: ExtAudioFileRef?, _ ioNumberFrames: UnsafeMutablePointer<UInt32>?,
                             _ ioData: UnsafeMutablePointer<AudioBufferList>?) -> OSStatus {
    withExtAudioFile(inExtAudioFile) { object throws(ExtStatus) in
        guard let ioNumberFrames else { throw .parameter }
        let wanted = Int(ioNumberFrames.pointee)
        ioNumberFrames.pointee = 0
        guard let ioData else { throw .parameter }
        let (frames, status) = try object.read(wanted, into: ioData)
        ioNumberFrames.pointee = UInt32(frames)
        try check(status)
    }
}

/// Writes frames in the client format (`ExtAudioFileWrite`).
@c @implementation
public func ExtAudioFileWrite(_ inExtAudioFile: ExtAudioFileRef?, _ inNumberFrames: UInt32,
                              _ ioData: UnsafePointer<AudioBufferList>?) -> OSStatus {
    guard let inExtAudioFile, let object = ExtAudioFileTable.table.object(inExtAudioFile) else { return kAudio_ParamError }
    object.drainAsyncWriter()   // what was queued before goes first
    return withExtAudioFile(inExtAudioFile) { object throws(ExtStatus) in
        try object.write(Int(inNumberFrames), from: ioData)
    }
}

/// Queues frames to be written on the object's own thread (`ExtAudioFileWriteAsync`); 0 frames
/// and NULL make the queue and start the thread.
@c @implementation
public func ExtAudioFileWriteAsync(_ inExtAudioFile: ExtAudioFileRef?, _ inNumberFrames: UInt32,
                                   _ ioData: UnsafePointer<AudioBufferList>?) -> OSStatus {
    guard let inExtAudioFile, let object = ExtAudioFileTable.table.object(inExtAudioFile) else { return kAudio_ParamError }
    return object.writeAsync(Int(inNumberFrames), ioData)
}

/// Moves the read position (`ExtAudioFileSeek`), in the file's frames.
@c @implementation
public func ExtAudioFileSeek(_ inExtAudioFile: ExtAudioFileRef?, _ inFrameOffset: Int64) -> OSStatus {
    withExtAudioFile(inExtAudioFile) { object throws(ExtStatus) in try object.seek(inFrameOffset) }
}

/// The read or write position (`ExtAudioFileTell`), in the file's frames.
@c @implementation
public func ExtAudioFileTell(_ inExtAudioFile: ExtAudioFileRef?, _ outFrameOffset: UnsafeMutablePointer<Int64>?) -> OSStatus {
    withExtAudioFile(inExtAudioFile) { object throws(ExtStatus) in
        guard let outFrameOffset else { throw .parameter }
        outFrameOffset.pointee = object.tell
    }
}

/// A property's size and whether it can be set (`ExtAudioFileGetPropertyInfo`).
@c @implementation
public func ExtAudioFileGetPropertyInfo(_ inExtAudioFile: ExtAudioFileRef?, _ inPropertyID: ExtAudioFilePropertyID,
                                        _ outSize: UnsafeMutablePointer<UInt32>?, _ outWritable: UnsafeMutablePointer<Bool>?) -> OSStatus {
    withExtAudioFile(inExtAudioFile) { object throws(ExtStatus) in
        let value = try ExtAudioFileProperties.value(inPropertyID, of: object)
        outSize?.pointee = UInt32(value.count)
        outWritable?.pointee = ExtAudioFileProperties.isWritable(inPropertyID, of: object)
    }
}

/// A property's value (`ExtAudioFileGetProperty`): `*ioPropertyDataSize` is the room on entry,
/// the bytes written on return.
@c @implementation
public func ExtAudioFileGetProperty(_ inExtAudioFile: ExtAudioFileRef?, _ inPropertyID: ExtAudioFilePropertyID,
                                    _ ioPropertyDataSize: UnsafeMutablePointer<UInt32>?, _ outPropertyData: UnsafeMutableRawPointer?) -> OSStatus {
    withExtAudioFile(inExtAudioFile) { object throws(ExtStatus) in
        guard let ioPropertyDataSize, let outPropertyData else { throw .parameter }
        let value = try ExtAudioFileProperties.value(inPropertyID, of: object)
        guard Int(ioPropertyDataSize.pointee) >= value.count else { throw .invalidPropertySize }
        value.withUnsafeBytes { if !$0.isEmpty { outPropertyData.copyMemory(from: $0.baseAddress!, byteCount: $0.count) } }
        ioPropertyDataSize.pointee = UInt32(value.count)
    }
}

/// Sets a property (`ExtAudioFileSetProperty`).
@c @implementation
public func ExtAudioFileSetProperty(_ inExtAudioFile: ExtAudioFileRef?, _ inPropertyID: ExtAudioFilePropertyID,
                                    _ inPropertyDataSize: UInt32, _ inPropertyData: UnsafeRawPointer?) -> OSStatus {
    guard let inExtAudioFile, let object = ExtAudioFileTable.table.object(inExtAudioFile) else { return kAudio_ParamError }
    // A new client format replaces the asynchronous queue: what it holds is written first.
    if inPropertyID == kExtAudioFileProperty_ClientDataFormat { object.stopAsyncWriter() }
    return withExtAudioFile(inExtAudioFile) { object throws(ExtStatus) in
        guard inPropertyDataSize == 0 || inPropertyData != nil else { throw .parameter }
        try ExtAudioFileProperties.set(inPropertyID, of: object,
                                       UnsafeRawBufferPointer(start: inPropertyDataSize == 0 ? nil : inPropertyData, count: Int(inPropertyDataSize)))
    }
}
