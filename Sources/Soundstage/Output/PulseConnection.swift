import CPulse
import Foundation
import SoundFile

/// One libpulse connection: a threaded main loop, a context and at most one stream — playback
/// for ``DesktopOutput``, record for ``AudioRecorder`` (PulseCapture.swift), or none to ask the
/// server what it has — talking to PulseAudio or (through pipewire-pulse) PipeWire. With
/// PulseCapture.swift, the only code that calls libpulse.
///
/// `@unchecked Sendable`: every field but `mainloop` is read or written only with the main
/// loop's lock held (``withLock(_:)``), or from libpulse callbacks, which run on the main loop's
/// thread with that lock held. `mainloop` is set once in `init` and freed in `deinit`.
final class PulseConnection: @unchecked Sendable {
    /// What happened on the server side, collected by callbacks for the render thread.
    enum Event: Equatable {
        /// The server asked the stream to pause (`PA_STREAM_EVENT_REQUEST_CORK`).
        case corkRequested
        /// The server asked the stream to play on (`PA_STREAM_EVENT_REQUEST_UNCORK`).
        case uncorkRequested
        /// The server moved the stream from one sink to another; `vanished` tells whether the
        /// old sink is gone.
        case moved(from: String?, to: String?, vanished: Bool)
        /// The user changed the stream's volume or mute (in pavucontrol, pactl, ...).
        case volume(Float, muted: Bool)
        /// The stream ran out of audio.
        case underrun
        /// The stream or the connection failed (server gone, stream killed).
        case failed(String)
    }

    /// Which stream to open.
    enum StreamRequest {
        /// None: only ask the server (its sources, its name).
        case none
        /// Play float frames at this rate and channel count.
        case playback(sampleRate: Int, channels: Int)
        /// Record float frames from `source` (nil: the default source, followed wherever it
        /// goes; a named one is never left: the stream fails when it vanishes); a nil rate or
        /// channel count takes the source's own.
        case record(source: String?, sampleRate: Int?, channels: Int?)
    }

    let mainloop: OpaquePointer
    var context: OpaquePointer?
    var stream: OpaquePointer?
    var events: [Event] = []
    var failure: String?
    private var sinkIndex: UInt32 = UInt32.max
    private var sinkName: String?
    private var lastVolume: (Float, Bool)?
    /// Bytes per frame of the stream (float samples).
    private(set) var frameBytes = 4
    /// The stream's rate and channels, as the server granted them.
    private(set) var sampleRate = 0
    private(set) var channels = 0
    /// The server's name and version, e.g. `pulseaudio 16.1`.
    private(set) var serverDescription = ""

    /// Records the stream's rate and channels (float samples) once the server granted them.
    func setStreamShape(sampleRate: Int, channels: Int) {
        self.sampleRate = sampleRate
        self.channels = channels
        frameBytes = 4 * channels
    }

    /// Connects to the server and opens a playback stream.
    convenience init(options: DesktopOutputOptions, sampleRate: Int, channels: Int, timeout: Double = 3) throws(SoundstageError) {
        try self.init(options: options, stream: .playback(sampleRate: sampleRate, channels: channels), timeout: timeout)
    }

    /// Connects to `options.server` (nil: libpulse's default: `$PULSE_SERVER`, then the user's
    /// runtime directory) and opens the stream asked for. Waits at most `timeout` seconds.
    init(options: DesktopOutputOptions, stream request: StreamRequest, timeout: Double = 3) throws(SoundstageError) {
        guard let loop = pa_threaded_mainloop_new() else {
            throw SoundstageError(.audioServer, "libpulse could not create a main loop")
        }
        mainloop = loop
        let userdata = Unmanaged.passUnretained(self).toOpaque()
        let properties = pa_proplist_new()
        defer { pa_proplist_free(properties) }
        pa_proplist_sets(properties, PA_PROP_APPLICATION_NAME, options.applicationName)
        pa_proplist_sets(properties, PA_PROP_APPLICATION_ID, options.applicationID)
        pa_proplist_sets(properties, PA_PROP_MEDIA_ROLE, options.role.rawValue)
        pa_proplist_sets(properties, PA_PROP_MEDIA_NAME, options.streamName)
        guard pa_threaded_mainloop_start(loop) >= 0 else {
            pa_threaded_mainloop_free(loop)
            throw SoundstageError(.audioServer, "libpulse could not start its main loop thread")
        }
        pa_threaded_mainloop_lock(loop)
        defer { pa_threaded_mainloop_unlock(loop) }
        do throws(SoundstageError) {
            try connectLocked(options: options, properties: properties, userdata: userdata, timeout: timeout)
            switch request {
            case .none:
                break
            case let .playback(sampleRate, channels):
                try openStreamLocked(options: options, properties: properties, sampleRate: sampleRate,
                                     channels: channels, userdata: userdata, timeout: timeout)
            case let .record(source, sampleRate, channels):
                try openRecordStreamLocked(options: options, properties: properties, source: source, sampleRate: sampleRate,
                                           channels: channels, userdata: userdata, timeout: timeout)
            }
        } catch {
            closeLocked()
            pa_threaded_mainloop_unlock(loop)
            pa_threaded_mainloop_stop(loop)
            pa_threaded_mainloop_lock(loop)
            throw error
        }
    }

