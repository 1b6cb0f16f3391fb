import AudioToolbox
import Foundation

// A streaming player's parser half, written as iOS Swift code writes it: the object passes itself as
// the client data (`Unmanaged.passUnretained(self).toOpaque()`), the callbacks are C function
// pointers that find it again, the listener reads each property as it is announced, and the packets
// callback copies each packet out by its description. It records everything, so that tests can
// compare a stream fed whole, a byte at a time and in random pieces with what Audio File Services
// reads from the same file.

/// What a parser said: the properties in the order announced (with the values read in the
/// listener), the packets (bytes, and descriptions with offsets into `bytes`), the statuses returned.
final class StreamRecorder {
    var streamID: AudioFileStreamID?
    var openStatus: OSStatus = noErr
    /// The properties, in the order the listener heard them.
    var announced: [AudioFileStreamPropertyID] = []
    /// Listener calls that did not say the value is cached.
    var uncachedCalls = 0
    /// The values read in the listener.
    var format = AudioStreamBasicDescription()
    var fileType: AudioFileTypeID = 0
    var dataOffset: Int64 = -1
    var byteCount: UInt64?
    var packetCount: UInt64?
    var cookie: [UInt8]?
    var packetTable: AudioFilePacketTableInfo?
    /// ReadyToProducePackets as read in each listener call (0 until its own).
    var readyValues: [UInt32] = []
    /// Every packet's bytes, one after another, and its description (offset into `bytes`).
    var bytes: [UInt8] = []
    var descriptions: [AudioStreamPacketDescription] = []
    var packets = 0
    var packetCalls = 0
    /// Whether a packets call came before ReadyToProducePackets, or gave bytes that are not whole packets.
    var packetsBeforeReady = false
    var partialPackets = false
    /// Statuses ParseBytes returned that were not noErr.
    var errors: [OSStatus] = []
    /// Called in the packets callback (re-entrancy tests).
    var onPackets: ((StreamRecorder) -> Void)?
    var onProperty: ((StreamRecorder, AudioFileStreamPropertyID) -> Void)?

    init(hint: AudioFileTypeID) {
        openStatus = AudioFileStreamOpen(Unmanaged.passUnretained(self).toOpaque(), streamPropertyListener, streamPacketsProc, hint, &streamID)
    }

    /// Feeds `data` in pieces of the sizes `pieces` gives, then flushes (NULL, 0) when `flush`.
    func feed(_ data: [UInt8], pieces: (Int) -> Int, flush: Bool = true, flags: AudioFileStreamParseFlags = []) {
        guard let streamID else { return }
        var at = 0
        var first = true
        while at < data.count {
            let count = min(data.count - at, max(1, pieces(data.count - at)))
            let status = data.withUnsafeBytes { raw in
                AudioFileStreamParseBytes(streamID, UInt32(count), raw.baseAddress! + at, first ? flags : [])
            }
            if status != noErr { errors.append(status) }
            first = false
            at += count
        }
        if flush {
            let status = AudioFileStreamParseBytes(streamID, 0, nil, [])
            if status != noErr { errors.append(status) }
        }
    }

    func close() {
        if let streamID { _ = AudioFileStreamClose(streamID) }
    }

    /// A property of fixed size, as the listener reads one.
    func property<T: BitwiseCopyable>(_ id: AudioFileStreamPropertyID, _ initial: T) -> (OSStatus, T) {
        var value = initial
        var size = UInt32(MemoryLayout<T>.size)
        guard let streamID else { return (kAudio_ParamError, value) }
        let status = AudioFileStreamGetProperty(streamID, id, &size, &value)
        return (status, value)
    }

