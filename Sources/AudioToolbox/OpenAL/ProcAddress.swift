// The names <OpenAL/alc.h> and <OpenAL/al.h> route to Soundstage: alcGetProcAddress and
// alGetProcAddress find Apple's extension functions (and the routed functions themselves, so a
// function fetched by name is the one a direct call reaches), alcGetEnumValue and alGetEnumValue
// know the extensions' constants, alcIsExtensionPresent and alIsExtensionPresent the extensions.
// Every other name is OpenAL Soft's answer, unchanged.
import COpenAL

enum AppleOpenAL {
    /// The extensions Soundstage adds to OpenAL Soft's.
    static let extensions = ["AL_EXT_STATIC_BUFFER", "ALC_EXT_STATIC_BUFFER", "ALC_EXT_MAC_OSX", "ALC_EXT_ASA"]

    /// The functions by name (their addresses as numbers: a table of pointers is not Sendable).
    static let functions: [String: UInt] = [
        "alBufferDataStatic": unsafeBitCast(alBufferDataStatic as @convention(c) (ALint, ALenum, UnsafeMutableRawPointer?, ALsizei, ALsizei) -> Void,
                                            to: UInt.self),
        "alcMacOSXMixerOutputRate": unsafeBitCast(alcMacOSXMixerOutputRate as @convention(c) (ALdouble) -> Void, to: UInt.self),
        "alcMacOSXGetMixerOutputRate": unsafeBitCast(alcMacOSXGetMixerOutputRate as @convention(c) () -> ALdouble, to: UInt.self),
        "alcASASetListener": unsafeBitCast(alcASASetListener as @convention(c) (ALuint, UnsafeMutableRawPointer?, ALuint) -> ALenum,
                                           to: UInt.self),
        "alcASAGetListener": unsafeBitCast(alcASAGetListener as @convention(c) (ALuint, UnsafeMutableRawPointer?, UnsafeMutablePointer<ALuint>?) -> ALenum,
                                           to: UInt.self),
        "alcASASetSource": unsafeBitCast(alcASASetSource as @convention(c) (ALuint, ALuint, UnsafeMutableRawPointer?, ALuint) -> ALenum,
                                         to: UInt.self),
        "alcASAGetSource": unsafeBitCast(alcASAGetSource as @convention(c) (ALuint, ALuint, UnsafeMutableRawPointer?, UnsafeMutablePointer<ALuint>?) -> ALenum,
                                         to: UInt.self),
        "alcGetProcAddress": unsafeBitCast(soundstage_alcGetProcAddress as @convention(c) (OpaquePointer?, UnsafePointer<ALCchar>?) -> UnsafeMutableRawPointer?,
                                           to: UInt.self),
        "alGetProcAddress": unsafeBitCast(soundstage_alGetProcAddress as @convention(c) (UnsafePointer<ALchar>?) -> UnsafeMutableRawPointer?,
                                          to: UInt.self),
        "alcGetEnumValue": unsafeBitCast(soundstage_alcGetEnumValue as @convention(c) (OpaquePointer?, UnsafePointer<ALCchar>?) -> ALCenum,
                                         to: UInt.self),
        "alGetEnumValue": unsafeBitCast(soundstage_alGetEnumValue as @convention(c) (UnsafePointer<ALchar>?) -> ALenum, to: UInt.self),
        "alcIsExtensionPresent": unsafeBitCast(soundstage_alcIsExtensionPresent as @convention(c) (OpaquePointer?, UnsafePointer<ALCchar>?) -> ALCboolean,
                                               to: UInt.self),
        "alIsExtensionPresent": unsafeBitCast(soundstage_alIsExtensionPresent as @convention(c) (UnsafePointer<ALchar>?) -> ALboolean,
                                              to: UInt.self),
        "alcCreateContext": unsafeBitCast(soundstage_alcCreateContext as @convention(c) (OpaquePointer?, UnsafePointer<ALCint>?) -> OpaquePointer?,
                                          to: UInt.self),
        "alcDestroyContext": unsafeBitCast(soundstage_alcDestroyContext as @convention(c) (OpaquePointer?) -> Void, to: UInt.self),
        "alDeleteSources": unsafeBitCast(soundstage_alDeleteSources as @convention(c) (ALsizei, UnsafePointer<ALuint>?) -> Void,
                                         to: UInt.self),
    ]

