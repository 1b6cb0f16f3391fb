import Synchronization
#if canImport(Glibc)
import Glibc
#endif

// Audio Converter Services' functions, for C (AudioToolbox/AudioConverter.h) and Swift at once:
// each is `@c @implementation`, so the compiler checks it against the header's declaration.
// Nothing here traps on what a caller passes: every bad argument is one of Apple's codes.

/// The live converters, by AudioConverterRef (a ``HandleTable``, tag 2).
enum ConverterTable {
    static let table = HandleTable<AudioConverterObject>(tag: 2)

    /// How many converters are live (for tests: nothing leaks).
    static var liveCount: Int { table.count }
}

/// Runs `body` on the converter behind `handle`, holding its lock: `kAudio_ParamError` for NULL or
/// a disposed handle; `kAudioConverterErr_OperationNotSupported` for a call the converter's own
/// input procedure makes on it (the converter is in the middle of a call).
private func withConverter(_ handle: AudioConverterRef?, _ body: (AudioConverterObject) throws(ConverterStatus) -> OSStatus) -> OSStatus {
    guard let handle, let converter = ConverterTable.table.object(handle) else { return kAudio_ParamError }
    let me = UInt(pthread_self())
    if converter.owner.load(ordering: .acquiring) == me { return kAudioConverterErr_OperationNotSupported }
    converter.lock.lock()
    converter.owner.store(me, ordering: .releasing)
    defer {
        converter.owner.store(0, ordering: .releasing)
        converter.lock.unlock()
    }
    if converter.disposed.load(ordering: .acquiring) { return kAudio_ParamError }
    do {
        return try body(converter)
    } catch {
        return error.status
    }
}

/// A new converter (`AudioConverterNew`).
@c @implementation
public func AudioConverterNew(_ inSourceFormat: UnsafePointer<AudioStreamBasicDescription>?,
                              _ inDestinationFormat: UnsafePointer<AudioStreamBasicDescription>?,
                              _ outAudioConverter: UnsafeMutablePointer<AudioConverterRef?>?) -> OSStatus {
    osStatus { () throws(ConverterStatus) in
        guard let outAudioConverter else { throw .parameter }
        outAudioConverter.pointee = nil
        guard let inSourceFormat, let inDestinationFormat else { throw .parameter }
        let converter = try AudioConverterObject(source: inSourceFormat.pointee, destination: inDestinationFormat.pointee)
        outAudioConverter.pointee = ConverterTable.table.insert(converter)
    }
}

/// A new converter using the codecs named (`AudioConverterNewSpecific`): each description must be
/// a codec this machine has (they are all software); the converter is AudioConverterNew's.
@c @implementation
public func AudioConverterNewSpecific(_ inSourceFormat: UnsafePointer<AudioStreamBasicDescription>?,
                                      _ inDestinationFormat: UnsafePointer<AudioStreamBasicDescription>?,
                                      _ inNumberClassDescriptions: UInt32,
                                      _ inClassDescriptions: UnsafePointer<AudioClassDescription>?,
                                      _ outAudioConverter: UnsafeMutablePointer<AudioConverterRef?>?) -> OSStatus {
    osStatus { () throws(ConverterStatus) in
        guard let outAudioConverter else { throw .parameter }
        outAudioConverter.pointee = nil
        guard let inSourceFormat, let inDestinationFormat else { throw .parameter }
        if inNumberClassDescriptions > 0 {
            guard let inClassDescriptions, inNumberClassDescriptions <= 64 else { throw .parameter }
            for index in 0..<Int(inNumberClassDescriptions) {
                let codec = inClassDescriptions[index]
                let formatID = codec.mType == kAudioDecoderComponentType ? inSourceFormat.pointee.mFormatID : inDestinationFormat.pointee.mFormatID
                // A codec for another format, or a hardware one, is not what this converter would use.
                guard codec.mSubType == formatID,
                      codec.mManufacturer == kAppleSoftwareAudioCodecManufacturer || codec.mManufacturer == 0 else { throw .formatNotSupported }
            }
        }
        let converter = try AudioConverterObject(source: inSourceFormat.pointee, destination: inDestinationFormat.pointee)
        outAudioConverter.pointee = ConverterTable.table.insert(converter)
    }
}

