import COpenAL

/// Every source property as OpenAL knows it — its parameter, the call that sets it (named once,
/// for errors), and where its value lives in ``Source/Properties``.
///
/// This table is the one place a source property meets OpenAL: a setter writes its entry, a
/// re-apply (a reused OpenAL source, a migration to another device) writes them all, and the
/// read-back that tests use to prove a migration restored everything reads them all. It is an
/// enum with switches rather than an array of closures so that a setter, which names its case,
/// compiles to the one direct `alSource*` call (a closure table cost a setter 15–20 %).
enum SourceParameter: Int, CaseIterable, Sendable {
    case position, velocity, direction
    case coneInnerAngle, coneOuterAngle, coneOuterGain
    /// OpenAL gets the gain times the groups' and the fade's; it reads back as that product.
    case gain
    case minGain, maxGain
    /// OpenAL gets the pitch times the groups'; it reads back as that product.
    case pitch
    case looping, headRelative
    case referenceDistance, maxDistance, rolloffFactor

    /// The cone's three parameters.
    static let cone: [SourceParameter] = [.coneInnerAngle, .coneOuterAngle, .coneOuterGain]
    /// What a source's groups and fade change.
    static let groupFactors: [SourceParameter] = [.gain, .pitch]

    /// The OpenAL parameter, and the call that sets it as errors name it.
    @inline(__always)
    var openAL: (parameter: ALenum, call: StaticString) {
        switch self {
        case .position: (AL_POSITION, "alSource3f(AL_POSITION)")
        case .velocity: (AL_VELOCITY, "alSource3f(AL_VELOCITY)")
        case .direction: (AL_DIRECTION, "alSource3f(AL_DIRECTION)")
        case .coneInnerAngle: (AL_CONE_INNER_ANGLE, "alSourcef(AL_CONE_INNER_ANGLE)")
        case .coneOuterAngle: (AL_CONE_OUTER_ANGLE, "alSourcef(AL_CONE_OUTER_ANGLE)")
        case .coneOuterGain: (AL_CONE_OUTER_GAIN, "alSourcef(AL_CONE_OUTER_GAIN)")
        case .gain: (AL_GAIN, "alSourcef(AL_GAIN)")
        case .minGain: (AL_MIN_GAIN, "alSourcef(AL_MIN_GAIN)")
        case .maxGain: (AL_MAX_GAIN, "alSourcef(AL_MAX_GAIN)")
        case .pitch: (AL_PITCH, "alSourcef(AL_PITCH)")
        case .looping: (AL_LOOPING, "alSourcei(AL_LOOPING)")
        case .headRelative: (AL_SOURCE_RELATIVE, "alSourcei(AL_SOURCE_RELATIVE)")
        case .referenceDistance: (AL_REFERENCE_DISTANCE, "alSourcef(AL_REFERENCE_DISTANCE)")
        case .maxDistance: (AL_MAX_DISTANCE, "alSourcef(AL_MAX_DISTANCE)")
        case .rolloffFactor: (AL_ROLLOFF_FACTOR, "alSourcef(AL_ROLLOFF_FACTOR)")
        }
    }

    /// What the value is: three floats, one float, or a Boolean.
    private enum Kind { case vector, float, flag }

    @inline(__always)
    private var kind: Kind {
        switch self {
        case .position, .velocity, .direction: .vector
        case .looping, .headRelative: .flag
        default: .float
        }
    }

    /// Its bit in a set of parameters (``Source/unwrittenParameters``).
    @inline(__always)
    var bit: UInt16 { 1 << UInt16(rawValue) }

    /// Writes the value `p` holds to OpenAL source `source`.
    @inline(__always)
    func write(_ source: ALuint, _ p: Source.Properties, _ al: borrowing ALCalls) {
        al.must(openAL.call) { send(source, p) }
    }

