// Audio File Stream Services' functions, for C (AudioToolbox/AudioFileStream.h) and Swift at once
// (`@c @implementation`: the compiler checks them against the header). An AudioFileStreamID is a
// generation-counted handle (HandleTable.swift): a closed stream's ID is kAudioFileNotOpenError
// (Apple's parser would be freed memory; Soundstage says so instead, as it does for AudioFileIDs).
//
// The callbacks run on the thread that calls AudioFileStreamParseBytes, with no lock held: a
// callback may ask for properties. Parsing the same stream again from inside its callback (or from
// another thread meanwhile), or seeking it, is kAudioFileStreamError_IllegalOperation; closing it
// there is honoured once the callback returns (no callback follows).
import NIOConcurrencyHelpers

/// The callbacks as C calls them, with the pointers Apple marks non-null allowed to be NULL (a
/// caller may open with NULL client data): the same function pointers, seen without the promise.
private typealias ListenerCall = @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, AudioFileStreamPropertyID,
                                                 UnsafeMutablePointer<AudioFileStreamPropertyFlags>?) -> Void
private typealias PacketsCall = @convention(c) (UnsafeMutableRawPointer?, UInt32, UInt32, UnsafeRawPointer?,
                                                UnsafeMutablePointer<AudioStreamPacketDescription>?) -> Void

/// An open stream parser: its callbacks and its parse.
final class FileStream: @unchecked Sendable {
    // @unchecked: `parser`, `parsing` and `closed` are touched under `lock` only; the rest never
    // changes after init. The lock is let go around each callback, never held during one.
    private let lock = NIOLock()
    private let clientData: UnsafeMutableRawPointer?
    private let listener: ListenerCall
    private let packets: PacketsCall
    private let parser: StreamParser
    private var parsing = false
    private var closed = false
    /// The stream's own ID, for the listener's second argument.
    private var handle: AudioFileStreamID?

    fileprivate init(clientData: UnsafeMutableRawPointer?, listener: @escaping AudioFileStream_PropertyListenerProc,
                     packets: @escaping AudioFileStream_PacketsProc, hint: AudioFileTypeID) {
        self.clientData = clientData
        self.listener = unsafeBitCast(listener, to: ListenerCall.self)
        self.packets = unsafeBitCast(packets, to: PacketsCall.self)
        self.parser = StreamParser(hint: hint)
    }

    /// AudioFileStreamParseBytes: parses `input`, calling back for each event; `atEnd` for a flush.
    fileprivate func parse(_ input: UnsafeRawBufferPointer, discontinuity: Bool, atEnd: Bool) throws(FileStatus) {
        lock.lock()
        guard !parsing else {
            lock.unlock()
            throw .illegalOperation
        }
        guard !closed else {
            lock.unlock()
            throw .notOpen
        }
        parsing = true
        defer {
            parsing = false
            lock.unlock()
        }
        let handle = self.handle
        try parser.begin(discontinuity: discontinuity)
        var rest = input[...]
        while let event = try parser.next(&rest, atEnd: atEnd) {
            lock.unlock()
            deliver(event, handle)
            lock.lock()
            if closed { return }
        }
    }

    private func deliver(_ event: StreamEvent, _ handle: AudioFileStreamID?) {
        switch event {
        case .property(let id):
            var flags: AudioFileStreamPropertyFlags = .propertyIsCached   // every value is kept
            listener(clientData, handle, id, &flags)
        case .packets(let bytes, let count, var descriptions):
            bytes.withUnsafeBytes { raw in
                if descriptions == nil {
                    packets(clientData, UInt32(raw.count), UInt32(count), raw.baseAddress, nil)
                } else {
                    descriptions!.withUnsafeMutableBufferPointer {
                        packets(clientData, UInt32(raw.count), UInt32(count), raw.baseAddress, $0.baseAddress)
                    }
                }
            }
        }
    }