/// Frees a converter (`AudioConverterDispose`); its handle is stale from then on.
@c @implementation
public func AudioConverterDispose(_ inAudioConverter: AudioConverterRef?) -> OSStatus {
    guard let inAudioConverter else { return kAudio_ParamError }
    let me = UInt(pthread_self())
    if let converter = ConverterTable.table.object(inAudioConverter), converter.owner.load(ordering: .acquiring) == me {
        // From its own input procedure: the running call stops when the procedure returns, and
        // the converter is freed when that call lets go of it.
        _ = ConverterTable.table.remove(inAudioConverter)
        converter.disposed.store(true, ordering: .releasing)
        return noErr
    }
    guard let converter = ConverterTable.table.remove(inAudioConverter) else { return kAudio_ParamError }
    converter.lock.withLock { converter.disposed.store(true, ordering: .releasing) }   // waits for a call in progress
    return noErr
}

/// Forgets the stream in progress (`AudioConverterReset`).
@c @implementation
public func AudioConverterReset(_ inAudioConverter: AudioConverterRef?) -> OSStatus {
    withConverter(inAudioConverter) { converter throws(ConverterStatus) in
        converter.reset()
        return noErr
    }
}

/// A property's size and whether it can be set (`AudioConverterGetPropertyInfo`).
@c @implementation
public func AudioConverterGetPropertyInfo(_ inAudioConverter: AudioConverterRef?, _ inPropertyID: AudioConverterPropertyID,
                                          _ outSize: UnsafeMutablePointer<UInt32>?, _ outWritable: UnsafeMutablePointer<Bool>?) -> OSStatus {
    withConverter(inAudioConverter) { converter throws(ConverterStatus) in
        let value = try ConverterProperties.value(inPropertyID, of: converter, question: nil)
        outSize?.pointee = UInt32(value.bytes.count)
        outWritable?.pointee = ConverterProperties.isWritable(inPropertyID, of: converter)
        return noErr
    }
}

/// A property's value (`AudioConverterGetProperty`): `*ioPropertyDataSize` is the room on entry,
/// the bytes written on return.
@c @implementation
public func AudioConverterGetProperty(_ inAudioConverter: AudioConverterRef?, _ inPropertyID: AudioConverterPropertyID,
                                      _ ioPropertyDataSize: UnsafeMutablePointer<UInt32>?, _ outPropertyData: UnsafeMutableRawPointer?) -> OSStatus {
    withConverter(inAudioConverter) { converter throws(ConverterStatus) in
        guard let ioPropertyDataSize, let outPropertyData else { throw .parameter }
        let room = Int(ioPropertyDataSize.pointee)
        let value = try ConverterProperties.value(inPropertyID, of: converter,
                                                  question: UnsafeRawBufferPointer(start: outPropertyData, count: room))
        let count: Int
        if let item = value.itemSize {
            count = min(value.bytes.count, room / item * item)   // a list: the whole items that fit
        } else {
            guard room >= value.bytes.count else { throw .badPropertySize }
            count = value.bytes.count
        }
        value.bytes.withUnsafeBytes { if count > 0 { outPropertyData.copyMemory(from: $0.baseAddress!, byteCount: count) } }
        ioPropertyDataSize.pointee = UInt32(count)
        return noErr
    }
}

/// Sets a property (`AudioConverterSetProperty`).
@c @implementation
public func AudioConverterSetProperty(_ inAudioConverter: AudioConverterRef?, _ inPropertyID: AudioConverterPropertyID,
                                      _ inPropertyDataSize: UInt32, _ inPropertyData: UnsafeRawPointer?) -> OSStatus {
    withConverter(inAudioConverter) { converter throws(ConverterStatus) in
        guard let inPropertyData else { throw .parameter }
        try ConverterProperties.set(inPropertyID, of: converter, UnsafeRawBufferPointer(start: inPropertyData, count: Int(inPropertyDataSize)))
        return noErr
    }
}

