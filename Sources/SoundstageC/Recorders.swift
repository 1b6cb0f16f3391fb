import CSoundstage
import Soundstage
import SoundFile

extension AudioRecorder: HandleObject {
    /// Destroying a recorder's handle stops it and completes its file.
    func handleDestroyed() { _ = stop() }
}

@inline(__always)
private func withRecorder<R>(_ handle: OpaquePointer?, _ body: (AudioRecorder) throws -> R) throws -> R {
    try HandleTable.shared.with(handle, .recorder, as: AudioRecorder.self, body)
}

@c @implementation
public func ss_recorder_settings_init(_ settings: UnsafeMutablePointer<ss_recorder_settings>?) -> ss_result {
    capi {
        let settings = try require(settings, "settings")
        settings.pointee = ss_recorder_settings(struct_size: MemoryLayout<ss_recorder_settings>.size, format: SS_FORMAT_WAV_PCM16,
                                                input: nil, sample_rate: 0, channels: 0, server: nil)
    }
}

/// The C form of a finished recording.
private func recording(_ result: AudioRecorder.Result) -> ss_recording {
    let end: ss_recording_end = switch result.reason {
    case .stopped: SS_RECORDING_STOPPED
    case .durationReached: SS_RECORDING_DURATION_REACHED
    case .inputLost: SS_RECORDING_INPUT_LOST
    case .writeFailed: SS_RECORDING_WRITE_FAILED
    }
    return ss_recording(frames: Int64(result.frames), sample_rate: Int32(result.sampleRate), channels: Int32(result.channels),
                        duration: result.duration, end: end)
}

@c @implementation
public func ss_recorder_create(_ path: UnsafePointer<CChar>?, _ settings: UnsafePointer<ss_recorder_settings>?,
                               _ session: OpaquePointer?, _ callback: ss_recorder_callback?, _ userData: UnsafeMutableRawPointer?,
                               _ out: UnsafeMutablePointer<OpaquePointer?>?) -> ss_result {
    capi {
        let out = try require(out, "out_recorder")
        let path = try string(path, "path")
        var values = AudioRecorder.Settings()
        if let c = settings?.pointee {
            try checkInitialized(c.struct_size, MemoryLayout<ss_recorder_settings>.size, "ss_recorder_settings")
            values.format = try c.format.format
            values.input = optionalString(c.input)
            values.sampleRate = c.sample_rate == 0 ? nil : try checked(c.sample_rate, 1_000...384_000, "sample_rate")
            values.channels = c.channels == 0 ? nil : try checked(c.channels, 1...32, "channels")
            values.server = optionalString(c.server)
        }
        let governing = try session.map { _ in try withSession(session) { $0.session } }
        // The recorder's handle is only known once it is published; the callback reads it then.
        let handle = HandleBox()
        let completion: (@Sendable (AudioRecorder.Result) -> Void)? = callback.map { callback in
            let target = CCallback(function: callback, userData: userData)
            return { result in
                var r = recording(result)
                target.function(handle.pointer, &r, target.userData)
            }
        }
        let recorder = try AudioRecorder(path: path, settings: values, session: governing, completion: completion)
        try publish(recorder, .recorder, to: out)
        handle.set(out.pointee)
    }
}

@c @implementation
public func ss_recorder_destroy(_ recorder: OpaquePointer?) -> ss_result {
    capi { try HandleTable.shared.destroy(recorder, kind: .recorder) }
}

@c @implementation
public func ss_recorder_prepare(_ recorder: OpaquePointer?) -> ss_result {
    capi { try withRecorder(recorder) { try $0.prepareToRecord() } }
}

@c @implementation
public func ss_recorder_record(_ recorder: OpaquePointer?) -> ss_result {
    capi { try withRecorder(recorder) { try $0.record() } }
}

@c @implementation
public func ss_recorder_record_for(_ recorder: OpaquePointer?, _ seconds: Double) -> ss_result {
    capi {
        let seconds = try checked(seconds, 0.001...(7 * 86_400), "seconds")
        try withRecorder(recorder) { try $0.record(forDuration: seconds) }
    }
}

@c @implementation
public func ss_recorder_pause(_ recorder: OpaquePointer?) -> ss_result {
    capi { try withRecorder(recorder) { $0.pause() } }
}

@c @implementation
public func ss_recorder_stop(_ recorder: OpaquePointer?, _ out: UnsafeMutablePointer<ss_recording>?) -> ss_result {
    capi {
        let result = try withRecorder(recorder) { $0.stop() }
        if let result { out?.pointee = recording(result) } else { out?.pointee = ss_recording() }
    }
}

@c @implementation
public func ss_recorder_get_state(_ recorder: OpaquePointer?, _ out: UnsafeMutablePointer<ss_recorder_state>?) -> ss_result {
    capi {
        let out = try require(out)
        out.pointee = switch try withRecorder(recorder, { $0.state }) {
        case .idle: SS_RECORDER_IDLE
        case .prepared: SS_RECORDER_PREPARED
        case .recording: SS_RECORDER_RECORDING
        case .paused: SS_RECORDER_PAUSED
        case .finished: SS_RECORDER_FINISHED
        }
    }
}

@c @implementation
public func ss_recorder_get_current_time(_ recorder: OpaquePointer?, _ out: UnsafeMutablePointer<Double>?) -> ss_result {
    capi {
        let out = try require(out)
        out.pointee = try withRecorder(recorder) { $0.currentTime }
    }
}

@c @implementation
public func ss_recorder_set_metering(_ recorder: OpaquePointer?, _ enabled: Int32) -> ss_result {
    capi { try withRecorder(recorder) { $0.isMeteringEnabled = flag(enabled) } }
}

@c @implementation
public func ss_recorder_is_metering(_ recorder: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?) -> ss_result {
    readingFlag(out) { try withRecorder(recorder) { $0.isMeteringEnabled } }
}

@c @implementation
public func ss_recorder_get_levels(_ recorder: OpaquePointer?, _ out: UnsafeMutablePointer<ss_levels>?) -> ss_result {
    capi {
        let out = try require(out)
        fill(try withRecorder(recorder) { $0.meterLevels() }, out)
    }
}

@c @implementation
public func ss_capture_available(_ server: UnsafePointer<CChar>?) -> Int32 {
    AudioRecorder.captureAvailable(server: optionalString(server)) ? 1 : 0
}

@c @implementation
public func ss_enumerate_openal_outputs(_ callback: ss_name_callback?, _ userData: UnsafeMutableRawPointer?) -> ss_result {
    capi {
        guard let callback else { throw CAPIError.null("callback") }
        for name in Device.outputDeviceNames() {
            name.withCString { callback($0, nil, userData) }
        }
    }
}

@c @implementation
public func ss_enumerate_inputs(_ server: UnsafePointer<CChar>?, _ callback: ss_name_callback?,
                                _ userData: UnsafeMutableRawPointer?) -> ss_result {
    capi {
        guard let callback else { throw CAPIError.null("callback") }
        for input in try AudioRecorder.availableInputs(server: optionalString(server)) {
            input.name.withCString { name in input.description.withCString { callback(name, $0, userData) } }
        }
    }
}
