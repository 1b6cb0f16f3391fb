// AudioFileGetGlobalInfo and AudioFileGetGlobalInfoSize: what file types Soundstage knows, reads
// and writes, their names and extensions.

/// A file type Apple names, with what Soundstage does with it.
struct KnownFileType {
    let id: AudioFileTypeID
    /// kAudioFileGlobalInfo_FileTypeName's answer.
    let name: String
    let extensions: [String]
    /// The data formats Soundstage reads in this type (empty: the type is not read yet).
    let readFormats: [AudioFormatID]

    /// The data formats Soundstage writes in this type (empty: the type is not written).
    var writeFormats: [AudioFormatID] {
        switch id {
        case kAudioFileCAFType: readFormats
        case kAudioFileWAVEType, kAudioFileAIFCType: readFormats
        case kAudioFileAIFFType: [kAudioFormatLinearPCM]
        case kAudioFileM4AType, kAudioFileMPEG4Type, kAudioFileM4BType: [kAudioFormatMPEG4AAC, kAudioFormatAppleLossless]
        case kAudioFileAAC_ADTSType: [kAudioFormatMPEG4AAC]
        default: []
        }
    }

    static let all: [KnownFileType] = [
        KnownFileType(id: kAudioFileAIFFType, name: "AIFF", extensions: ["aiff", "aif"], readFormats: [kAudioFormatLinearPCM]),
        KnownFileType(id: kAudioFileAIFCType, name: "AIFC", extensions: ["aifc", "aiff", "aif"],
                      readFormats: [kAudioFormatLinearPCM, kAudioFormatULaw, kAudioFormatALaw, kAudioFormatAppleIMA4]),
        KnownFileType(id: kAudioFileWAVEType, name: "WAVE", extensions: ["wav", "wave"],
                      readFormats: [kAudioFormatLinearPCM, kAudioFormatULaw, kAudioFormatALaw]),
        KnownFileType(id: kAudioFileCAFType, name: "CAF", extensions: ["caf"],
                      readFormats: [kAudioFormatLinearPCM, kAudioFormatAppleIMA4, kAudioFormatULaw, kAudioFormatALaw,
                                    kAudioFormatMPEG4AAC, kAudioFormatAppleLossless]),
        KnownFileType(id: kAudioFileRF64Type, name: "RF64", extensions: ["rf64", "wav"], readFormats: []),
        KnownFileType(id: kAudioFileBW64Type, name: "BW64", extensions: ["wav"], readFormats: []),
        KnownFileType(id: kAudioFileWave64Type, name: "Wave64", extensions: ["w64"], readFormats: []),
        KnownFileType(id: kAudioFileSoundDesigner2Type, name: "Sound Designer II", extensions: ["sd2"], readFormats: []),
        KnownFileType(id: kAudioFileNextType, name: "NeXT/Sun", extensions: ["snd", "au"], readFormats: []),
        KnownFileType(id: kAudioFileMP3Type, name: "MPEG Layer 3", extensions: ["mp3"], readFormats: [kAudioFormatMPEGLayer3]),
        KnownFileType(id: kAudioFileMP2Type, name: "MPEG Layer 2", extensions: ["mp2"], readFormats: [kAudioFormatMPEGLayer2]),
        KnownFileType(id: kAudioFileMP1Type, name: "MPEG Layer 1", extensions: ["mp1"], readFormats: [kAudioFormatMPEGLayer1]),
        KnownFileType(id: kAudioFileAC3Type, name: "AC3", extensions: ["ac3"], readFormats: []),
        KnownFileType(id: kAudioFileAAC_ADTSType, name: "AAC ADTS", extensions: ["aac", "adts"],
                      readFormats: [kAudioFormatMPEG4AAC]),
        KnownFileType(id: kAudioFileMPEG4Type, name: "MPEG4 Audio", extensions: ["mp4"],
                      readFormats: [kAudioFormatMPEG4AAC, kAudioFormatAppleLossless]),
        KnownFileType(id: kAudioFileM4AType, name: "Apple MPEG-4 Audio", extensions: ["m4a", "m4r"],
                      readFormats: [kAudioFormatMPEG4AAC, kAudioFormatAppleLossless]),
        KnownFileType(id: kAudioFileM4BType, name: "Apple MPEG-4 AudioBooks", extensions: ["m4b"],
                      readFormats: [kAudioFormatMPEG4AAC, kAudioFormatAppleLossless]),
        KnownFileType(id: kAudioFile3GPType, name: "3GP Audio", extensions: ["3gp"],
                      readFormats: [kAudioFormatMPEG4AAC, kAudioFormatAppleLossless]),
        KnownFileType(id: kAudioFile3GP2Type, name: "3GPP-2 Audio", extensions: ["3g2"],
                      readFormats: [kAudioFormatMPEG4AAC, kAudioFormatAppleLossless]),
        KnownFileType(id: kAudioFileAMRType, name: "AMR", extensions: ["amr"], readFormats: []),
        KnownFileType(id: kAudioFileFLACType, name: "FLAC", extensions: ["flac"], readFormats: []),
        KnownFileType(id: kAudioFileLATMInLOASType, name: "LATM/LOAS", extensions: ["loas", "latm", "xhe"], readFormats: []),
    ]

    /// The types Soundstage reads.
    static var readable: [KnownFileType] { all.filter { !$0.readFormats.isEmpty } }

