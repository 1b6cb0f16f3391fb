#if canImport(Glibc)
import Glibc
#endif
// Audio File Services' functions, for C (AudioToolbox/AudioFile.h) and Swift at once. Those whose
// signatures hold no Core Foundation type are `@c @implementation` (the compiler checks them
// against the header); the two taking a CFURLRef are `@c(Name)` (Swift cannot spell a CF class in
// a C signature). Nothing here traps on what a caller passes: every bad argument is Apple's code.

/// Opens the file at `path` for reading and stores its new ID.
func openAudioFile(path: String, permissions: AudioFilePermissions,
                   _ outAudioFile: UnsafeMutablePointer<AudioFileID?>) throws(FileStatus) {
    switch permissions {
    case .readPermission: break
    // Rewriting an existing file in place is not offered yet: create a new one.
    case .writePermission, .readWritePermission: throw .operationNotSupported
    default: throw .parameter
    }
    let file = try OpenAudioFile.open(try DescriptorSource(path: path))
    outAudioFile.pointee = AudioFileTable.insert(file)
}

/// `AudioFileOpenURL` from C: opens a file URL (CoreFoundation/CFURL.h) for reading.
@c(AudioFileOpenURL)
public func _AudioFileOpenURL(_ inFileRef: UnsafeRawPointer?, _ inPermissions: AudioFilePermissions,
                              _ inFileTypeHint: AudioFileTypeID, _ outAudioFile: UnsafeMutablePointer<AudioFileID?>?) -> OSStatus {
    osStatus { () throws(FileStatus) in
        guard let outAudioFile else { throw .parameter }
        outAudioFile.pointee = nil
        guard let url = cfURL(inFileRef) else { throw .parameter }
        try openAudioFile(path: url.path, permissions: inPermissions, outAudioFile)
    }
}

/// Creates the file at `path` (erasing one there when `flags` say so, else `dupFNErr`) for
/// `format` in a file of `type`, open to write and read back, and stores its new ID.
func createAudioFile(path: String, type: AudioFileTypeID, format: UnsafePointer<AudioStreamBasicDescription>?,
                     flags: AudioFileFlags, _ outAudioFile: UnsafeMutablePointer<AudioFileID?>) throws(FileStatus) {
    guard let format = format?.pointee else { throw .parameter }
    guard let container = containerWriter(for: type) else { throw .unsupportedFileType }
    try container.check(format)   // before the file is touched
    let erase = flags.contains(.eraseFile)
    let file = try DescriptorSource(path: path, flags: O_RDWR | O_CREAT | (erase ? O_TRUNC : O_EXCL))
    do {
        outAudioFile.pointee = AudioFileTable.insert(try OpenAudioFile.create(type: type, format: format, sink: file, source: file))
    } catch {
        if !erase { unlink(path) }   // the file this call made
        throw error
    }
}

/// `AudioFileCreateWithURL` from C: creates a file at a file URL (CoreFoundation/CFURL.h).
@c(AudioFileCreateWithURL)
public func _AudioFileCreateWithURL(_ inFileRef: UnsafeRawPointer?, _ inFileType: AudioFileTypeID,
                                    _ inFormat: UnsafePointer<AudioStreamBasicDescription>?, _ inFlags: AudioFileFlags,
                                    _ outAudioFile: UnsafeMutablePointer<AudioFileID?>?) -> OSStatus {
    osStatus { () throws(FileStatus) in
        guard let outAudioFile else { throw .parameter }
        outAudioFile.pointee = nil
        guard let url = cfURL(inFileRef) else { throw .parameter }
        try createAudioFile(path: url.path, type: inFileType, format: inFormat, flags: inFlags, outAudioFile)
    }
}

