import AudioToolbox
import COpenAL
import Foundation
import Testing

/// Apple's OpenAL extensions' refusals from Swift: every bad input is an OpenAL error, returned
/// where the function returns one and recorded for alGetError or alcGetError, never a crash.
/// Each test has its own loopback device and context, current on its own thread only
/// (alcSetThreadContext), so the tests run in parallel. Tests/C/openal_extensions.c hears the mix.
@Suite struct OpenALExtensionTests {
    /// A loopback device and a context on it, current on the calling thread until `close`.
    final class Loopback {
        let device: OpaquePointer
        let context: OpaquePointer

        init(frequency: ALCint = 22_050, sourceLocation: SourceLocation = #_sourceLocation) throws {
            device = try #require(alcLoopbackOpenDeviceSOFT(nil), sourceLocation: sourceLocation)
            let attributes: [ALCint] = [ALC_FORMAT_CHANNELS_SOFT, ALC_STEREO_SOFT, ALC_FORMAT_TYPE_SOFT, ALC_FLOAT_SOFT,
                                        ALC_FREQUENCY, frequency, 0]
            context = try #require(soundstage_alcCreateContext(device, attributes), sourceLocation: sourceLocation)
            #expect(alcSetThreadContext(context) != 0, sourceLocation: sourceLocation)
            _ = alGetError()
        }

        func close() {
            _ = alcSetThreadContext(nil)
            soundstage_alcDestroyContext(context)
            _ = alcCloseDevice(device)
        }
    }

    /// Sets a listener property from `value`'s bytes, checking that the code returned is the one recorded.
    static func setListener<T: BitwiseCopyable>(_ property: Int32, _ value: T, size: Int = MemoryLayout<T>.size,
                                                sourceLocation: SourceLocation = #_sourceLocation) -> ALenum {
        var value = value
        let returned = withUnsafeMutableBytes(of: &value) { alcASASetListener(ALuint(bitPattern: property), $0.baseAddress, ALuint(size)) }
        #expect(alGetError() == returned, "the code returned is the one alGetError reads", sourceLocation: sourceLocation)
        return returned
    }

    static func setSource(_ property: Int32, _ source: ALuint, _ value: ALfloat, size: Int = 4,
                          sourceLocation: SourceLocation = #_sourceLocation) -> ALenum {
        var value = value
        let returned = alcASASetSource(ALuint(bitPattern: property), source, &value, ALuint(size))
        #expect(alGetError() == returned, "the code returned is the one alGetError reads", sourceLocation: sourceLocation)
        return returned
    }

    @Test func staticBuffersRefuseWhatAlBufferDataRefuses() throws {
        let loopback = try Loopback()
        defer { loopback.close() }
        var buffer: ALuint = 0
        alGenBuffers(1, &buffer)
        var samples = [Int16](repeating: 1000, count: 2_205)
        let bytes = ALsizei(samples.count * 2)

        alBufferDataStatic(ALint(buffer), AL_FORMAT_MONO16, nil, bytes, 22_050)
        #expect(alGetError() == AL_INVALID_VALUE, "NULL data")
        samples.withUnsafeMutableBytes { alBufferDataStatic(ALint(buffer), AL_FORMAT_MONO16, $0.baseAddress, -2, 22_050) }
        #expect(alGetError() == AL_INVALID_VALUE, "a negative size")
        samples.withUnsafeMutableBytes { alBufferDataStatic(ALint(buffer), AL_FORMAT_MONO16, $0.baseAddress, 3, 22_050) }
        #expect(alGetError() == AL_INVALID_VALUE, "half a frame")
        samples.withUnsafeMutableBytes { alBufferDataStatic(ALint(buffer), AL_FORMAT_MONO16, $0.baseAddress, bytes, 0) }
        #expect(alGetError() == AL_INVALID_VALUE, "a rate of 0")
        samples.withUnsafeMutableBytes { alBufferDataStatic(999_999, AL_FORMAT_MONO16, $0.baseAddress, bytes, 22_050) }
        #expect(alGetError() == AL_INVALID_NAME, "a buffer never made")
        alBufferDataStatic(-5, AL_FORMAT_MONO16, nil, bytes, 22_050)
        #expect(alGetError() == AL_INVALID_NAME, "a negative name, with NULL data: the name is checked first")
        samples.withUnsafeMutableBytes { alBufferDataStatic(ALint(buffer), 0x7777, $0.baseAddress, bytes, 22_050) }
        #expect(alGetError() == AL_INVALID_ENUM, "a format OpenAL Soft does not know")

        samples.withUnsafeMutableBytes { alBufferDataStatic(ALint(buffer), AL_FORMAT_MONO16, $0.baseAddress, bytes, 22_050) }
        #expect(alGetError() == AL_NO_ERROR)
        var size: ALint = 0, frequency: ALint = 0
        alGetBufferi(buffer, AL_SIZE, &size)
        alGetBufferi(buffer, AL_FREQUENCY, &frequency)
        #expect(size == bytes && frequency == 22_050)

        var source: ALuint = 0
        alGenSources(1, &source)
        alSourcei(source, AL_BUFFER, ALint(buffer))
        samples.withUnsafeMutableBytes { alBufferDataStatic(ALint(buffer), AL_FORMAT_MONO16, $0.baseAddress, bytes, 22_050) }
        #expect(alGetError() == AL_INVALID_OPERATION, "a buffer a source holds")
        soundstage_alDeleteSources(1, &source)
        alDeleteBuffers(1, &buffer)
        #expect(alGetError() == AL_NO_ERROR)
    }