    fileprivate func heard(_ id: AudioFileStreamPropertyID, flags: UnsafeMutablePointer<AudioFileStreamPropertyFlags>) {
        announced.append(id)
        if !flags.pointee.contains(.propertyIsCached) { uncachedCalls += 1 }
        readyValues.append(property(kAudioFileStreamProperty_ReadyToProducePackets, UInt32(9)).1)
        switch id {
        case kAudioFileStreamProperty_DataFormat: format = property(id, format).1
        case kAudioFileStreamProperty_FileFormat: fileType = property(id, fileType).1
        case kAudioFileStreamProperty_DataOffset: dataOffset = property(id, dataOffset).1
        case kAudioFileStreamProperty_AudioDataByteCount: byteCount = property(id, UInt64(0)).1
        case kAudioFileStreamProperty_AudioDataPacketCount: packetCount = property(id, UInt64(0)).1
        case kAudioFileStreamProperty_PacketTableInfo: packetTable = property(id, AudioFilePacketTableInfo()).1
        case kAudioFileStreamProperty_MagicCookieData:
            var size: UInt32 = 0
            var writable = true
            guard let streamID, AudioFileStreamGetPropertyInfo(streamID, id, &size, &writable) == noErr, !writable else { break }
            var value = [UInt8](repeating: 0, count: Int(size))
            if AudioFileStreamGetProperty(streamID, id, &size, &value) == noErr { cookie = value }
        default: break
        }
        onProperty?(self, id)
    }

    fileprivate func received(_ count: UInt32, _ numberPackets: UInt32, _ data: UnsafeRawPointer,
                              _ descriptions: UnsafeMutablePointer<AudioStreamPacketDescription>?) {
        packetCalls += 1
        if !announced.contains(kAudioFileStreamProperty_ReadyToProducePackets) { packetsBeforeReady = true }
        let input = UnsafeRawBufferPointer(start: data, count: Int(count))
        if let descriptions {
            for index in 0..<Int(numberPackets) {
                let description = descriptions[index]
                let start = Int(description.mStartOffset)
                let size = Int(description.mDataByteSize)
                guard start >= 0, start + size <= input.count else {
                    partialPackets = true
                    continue
                }
                self.descriptions.append(AudioStreamPacketDescription(mStartOffset: Int64(bytes.count),
                                                                      mVariableFramesInPacket: description.mVariableFramesInPacket,
                                                                      mDataByteSize: description.mDataByteSize))
                bytes.append(contentsOf: input[start..<(start + size)])
            }
        } else {
            if format.mBytesPerPacket == 0 || Int(count) != Int(numberPackets) * Int(format.mBytesPerPacket) { partialPackets = true }
            bytes.append(contentsOf: input)
        }
        packets += Int(numberPackets)
        onPackets?(self)
    }
}

/// The listener, as a C function pointer that finds its object again.
let streamPropertyListener: AudioFileStream_PropertyListenerProc = { clientData, streamID, propertyID, ioFlags in
    let recorder = Unmanaged<StreamRecorder>.fromOpaque(clientData).takeUnretainedValue()
    _ = streamID
    recorder.heard(propertyID, flags: ioFlags)
}

/// The packets callback.
let streamPacketsProc: AudioFileStream_PacketsProc = { clientData, numberBytes, numberPackets, inputData, packetDescriptions in
    let recorder = Unmanaged<StreamRecorder>.fromOpaque(clientData).takeUnretainedValue()
    recorder.received(numberBytes, numberPackets, inputData, packetDescriptions)
}

/// The hostile-bytes tests' generator gives the random pieces too: the same on every run.
extension SplitMix: RandomNumberGenerator {}

/// How a test splits the bytes it feeds.
enum Split: CustomStringConvertible, CaseIterable {
    case whole, byteAtATime, random

    var description: String {
        switch self {
        case .whole: "whole"
        case .byteAtATime: "a byte at a time"
        case .random: "random pieces"
        }
    }
}

/// What Audio File Services reads from the same bytes (AudioFileOpenWithCallbacks, every packet).
struct FileReading {
    var status: OSStatus
    var fileType: AudioFileTypeID = 0
    var format = AudioStreamBasicDescription()
    var dataOffset: Int64 = 0
    var byteCount: UInt64 = 0
    var packetCount: UInt64 = 0
    var cookie: [UInt8]?
    var packetTable: AudioFilePacketTableInfo?
    var bytes: [UInt8] = []
    var descriptions: [AudioStreamPacketDescription] = []

