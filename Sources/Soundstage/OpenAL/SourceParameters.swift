import COpenAL

/// One source property as OpenAL knows it — its parameter, the call that sets it (named once,
/// for errors) and how its value is written from and read back into ``Source/Properties``.
///
/// The table ``all`` is the one place a source property meets OpenAL: a setter writes its entry,
/// a re-apply (a reused OpenAL source, a migration to another device) writes them all, and the
/// read-back that tests use to prove a migration restored everything reads them all.
struct SourceParameter: Sendable {
    /// The call and parameter, e.g. `alSourcef(AL_GAIN)`.
    let name: StaticString
    /// Writes the value `properties` hold to OpenAL source `source`.
    let write: @Sendable (_ source: ALuint, _ properties: Source.Properties, _ al: borrowing ALCalls) -> Void
    /// Reads OpenAL's value back into `properties`.
    let read: @Sendable (_ source: ALuint, _ properties: inout Source.Properties, _ al: borrowing ALCalls) -> Void

    /// A float parameter (`alSourcef`).
    static func float(_ parameter: ALenum, _ name: StaticString, get: @escaping @Sendable (Source.Properties) -> Float,
                      set: @escaping @Sendable (inout Source.Properties, Float) -> Void) -> SourceParameter {
        SourceParameter(name: name, write: { source, properties, al in
            al.must(name) { alSourcef(source, parameter, get(properties)) }
        }, read: { source, properties, al in
            var value: ALfloat = 0
            al.must(name) { alGetSourcef(source, parameter, &value) }
            set(&properties, value)
        })
    }

    /// A vector parameter (`alSource3f`).
    static func vector(_ parameter: ALenum, _ name: StaticString, get: @escaping @Sendable (Source.Properties) -> Vector3,
                       set: @escaping @Sendable (inout Source.Properties, Vector3) -> Void) -> SourceParameter {
        SourceParameter(name: name, write: { source, properties, al in
            let v = get(properties)
            al.must(name) { alSource3f(source, parameter, v.x, v.y, v.z) }
        }, read: { source, properties, al in
            var x: ALfloat = 0, y: ALfloat = 0, z: ALfloat = 0
            al.must(name) { alGetSource3f(source, parameter, &x, &y, &z) }
            set(&properties, Vector3(x, y, z))
        })
    }

    /// A Boolean parameter (`alSourcei` with `AL_TRUE`/`AL_FALSE`).
    static func flag(_ parameter: ALenum, _ name: StaticString, get: @escaping @Sendable (Source.Properties) -> Bool,
                     set: @escaping @Sendable (inout Source.Properties, Bool) -> Void) -> SourceParameter {
        SourceParameter(name: name, write: { source, properties, al in
            let on = get(properties)
            al.must(name) { alSourcei(source, parameter, on ? AL_TRUE : AL_FALSE) }
        }, read: { source, properties, al in
            var value: ALint = 0
            al.must(name) { alGetSourcei(source, parameter, &value) }
            set(&properties, value != 0)
        })
    }
}

extension SourceParameter {
    static let position = vector(AL_POSITION, "alSource3f(AL_POSITION)", get: { $0.position }, set: { $0.position = $1 })
    static let velocity = vector(AL_VELOCITY, "alSource3f(AL_VELOCITY)", get: { $0.velocity }, set: { $0.velocity = $1 })
    static let direction = vector(AL_DIRECTION, "alSource3f(AL_DIRECTION)", get: { $0.direction }, set: { $0.direction = $1 })
    static let coneInnerAngle = float(AL_CONE_INNER_ANGLE, "alSourcef(AL_CONE_INNER_ANGLE)",
                                      get: { $0.cone.innerAngle }, set: { $0.cone.innerAngle = $1 })
    static let coneOuterAngle = float(AL_CONE_OUTER_ANGLE, "alSourcef(AL_CONE_OUTER_ANGLE)",
                                      get: { $0.cone.outerAngle }, set: { $0.cone.outerAngle = $1 })
    static let coneOuterGain = float(AL_CONE_OUTER_GAIN, "alSourcef(AL_CONE_OUTER_GAIN)",
                                     get: { $0.cone.outerGain }, set: { $0.cone.outerGain = $1 })
    /// OpenAL gets the gain times the groups' and the fade's; it reads back as that product.
    static let gain = float(AL_GAIN, "alSourcef(AL_GAIN)", get: { $0.openALGain }, set: { $0.gain = $1 })
    static let minGain = float(AL_MIN_GAIN, "alSourcef(AL_MIN_GAIN)", get: { $0.minGain }, set: { $0.minGain = $1 })
    static let maxGain = float(AL_MAX_GAIN, "alSourcef(AL_MAX_GAIN)", get: { $0.maxGain }, set: { $0.maxGain = $1 })
    /// OpenAL gets the pitch times the groups'; it reads back as that product.
    static let pitch = float(AL_PITCH, "alSourcef(AL_PITCH)", get: { $0.openALPitch }, set: { $0.pitch = $1 })
    static let looping = flag(AL_LOOPING, "alSourcei(AL_LOOPING)", get: { $0.looping }, set: { $0.looping = $1 })
    static let headRelative = flag(AL_SOURCE_RELATIVE, "alSourcei(AL_SOURCE_RELATIVE)",
                                   get: { $0.headRelative }, set: { $0.headRelative = $1 })
    static let referenceDistance = float(AL_REFERENCE_DISTANCE, "alSourcef(AL_REFERENCE_DISTANCE)",
                                         get: { $0.referenceDistance }, set: { $0.referenceDistance = $1 })
    static let maxDistance = float(AL_MAX_DISTANCE, "alSourcef(AL_MAX_DISTANCE)", get: { $0.maxDistance }, set: { $0.maxDistance = $1 })
    static let rolloffFactor = float(AL_ROLLOFF_FACTOR, "alSourcef(AL_ROLLOFF_FACTOR)",
                                     get: { $0.rolloffFactor }, set: { $0.rolloffFactor = $1 })

    /// The cone's three parameters.
    static let cone = [coneInnerAngle, coneOuterAngle, coneOuterGain]
    /// What a source's groups and fade change.
    static let groupFactors = [gain, pitch]
    /// Every parameter a source's ``Source/Properties`` mirror, in the order they are applied.
    static let all = [position, velocity, direction] + cone
        + [gain, minGain, maxGain, pitch, looping, headRelative, referenceDistance, maxDistance, rolloffFactor]
}