    @Test func listenerPropertiesRefuseBadValues() throws {
        let loopback = try Loopback()
        defer { loopback.close() }
        #expect(Self.setListener(ALC_ASA_REVERB_GLOBAL_LEVEL, ALfloat.nan) == AL_INVALID_VALUE, "NaN")
        #expect(Self.setListener(ALC_ASA_REVERB_GLOBAL_LEVEL, ALfloat.infinity) == AL_INVALID_VALUE, "infinity")
        #expect(Self.setListener(ALC_ASA_REVERB_GLOBAL_LEVEL, ALfloat(40.5)) == AL_INVALID_VALUE, "above 40 dB")
        #expect(Self.setListener(ALC_ASA_REVERB_GLOBAL_LEVEL, ALfloat(-41)) == AL_INVALID_VALUE, "below -40 dB")
        #expect(Self.setListener(ALC_ASA_REVERB_GLOBAL_LEVEL, Double(3)) == AL_INVALID_VALUE, "a double, 8 bytes")
        #expect(Self.setListener(ALC_ASA_REVERB_GLOBAL_LEVEL, ALfloat(-12)) == AL_NO_ERROR)
        #expect(Self.setListener(ALC_ASA_REVERB_ROOM_TYPE, ALint(13)) == AL_INVALID_VALUE, "no room type 13")
        #expect(Self.setListener(ALC_ASA_REVERB_ROOM_TYPE, ALint(-1)) == AL_INVALID_VALUE, "no room type -1")
        #expect(Self.setListener(ALC_ASA_REVERB_ROOM_TYPE, ALint(ALC_ASA_REVERB_ROOM_TYPE_Plate)) == AL_NO_ERROR)
        #expect(Self.setListener(ALC_ASA_REVERB_QUALITY, ALint(0x80)) == AL_INVALID_VALUE, "above ALC_ASA_REVERB_QUALITY_Max")
        #expect(Self.setListener(ALC_ASA_REVERB_ON, UInt64(1)) == AL_INVALID_VALUE, "an 8-byte integer")
        #expect(Self.setListener(ALC_ASA_REVERB_ON, UInt8(1)) == AL_NO_ERROR, "an ALboolean, as some games pass it")
        #expect(Self.setListener(0x1234_5678, ALuint(1)) == AL_INVALID_ENUM, "an unknown property")
        #expect(Self.setListener(ALC_ASA_REVERB_PRESET, ALuint(1)) == AL_INVALID_OPERATION, "an Audio Unit preset file")
        #expect(alcASASetListener(ALuint(bitPattern: ALC_ASA_REVERB_ON), nil, 4) == AL_INVALID_VALUE, "NULL data")
        #expect(alGetError() == AL_INVALID_VALUE)

        // What was refused changed nothing; what was taken reads back.
        var level: ALfloat = 0, size: ALuint = 4
        #expect(alcASAGetListener(ALuint(bitPattern: ALC_ASA_REVERB_GLOBAL_LEVEL), &level, &size) == AL_NO_ERROR)
        #expect(level == -12 && size == 4)
        var room: ALint = -1
        size = 4
        #expect(alcASAGetListener(ALuint(bitPattern: ALC_ASA_REVERB_ROOM_TYPE), &room, &size) == AL_NO_ERROR)
        #expect(room == ALC_ASA_REVERB_ROOM_TYPE_Plate)
        var on: ALuint = 7
        size = 4
        #expect(alcASAGetListener(ALuint(bitPattern: ALC_ASA_REVERB_ON), &on, &size) == AL_NO_ERROR)
        #expect(on == 1 && size == 4)
        var quality: ALint = 0
        size = 4
        #expect(alcASAGetListener(ALuint(bitPattern: ALC_ASA_REVERB_QUALITY), &quality, &size) == AL_NO_ERROR)
        #expect(quality == ALC_ASA_REVERB_QUALITY_High, "the quality before any is set")

        // Reading: room for the value, and somewhere to say its size.
        size = 2
        #expect(alcASAGetListener(ALuint(bitPattern: ALC_ASA_REVERB_GLOBAL_LEVEL), &level, &size) == AL_INVALID_VALUE)
        #expect(alGetError() == AL_INVALID_VALUE)
        #expect(alcASAGetListener(ALuint(bitPattern: ALC_ASA_REVERB_GLOBAL_LEVEL), &level, nil) == AL_INVALID_VALUE)
        #expect(alGetError() == AL_INVALID_VALUE)
        size = 4
        #expect(alcASAGetListener(0x1234_5678, &level, &size) == AL_INVALID_ENUM)
        #expect(alGetError() == AL_INVALID_ENUM)
    }

