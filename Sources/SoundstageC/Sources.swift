import CSoundstage
import Soundstage

extension Source: HandleObject {
    /// Destroying a source's handle stops it (its completion callback does not run).
    func handleDestroyed() {
        completionHandler = nil
        stop()
    }
}

@inline(__always)
func withSource<R>(_ handle: OpaquePointer?, _ body: (Source) throws -> R) throws -> R {
    try HandleTable.shared.with(handle, .source, as: Source.self, body)
}

@c @implementation
public func ss_source_create(_ scene: OpaquePointer?, _ buffer: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> ss_result {
    capi {
        let out = try require(out, "out_source")
        let source = try withScene(scene) { s in
            guard buffer != nil else { return s.makeSource() }
            return try withBuffer(buffer) { b in
                guard b.device === s.device else {
                    throw CAPIError(SS_ERROR_INVALID_ARGUMENT, "the buffer belongs to another device than the scene")
                }
                return s.makeSource(buffer: b)
            }
        }
        try publish(source, .source, parent: scene, to: out)
    }
}

@c @implementation
public func ss_stream_options_init(_ options: UnsafeMutablePointer<ss_stream_options>?) -> ss_result {
    capi {
        let options = try require(options, "options")
        let defaults = StreamOptions()
        options.pointee = ss_stream_options(struct_size: MemoryLayout<ss_stream_options>.size, buffer_duration: defaults.bufferDuration,
                                            buffer_count: Int32(defaults.bufferCount), loops: defaults.loops ? 1 : 0,
                                            loop_start: defaults.loopStart, loop_end: -1)
    }
}

@c @implementation
public func ss_source_create_streaming(_ scene: OpaquePointer?, _ path: UnsafePointer<CChar>?,
                                       _ options: UnsafePointer<ss_stream_options>?,
                                       _ out: UnsafeMutablePointer<OpaquePointer?>?) -> ss_result {
    capi {
        let out = try require(out, "out_source")
        let path = try string(path, "path")
        var stream = StreamOptions()
        if let c = options?.pointee {
            try checkInitialized(c.struct_size, MemoryLayout<ss_stream_options>.size, "ss_stream_options")
            stream.bufferDuration = try checked(c.buffer_duration, 0.01...10, "buffer_duration")
            stream.bufferCount = try checked(c.buffer_count, 2...64, "buffer_count")
            stream.loops = flag(c.loops)
            stream.loopStart = try checked(c.loop_start, 0...1e7, "loop_start")
            stream.loopEnd = c.loop_end.isFinite && c.loop_end < 0 ? nil : try checked(c.loop_end, 0...1e7, "loop_end")
        }
        let source = try withScene(scene) { try $0.makeStreamingSource(file: path, options: stream) }
        try publish(source, .source, parent: scene, to: out)
    }
}

@c @implementation
public func ss_source_destroy(_ source: OpaquePointer?) -> ss_result {
    capi { try HandleTable.shared.destroy(source, kind: .source) }
}

// MARK: Properties

@c @implementation
public func ss_source_set_float(_ source: OpaquePointer?, _ property: ss_source_float, _ value: Float) -> ss_result {
    capi {
        try withSource(source) { s in
            try setting(finite: value.isFinite) {
                switch property {
                case SS_SOURCE_GAIN: s.gain = value
                case SS_SOURCE_PITCH: s.pitch = value
                case SS_SOURCE_MIN_GAIN: s.minGain = value
                case SS_SOURCE_MAX_GAIN: s.maxGain = value
                case SS_SOURCE_REFERENCE_DISTANCE: s.referenceDistance = value
                // Swift takes an infinity as no limit; C refuses it (FLT_MAX is no limit): NaN is refused and counted.
                case SS_SOURCE_MAX_DISTANCE: s.maxDistance = value.isFinite ? value : .nan
                case SS_SOURCE_ROLLOFF_FACTOR: s.rolloffFactor = value
                case SS_SOURCE_CONE_INNER_ANGLE: s.cone.innerAngle = value
                case SS_SOURCE_CONE_OUTER_ANGLE: s.cone.outerAngle = value
                case SS_SOURCE_CONE_OUTER_GAIN: s.cone.outerGain = value
                case SS_SOURCE_OCCLUSION: s.occlusion = value
                case SS_SOURCE_OBSTRUCTION: s.obstruction = value
                case SS_SOURCE_AIR_ABSORPTION: s.airAbsorption = value
                case SS_SOURCE_REVERB_SEND: s.reverbSend = value
                default: throw CAPIError(SS_ERROR_INVALID_ARGUMENT, "\(property.rawValue) is not an ss_source_float")
                }
            }
        }
    }
}

@c @implementation
public func ss_source_get_float(_ source: OpaquePointer?, _ property: ss_source_float, _ out: UnsafeMutablePointer<Float>?) -> ss_result {
    capi {
        let out = try require(out)
        out.pointee = try withSource(source) { s in
            switch property {
            case SS_SOURCE_GAIN: s.gain
            case SS_SOURCE_PITCH: s.pitch
            case SS_SOURCE_MIN_GAIN: s.minGain
            case SS_SOURCE_MAX_GAIN: s.maxGain
            case SS_SOURCE_REFERENCE_DISTANCE: s.referenceDistance
            case SS_SOURCE_MAX_DISTANCE: s.maxDistance
            case SS_SOURCE_ROLLOFF_FACTOR: s.rolloffFactor
            case SS_SOURCE_CONE_INNER_ANGLE: s.cone.innerAngle
            case SS_SOURCE_CONE_OUTER_ANGLE: s.cone.outerAngle
            case SS_SOURCE_CONE_OUTER_GAIN: s.cone.outerGain
            case SS_SOURCE_OCCLUSION: s.occlusion
            case SS_SOURCE_OBSTRUCTION: s.obstruction
            case SS_SOURCE_AIR_ABSORPTION: s.airAbsorption
            case SS_SOURCE_REVERB_SEND: s.reverbSend
            default: throw CAPIError(SS_ERROR_INVALID_ARGUMENT, "\(property.rawValue) is not an ss_source_float")
            }
        }
    }
}

@c @implementation
public func ss_source_set_vec3(_ source: OpaquePointer?, _ property: ss_source_vec3, _ value: ss_vec3) -> ss_result {
    capi {
        try withSource(source) { s in
            try setting(finite: Vector3.finite(value)) {
                switch property {
                case SS_SOURCE_POSITION: s.position = Vector3(value)
                case SS_SOURCE_VELOCITY: s.velocity = Vector3(value)
                case SS_SOURCE_DIRECTION: s.direction = Vector3(value)
                default: throw CAPIError(SS_ERROR_INVALID_ARGUMENT, "\(property.rawValue) is not an ss_source_vec3")
                }
            }
        }
    }
}

@c @implementation
public func ss_source_get_vec3(_ source: OpaquePointer?, _ property: ss_source_vec3, _ out: UnsafeMutablePointer<ss_vec3>?) -> ss_result {
    capi {
        let out = try require(out)
        out.pointee = try withSource(source) { s in
            switch property {
            case SS_SOURCE_POSITION: s.position.c
            case SS_SOURCE_VELOCITY: s.velocity.c
            case SS_SOURCE_DIRECTION: s.direction.c
            default: throw CAPIError(SS_ERROR_INVALID_ARGUMENT, "\(property.rawValue) is not an ss_source_vec3")
            }
        }
    }
}

@c @implementation
public func ss_source_set_position(_ source: OpaquePointer?, _ x: Float, _ y: Float, _ z: Float) -> ss_result {
    capi { try withSource(source) { s in try setting(finite: x.isFinite && y.isFinite && z.isFinite) { s.position = Vector3(x, y, z) } } }
}

@c @implementation
public func ss_source_set_velocity(_ source: OpaquePointer?, _ x: Float, _ y: Float, _ z: Float) -> ss_result {
    capi { try withSource(source) { s in try setting(finite: x.isFinite && y.isFinite && z.isFinite) { s.velocity = Vector3(x, y, z) } } }
}

@c @implementation
public func ss_source_set_gain(_ source: OpaquePointer?, _ gain: Float) -> ss_result {
    capi { try withSource(source) { s in try setting(finite: gain.isFinite) { s.gain = gain } } }
}

@c @implementation
public func ss_source_set_pitch(_ source: OpaquePointer?, _ pitch: Float) -> ss_result {
    capi { try withSource(source) { s in try setting(finite: pitch.isFinite) { s.pitch = pitch } } }
}

@c @implementation
public func ss_source_set_looping(_ source: OpaquePointer?, _ looping: Int32) -> ss_result {
    capi { try withSource(source) { s in try setting(finite: true) { s.isLooping = flag(looping) } } }
}

@c @implementation
public func ss_source_is_looping(_ source: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?) -> ss_result {
    capi {
        let out = try require(out)
        out.pointee = try withSource(source) { $0.isLooping } ? 1 : 0
    }
}

@c @implementation
public func ss_source_is_head_relative(_ source: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?) -> ss_result {
    capi {
        let out = try require(out)
        out.pointee = try withSource(source) { $0.isHeadRelative } ? 1 : 0
    }
}

@c @implementation
public func ss_source_set_head_relative(_ source: OpaquePointer?, _ relative: Int32) -> ss_result {
    capi { try withSource(source) { $0.isHeadRelative = flag(relative) } }
}

@c @implementation
public func ss_source_set_repeat_count(_ source: OpaquePointer?, _ repeats: Int32) -> ss_result {
    capi {
        let repeats = try checked(repeats, 0...10_000, "repeats")
        try withSource(source) { $0.repeatCount = repeats }
    }
}

@c @implementation
public func ss_source_get_repeat_count(_ source: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?) -> ss_result {
    reading(out) { Int32(try withSource(source) { $0.repeatCount }) }
}

@c @implementation
public func ss_source_set_buffer(_ source: OpaquePointer?, _ buffer: OpaquePointer?) -> ss_result {
    capi {
        try withSource(source) { s in
            guard buffer != nil else { try setting(finite: true) { s.buffer = nil }; return }
            try withBuffer(buffer) { b in
                guard b.device === s.scene.device else {
                    throw CAPIError(SS_ERROR_INVALID_ARGUMENT, "the buffer belongs to another device than the source's scene")
                }
                try setting(finite: true) { s.buffer = b }
            }
        }
    }
}

// MARK: Playback

@c @implementation
public func ss_source_play(_ source: OpaquePointer?) -> ss_result {
    capi { try withSource(source) { try $0.play() } }
}

@c @implementation
public func ss_source_pause(_ source: OpaquePointer?) -> ss_result {
    capi { try withSource(source) { $0.pause() } }
}

@c @implementation
public func ss_source_stop(_ source: OpaquePointer?) -> ss_result {
    capi { try withSource(source) { $0.stop() } }
}

@c @implementation
public func ss_source_rewind(_ source: OpaquePointer?) -> ss_result {
    capi { try withSource(source) { $0.rewind() } }
}

@c @implementation
public func ss_source_seek(_ source: OpaquePointer?, _ seconds: Double) -> ss_result {
    capi {
        guard seconds.isFinite else { throw CAPIError(SS_ERROR_NOT_FINITE, "seconds = \(seconds) (must be finite)") }
        try withSource(source) { s in
            // A time outside the sound is a value out of range (the header's code for it), not a bad argument.
            guard seconds >= 0, seconds < max(s.seekableDuration, .leastNonzeroMagnitude) else {
                throw CAPIError(SS_ERROR_OUT_OF_RANGE, "cannot seek to \(seconds) s; the sound is \(s.seekableDuration) s long")
            }
            try s.seek(to: seconds)
        }
    }
}

@c @implementation
public func ss_source_get_state(_ source: OpaquePointer?, _ out: UnsafeMutablePointer<ss_source_state>?) -> ss_result {
    capi {
        let out = try require(out)
        out.pointee = switch try withSource(source, { $0.playbackState }) {
        case .initial: SS_SOURCE_INITIAL
        case .playing: SS_SOURCE_PLAYING
        case .paused: SS_SOURCE_PAUSED
        case .stopped: SS_SOURCE_STOPPED
        }
    }
}

@c @implementation
public func ss_source_get_offset(_ source: OpaquePointer?, _ out: UnsafeMutablePointer<Double>?) -> ss_result {
    capi {
        let out = try require(out)
        out.pointee = try withSource(source) { $0.offset }
    }
}

@c @implementation
public func ss_source_get_audibility(_ source: OpaquePointer?, _ out: UnsafeMutablePointer<Float>?) -> ss_result {
    capi {
        let out = try require(out)
        out.pointee = try withSource(source) { $0.audibility }
    }
}

@c @implementation
public func ss_source_set_completion_callback(_ source: OpaquePointer?, _ callback: ss_source_callback?,
                                              _ userData: UnsafeMutableRawPointer?) -> ss_result {
    capi {
        try withSource(source) { s in
            guard let callback else { s.completionHandler = nil; return }
            let target = CCallback(function: callback, userData: userData)
            let handle = CCallback(function: source, userData: nil)
            s.completionHandler = { _ in target.function(handle.function, target.userData) }
        }
    }
}

@c @implementation
public func ss_source_fade(_ source: OpaquePointer?, _ level: Float, _ seconds: Double, _ stopAtEnd: Int32) -> ss_result {
    capi {
        try withSource(source) { s in
            try setting(finite: level.isFinite && seconds.isFinite) { s.fade(to: level, over: seconds, stopAtEnd: flag(stopAtEnd)) }
        }
    }
}

@c @implementation
public func ss_source_set_group(_ source: OpaquePointer?, _ group: OpaquePointer?) -> ss_result {
    capi {
        try withSource(source) { s in
            guard group != nil else { try setting(finite: true) { s.group = nil }; return }
            try withGroup(group) { g in
                guard g.scene === s.scene else { throw CAPIError(SS_ERROR_INVALID_ARGUMENT, "the group belongs to another scene") }
                try setting(finite: true) { s.group = g }
            }
        }
    }
}

@c @implementation
public func ss_source_set_metering(_ source: OpaquePointer?, _ enabled: Int32) -> ss_result {
    capi { try withSource(source) { $0.isMeteringEnabled = flag(enabled) } }
}

@c @implementation
public func ss_source_is_metering(_ source: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?) -> ss_result {
    readingFlag(out) { try withSource(source) { $0.isMeteringEnabled } }
}

@c @implementation
public func ss_source_get_levels(_ source: OpaquePointer?, _ out: UnsafeMutablePointer<ss_levels>?) -> ss_result {
    capi {
        let out = try require(out)
        fill(try withSource(source) { $0.meterLevels() }, out)
    }
}

@c @implementation
public func ss_source_get_underrun_count(_ source: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?) -> ss_result {
    capi {
        let out = try require(out)
        out.pointee = Int32(clamping: try withSource(source) { $0.underrunCount })
    }
}