/// Opens a file whose bytes the caller's callbacks serve (`AudioFileOpenWithCallbacks`).
@c @implementation
public func AudioFileOpenWithCallbacks(_ inClientData: UnsafeMutableRawPointer?, _ inReadFunc: AudioFile_ReadProc?,
                                       _ inWriteFunc: AudioFile_WriteProc?, _ inGetSizeFunc: AudioFile_GetSizeProc?,
                                       _ inSetSizeFunc: AudioFile_SetSizeProc?, _ inFileTypeHint: AudioFileTypeID,
                                       _ outAudioFile: UnsafeMutablePointer<AudioFileID?>?) -> OSStatus {
    osStatus { () throws(FileStatus) in
        guard let outAudioFile else { throw .parameter }
        outAudioFile.pointee = nil
        guard let inReadFunc, let inGetSizeFunc else { throw .parameter }
        let file = try OpenAudioFile.open(CallbackSource(clientData: inClientData, read: inReadFunc, getSize: inGetSizeFunc))
        outAudioFile.pointee = AudioFileTable.insert(file)
    }
}

/// Starts a new file in storage the caller's callbacks keep (`AudioFileInitializeWithCallbacks`):
/// the write and set-size callbacks are required, the read ones let the file be read back.
@c @implementation
public func AudioFileInitializeWithCallbacks(_ inClientData: UnsafeMutableRawPointer?, _ inReadFunc: AudioFile_ReadProc?,
                                             _ inWriteFunc: AudioFile_WriteProc?, _ inGetSizeFunc: AudioFile_GetSizeProc?,
                                             _ inSetSizeFunc: AudioFile_SetSizeProc?, _ inFileType: AudioFileTypeID,
                                             _ inFormat: UnsafePointer<AudioStreamBasicDescription>?, _ inFlags: AudioFileFlags,
                                             _ outAudioFile: UnsafeMutablePointer<AudioFileID?>?) -> OSStatus {
    osStatus { () throws(FileStatus) in
        guard let outAudioFile else { throw .parameter }
        outAudioFile.pointee = nil
        guard let inWriteFunc, let inSetSizeFunc, let format = inFormat?.pointee else { throw .parameter }
        let source = inReadFunc.flatMap { read in
            inGetSizeFunc.map { CallbackSource(clientData: inClientData, read: read, getSize: $0) }
        }
        let sink = CallbackSink(clientData: inClientData, write: inWriteFunc, setSize: inSetSizeFunc)
        outAudioFile.pointee = AudioFileTable.insert(try OpenAudioFile.create(type: inFileType, format: format, sink: sink,
                                                                              source: source))
    }
}

/// Closes the file (`AudioFileClose`); its ID is stale from then on. A file being written gets its
/// header's sizes and its trailer (CAF's packet table, MPEG-4's movie box) first; their write's
/// error is returned, and the ID is closed all the same.
@c @implementation
public func AudioFileClose(_ inAudioFile: AudioFileID?) -> OSStatus {
    osStatus { () throws(FileStatus) in try AudioFileTable.remove(inAudioFile).finish() }
}

/// Brings a file being written up to date on disk: its header's sizes and its trailer
/// (`AudioFileOptimize`); `kAudioFilePermissionsError` for a file opened to read.
@c @implementation
public func AudioFileOptimize(_ inAudioFile: AudioFileID?) -> OSStatus {
    osStatus { () throws(FileStatus) in
        let file = try AudioFileTable.file(inAudioFile)
        guard file.isWritable else { throw .permissions }
        try file.finish()
    }
}

/// Reads bytes of audio data (`AudioFileReadBytes`), counted from the data's start.
@c @implementation
public func AudioFileReadBytes(_ inAudioFile: AudioFileID?, _ inUseCache: Bool, _ inStartingByte: Int64,
                               _ ioNumBytes: UnsafeMutablePointer<UInt32>?, _ outBuffer: UnsafeMutableRawPointer?) -> OSStatus {
    osStatus { () throws(FileStatus) in
        let file = try AudioFileTable.file(inAudioFile)
        guard let ioNumBytes else { throw .parameter }
        let wanted = Int(ioNumBytes.pointee)
        guard inStartingByte >= 0 else {
            ioNumBytes.pointee = 0
            throw .position
        }
        guard wanted > 0 else { return }
        guard let outBuffer else { throw .parameter }
        let got = try file.readData(at: inStartingByte, count: wanted, into: outBuffer)
        ioNumBytes.pointee = UInt32(got)
        if got < wanted { throw .endOfFile }
    }
}

