// ALC_EXT_ASA's source properties (OpenAL/oalMacOSX_OALExtensions.h): the reverb send level,
// occlusion and obstruction of a source of the current context, onto its EFX direct filter and
// auxiliary send (ASAContext.swift).
import COpenAL

/// `alcASASetSource`: `AL_NO_ERROR`, or the error it also records for alGetError
/// (`AL_INVALID_NAME` for a name that is no source of the current context).
@c @implementation
public func alcASASetSource(_ property: ALuint, _ source: ALuint, _ data: UnsafeMutableRawPointer!, _ dataSize: ALuint) -> ALenum {
    alStatus { context throws(ALError) in
        let value: ALfloat
        switch Int32(bitPattern: property) {
        case ALC_ASA_REVERB_SEND_LEVEL: value = try ASAValue.float(data, dataSize, in: 0...1)
        case ALC_ASA_OCCLUSION, ALC_ASA_OBSTRUCTION: value = try ASAValue.float(data, dataSize, in: -100...0)
        default: throw .invalidEnum
        }
        guard alIsSource(source) != 0 else { throw .invalidName }
        try ASARegistry.withContext(context) { (state: inout ASAContext) throws(ALError) in
            try state.prepareEffects()
            switch Int32(bitPattern: property) {
            case ALC_ASA_REVERB_SEND_LEVEL: state.sources[source, default: ASASource()].sendLevel = value
            case ALC_ASA_OCCLUSION: state.sources[source, default: ASASource()].occlusion = value
            default: state.sources[source, default: ASASource()].obstruction = value
            }
            state.apply(to: source)
        }
    }
}

/// `alcASAGetSource`: the value in `data` (an ALfloat) and its size in `*dataSize`.
@c @implementation
public func alcASAGetSource(_ property: ALuint, _ source: ALuint, _ data: UnsafeMutableRawPointer!, _ dataSize: UnsafeMutablePointer<ALuint>!) -> ALenum {
    alStatus { context throws(ALError) in
        let known = [ALC_ASA_REVERB_SEND_LEVEL, ALC_ASA_OCCLUSION, ALC_ASA_OBSTRUCTION]
        guard known.contains(Int32(bitPattern: property)) else { throw .invalidEnum }
        guard alIsSource(source) != 0 else { throw .invalidName }
        let given = try ASARegistry.withContext(context) { (state: inout ASAContext) throws(ALError) in state.sources[source] ?? ASASource() }
        switch Int32(bitPattern: property) {
        case ALC_ASA_REVERB_SEND_LEVEL: try ASAValue.write(given.sendLevel, data, dataSize)
        case ALC_ASA_OCCLUSION: try ASAValue.write(given.occlusion, data, dataSize)
        default: try ASAValue.write(given.obstruction, data, dataSize)
        }
    }
}
