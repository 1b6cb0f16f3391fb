import CPulse
#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif
import SoundFile

// What the render thread asks of the stream (all under withLock).
extension PulseConnection {
    // MARK: Used by the render thread (all under withLock)

    /// Runs `body` holding the main loop's lock. On the loop's own thread (inside one of
    /// libpulse's callbacks, which hold it already) `body` just runs: libpulse aborts the process
    /// when its loop's thread takes that lock.
    func withLock<R>(_ body: () throws -> R) rethrows -> R {
        if pa_threaded_mainloop_in_thread(mainloop) != 0 { return try body() }
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

    /// Hands interleaved float frames to the server: after what was written before, or with
    /// `atReadIndex` where the server reads next (after an underrun, whose silence moved the read
    /// index past the write index: written after the old write index, the first frames would be
    /// behind the read index, and skipped).
    func writeLocked(_ samples: UnsafeBufferPointer<Float>, atReadIndex: Bool = false) throws(SoundstageError) {
        guard let stream else { throw SoundstageError(.audioServer, "the stream is closed") }
        guard pa_stream_write(stream, samples.baseAddress, samples.count * 4, nil, 0,
                              atReadIndex ? PA_SEEK_RELATIVE_ON_READ : PA_SEEK_RELATIVE) >= 0 else {
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

    /// Uncorks the stream without waiting for the server's answer: what is written next follows
    /// the request on the same connection, so the server has uncorked the stream when the write
    /// arrives. (A wake from a rest that waited spent the round trip, 0.3-0.4 ms, before its
    /// first write.) A refusal is the stream's failure, which its state callback reports.
    func uncorkWithoutWaitingLocked() {
        guard let stream, failure == nil, let operation = pa_stream_cork(stream, 0, nil, nil) else { return }
        pa_operation_unref(operation)
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
}