/// Writes bytes of audio data at a place in the data (`AudioFileWriteBytes`): formats of
/// constant-size packets, at or before the data's end (`kAudioFilePositionError` past it).
@c @implementation
public func AudioFileWriteBytes(_ inAudioFile: AudioFileID?, _ inUseCache: Bool, _ inStartingByte: Int64,
                                _ ioNumBytes: UnsafeMutablePointer<UInt32>?, _ inBuffer: UnsafeRawPointer?) -> OSStatus {
    osStatus { () throws(FileStatus) in
        let file = try AudioFileTable.file(inAudioFile)
        guard let ioNumBytes else { throw .parameter }
        let count = Int(ioNumBytes.pointee)
        ioNumBytes.pointee = 0
        guard file.isWritable else { throw .permissions }
        guard count > 0 else { return }
        guard let inBuffer else { throw .parameter }
        try file.write { (writer, layout) throws(FileStatus) in
            try writer.writeBytes(&layout, buffer: inBuffer, start: inStartingByte, count: count)
        }
        ioNumBytes.pointee = UInt32(count)
    }
}

/// Reads whole packets that fit in the room given (`AudioFileReadPacketData`).
@c @implementation
public func AudioFileReadPacketData(_ inAudioFile: AudioFileID?, _ inUseCache: Bool, _ ioNumBytes: UnsafeMutablePointer<UInt32>?,
                                    _ outPacketDescriptions: UnsafeMutablePointer<AudioStreamPacketDescription>?,
                                    _ inStartingPacket: Int64, _ ioNumPackets: UnsafeMutablePointer<UInt32>?,
                                    _ outBuffer: UnsafeMutableRawPointer?) -> OSStatus {
    osStatus { () throws(FileStatus) in
        let file = try AudioFileTable.file(inAudioFile)
        guard let ioNumBytes, let ioNumPackets else { throw .parameter }
        try readPackets(file, room: Int(ioNumBytes.pointee), ioNumBytes: ioNumBytes, outPacketDescriptions,
                        inStartingPacket, ioNumPackets, outBuffer, endIsError: true)
    }
}

/// Reads packets into a buffer sized for them at the maximum packet size (`AudioFileReadPackets`,
/// deprecated by Apple): at the end of the data, fewer or none with noErr.
@c @implementation
public func AudioFileReadPackets(_ inAudioFile: AudioFileID?, _ inUseCache: Bool, _ outNumBytes: UnsafeMutablePointer<UInt32>?,
                                 _ outPacketDescriptions: UnsafeMutablePointer<AudioStreamPacketDescription>?,
                                 _ inStartingPacket: Int64, _ ioNumPackets: UnsafeMutablePointer<UInt32>?,
                                 _ outBuffer: UnsafeMutableRawPointer?) -> OSStatus {
    osStatus { () throws(FileStatus) in
        let file = try AudioFileTable.file(inAudioFile)
        guard let outNumBytes, let ioNumPackets else { throw .parameter }
        let room = Int(ioNumPackets.pointee) * Int(max(file.layout.maximumPacketSize, 1))
        try readPackets(file, room: room, ioNumBytes: outNumBytes, outPacketDescriptions, inStartingPacket, ioNumPackets,
                        outBuffer, endIsError: false)
    }
}