    /// Runs `body` on the parser under the lock, refusing while a parse is under way when `idle`.
    fileprivate func withParser<T>(idle: Bool = false, _ body: (StreamParser) throws(FileStatus) -> T) throws(FileStatus) -> T {
        lock.lock()
        defer { lock.unlock() }
        guard !closed else { throw .notOpen }
        if idle && parsing { throw .illegalOperation }
        return try body(parser)
    }

    /// Tells the stream its ID (once, when it is opened).
    fileprivate func setHandle(_ id: AudioFileStreamID) { lock.withLock { handle = id } }

    /// AudioFileStreamClose: no callback follows.
    fileprivate func close() {
        lock.withLock { closed = true }
    }
}

/// The open streams, by AudioFileStreamID.
enum FileStreamTable {
    private static let streams = HandleTable<FileStream>(tag: 3)

    fileprivate static func insert(_ stream: FileStream) -> AudioFileStreamID { streams.insert(stream) }

    /// The stream behind `id`: `kAudio_ParamError` for NULL, `kAudioFileNotOpenError` for one closed
    /// or never opened.
    static func stream(_ id: AudioFileStreamID?) throws(FileStatus) -> FileStream {
        guard let id else { throw .parameter }
        guard let stream = streams.object(id) else { throw .notOpen }
        return stream
    }

    fileprivate static func remove(_ id: AudioFileStreamID?) throws(FileStatus) -> FileStream {
        guard let id else { throw .parameter }
        guard let stream = streams.remove(id) else { throw .notOpen }
        return stream
    }

    /// How many streams are open (for tests: nothing leaks).
    static var openCount: Int { streams.count }
}

/// Opens a stream parser (`AudioFileStreamOpen`).
@c @implementation
public func AudioFileStreamOpen(_ inClientData: UnsafeMutableRawPointer?, _ inPropertyListenerProc: AudioFileStream_PropertyListenerProc?,
                                _ inPacketsProc: AudioFileStream_PacketsProc?, _ inFileTypeHint: AudioFileTypeID,
                                _ outAudioFileStream: UnsafeMutablePointer<AudioFileStreamID?>?) -> OSStatus {
    osStatus { () throws(FileStatus) in
        guard let outAudioFileStream else { throw .parameter }
        outAudioFileStream.pointee = nil
        guard let inPropertyListenerProc, let inPacketsProc else { throw .parameter }
        let stream = FileStream(clientData: inClientData, listener: inPropertyListenerProc, packets: inPacketsProc,
                                hint: inFileTypeHint)
        let id = FileStreamTable.insert(stream)
        stream.setHandle(id)
        outAudioFileStream.pointee = id
    }
}

/// Parses the next bytes (`AudioFileStreamParseBytes`); NULL and 0 flush the end of the stream.
@c @implementation
public func AudioFileStreamParseBytes(_ inAudioFileStream: AudioFileStreamID?, _ inDataByteSize: UInt32,
                                      _ inData: UnsafeRawPointer?, _ inFlags: AudioFileStreamParseFlags) -> OSStatus {
    osStatus { () throws(FileStatus) in
        let stream = try FileStreamTable.stream(inAudioFileStream)
        guard inData != nil || inDataByteSize == 0 else { throw .parameter }
        let input = UnsafeRawBufferPointer(start: inDataByteSize == 0 ? nil : inData, count: Int(inDataByteSize))
        try stream.parse(input, discontinuity: inFlags.contains(.discontinuity), atEnd: inData == nil)
    }
}

/// The byte offset of a packet, counted from the data's start (`AudioFileStreamSeek`).
@c @implementation
public func AudioFileStreamSeek(_ inAudioFileStream: AudioFileStreamID?, _ inPacketOffset: Int64,
                                _ outDataByteOffset: UnsafeMutablePointer<Int64>?,
                                _ ioFlags: UnsafeMutablePointer<AudioFileStreamSeekFlags>?) -> OSStatus {
    osStatus { () throws(FileStatus) in
        let stream = try FileStreamTable.stream(inAudioFileStream)
        guard let outDataByteOffset, let ioFlags else { throw .parameter }
        let (offset, estimated) = try stream.withParser(idle: true) { (parser) throws(FileStatus) in
            try parser.seek(toPacket: inPacketOffset)
        }
        outDataByteOffset.pointee = offset
        ioFlags.pointee = estimated ? .offsetIsEstimated : []
    }
}