/// Converts a buffer of PCM at the same rate (`AudioConverterConvertBuffer`): interleaved data, or
/// one channel.
@c @implementation
public func AudioConverterConvertBuffer(_ inAudioConverter: AudioConverterRef?, _ inInputDataSize: UInt32,
                                        _ inInputData: UnsafeRawPointer?, _ ioOutputDataSize: UnsafeMutablePointer<UInt32>?,
                                        _ outOutputData: UnsafeMutableRawPointer?) -> OSStatus {
    withConverter(inAudioConverter) { converter throws(ConverterStatus) in
        guard let ioOutputDataSize else { throw .parameter }
        guard case .pcm(let from) = converter.source, case .pcm(let to) = converter.destination else { throw .operationNotSupported }
        guard from.bufferCount == 1, to.bufferCount == 1 else { throw .operationNotSupported }
        guard Int(inInputDataSize) % from.bytesPerFrame == 0 else { throw .invalidInputSize }
        let frames = Int(inInputDataSize) / from.bytesPerFrame
        guard frames == 0 || inInputData != nil else { throw .parameter }
        guard Int(ioOutputDataSize.pointee) >= frames * to.bytesPerFrame else { throw .invalidOutputSize }
        guard frames == 0 || outOutputData != nil else { throw .parameter }
        let input = AudioBufferList.allocate(maximumBuffers: 1)
        let output = AudioBufferList.allocate(maximumBuffers: 1)
        defer {
            free(input.unsafeMutablePointer)
            free(output.unsafeMutablePointer)
        }
        input[0] = AudioBuffer(mNumberChannels: UInt32(from.channels), mDataByteSize: inInputDataSize, mData: UnsafeMutableRawPointer(mutating: inInputData))
        output[0] = AudioBuffer(mNumberChannels: UInt32(to.channels), mDataByteSize: ioOutputDataSize.pointee, mData: outOutputData)
        try converter.convert(frames: frames, from: input, to: output)
        ioOutputDataSize.pointee = output[0].mDataByteSize
        return noErr
    }
}

/// Converts `inNumberPCMFrames` frames of PCM between buffer lists at the same rate
/// (`AudioConverterConvertComplexBuffer`).
@c @implementation
public func AudioConverterConvertComplexBuffer(_ inAudioConverter: AudioConverterRef?, _ inNumberPCMFrames: UInt32,
                                               _ inInputData: UnsafePointer<AudioBufferList>?,
                                               _ outOutputData: UnsafeMutablePointer<AudioBufferList>?) -> OSStatus {
    withConverter(inAudioConverter) { converter throws(ConverterStatus) in
        guard let inInputData, let outOutputData else { throw .parameter }
        try converter.convert(frames: Int(inNumberPCMFrames), from: UnsafeMutableAudioBufferListPointer(UnsafeMutablePointer(mutating: inInputData)),
                              to: UnsafeMutableAudioBufferListPointer(outOutputData))
        return noErr
    }
}

/// Fills the caller's buffers with converted packets, calling the input procedure for input
/// (`AudioConverterFillComplexBuffer`).
@c @implementation
public func AudioConverterFillComplexBuffer(_ inAudioConverter: AudioConverterRef?, _ inInputDataProc: AudioConverterComplexInputDataProc?,
                                            _ inInputDataProcUserData: UnsafeMutableRawPointer?,
                                            _ ioOutputDataPacketSize: UnsafeMutablePointer<UInt32>?,
                                            _ outOutputData: UnsafeMutablePointer<AudioBufferList>?,
                                            _ outPacketDescription: UnsafeMutablePointer<AudioStreamPacketDescription>?) -> OSStatus {
    withConverter(inAudioConverter) { converter throws(ConverterStatus) in
        guard let ioOutputDataPacketSize else { throw .parameter }
        let wanted = Int(ioOutputDataPacketSize.pointee)
        ioOutputDataPacketSize.pointee = 0
        guard let inInputDataProc, let outOutputData, let inAudioConverter else { throw .parameter }
        let input = InputProcedure(procedure: inInputDataProc, handle: inAudioConverter, userData: inInputDataProcUserData)
        let (written, status) = try converter.fill(input, packets: wanted, outOutputData, outPacketDescription)
        ioOutputDataPacketSize.pointee = UInt32(written)
        return status
    }
}