    @Test func sourcePropertiesRefuseBadValuesAndSources() throws {
        let loopback = try Loopback()
        defer { loopback.close() }
        var source: ALuint = 0
        alGenSources(1, &source)
        #expect(Self.setSource(ALC_ASA_REVERB_SEND_LEVEL, source, .nan) == AL_INVALID_VALUE, "NaN")
        #expect(Self.setSource(ALC_ASA_REVERB_SEND_LEVEL, source, 1.5) == AL_INVALID_VALUE, "above 1")
        #expect(Self.setSource(ALC_ASA_OCCLUSION, source, 3) == AL_INVALID_VALUE, "above 0 dB")
        #expect(Self.setSource(ALC_ASA_OBSTRUCTION, source, -100.5) == AL_INVALID_VALUE, "below -100 dB")
        #expect(Self.setSource(ALC_ASA_OBSTRUCTION, source, -10, size: 2) == AL_INVALID_VALUE, "2 bytes")
        #expect(Self.setSource(ALC_ASA_REVERB_ON, source, 1) == AL_INVALID_ENUM, "a listener property")
        #expect(Self.setSource(ALC_ASA_OCCLUSION, 4_000_000, -10) == AL_INVALID_NAME, "a source never made")
        #expect(Self.setSource(ALC_ASA_OCCLUSION, source, -30) == AL_NO_ERROR)
        #expect(Self.setSource(ALC_ASA_REVERB_SEND_LEVEL, source, 0.75) == AL_NO_ERROR)
        #expect(alcASASetSource(ALuint(bitPattern: ALC_ASA_OCCLUSION), source, nil, 4) == AL_INVALID_VALUE, "NULL data")
        #expect(alGetError() == AL_INVALID_VALUE)

        var value: ALfloat = 0, size: ALuint = 4
        #expect(alcASAGetSource(ALuint(bitPattern: ALC_ASA_OCCLUSION), source, &value, &size) == AL_NO_ERROR)
        #expect(value == -30)
        size = 4
        #expect(alcASAGetSource(ALuint(bitPattern: ALC_ASA_OBSTRUCTION), source, &value, &size) == AL_NO_ERROR)
        #expect(value == 0, "obstruction before any is set")

        // Deleted through <OpenAL/al.h>'s alDeleteSources: the name is refused, and when OpenAL Soft
        // gives it to a new source, that source starts from nothing.
        soundstage_alDeleteSources(1, &source)
        #expect(Self.setSource(ALC_ASA_OCCLUSION, source, -10) == AL_INVALID_NAME, "a deleted source")
        size = 4
        #expect(alcASAGetSource(ALuint(bitPattern: ALC_ASA_OCCLUSION), source, &value, &size) == AL_INVALID_NAME)
        #expect(alGetError() == AL_INVALID_NAME)
        var again: ALuint = 0
        alGenSources(1, &again)
        size = 4
        value = 9
        #expect(alcASAGetSource(ALuint(bitPattern: ALC_ASA_OCCLUSION), again, &value, &size) == AL_NO_ERROR)
        #expect(value == 0, "source \(again) (the deleted one was \(source)) has no occlusion")
        soundstage_alDeleteSources(1, &again)
        soundstage_alDeleteSources(-1, &again)
        #expect(alGetError() == AL_INVALID_VALUE, "OpenAL Soft's own refusals are still made")
    }