    deinit {
        withLock { closeLocked() }
        pa_threaded_mainloop_stop(mainloop)
        pa_threaded_mainloop_free(mainloop)
    }

    // MARK: Connecting

    private func connectLocked(options: DesktopOutputOptions, properties: OpaquePointer?, userdata: UnsafeMutableRawPointer,
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
        let mask = pa_subscription_mask_t(rawValue: PA_SUBSCRIPTION_MASK_SINK_INPUT.rawValue)
        if let operation = pa_context_subscribe(context, mask, nil, nil) { pa_operation_unref(operation) }
        if let operation = pa_context_get_server_info(context, { _, info, userdata in
            guard let info else { return }
            let name = info.pointee.server_name.map { String(cString: $0) } ?? "server"
            let version = info.pointee.server_version.map { String(cString: $0) } ?? ""
            PulseConnection.from(userdata).serverDescription = "\(name) \(version)"
        }, userdata) { pa_operation_unref(operation) }
    }

    private func openStreamLocked(options: DesktopOutputOptions, properties: OpaquePointer?, sampleRate: Int, channels: Int,
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

    private func noServer(_ options: DesktopOutputOptions, function: String) -> SoundstageError {
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

    private func closeLocked() {
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

    // MARK: Used by the render thread (all under withLock)

    /// Runs `body` holding the main loop's lock.
    func withLock<R>(_ body: () throws -> R) rethrows -> R {
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        return try body()
    }

    /// Wakes whoever waits in ``waitLocked(until:)``; callable with or without the lock from
    /// other threads only through ``poke()``.
    func signal() { pa_threaded_mainloop_signal(mainloop, 0) }

    /// Wakes the render thread from another thread.
    func poke() { withLock { signal() } }

    /// Waits for a callback or a poke; false once `deadline` passed. libpulse has no timed wait,
    /// so a timer event on the main loop bounds the wait.
    @discardableResult
    func waitLocked(until deadline: Date? = nil) -> Bool {
        if let deadline {
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 { return false }
            let api = pa_threaded_mainloop_get_api(mainloop)!
            var when = timeval()
            pa_timeval_add(pa_gettimeofday(&when), pa_usec_t(remaining * 1e6))
            let timer = api.pointee.time_new(api, &when, { _, _, _, userdata in
                PulseConnection.from(userdata).signal()
            }, Unmanaged.passUnretained(self).toOpaque())
            pa_threaded_mainloop_wait(mainloop)
            api.pointee.time_free(timer)
            return deadline.timeIntervalSinceNow > 0
        }
        pa_threaded_mainloop_wait(mainloop)
        return true
    }

    /// Why the connection failed, if it did.
    var failureLocked: String? { failure }

    /// Takes the events collected since the last call.
    func takeEventsLocked() -> [Event] {
        defer { events.removeAll() }
        return events
    }

    /// Frames the server wants now (0 when the stream is not ready).
    var writableFramesLocked: Int {
        guard failure == nil, let stream, pa_stream_get_state(stream) == PA_STREAM_READY else { return 0 }
        let bytes = pa_stream_writable_size(stream)
        return bytes == Int.max || bytes < 0 ? 0 : bytes / frameBytes
    }

    /// Hands interleaved float frames to the server.
    func writeLocked(_ samples: UnsafeBufferPointer<Float>) throws(SoundstageError) {
        guard let stream else { throw SoundstageError(.audioServer, "the stream is closed") }
        guard pa_stream_write(stream, samples.baseAddress, samples.count * 4, nil, 0, PA_SEEK_RELATIVE) >= 0 else {
            throw serverError("pa_stream_write", "the audio server refused audio")
        }
    }

    /// Waits (lock held, released while waiting) until the server has played everything written.
    func drainLocked(timeout: Double) -> Bool {
        guard let stream, failure == nil else { return false }
        return runOperationLocked(timeout: timeout) { userdata in
            pa_stream_drain(stream, { _, success, userdata in Operation.finish(userdata, success) }, userdata)
        }
    }

    /// Corks (pauses) or uncorks the stream and waits for the server's answer.
    @discardableResult
    func corkLocked(_ corked: Bool, timeout: Double = 2) -> Bool {
        guard let stream, failure == nil else { return false }
        return runOperationLocked(timeout: timeout) { userdata in
            pa_stream_cork(stream, corked ? 1 : 0, { _, success, userdata in Operation.finish(userdata, success) }, userdata)
        }
    }


    /// One asynchronous libpulse operation's result, its own per call (the render thread and a
    /// status reader may each wait for one at the same time).
    final class Operation {
        let connection: PulseConnection
        var done = false
        var succeeded = false
        var value: Double?
        init(_ connection: PulseConnection) { self.connection = connection }

        static func finish(_ userdata: UnsafeMutableRawPointer?, _ success: Int32) {
            let operation = Unmanaged<Operation>.fromOpaque(userdata!).takeUnretainedValue()
            operation.done = true
            operation.succeeded = success != 0
            operation.connection.signal()
        }
    }

    func runOperationLocked(timeout: Double, into state: Operation? = nil,
                                    _ start: (UnsafeMutableRawPointer) -> OpaquePointer?) -> Bool {
        let state = state ?? Operation(self)
        let userdata = Unmanaged.passRetained(state).toOpaque()
        guard let operation = start(userdata) else {
            Unmanaged<Operation>.fromOpaque(userdata).release()
            return false
        }
        let deadline = Date().addingTimeInterval(timeout)
        var finished = true
        while !state.done, failure == nil, pa_operation_get_state(operation) == PA_OPERATION_RUNNING {
            if !waitLocked(until: deadline) {
                pa_operation_cancel(operation)
                finished = false
                break
            }
        }
        pa_operation_unref(operation)
        // A cancelled operation's callback never runs; a finished one has run: either way the
        // state is ours to release now.
        Unmanaged<Operation>.fromOpaque(userdata).release()
        return finished && state.done && state.succeeded
    }

    /// The latency the server reports for the stream (seconds), from the write pointer to the
    /// speaker: our queued audio plus the sink's own.
    /// What the server says of the stream now (`pa_context_get_sink_input_info`, as `pactl list
    /// sink-inputs` shows it): its buffer latency plus its sink's latency; where the server does
    /// not say (PipeWire), the stream's timing info.
    func latencyLocked(sampleRate: Int) -> Double? {
        guard let stream, let context, failure == nil else { return nil }
        let index = pa_stream_get_index(stream)
        let query = Operation(self)
        let answered = runOperationLocked(timeout: 0.5, into: query) { userdata in
            pa_context_get_sink_input_info(context, index, { _, info, eol, userdata in
                let operation = Unmanaged<Operation>.fromOpaque(userdata!).takeUnretainedValue()
                if let info {
                    operation.value = Double(info.pointee.buffer_usec + info.pointee.sink_usec) / 1e6
                } else if eol != 0 {
                    Operation.finish(userdata, 1)
                }
            }, userdata)
        }
        if answered, let value = query.value, value > 0 { return value }
        // PipeWire's pulse server reports no buffer or sink latency for a sink input: read the
        // stream's own timing then (the sink's latency plus what is written but not yet read).
        guard runOperationLocked(timeout: 0.5, { userdata in
                  pa_stream_update_timing_info(stream, { _, success, userdata in Operation.finish(userdata, success) }, userdata)
              }),
              let timing = pa_stream_get_timing_info(stream),
              timing.pointee.write_index_corrupt == 0, timing.pointee.read_index_corrupt == 0 else { return nil }
        let queued = max(0, timing.pointee.write_index - timing.pointee.read_index)
        return Double(timing.pointee.sink_usec) / 1e6 + Double(queued) / Double(frameBytes * sampleRate)
    }

    /// The sink the stream plays on now.
    var sinkNameLocked: String? { sinkName }

    /// The stream's buffer as the server granted it (target length in seconds).
    func grantedLatencyLocked(sampleRate: Int) -> Double? {
        guard let stream, let attributes = pa_stream_get_buffer_attr(stream) else { return nil }
        return Double(attributes.pointee.tlength) / Double(frameBytes * sampleRate)
    }

    // MARK: Callbacks (main loop thread, lock held)

    static func from(_ userdata: UnsafeMutableRawPointer?) -> PulseConnection {
        Unmanaged<PulseConnection>.fromOpaque(userdata!).takeUnretainedValue()
    }

    static func errorText(_ context: OpaquePointer?) -> String {
        guard let context else { return "no context" }
        return String(cString: pa_strerror(pa_context_errno(context)))
    }

    func fail(_ why: String) {
        guard failure == nil else { return }
        failure = why
        events.append(.failed(why))
    }

    private func streamMoved(_ stream: OpaquePointer?) {
        guard let stream else { return }
        let oldName = sinkName
        let oldIndex = sinkIndex
        sinkIndex = pa_stream_get_device_index(stream)
        sinkName = pa_stream_get_device_name(stream).map { String(cString: $0) }
        let newName = sinkName
        // Ask whether the old sink still exists: the server moved us because it vanished, or
        // because the default (or the user's choice) changed.
        let box = Unmanaged.passRetained(MoveQuery(connection: self, from: oldName, to: newName)).toOpaque()
        guard let context, oldIndex != UInt32.max,
              let operation = pa_context_get_sink_info_by_index(context, oldIndex, { _, info, eol, userdata in
                  let query = Unmanaged<MoveQuery>.fromOpaque(userdata!)
                  if info != nil { query.takeUnretainedValue().found = true; return }
                  let move = query.takeRetainedValue()
                  _ = eol
                  move.connection.events.append(.moved(from: move.from, to: move.to, vanished: !move.found))
                  move.connection.signal()
              }, box) else {
            Unmanaged<MoveQuery>.fromOpaque(box).release()
            events.append(.moved(from: oldName, to: newName, vanished: false))
            signal()
            return
        }
        pa_operation_unref(operation)
    }

    private func subscriptionEvent(_ type: pa_subscription_event_type_t, index: UInt32) {
        guard let stream, let context, index == pa_stream_get_index(stream),
              type.rawValue & PA_SUBSCRIPTION_EVENT_FACILITY_MASK.rawValue == PA_SUBSCRIPTION_EVENT_SINK_INPUT.rawValue,
              type.rawValue & PA_SUBSCRIPTION_EVENT_TYPE_MASK.rawValue == PA_SUBSCRIPTION_EVENT_CHANGE.rawValue else { return }
        let userdata = Unmanaged.passUnretained(self).toOpaque()
        if let operation = pa_context_get_sink_input_info(context, index, { _, info, _, userdata in
            guard let info else { return }
            let connection = PulseConnection.from(userdata)
            var volume = info.pointee.volume
            let linear = Float(pa_sw_volume_to_linear(pa_cvolume_avg(&volume)))
            let muted = info.pointee.mute != 0
            if let last = connection.lastVolume, last.0 == linear, last.1 == muted { return }
            let first = connection.lastVolume == nil
            connection.lastVolume = (linear, muted)
            if first && linear == 1 && !muted { return }
            connection.events.append(.volume(linear, muted: muted))
            connection.signal()
        }, userdata) { pa_operation_unref(operation) }
    }
}

/// The state of one "does the old sink still exist?" query.
private final class MoveQuery {
    let connection: PulseConnection
    let from: String?
    let to: String?
    var found = false

    init(connection: PulseConnection, from: String?, to: String?) {
        self.connection = connection
        self.from = from
        self.to = to
    }
}