    /// Writes the parameters in `bits` (see ``bit``) to `source` — properties set since the last
    /// mix — without reading OpenAL's error: only inside an ``ALCalls/must(_:_:)`` that reads it
    /// once for a whole mix's writes (hundreds of calls; a read costs about what a lock does).
    @inline(__always)
    static func send(_ bits: UInt16, to source: ALuint, _ p: Source.Properties) {
        var rest = bits
        while rest != 0 {
            let index = rest.trailingZeroBitCount
            rest &= rest &- 1
            SourceParameter(rawValue: index)?.send(source, p)
        }
    }

    /// ``send(_:to:_:)`` for a position alone (`alSource3f(AL_POSITION)`), its error left for the caller.
    @inline(__always)
    static func sendPosition(to source: ALuint, _ position: Vector3) {
        alSource3f(source, AL_POSITION, position.x, position.y, position.z)
    }

    /// The one `alSource*` call, its error left for the caller to read.
    @inline(__always)
    private func send(_ source: ALuint, _ p: Source.Properties) {
        let parameter = openAL.parameter
        switch kind {
        case .vector:
            let v = vector(p)
            alSource3f(source, parameter, v.x, v.y, v.z)
        case .flag:
            alSourcei(source, parameter, flag(p) ? AL_TRUE : AL_FALSE)
        case .float:
            alSourcef(source, parameter, float(p))
        }
    }

    /// Reads OpenAL's value back into `p`.
    func read(_ source: ALuint, _ p: inout Source.Properties, _ al: borrowing ALCalls) {
        let (parameter, call) = openAL
        switch kind {
        case .vector:
            var x: ALfloat = 0, y: ALfloat = 0, z: ALfloat = 0
            al.must(call) { alGetSource3f(source, parameter, &x, &y, &z) }
            set(&p, vector: Vector3(x, y, z))
        case .flag:
            var value: ALint = 0
            al.must(call) { alGetSourcei(source, parameter, &value) }
            set(&p, flag: value != 0)
        case .float:
            var value: ALfloat = 0
            al.must(call) { alGetSourcef(source, parameter, &value) }
            set(&p, float: value)
        }
    }

    // Where each value lives in Source.Properties (what OpenAL gets, and where a read-back goes).

    @inline(__always)
    private func vector(_ p: Source.Properties) -> Vector3 {
        switch self {
        case .velocity: p.velocity
        case .direction: p.direction
        default: p.position
        }
    }

    @inline(__always)
    private func flag(_ p: Source.Properties) -> Bool { self == .looping ? p.looping : p.headRelative }

    @inline(__always)
    private func float(_ p: Source.Properties) -> Float {
        switch self {
        case .coneInnerAngle: p.cone.innerAngle
        case .coneOuterAngle: p.cone.outerAngle
        case .coneOuterGain: p.cone.outerGain
        case .gain: p.openALGain
        case .minGain: p.minGain
        case .maxGain: p.maxGain
        case .pitch: p.openALPitch
        case .referenceDistance: p.referenceDistance
        case .maxDistance: p.maxDistance
        default: p.rolloffFactor
        }
    }

    private func set(_ p: inout Source.Properties, vector: Vector3) {
        switch self {
        case .velocity: p.velocity = vector
        case .direction: p.direction = vector
        default: p.position = vector
        }
    }

    private func set(_ p: inout Source.Properties, flag: Bool) {
        if self == .looping { p.looping = flag } else { p.headRelative = flag }
    }

    private func set(_ p: inout Source.Properties, float value: Float) {
        switch self {
        case .coneInnerAngle: p.cone.innerAngle = value
        case .coneOuterAngle: p.cone.outerAngle = value
        case .coneOuterGain: p.cone.outerGain = value
        case .gain: p.gain = value
        case .minGain: p.minGain = value
        case .maxGain: p.maxGain = value
        case .pitch: p.pitch = value
        case .referenceDistance: p.referenceDistance = value
        case .maxDistance: p.maxDistance = value
        default: p.rolloffFactor = value
        }
    }
}