/// The work of both packet reads: whole packets from `start`, as many as asked that fit in `room`.
private func readPackets(_ file: OpenAudioFile, room: Int, ioNumBytes: UnsafeMutablePointer<UInt32>,
                         _ descriptions: UnsafeMutablePointer<AudioStreamPacketDescription>?, _ start: Int64,
                         _ ioNumPackets: UnsafeMutablePointer<UInt32>, _ outBuffer: UnsafeMutableRawPointer?,
                         endIsError: Bool) throws(FileStatus) {
    let layout = file.layout
    let asked = Int64(ioNumPackets.pointee)
    ioNumPackets.pointee = 0
    ioNumBytes.pointee = 0
    guard start >= 0 else { throw .invalidPacketOffset }
    guard asked > 0 else { return }
    guard start < layout.packetCount else {
        if endIsError { throw .endOfFile }
        return
    }
    guard let outBuffer else { throw .parameter }
    let variable = layout.packets != nil
    if variable && descriptions == nil { throw .parameter }   // variable packets need their descriptions
    let constant = Int64(layout.format.mBytesPerPacket)
    if !variable, constant > 0 {
        // Packets of one size follow each other (linear PCM, IMA4, G.711): as many as fit, in one
        // read (a 16 KB buffer of 16-bit mono is 8,192 packets, not worth a look each).
        let count = min(asked, layout.packetCount - start, Int64(room) / constant)
        guard count > 0 else { throw .parameter }   // not room for one packet
        let bytes = Int(count * constant)
        let got = try file.readData(at: start * constant, count: bytes, into: outBuffer)
        guard got == bytes else { throw .invalidFile }   // the file shrank under us
        ioNumPackets.pointee = UInt32(count)
        ioNumBytes.pointee = UInt32(bytes)
        return
    }
    // Which packets fit.
    var count: Int64 = 0
    var bytes = 0
    while count < asked, start + count < layout.packetCount {
        let size = layout.packet(start + count).size
        guard bytes + size <= room else { break }
        bytes += size
        count += 1
    }
    guard count > 0 else { throw .parameter }   // not room for one packet
    // Packets follow each other in CAF and WAVE data; in an MPEG-4 file each run of them (a chunk)
    // is read where it is. Contiguous packets are read in one call.
    var filled = 0
    var index: Int64 = 0
    while index < count {
        let run = layout.packet(start + index)
        var runBytes = run.size
        var next = index + 1
        while next < count, layout.packet(start + next).offset == run.offset + Int64(runBytes) {
            runBytes += layout.packet(start + next).size
            next += 1
        }
        let got = try file.readData(at: run.offset, count: runBytes, into: outBuffer + filled)
        guard got == runBytes else { throw .invalidFile }   // the file shrank under us
        filled += runBytes
        index = next
    }
    if variable, let descriptions {
        var offsetInBuffer: Int64 = 0
        for index in 0..<Int(count) {
            let packet = layout.packets![Int(start) + index]
            defer { offsetInBuffer += Int64(packet.mDataByteSize) }
            descriptions[index] = AudioStreamPacketDescription(mStartOffset: offsetInBuffer,
                                                               mVariableFramesInPacket: packet.mVariableFramesInPacket,
                                                               mDataByteSize: packet.mDataByteSize)
        }
    }
    ioNumPackets.pointee = UInt32(count)
    ioNumBytes.pointee = UInt32(bytes)
}

/// Writes packets (`AudioFileWritePackets`): constant-size ones at any packet up to the end,
/// variable ones (which need their descriptions) appended at the end.
@c @implementation
public func AudioFileWritePackets(_ inAudioFile: AudioFileID?, _ inUseCache: Bool, _ inNumBytes: UInt32,
                                  _ inPacketDescriptions: UnsafePointer<AudioStreamPacketDescription>?, _ inStartingPacket: Int64,
                                  _ ioNumPackets: UnsafeMutablePointer<UInt32>?, _ inBuffer: UnsafeRawPointer?) -> OSStatus {
    osStatus { () throws(FileStatus) in
        let file = try AudioFileTable.file(inAudioFile)
        guard let ioNumPackets else { throw .parameter }
        let count = Int(ioNumPackets.pointee)
        ioNumPackets.pointee = 0
        guard file.isWritable else { throw .permissions }
        guard count > 0 else { return }
        guard let inBuffer else { throw .parameter }
        let written = try file.write { (writer, layout) throws(FileStatus) -> Int in
            try writer.writePackets(&layout, buffer: inBuffer, byteCount: Int(inNumBytes), descriptions: inPacketDescriptions,
                                    start: inStartingPacket, count: count)
        }
        ioNumPackets.pointee = UInt32(written)
    }
}