    static func find(_ id: AudioFileTypeID) -> KnownFileType? { all.first { $0.id == id } }
}

/// A global property's answer: bytes to copy, a list's item size, or a new CF object for the caller.
enum GlobalAnswer {
    case list([UInt8], itemSize: Int)
    case object(() -> UnsafeRawPointer)

    var size: Int {
        switch self {
        case .list(let bytes, _): bytes.count
        case .object: MemoryLayout<UnsafeRawPointer>.size
        }
    }
}

enum GlobalInfo {
    static func answer(_ id: AudioFilePropertyID, specifier: UnsafeRawBufferPointer?) throws(FileStatus) -> GlobalAnswer {
        func typeSpecifier() throws(FileStatus) -> KnownFileType {
            guard let specifier, specifier.count == 4 else { throw .parameter }
            guard let type = KnownFileType.find(specifier.loadUnaligned(as: UInt32.self)) else { throw .unsupportedFileType }
            return type
        }
        func ids(_ values: [UInt32]) -> GlobalAnswer { .list(values.withUnsafeBytes { Array($0) }, itemSize: 4) }
        func strings(_ values: [String]) -> GlobalAnswer {
            .object { cfRetained(CFArrayStorage(values.map { CFStringStorage($0) })) }
        }
        switch id {
        case kAudioFileGlobalInfo_ReadableTypes:
            return ids(KnownFileType.readable.map(\.id))
        case kAudioFileGlobalInfo_WritableTypes:
            return ids(KnownFileType.all.filter { !$0.writeFormats.isEmpty }.map(\.id))
        case kAudioFileGlobalInfo_FileTypeName:
            let name = try typeSpecifier().name
            return .object { cfNewString(name) }
        case kAudioFileGlobalInfo_AvailableFormatIDs:
            let type = try typeSpecifier()
            // Apple's answer: what can be written in the type; for a type only read (MP3), what is read.
            guard !type.readFormats.isEmpty else { throw .unsupportedFileType }
            return ids(type.writeFormats.isEmpty ? type.readFormats : type.writeFormats)
        case kAudioFileGlobalInfo_ExtensionsForType:
            return strings(try typeSpecifier().extensions)
        case kAudioFileGlobalInfo_AllExtensions:
            var all: [String] = []
            for type in KnownFileType.readable { for ext in type.extensions where !all.contains(ext) { all.append(ext) } }
            return strings(all)
        case kAudioFileGlobalInfo_TypesForExtension:
            guard let specifier, specifier.count == MemoryLayout<UnsafeRawPointer>.size else { throw .parameter }
            let pointer = specifier.loadUnaligned(as: UnsafeRawPointer?.self)
            guard let ext = cfString(pointer) else { throw .parameter }
            return ids(KnownFileType.readable.filter { $0.extensions.contains(ext.lowercased()) }.map(\.id))
        default:
            throw .unsupportedProperty
        }
    }
}

/// The size of a global property's value (`AudioFileGetGlobalInfoSize`).
@c @implementation
public func AudioFileGetGlobalInfoSize(_ inPropertyID: AudioFilePropertyID, _ inSpecifierSize: UInt32,
                                       _ inSpecifier: UnsafeMutableRawPointer?, _ outDataSize: UnsafeMutablePointer<UInt32>?) -> OSStatus {
    osStatus { () throws(FileStatus) in
        guard let outDataSize else { throw .parameter }
        let specifier = try globalSpecifier(inSpecifierSize, inSpecifier)
        outDataSize.pointee = UInt32(try GlobalInfo.answer(inPropertyID, specifier: specifier).size)
    }
}

/// A global property's value (`AudioFileGetGlobalInfo`). CF answers are new objects for the caller.
@c @implementation
public func AudioFileGetGlobalInfo(_ inPropertyID: AudioFilePropertyID, _ inSpecifierSize: UInt32,
                                   _ inSpecifier: UnsafeMutableRawPointer?, _ ioDataSize: UnsafeMutablePointer<UInt32>?,
                                   _ outPropertyData: UnsafeMutableRawPointer?) -> OSStatus {
    osStatus { () throws(FileStatus) in
        guard let ioDataSize, let outPropertyData else { throw .parameter }
        let specifier = try globalSpecifier(inSpecifierSize, inSpecifier)
        let room = Int(ioDataSize.pointee)
        switch try GlobalInfo.answer(inPropertyID, specifier: specifier) {
        case .list(let bytes, let itemSize):
            let count = min(bytes.count, room / itemSize * itemSize)   // whole items that fit
            bytes.withUnsafeBytes { if count > 0 { outPropertyData.copyMemory(from: $0.baseAddress!, byteCount: count) } }
            ioDataSize.pointee = UInt32(count)
        case .object(let make):
            guard room >= MemoryLayout<UnsafeRawPointer>.size else { throw .badPropertySize }
            outPropertyData.storeBytes(of: make(), as: UnsafeRawPointer.self)
            ioDataSize.pointee = UInt32(MemoryLayout<UnsafeRawPointer>.size)
        }
    }
}

/// The specifier's bytes: a size with a NULL pointer is `kAudio_ParamError`.
private func globalSpecifier(_ size: UInt32, _ pointer: UnsafeMutableRawPointer?) throws(FileStatus) -> UnsafeRawBufferPointer? {
    guard size > 0 else { return nil }
    guard let pointer else { throw .parameter }
    return UnsafeRawBufferPointer(start: pointer, count: Int(size))
}