    init(_ data: [UInt8]) {
        let box = MemoryFile(bytes: data)
        var fileID: AudioFileID?
        status = AudioFileOpenWithCallbacks(Unmanaged.passUnretained(box).toOpaque(), MemoryFile.read, nil, MemoryFile.size, nil, 0,
                                            &fileID)
        guard status == noErr, let file = fileID else { return }
        defer { _ = AudioFileClose(file) }
        fileType = property(file, kAudioFilePropertyFileFormat, UInt32(0)).1
        format = property(file, kAudioFilePropertyDataFormat, AudioStreamBasicDescription()).1
        dataOffset = property(file, kAudioFilePropertyDataOffset, Int64(0)).1
        byteCount = property(file, kAudioFilePropertyAudioDataByteCount, UInt64(0)).1
        packetCount = property(file, kAudioFilePropertyAudioDataPacketCount, UInt64(0)).1
        let table = property(file, kAudioFilePropertyPacketTableInfo, AudioFilePacketTableInfo())
        if table.0 == noErr { packetTable = table.1 }
        var size: UInt32 = 0
        if AudioFileGetPropertyInfo(file, kAudioFilePropertyMagicCookieData, &size, nil) == noErr {
            var value = [UInt8](repeating: 0, count: Int(size))
            if AudioFileGetProperty(file, kAudioFilePropertyMagicCookieData, &size, &value) == noErr { cookie = value }
        }
        let packets = readAllPackets(file)
        status = packets.status
        bytes = packets.bytes
        descriptions = packets.descriptions
        withExtendedLifetime(box) {}
    }
}

/// Streams `data` through a new parser, split as `split` says (random pieces from `seed`).
func streamed(_ data: [UInt8], hint: AudioFileTypeID = 0, split: Split, seed: UInt64 = 46) -> StreamRecorder {
    let recorder = StreamRecorder(hint: hint)
    var random = SplitMix(seed: seed)
    switch split {
    case .whole: recorder.feed(data, pieces: { $0 })
    case .byteAtATime: recorder.feed(data, pieces: { _ in 1 })
    case .random: recorder.feed(data, pieces: { _ in Int.random(in: 1...3_000, using: &random) })
    }
    recorder.close()
    return recorder
}

/// Runs a command-line tool (ffmpeg), returning its status.
@discardableResult
func runTool(_ path: String, _ arguments: [String]) throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return process.terminationStatus
}

/// A file FFmpeg makes from a generated tone (`ffmpeg -f lavfi -i sine=... ARGS out`), as bytes.
func ffmpegFile(_ arguments: [String], name: String, seconds: Double = 1, channels: Int = 2, rate: Int = 44_100) throws -> [UInt8] {
    let directory = try AudioFileFixture.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent(name)
    let status = try runTool("/usr/bin/ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=\(seconds)",
                                                 "-ac", "\(channels)", "-ar", "\(rate)"] + arguments + [url.path])
    guard status == 0 else { throw CocoaError(.fileWriteUnknown) }
    return Array(try Data(contentsOf: url))
}

/// A CAF file's chunks: (type, the whole chunk's bytes), after the 8-byte file header.
func cafChunks(_ bytes: [UInt8]) -> [(String, [UInt8])] {
    var chunks: [(String, [UInt8])] = []
    var at = 8
    while at + 12 <= bytes.count {
        let type = String(decoding: bytes[at..<(at + 4)], as: UTF8.self)
        let size = bytes[(at + 4)..<(at + 12)].reduce(Int64(0)) { $0 << 8 | Int64($1) }
        let end = size < 0 ? bytes.count : min(bytes.count, at + 12 + Int(size))
        chunks.append((type, Array(bytes[at..<end])))
        at = end
    }
    return chunks
}
