// Audio Format Services' two functions, for C (AudioToolbox/AudioFormat.h) and Swift at once:
// each is `@c @implementation`, so the compiler checks it against the header's declaration.
// Nothing here traps on what a caller passes: every bad argument is one of Apple's codes.

/// The size of a property's value (`AudioFormatGetPropertyInfo`): Apple's semantics, Soundstage's
/// answers (docs/audiotoolbox.md lists them).
@c @implementation
public func AudioFormatGetPropertyInfo(_ inPropertyID: AudioFormatPropertyID, _ inSpecifierSize: UInt32,
                                       _ inSpecifier: UnsafeRawPointer?,
                                       _ outPropertyDataSize: UnsafeMutablePointer<UInt32>?) -> OSStatus {
    osStatus { () throws(FormatStatus) in
        guard let outPropertyDataSize else { throw .parameter }
        let specifier = try Specifier(size: inSpecifierSize, pointer: inSpecifier)
        let size: Int
        if inPropertyID == kAudioFormatProperty_FormatInfo {
            size = MemoryLayout<AudioStreamBasicDescription>.size
        } else if FormatNames.isNameProperty(inPropertyID) {
            _ = try FormatNames.name(inPropertyID, specifier)   // the specifier checked; no object made
            size = MemoryLayout<UnsafeRawPointer>.size
        } else {
            size = try FormatProperty.answer(inPropertyID, specifier).bytes.count
        }
        outPropertyDataSize.pointee = UInt32(size)
    }
}

/// A property's value (`AudioFormatGetProperty`): `*ioPropertyDataSize` is the room on entry and
/// the bytes written on return.
@c @implementation
public func AudioFormatGetProperty(_ inPropertyID: AudioFormatPropertyID, _ inSpecifierSize: UInt32,
                                   _ inSpecifier: UnsafeRawPointer?, _ ioPropertyDataSize: UnsafeMutablePointer<UInt32>?,
                                   _ outPropertyData: UnsafeMutableRawPointer?) -> OSStatus {
    osStatus { () throws(FormatStatus) in
        if inPropertyID == kAudioFormatProperty_ValidateChannelLayout {
            // Apple: "The property value and size are not used and must be set to NULL."
            _ = try FormatProperty.answer(inPropertyID, try Specifier(size: inSpecifierSize, pointer: inSpecifier))
            ioPropertyDataSize?.pointee = 0
            return
        }
        guard let ioPropertyDataSize, let outPropertyData else { throw .parameter }
        let specifier = try Specifier(size: inSpecifierSize, pointer: inSpecifier)
        let room = Int(ioPropertyDataSize.pointee)
        if inPropertyID == kAudioFormatProperty_FormatInfo {
            // In and out: the caller's description, completed.
            let size = MemoryLayout<AudioStreamBasicDescription>.size
            guard room >= size else { throw .badPropertySize }
            var asbd = outPropertyData.loadUnaligned(as: AudioStreamBasicDescription.self)
            try FormatInfo.complete(&asbd, cookie: specifier.bytes)
            outPropertyData.storeBytes(of: asbd, as: AudioStreamBasicDescription.self)
            ioPropertyDataSize.pointee = UInt32(size)
            return
        }
        if FormatNames.isNameProperty(inPropertyID) {
            // A new CFStringRef, retained for the caller (who releases it).
            let name = try FormatNames.name(inPropertyID, specifier)
            guard room >= MemoryLayout<UnsafeRawPointer>.size else { throw .badPropertySize }
            outPropertyData.storeBytes(of: cfNewString(name), as: UnsafeRawPointer.self)
            ioPropertyDataSize.pointee = UInt32(MemoryLayout<UnsafeRawPointer>.size)
            return
        }
        let answer = try FormatProperty.answer(inPropertyID, specifier)
        let count: Int
        if let itemSize = answer.itemSize {
            count = min(answer.bytes.count, room / itemSize * itemSize)   // whole items that fit
        } else {
            guard room >= answer.bytes.count else { throw .badPropertySize }
            count = answer.bytes.count
        }
        answer.bytes.withUnsafeBytes { outPropertyData.copyMemory(from: $0.baseAddress!, byteCount: count) }
        ioPropertyDataSize.pointee = UInt32(count)
    }
}


/// `AudioFormatGetProperty` for the name properties (`kAudioFormatProperty_FormatName`,
/// `ChannelLayoutName`, ...) as iOS Swift code calls it with `var name: CFString? = nil` and `&name`:
/// `CFString` is `String` here, so the name comes back as one (iOS code that asks for an
/// `Unmanaged<CFString>` must write `CFString?` instead; docs/audiotoolbox.md).
public func AudioFormatGetProperty(_ inPropertyID: AudioFormatPropertyID, _ inSpecifierSize: UInt32,
                                   _ inSpecifier: UnsafeRawPointer?, _ ioPropertyDataSize: UnsafeMutablePointer<UInt32>?,
                                   _ outPropertyData: UnsafeMutablePointer<CFString?>) -> OSStatus {
    osStatus { () throws(FormatStatus) in
        guard FormatNames.isNameProperty(inPropertyID) else { throw .unsupportedProperty }
        guard let ioPropertyDataSize else { throw .parameter }
        guard ioPropertyDataSize.pointee >= UInt32(MemoryLayout<UnsafeRawPointer>.size) else { throw .badPropertySize }
        outPropertyData.pointee = try FormatNames.name(inPropertyID, try Specifier(size: inSpecifierSize, pointer: inSpecifier))
        ioPropertyDataSize.pointee = UInt32(MemoryLayout<UnsafeRawPointer>.size)
    }
}
