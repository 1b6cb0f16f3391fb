// OpenAL's routed names for Swift. In C, <OpenAL/alc.h> and <OpenAL/al.h> make nine names macros
// for the soundstage_ functions (ProcAddress.swift, MixerOutputRate.swift, ASAContext.swift);
// Swift imports no macro, so these functions carry the names instead. A Swift program that says
// `import OpenAL` (or `import AudioToolbox`) as on iOS calls them, not OpenAL Soft's: its
// `alcGetProcAddress(nil, "alBufferDataStatic")` finds the function, its contexts mix at the rate
// `alcMacOSXMixerOutputRate` set, and its first context attaches the audio system to the main run
// loop. They shadow OpenAL Soft's names from modules this one imports; a file that also imports
// COpenAL sees both and must say which (`COpenAL.alcCreateContext`).
import COpenAL

/// `alcGetProcAddress`: Apple's extension functions and the routed ones, else OpenAL Soft's answer.
public func alcGetProcAddress(_ device: OpaquePointer!, _ funcname: UnsafePointer<ALCchar>!) -> UnsafeMutableRawPointer! {
    soundstage_alcGetProcAddress(device, funcname)
}

/// `alGetProcAddress`: as ``alcGetProcAddress(_:_:)``.
public func alGetProcAddress(_ fname: UnsafePointer<ALchar>!) -> UnsafeMutableRawPointer! {
    soundstage_alGetProcAddress(fname)
}

/// `alcGetEnumValue`: the ASA and Mac OS X constants, else OpenAL Soft's answer.
public func alcGetEnumValue(_ device: OpaquePointer!, _ enumname: UnsafePointer<ALCchar>!) -> ALCenum {
    soundstage_alcGetEnumValue(device, enumname)
}

/// `alGetEnumValue`: as ``alcGetEnumValue(_:_:)``.
public func alGetEnumValue(_ ename: UnsafePointer<ALchar>!) -> ALenum {
    soundstage_alGetEnumValue(ename)
}

/// `alcIsExtensionPresent`: also true for ALC_EXT_ASA, ALC_EXT_MAC_OSX and AL_EXT_STATIC_BUFFER.
public func alcIsExtensionPresent(_ device: OpaquePointer!, _ extname: UnsafePointer<ALCchar>!) -> ALCboolean {
    soundstage_alcIsExtensionPresent(device, extname)
}

/// `alIsExtensionPresent`: as ``alcIsExtensionPresent(_:_:)``.
public func alIsExtensionPresent(_ extname: UnsafePointer<ALchar>!) -> ALboolean {
    soundstage_alIsExtensionPresent(extname)
}

/// `alcCreateContext`: OpenAL Soft's, at the mixer output rate when one was set and `attrlist`
/// names no `ALC_FREQUENCY`; the audio system is attached to the main run loop from then on.
public func alcCreateContext(_ device: OpaquePointer!, _ attrlist: UnsafePointer<ALCint>!) -> OpaquePointer! {
    soundstage_alcCreateContext(device, attrlist)
}

/// `alcDestroyContext`: OpenAL Soft's, and what the ASA extension made for the context is freed.
public func alcDestroyContext(_ context: OpaquePointer!) {
    soundstage_alcDestroyContext(context)
}

/// `alDeleteSources`: OpenAL Soft's, and the ASA settings of the deleted sources are forgotten.
public func alDeleteSources(_ n: ALsizei, _ sources: UnsafePointer<ALuint>!) {
    soundstage_alDeleteSources(n, sources)
}
