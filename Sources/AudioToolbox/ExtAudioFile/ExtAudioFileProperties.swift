// Extended Audio File Services' properties: what each answers and what setting it does
// (docs/audiotoolbox.md has the table).

enum ExtAudioFileProperties {
    private static func bytes<T: BitwiseCopyable>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value) { Array($0) } }

    /// The value of `id`, as bytes.
    static func value(_ id: ExtAudioFilePropertyID, of object: ExtAudioFileObject) throws(ExtStatus) -> [UInt8] {
        switch id {
        case kExtAudioFileProperty_FileDataFormat: return bytes(object.fileFormat)
        case kExtAudioFileProperty_FileChannelLayout: return object.fileLayoutBytes
        case kExtAudioFileProperty_ClientDataFormat: return bytes(object.clientFormat)
        case kExtAudioFileProperty_ClientChannelLayout: return object.clientLayoutBytes
        case kExtAudioFileProperty_CodecManufacturer: return bytes(object.codecManufacturer)
        case kExtAudioFileProperty_AudioConverter: return bytes(UInt(bitPattern: object.converter))
        case kExtAudioFileProperty_AudioFile: return bytes(UInt(bitPattern: object.file))
        case kExtAudioFileProperty_FileMaxPacketSize: return bytes(try fileMaximumPacketSize(object))
        case kExtAudioFileProperty_ClientMaxPacketSize:
            if let client = object.client { return bytes(UInt32(client.bytesPerFrame)) }
            return bytes(try fileMaximumPacketSize(object))
        case kExtAudioFileProperty_FileLengthFrames: return bytes(object.lengthFrames)
        case kExtAudioFileProperty_ConverterConfig: return bytes(UInt(0))   // NULL: the settings are the converter's properties
        case kExtAudioFileProperty_IOBufferSizeBytes: return bytes(UInt32(object.ioBufferSize))
        case kExtAudioFileProperty_IOBuffer: return bytes(UInt(bitPattern: object.ioBuffer))
        case kExtAudioFileProperty_PacketTable: return bytes(try object.packetTable())
        default: throw .invalidProperty
        }
    }

    /// The file's largest packet: Audio File Services' answer, or, writing, the encoder's.
    private static func fileMaximumPacketSize(_ object: ExtAudioFileObject) throws(ExtStatus) -> UInt32 {
        if object.isWriting {
            if let size = object.outputMaximumPacketSize, size > 0 { return size }
            if object.fileFormat.mBytesPerPacket > 0 { return object.fileFormat.mBytesPerPacket }
            throw .maxPacketSizeUnknown   // a compressed file before its client format: no encoder yet
        }
        return object.fileMaximumPacketSize
    }

    /// Whether `id` can be set now.
    static func isWritable(_ id: ExtAudioFilePropertyID, of object: ExtAudioFileObject) -> Bool {
        switch id {
        case kExtAudioFileProperty_ClientDataFormat, kExtAudioFileProperty_ClientChannelLayout, kExtAudioFileProperty_CodecManufacturer,
             kExtAudioFileProperty_ConverterConfig, kExtAudioFileProperty_IOBufferSizeBytes, kExtAudioFileProperty_IOBuffer,
             kExtAudioFileProperty_PacketTable:
            return true
        case kExtAudioFileProperty_FileChannelLayout: return object.isWriting && object.tell == 0
        case kExtAudioFileProperty_FileLengthFrames: return object.isWriting && object.fileFormat.mFormatID == kAudioFormatLinearPCM
        default: return false
        }
    }

    /// Sets `id` from the caller's bytes.
    static func set(_ id: ExtAudioFilePropertyID, of object: ExtAudioFileObject, _ data: UnsafeRawBufferPointer) throws(ExtStatus) {
        func sized<T: BitwiseCopyable>(_ type: T.Type) throws(ExtStatus) -> T {
            guard data.count == MemoryLayout<T>.size else { throw .invalidPropertySize }
            return data.loadUnaligned(as: T.self)
        }
        func layout() throws(ExtStatus) -> [UInt8] {
            guard data.count >= 12 else { throw .invalidPropertySize }
            let count = Int(data.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
            let size = 12 + count * MemoryLayout<AudioChannelDescription>.stride
            guard count <= PCMLayout.maximumChannels, data.count >= size else { throw .invalidPropertySize }
            return Array(data.prefix(size))
        }
        switch id {
        case kExtAudioFileProperty_ClientDataFormat:
            try object.setClientFormat(try sized(AudioStreamBasicDescription.self))
        case kExtAudioFileProperty_ClientChannelLayout:
            try object.setClientLayout(try layout())
        case kExtAudioFileProperty_FileChannelLayout:
            try object.setFileLayout(try layout())
        case kExtAudioFileProperty_CodecManufacturer:
            // Apple's hardware and software codecs alike are Soundstage's software ones: accepted.
            object.codecManufacturer = try sized(UInt32.self)
        case kExtAudioFileProperty_ConverterConfig:
            // Only NULL, Apple's "apply the converter's settings": there is no settings list here.
            if data.count != 0 {
                guard try sized(UInt.self) == 0 else { throw ExtStatus(kAudioConverterErr_PropertyNotSupported) }
            }
            try object.reapplyConverter()
        case kExtAudioFileProperty_IOBufferSizeBytes:
            try object.setIOBufferSize(Int(try sized(UInt32.self)))
        case kExtAudioFileProperty_IOBuffer:
            object.setIOBuffer(UnsafeMutableRawPointer(bitPattern: try sized(UInt.self)))
        case kExtAudioFileProperty_PacketTable:
            try object.setPacketTable(try sized(AudioFilePacketTableInfo.self))
        case kExtAudioFileProperty_FileLengthFrames:
            let frames = try sized(Int64.self)
            guard object.fileFormat.mFormatID == kAudioFormatLinearPCM else { throw .invalidProperty }   // read only for compressed files
            guard object.isWriting else { throw .permissions }
            // A written file is not cut short here: only its present length is accepted.
            guard frames == object.lengthFrames else { throw .operationNotSupported }
        case kExtAudioFileProperty_FileDataFormat, kExtAudioFileProperty_AudioConverter, kExtAudioFileProperty_AudioFile,
             kExtAudioFileProperty_FileMaxPacketSize, kExtAudioFileProperty_ClientMaxPacketSize:
            throw .invalidProperty   // read only
        default:
            throw .invalidProperty
        }
    }
}