/// A property's size, and whether it can be set (never) (`AudioFileStreamGetPropertyInfo`).
@c @implementation
public func AudioFileStreamGetPropertyInfo(_ inAudioFileStream: AudioFileStreamID?, _ inPropertyID: AudioFileStreamPropertyID,
                                           _ outPropertyDataSize: UnsafeMutablePointer<UInt32>?,
                                           _ outWritable: UnsafeMutablePointer<Bool>?) -> OSStatus {
    osStatus { () throws(FileStatus) in
        let stream = try FileStreamTable.stream(inAudioFileStream)
        let size = try stream.withParser { (parser) throws(FileStatus) in try StreamProperty.size(inPropertyID, of: parser) }
        outPropertyDataSize?.pointee = UInt32(size)
        outWritable?.pointee = false
    }
}

/// A property's value (`AudioFileStreamGetProperty`): `*ioPropertyDataSize` is the room on entry,
/// the bytes written on return.
@c @implementation
public func AudioFileStreamGetProperty(_ inAudioFileStream: AudioFileStreamID?, _ inPropertyID: AudioFileStreamPropertyID,
                                       _ ioPropertyDataSize: UnsafeMutablePointer<UInt32>?,
                                       _ outPropertyData: UnsafeMutableRawPointer?) -> OSStatus {
    osStatus { () throws(FileStatus) in
        let stream = try FileStreamTable.stream(inAudioFileStream)
        guard let ioPropertyDataSize, let outPropertyData else { throw .parameter }
        let room = Int(ioPropertyDataSize.pointee)
        if inPropertyID == kAudioFileStreamProperty_InfoDictionary {
            // A new CFDictionaryRef, retained for the caller (who releases it).
            guard room >= MemoryLayout<UnsafeRawPointer>.size else { throw .badPropertySize }
            let dictionary = try stream.withParser { (parser) throws(FileStatus) in try StreamProperty.infoDictionary(of: parser) }
            outPropertyData.storeBytes(of: dictionary, as: UnsafeRawPointer.self)
            ioPropertyDataSize.pointee = UInt32(MemoryLayout<UnsafeRawPointer>.size)
            return
        }
        let question = UnsafeRawBufferPointer(start: outPropertyData, count: room)
        let answer = try stream.withParser { (parser) throws(FileStatus) in
            try StreamProperty.value(inPropertyID, of: parser, question: question)
        }
        guard room >= answer.count else { throw .badPropertySize }
        answer.withUnsafeBytes { outPropertyData.copyMemory(from: $0.baseAddress!, byteCount: answer.count) }
        ioPropertyDataSize.pointee = UInt32(answer.count)
    }
}

/// No property can be set (`AudioFileStreamSetProperty`).
@c @implementation
public func AudioFileStreamSetProperty(_ inAudioFileStream: AudioFileStreamID?, _ inPropertyID: AudioFileStreamPropertyID,
                                       _ inPropertyDataSize: UInt32, _ inPropertyData: UnsafeRawPointer?) -> OSStatus {
    osStatus { () throws(FileStatus) in
        _ = try FileStreamTable.stream(inAudioFileStream)
        throw StreamProperty.answered.contains(inPropertyID) ? .illegalOperation : .unsupportedProperty
    }
}

/// Closes the parser (`AudioFileStreamClose`); its ID is stale from then on.
@c @implementation
public func AudioFileStreamClose(_ inAudioFileStream: AudioFileStreamID?) -> OSStatus {
    osStatus { () throws(FileStatus) in
        try FileStreamTable.remove(inAudioFileStream).close()
    }
}
