// ALC_EXT_ASA's listener properties (OpenAL/oalMacOSX_OALExtensions.h), on the current context:
// reverb on and off, its room and level onto the context's EFX reverb (ASAContext.swift); the
// quality and the EQ are kept and read back, not heard.
import COpenAL

/// `alcASASetListener`: `AL_NO_ERROR`, or the error it also records for alGetError.
@c @implementation
public func alcASASetListener(_ property: ALuint, _ data: UnsafeMutableRawPointer!, _ dataSize: ALuint) -> ALenum {
    alStatus { context throws(ALError) in
        try ASARegistry.withContext(context) { (state: inout ASAContext) throws(ALError) in
            switch Int32(bitPattern: property) {
            case ALC_ASA_REVERB_ON:
                state.reverbOn = try ASAValue.integer(data, dataSize) != 0
            case ALC_ASA_REVERB_ROOM_TYPE:
                let type = try ASAValue.integer(data, dataSize)
                guard ASARoom.isRoomType(type) else { throw .invalidValue }
                state.roomType = type
            case ALC_ASA_REVERB_GLOBAL_LEVEL:
                state.globalLevel = try ASAValue.float(data, dataSize, in: -40...40)
            case ALC_ASA_REVERB_QUALITY:
                let quality = try ASAValue.integer(data, dataSize)
                guard (ALC_ASA_REVERB_QUALITY_Min...ALC_ASA_REVERB_QUALITY_Max).contains(quality) else { throw .invalidValue }
                state.quality = quality
                return
            case ALC_ASA_REVERB_EQ_GAIN:
                state.eqGain = try ASAValue.float(data, dataSize, in: -.greatestFiniteMagnitude ... .greatestFiniteMagnitude)
                return
            case ALC_ASA_REVERB_EQ_BANDWITH:
                state.eqBandwidth = try ASAValue.float(data, dataSize, in: -.greatestFiniteMagnitude ... .greatestFiniteMagnitude)
                return
            case ALC_ASA_REVERB_EQ_FREQ:
                state.eqFrequency = try ASAValue.float(data, dataSize, in: -.greatestFiniteMagnitude ... .greatestFiniteMagnitude)
                return
            case ALC_ASA_REVERB_PRESET:
                throw .invalidOperation
            default:
                throw .invalidEnum
            }
            try state.prepareEffects()
            state.updateReverb()
        }
    }
}

/// `alcASAGetListener`: the value in `data` and its size in `*dataSize`.
@c @implementation
public func alcASAGetListener(_ property: ALuint, _ data: UnsafeMutableRawPointer!, _ dataSize: UnsafeMutablePointer<ALuint>!) -> ALenum {
    alStatus { context throws(ALError) in
        let state = try ASARegistry.withContext(context) { (state: inout ASAContext) throws(ALError) in state }
        switch Int32(bitPattern: property) {
        case ALC_ASA_REVERB_ON: try ASAValue.write(ALint(state.reverbOn ? 1 : 0), data, dataSize)
        case ALC_ASA_REVERB_ROOM_TYPE: try ASAValue.write(state.roomType, data, dataSize)
        case ALC_ASA_REVERB_QUALITY: try ASAValue.write(state.quality, data, dataSize)
        case ALC_ASA_REVERB_GLOBAL_LEVEL: try ASAValue.write(state.globalLevel, data, dataSize)
        case ALC_ASA_REVERB_EQ_GAIN: try ASAValue.write(state.eqGain, data, dataSize)
        case ALC_ASA_REVERB_EQ_BANDWITH: try ASAValue.write(state.eqBandwidth, data, dataSize)
        case ALC_ASA_REVERB_EQ_FREQ: try ASAValue.write(state.eqFrequency, data, dataSize)
        case ALC_ASA_REVERB_PRESET: throw .invalidOperation
        default: throw .invalidEnum
        }
    }
}