    @Test func aSourceOfAnotherContextIsNotASource() throws {
        let first = try Loopback()
        var source: ALuint = 0
        alGenSources(1, &source)
        first.close()
        let second = try Loopback()
        defer { second.close() }
        var taken: ALuint = 0
        alGenSources(1, &taken)
        #expect(Self.setSource(ALC_ASA_OCCLUSION, taken + 1, -10) == AL_INVALID_NAME)
        var value: ALfloat = -1, size: ALuint = 4
        #expect(alcASAGetSource(ALuint(bitPattern: ALC_ASA_REVERB_SEND_LEVEL), taken, &value, &size) == AL_NO_ERROR)
        #expect(value == 0, "a new context starts from nothing")
    }

    @Test func procAddressesEnumsAndExtensions() throws {
        let loopback = try Loopback()
        defer { loopback.close() }
        let names = ["alBufferDataStatic", "alcMacOSXMixerOutputRate", "alcMacOSXGetMixerOutputRate", "alcASASetListener",
                     "alcASAGetListener", "alcASASetSource", "alcASAGetSource", "alcCreateContext", "alcDestroyContext", "alDeleteSources"]
        for name in names {
            #expect(soundstage_alcGetProcAddress(nil, name) != nil, "\(name)")
            #expect(soundstage_alGetProcAddress(name) == soundstage_alcGetProcAddress(loopback.device, name), "\(name)")
            #expect(COpenAL.alcGetProcAddress(nil, name) != soundstage_alcGetProcAddress(nil, name), "OpenAL Soft's own answer differs for \(name)")
            // Swift's names are the routed ones (SwiftNames.swift), as C's macros are.
            #expect(AudioToolbox.alcGetProcAddress(nil, name) == soundstage_alcGetProcAddress(nil, name), "\(name)")
            #expect(AudioToolbox.alGetProcAddress(name) == soundstage_alGetProcAddress(name), "\(name)")
        }
        #expect(soundstage_alcGetProcAddress(nil, "alcRenderSamplesSOFT") == COpenAL.alcGetProcAddress(nil, "alcRenderSamplesSOFT"))
        #expect(AudioToolbox.alcGetEnumValue(nil, "ALC_ASA_OBSTRUCTION") == ALC_ASA_OBSTRUCTION)
        #expect(AudioToolbox.alGetEnumValue("ALC_ASA_REVERB_ROOM_TYPE_LargeHall2") == 12)
        #expect(AudioToolbox.alcIsExtensionPresent(loopback.device, "ALC_EXT_MAC_OSX") == ALC_TRUE)
        #expect(AudioToolbox.alIsExtensionPresent("AL_EXT_STATIC_BUFFER") == AL_TRUE)
        #expect(soundstage_alcGetProcAddress(nil, "alBufferDataStaticX") == nil)
        #expect(soundstage_alcGetEnumValue(nil, "ALC_ASA_OBSTRUCTION") == ALC_ASA_OBSTRUCTION)
        #expect(soundstage_alGetEnumValue("ALC_ASA_REVERB_ROOM_TYPE_LargeHall2") == 12)
        #expect(soundstage_alGetEnumValue("AL_GAIN") == AL_GAIN)
        #expect(soundstage_alcIsExtensionPresent(loopback.device, "alc_ext_asa") == ALC_TRUE, "case aside, as OpenAL Soft compares")
        #expect(soundstage_alIsExtensionPresent("AL_EXT_STATIC_BUFFER") == AL_TRUE)
        #expect(soundstage_alIsExtensionPresent("AL_EXT_FLOAT32") == AL_TRUE)
        #expect(soundstage_alIsExtensionPresent("AL_EXT_NOTHING") == AL_FALSE)
        _ = soundstage_alIsExtensionPresent(nil)
        #expect(alGetError() == AL_INVALID_VALUE, "NULL is OpenAL Soft's to refuse")
    }