    /// The constants by name (the header's values).
    static let constants: [String: ALenum] = [
        "ALC_ASA_REVERB_ON": ALC_ASA_REVERB_ON, "ALC_ASA_REVERB_GLOBAL_LEVEL": ALC_ASA_REVERB_GLOBAL_LEVEL,
        "ALC_ASA_REVERB_ROOM_TYPE": ALC_ASA_REVERB_ROOM_TYPE, "ALC_ASA_REVERB_PRESET": ALC_ASA_REVERB_PRESET,
        "ALC_ASA_REVERB_EQ_GAIN": ALC_ASA_REVERB_EQ_GAIN, "ALC_ASA_REVERB_EQ_BANDWITH": ALC_ASA_REVERB_EQ_BANDWITH,
        "ALC_ASA_REVERB_EQ_FREQ": ALC_ASA_REVERB_EQ_FREQ, "ALC_ASA_REVERB_QUALITY": ALC_ASA_REVERB_QUALITY,
        "ALC_ASA_REVERB_SEND_LEVEL": ALC_ASA_REVERB_SEND_LEVEL, "ALC_ASA_OCCLUSION": ALC_ASA_OCCLUSION,
        "ALC_ASA_OBSTRUCTION": ALC_ASA_OBSTRUCTION,
        "ALC_ASA_REVERB_ROOM_TYPE_SmallRoom": 0, "ALC_ASA_REVERB_ROOM_TYPE_MediumRoom": 1, "ALC_ASA_REVERB_ROOM_TYPE_LargeRoom": 2,
        "ALC_ASA_REVERB_ROOM_TYPE_MediumHall": 3, "ALC_ASA_REVERB_ROOM_TYPE_LargeHall": 4, "ALC_ASA_REVERB_ROOM_TYPE_Plate": 5,
        "ALC_ASA_REVERB_ROOM_TYPE_MediumChamber": 6, "ALC_ASA_REVERB_ROOM_TYPE_LargeChamber": 7, "ALC_ASA_REVERB_ROOM_TYPE_Cathedral": 8,
        "ALC_ASA_REVERB_ROOM_TYPE_LargeRoom2": 9, "ALC_ASA_REVERB_ROOM_TYPE_MediumHall2": 10, "ALC_ASA_REVERB_ROOM_TYPE_MediumHall3": 11,
        "ALC_ASA_REVERB_ROOM_TYPE_LargeHall2": 12,
        "ALC_ASA_REVERB_QUALITY_Max": 0x7F, "ALC_ASA_REVERB_QUALITY_High": 0x60, "ALC_ASA_REVERB_QUALITY_Medium": 0x40,
        "ALC_ASA_REVERB_QUALITY_Low": 0x20, "ALC_ASA_REVERB_QUALITY_Min": 0,
    ]

    /// Whether `name` is one of Soundstage's extensions (compared as OpenAL Soft compares: case aside).
    static func isExtension(_ name: UnsafePointer<CChar>) -> Bool {
        let name = String(cString: name).uppercased()
        return extensions.contains(name)
    }
}

/// `alcGetProcAddress` through <OpenAL/alc.h>: Apple's extension functions and the routed ones,
/// else OpenAL Soft's answer (NULL for a name it does not know).
@c @implementation
public func soundstage_alcGetProcAddress(_ device: OpaquePointer!, _ funcname: UnsafePointer<ALCchar>!) -> UnsafeMutableRawPointer! {
    guard let funcname, let function = AppleOpenAL.functions[String(cString: funcname)] else { return COpenAL.alcGetProcAddress(device, funcname) }
    return UnsafeMutableRawPointer(bitPattern: function)
}

/// `alGetProcAddress` through <OpenAL/al.h>: as alcGetProcAddress.
@c @implementation
public func soundstage_alGetProcAddress(_ fname: UnsafePointer<ALchar>!) -> UnsafeMutableRawPointer! {
    guard let fname, let function = AppleOpenAL.functions[String(cString: fname)] else { return COpenAL.alGetProcAddress(fname) }
    return UnsafeMutableRawPointer(bitPattern: function)
}

/// `alcGetEnumValue` through <OpenAL/alc.h>: the ASA constants, else OpenAL Soft's answer.
@c @implementation
public func soundstage_alcGetEnumValue(_ device: OpaquePointer!, _ enumname: UnsafePointer<ALCchar>!) -> ALCenum {
    guard let enumname, let value = AppleOpenAL.constants[String(cString: enumname)] else { return COpenAL.alcGetEnumValue(device, enumname) }
    return value
}

/// `alGetEnumValue` through <OpenAL/al.h>: the ASA constants, else OpenAL Soft's answer.
@c @implementation
public func soundstage_alGetEnumValue(_ ename: UnsafePointer<ALchar>!) -> ALenum {
    guard let ename, let value = AppleOpenAL.constants[String(cString: ename)] else { return COpenAL.alGetEnumValue(ename) }
    return value
}

/// `alcIsExtensionPresent` through <OpenAL/alc.h>: true for Apple's extensions Soundstage adds.
@c @implementation
public func soundstage_alcIsExtensionPresent(_ device: OpaquePointer!, _ extname: UnsafePointer<ALCchar>!) -> ALCboolean {
    guard let extname, AppleOpenAL.isExtension(extname) else { return COpenAL.alcIsExtensionPresent(device, extname) }
    return ALCboolean(ALC_TRUE)
}

/// `alIsExtensionPresent` through <OpenAL/al.h>: true for Apple's extensions Soundstage adds.
@c @implementation
public func soundstage_alIsExtensionPresent(_ extname: UnsafePointer<ALchar>!) -> ALboolean {
    guard let extname, AppleOpenAL.isExtension(extname) else { return COpenAL.alIsExtensionPresent(extname) }
    return ALboolean(AL_TRUE)
}
