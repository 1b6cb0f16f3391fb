import COpenAL

/// One listener property as OpenAL knows it (the listener's counterpart of ``SourceParameter``):
/// the setters and the re-apply after a migration both write through this table.
struct ListenerParameter: Sendable {
    /// Writes the value `properties` hold to the current context's listener.
    let write: @Sendable (_ properties: Listener.Properties, _ al: borrowing ALCalls) -> Void

    static let position = ListenerParameter { p, al in
        al.must("alListener3f(AL_POSITION)") { alListener3f(AL_POSITION, p.position.x, p.position.y, p.position.z) }
    }
    static let velocity = ListenerParameter { p, al in
        al.must("alListener3f(AL_VELOCITY)") { alListener3f(AL_VELOCITY, p.velocity.x, p.velocity.y, p.velocity.z) }
    }
    static let orientation = ListenerParameter { p, al in
        var values: [ALfloat] = [p.at.x, p.at.y, p.at.z, p.up.x, p.up.y, p.up.z]
        al.must("alListenerfv(AL_ORIENTATION)") { alListenerfv(AL_ORIENTATION, &values) }
    }
    /// OpenAL gets the game's gain times the session's ducking factor.
    static let gain = ListenerParameter { p, al in
        let value = p.gain * p.duck
        al.must("alListenerf(AL_GAIN)") { alListenerf(AL_GAIN, value) }
    }

    /// Every listener parameter, in the order they are applied.
    static let all = [position, velocity, orientation, gain]
}

extension ChannelLayout {
    /// The loopback renderer's `ALC_FORMAT_CHANNELS_SOFT` for the layout.
    var alcValue: ALCint {
        switch self {
        case .mono: ALC_MONO_SOFT
        case .stereo: ALC_STEREO_SOFT
        case .quad: ALC_QUAD_SOFT
        case .surround51: ALC_5POINT1_SOFT
        case .surround61: ALC_6POINT1_SOFT
        case .surround71: ALC_7POINT1_SOFT
        }
    }
}

extension DistanceModel {
    /// The model's `alDistanceModel` value.
    var alValue: ALenum {
        switch self {
        case .none: AL_NONE
        case .inverse: AL_INVERSE_DISTANCE
        case .inverseClamped: AL_INVERSE_DISTANCE_CLAMPED
        case .linear: AL_LINEAR_DISTANCE
        case .linearClamped: AL_LINEAR_DISTANCE_CLAMPED
        case .exponent: AL_EXPONENT_DISTANCE
        case .exponentClamped: AL_EXPONENT_DISTANCE_CLAMPED
        }
    }
}

extension ALCalls {
    /// Pauses OpenAL source `name`.
    func pause(_ name: ALuint) {
        must("alSourcePause") { alSourcePause(name) }
    }

    /// Where OpenAL source `name` is, in seconds (`AL_SEC_OFFSET`, double precision).
    func secondsOffset(_ name: ALuint) -> Double {
        var offset: Double = 0
        must("alGetSourcedSOFT(AL_SEC_OFFSET)") { alGetSourcedSOFT(name, AL_SEC_OFFSET, &offset) }
        return offset
    }

    /// Where OpenAL source `name` is, in sample frames of its current buffer (`AL_SAMPLE_OFFSET`).
    func sampleOffset(_ name: ALuint) throws(SoundstageError) -> Int {
        var offset: ALint = 0
        try call("alGetSourcei(AL_SAMPLE_OFFSET)") { alGetSourcei(name, AL_SAMPLE_OFFSET, &offset) }
        return Int(offset)
    }
}

/// An OpenAL object name (a source, buffer, effect slot), for code outside this folder.
typealias ALName = ALuint