    /// The mixer rate and every refusal recorded on the NULL device (alcGetError(NULL) is the
    /// process's: one test reads it).
    @Test func mixerRateAndTheNullDevicesErrors() throws {
        _ = alcGetError(nil)
        for bad in [ALdouble.nan, .infinity, -.infinity, 0, -44_100, 7_999, 192_001] {
            alcMacOSXMixerOutputRate(bad)
            #expect(alcGetError(nil) == ALC_INVALID_VALUE, "\(bad) Hz")
        }
        alcMacOSXMixerOutputRate(32_000)
        #expect(alcGetError(nil) == ALC_NO_ERROR)
        #expect(alcMacOSXGetMixerOutputRate() == 32_000)
        alcMacOSXMixerOutputRate(.nan)
        #expect(alcMacOSXGetMixerOutputRate() == 32_000, "a refused rate changes nothing")
        _ = alcGetError(nil)

        // A context named no rate gets the mixer's; one that names a rate keeps it.
        let device = try #require(alcLoopbackOpenDeviceSOFT(nil))
        defer { _ = alcCloseDevice(device) }
        let unnamed: [ALCint] = [ALC_FORMAT_CHANNELS_SOFT, ALC_MONO_SOFT, ALC_FORMAT_TYPE_SOFT, ALC_SHORT_SOFT, 0]
        let context = try #require(soundstage_alcCreateContext(device, unnamed))
        var frequency: ALCint = 0
        alcGetIntegerv(device, ALC_FREQUENCY, 1, &frequency)
        #expect(frequency == 32_000)
        soundstage_alcDestroyContext(context)
        let named: [ALCint] = [ALC_FORMAT_CHANNELS_SOFT, ALC_MONO_SOFT, ALC_FORMAT_TYPE_SOFT, ALC_SHORT_SOFT, ALC_FREQUENCY, 11_025, 0]
        let other = try #require(soundstage_alcCreateContext(device, named))
        alcGetIntegerv(device, ALC_FREQUENCY, 1, &frequency)
        #expect(frequency == 11_025)
        soundstage_alcDestroyContext(other)
        #expect(alcGetError(device) == ALC_NO_ERROR)

        #expect(soundstage_alcGetProcAddress(nil, nil) == nil)
        #expect(alcGetError(nil) == ALC_INVALID_VALUE, "a NULL name is OpenAL Soft's to refuse")
    }

    @Test func destroyingAContextForgetsItsSettings() throws {
        let first = try Loopback()
        #expect(Self.setListener(ALC_ASA_REVERB_ON, ALuint(1)) == AL_NO_ERROR)
        var source: ALuint = 0
        alGenSources(1, &source)
        #expect(Self.setSource(ALC_ASA_REVERB_SEND_LEVEL, source, 1) == AL_NO_ERROR)
        first.close()
        let second = try Loopback()
        defer { second.close() }
        var on: ALuint = 9, size: ALuint = 4
        #expect(alcASAGetListener(ALuint(bitPattern: ALC_ASA_REVERB_ON), &on, &size) == AL_NO_ERROR)
        #expect(on == 0, "a new context's reverb is off, whatever address it has")
    }
}
