import CPulse
#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif
import SoundFile

// Connecting to the server and opening streams.
extension PulseConnection {
    // MARK: Connecting

    func connectLocked(options: DesktopOutputOptions, properties: OpaquePointer?, userdata: UnsafeMutableRawPointer,
                               timeout: Double) throws(SoundstageError) {
        guard let context = pa_context_new_with_proplist(pa_threaded_mainloop_get_api(mainloop),
                                                         options.applicationName, properties) else {
            throw SoundstageError(.audioServer, "libpulse could not create a context")
        }
        self.context = context
        pa_context_set_state_callback(context, { _, userdata in
            PulseConnection.from(userdata).signal()
        }, userdata)
        guard pa_context_connect(context, options.server, PA_CONTEXT_NOAUTOSPAWN, nil) >= 0 else {
            throw noServer(options, function: "pa_context_connect")
        }
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let state = pa_context_get_state(context)
            if state == PA_CONTEXT_READY { break }
            if state == PA_CONTEXT_FAILED || state == PA_CONTEXT_TERMINATED { throw noServer(options, function: "pa_context_connect") }
            guard waitLocked(until: deadline) else {
                throw SoundstageError(.noOutputDevice, "the desktop audio server did not answer within \(timeout) s",
                                      subject: options.server)
            }
        }
        pa_context_set_state_callback(context, { context, userdata in
            let connection = PulseConnection.from(userdata)
            let state = pa_context_get_state(context)
            if state == PA_CONTEXT_FAILED || state == PA_CONTEXT_TERMINATED {
                connection.fail("the connection to the audio server was lost (\(PulseConnection.errorText(context)))")
            }
            connection.signal()
        }, userdata)
        pa_context_set_subscribe_callback(context, { _, type, index, userdata in
            PulseConnection.from(userdata).subscriptionEvent(type, index: index)
        }, userdata)
        // Sink inputs: the user's volume on the stream. Sinks: the ports of the stream's sink.
        let mask = pa_subscription_mask_t(rawValue: PA_SUBSCRIPTION_MASK_SINK_INPUT.rawValue | PA_SUBSCRIPTION_MASK_SINK.rawValue)
        if let operation = pa_context_subscribe(context, mask, nil, nil) { pa_operation_unref(operation) }
        if let operation = pa_context_get_server_info(context, { _, info, userdata in
            guard let info else { return }
            let name = info.pointee.server_name.map { String(cString: $0) } ?? "server"
            let version = info.pointee.server_version.map { String(cString: $0) } ?? ""
            PulseConnection.from(userdata).serverDescription = "\(name) \(version)"
        }, userdata) { pa_operation_unref(operation) }
    }

    func openStreamLocked(options: DesktopOutputOptions, properties: OpaquePointer?, sampleRate: Int, channels: Int,
                                  userdata: UnsafeMutableRawPointer, timeout: Double) throws(SoundstageError) {
        setStreamShape(sampleRate: sampleRate, channels: channels)
        let stream = try newStreamLocked(options: options, properties: properties, sampleRate: sampleRate, channels: channels,
                                         userdata: userdata, kind: "playback")
        pa_stream_set_write_callback(stream, { _, _, userdata in PulseConnection.from(userdata).signal() }, userdata)
        pa_stream_set_underflow_callback(stream, { _, userdata in
            let connection = PulseConnection.from(userdata)
            connection.events.append(.underrun)
            connection.signal()
        }, userdata)
        pa_stream_set_event_callback(stream, { _, name, _, userdata in
            guard let name else { return }
            let connection = PulseConnection.from(userdata)
            switch String(cString: name) {
            case PA_STREAM_EVENT_REQUEST_CORK: connection.events.append(.corkRequested)
            case PA_STREAM_EVENT_REQUEST_UNCORK: connection.events.append(.uncorkRequested)
            default: return
            }
            connection.signal()
        }, userdata)
        pa_stream_set_moved_callback(stream, { stream, userdata in
            PulseConnection.from(userdata).streamMoved(stream)
        }, userdata)
        let latencyBytes = UInt32(max(1, Int((options.latency * Double(sampleRate)).rounded())) * frameBytes)
        let request = UInt32(max(1, min(Int(latencyBytes) / 4 / frameBytes, sampleRate / 400)) * frameBytes)
        var attributes = pa_buffer_attr(maxlength: UInt32.max, tlength: latencyBytes, prebuf: UInt32.max,
                                        minreq: request, fragsize: UInt32.max)
        let flags = pa_stream_flags_t(rawValue: PA_STREAM_ADJUST_LATENCY.rawValue | PA_STREAM_AUTO_TIMING_UPDATE.rawValue
                                      | PA_STREAM_INTERPOLATE_TIMING.rawValue)
        guard pa_stream_connect_playback(stream, options.sink, &attributes, flags, nil, nil) >= 0 else {
            throw serverError("pa_stream_connect_playback", "the audio server refused the playback stream")
        }
        try waitUntilReadyLocked(stream, function: "pa_stream_connect_playback", timeout: timeout,
                                 refusal: "the audio server refused the playback stream" + (options.sink.map { " on sink '\($0)'" } ?? ""))
        failure = nil
        events.removeAll()
        sinkIndex = pa_stream_get_device_index(stream)
        sinkName = pa_stream_get_device_name(stream).map { String(cString: $0) }
        requestSinkPortsLocked()     // what later sink changes are compared with
    }

    /// Creates a float stream of `sampleRate` and `channels` (lock held), whose end — failed or
    /// terminated by the server — is recorded as the connection's failure.
    func newStreamLocked(options: DesktopOutputOptions, properties: OpaquePointer?, sampleRate: Int, channels: Int,
                         userdata: UnsafeMutableRawPointer, kind: String) throws(SoundstageError) -> OpaquePointer {
        var spec = pa_sample_spec(format: PA_SAMPLE_FLOAT32LE, rate: UInt32(sampleRate), channels: UInt8(channels))
        var map = pa_channel_map()
        pa_channel_map_init_extend(&map, UInt32(channels), PA_CHANNEL_MAP_WAVEEX)
        guard let stream = pa_stream_new_with_proplist(context, options.streamName, &spec, &map, properties) else {
            throw serverError("pa_stream_new_with_proplist", "the audio server refused to create a \(kind) stream")
        }
        self.stream = stream
        pa_stream_set_state_callback(stream, { stream, userdata in
            let connection = PulseConnection.from(userdata)
            let state = pa_stream_get_state(stream)
            if state == PA_STREAM_FAILED || state == PA_STREAM_TERMINATED {
                connection.fail("the audio server ended the stream (\(PulseConnection.errorText(pa_stream_get_context(stream))))")
            }
            connection.signal()
        }, userdata)
        return stream
    }

    /// Waits (lock held) until a connecting stream is ready; `refusal` says why not if it fails.
    func waitUntilReadyLocked(_ stream: OpaquePointer, function: String, timeout: Double, refusal: String) throws(SoundstageError) {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let state = pa_stream_get_state(stream)
            if state == PA_STREAM_READY { return }
            if state == PA_STREAM_FAILED || state == PA_STREAM_TERMINATED { throw serverError(function, refusal) }
            guard waitLocked(until: deadline) else {
                throw SoundstageError(.audioServer, "the audio server did not open the stream within \(timeout) s")
            }
        }
    }

    func noServer(_ options: DesktopOutputOptions, function: String) -> SoundstageError {
        let error = context.map { pa_context_errno($0) } ?? 0
        return SoundstageError(.noOutputDevice, "no desktop audio server (PulseAudio or PipeWire) answers"
                               + (options.server.map { " at \($0)" } ?? ""),
                               subject: options.server,
                               cause: .library(function: function, code: Int(error), message: String(cString: pa_strerror(error))))
    }

    func serverError(_ function: String, _ message: String) -> SoundstageError {
        let error = context.map { pa_context_errno($0) } ?? 0
        return SoundstageError(.audioServer, message,
                               cause: .library(function: function, code: Int(error), message: String(cString: pa_strerror(error))))
    }

    func closeLocked() {
        if let stream {
            pa_stream_set_state_callback(stream, nil, nil)
            pa_stream_set_write_callback(stream, nil, nil)
            pa_stream_set_read_callback(stream, nil, nil)
            pa_stream_set_underflow_callback(stream, nil, nil)
            pa_stream_set_event_callback(stream, nil, nil)
            pa_stream_set_moved_callback(stream, nil, nil)
            if pa_stream_get_state(stream) == PA_STREAM_READY { pa_stream_disconnect(stream) }
            pa_stream_unref(stream)
            self.stream = nil
        }
        if let context {
            pa_context_set_state_callback(context, nil, nil)
            pa_context_set_subscribe_callback(context, nil, nil)
            pa_context_disconnect(context)
            pa_context_unref(context)
            self.context = nil
        }
    }
}