/// A property's size, and whether it can be set (`AudioFileGetPropertyInfo`): a file being written
/// takes its magic cookie, channel layout, packet table (CAF, MPEG-4) and, before any data, its
/// data format.
@c @implementation
public func AudioFileGetPropertyInfo(_ inAudioFile: AudioFileID?, _ inPropertyID: AudioFilePropertyID,
                                     _ outDataSize: UnsafeMutablePointer<UInt32>?, _ isWritable: UnsafeMutablePointer<UInt32>?) -> OSStatus {
    osStatus { () throws(FileStatus) in
        let file = try AudioFileTable.file(inAudioFile)
        let settable = file.isWritable && (try? file.write { (writer, _) in writer.canSet(inPropertyID) }) == true
        let size: Int
        do throws(FileStatus) {
            size = try FileProperty.size(inPropertyID, of: file.layout, optimized: file.isOptimized)
        } catch where error == .unsupportedProperty && settable {
            size = 0   // settable, not set yet (a cookie, a channel layout)
        }
        outDataSize?.pointee = UInt32(size)
        isWritable?.pointee = settable ? 1 : 0
    }
}

/// A property's value (`AudioFileGetProperty`): `*ioDataSize` is the room on entry, the bytes written on return.
@c @implementation
public func AudioFileGetProperty(_ inAudioFile: AudioFileID?, _ inPropertyID: AudioFilePropertyID,
                                 _ ioDataSize: UnsafeMutablePointer<UInt32>?, _ outPropertyData: UnsafeMutableRawPointer?) -> OSStatus {
    osStatus { () throws(FileStatus) in
        let file = try AudioFileTable.file(inAudioFile)
        guard let ioDataSize, let outPropertyData else { throw .parameter }
        let room = Int(ioDataSize.pointee)
        if inPropertyID == kAudioFilePropertyInfoDictionary {
            // A new CFDictionaryRef, retained for the caller (who releases it).
            guard room >= MemoryLayout<UnsafeRawPointer>.size else { throw .badPropertySize }
            outPropertyData.storeBytes(of: InfoDictionary.make(file.layout), as: UnsafeRawPointer.self)
            ioDataSize.pointee = UInt32(MemoryLayout<UnsafeRawPointer>.size)
            return
        }
        let input = UnsafeRawBufferPointer(start: outPropertyData, count: room)
        let answer = try FileProperty.value(inPropertyID, of: file.layout, optimized: file.isOptimized, question: input)
        guard room >= answer.count else { throw .badPropertySize }
        answer.withUnsafeBytes { outPropertyData.copyMemory(from: $0.baseAddress!, byteCount: answer.count) }
        ioDataSize.pointee = UInt32(answer.count)
    }
}

/// Sets a property of a file being written (`AudioFileSetProperty`): its magic cookie, channel
/// layout, packet table (CAF, MPEG-4) and, before any data, its data format. A file opened for
/// reading: `kAudioFilePermissionsError` for a property it has, `kAudioFileUnsupportedPropertyError`
/// for one it has not.
@c @implementation
public func AudioFileSetProperty(_ inAudioFile: AudioFileID?, _ inPropertyID: AudioFilePropertyID, _ inDataSize: UInt32,
                                 _ inPropertyData: UnsafeRawPointer?) -> OSStatus {
    osStatus { () throws(FileStatus) in
        let file = try AudioFileTable.file(inAudioFile)
        guard file.isWritable else {
            _ = try FileProperty.size(inPropertyID, of: file.layout, optimized: true)
            throw .permissions
        }
        guard inDataSize == 0 || inPropertyData != nil else { throw .parameter }
        let data = UnsafeRawBufferPointer(start: inDataSize == 0 ? nil : inPropertyData, count: Int(inDataSize))
        try file.write { (writer, layout) throws(FileStatus) in try writer.setProperty(&layout, inPropertyID, data) }
    }
}
