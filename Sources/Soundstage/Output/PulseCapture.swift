import CPulse
#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif
import SoundFile

/// The record side of ``PulseConnection``: a record stream on a source (a microphone, a null
/// source, a sink's monitor), read as float frames, and the server's list of sources.
extension PulseConnection {
    /// Opens the record stream (lock held). A named source is never left (`PA_STREAM_DONT_MOVE`:
    /// the stream fails when the source vanishes); the default one is followed.
    func openRecordStreamLocked(options: DesktopOutputOptions, properties: OpaquePointer?, source: String?, sampleRate: Int?,
                                channels: Int?, userdata: UnsafeMutableRawPointer, timeout: Double) throws(SoundstageError) {
        if let source {
            let inputs = try sourcesLocked(timeout: timeout)
            guard inputs.contains(where: { $0.name == source }) else {
                throw SoundstageError(.noInputDevice, "no input named '\(source)'; the server has "
                                      + (inputs.isEmpty ? "none" : inputs.map(\.name).joined(separator: ", ")),
                                      subject: source)
            }
        }
        let rate = sampleRate ?? 48_000
        let count = channels ?? 2
        let stream = try newStreamLocked(options: options, properties: properties, sampleRate: rate, channels: count,
                                         userdata: userdata, kind: "record")
        pa_stream_set_read_callback(stream, { _, _, userdata in PulseConnection.from(userdata).signal() }, userdata)
        // Fragments of 10 ms: the recorder hears about new audio soon, without waking too often.
        let fragment = UInt32(max(1, rate / 100) * 4 * count)
        var attributes = pa_buffer_attr(maxlength: UInt32.max, tlength: UInt32.max, prebuf: UInt32.max,
                                        minreq: UInt32.max, fragsize: fragment)
        var flags = PA_STREAM_ADJUST_LATENCY.rawValue | PA_STREAM_AUTO_TIMING_UPDATE.rawValue | PA_STREAM_INTERPOLATE_TIMING.rawValue
            | PA_STREAM_START_CORKED.rawValue
        if sampleRate == nil { flags |= PA_STREAM_FIX_RATE.rawValue }
        if channels == nil { flags |= PA_STREAM_FIX_CHANNELS.rawValue }
        if source != nil { flags |= PA_STREAM_DONT_MOVE.rawValue }
        guard pa_stream_connect_record(stream, source, &attributes, pa_stream_flags_t(rawValue: flags)) >= 0 else {
            throw serverError("pa_stream_connect_record", "the audio server refused the record stream")
        }
        try waitUntilReadyLocked(stream, function: "pa_stream_connect_record", timeout: timeout,
                                 refusal: "the audio server refused to record" + (source.map { " from '\($0)'" } ?? " from its default input"))
        if let granted = pa_stream_get_sample_spec(stream) {
            setStreamShape(sampleRate: Int(granted.pointee.rate), channels: Int(granted.pointee.channels))
        }
        failure = nil
        events.removeAll()
    }

    /// Hands `body` what the server recorded, chunk by chunk (holes as silence), until nothing
    /// is left to read; returns the frames read, or throws when the stream failed.
    func readLocked(_ body: (UnsafeBufferPointer<Float>) -> Void) throws(SoundstageError) -> Int {
        if let failure { throw SoundstageError(.noInputDevice, failure) }
        guard let stream, pa_stream_get_state(stream) == PA_STREAM_READY else { return 0 }
        var frames = 0
        while true {
            var data: UnsafeRawPointer?
            var bytes = 0
            guard pa_stream_peek(stream, &data, &bytes) >= 0 else {
                throw serverError("pa_stream_peek", "the audio server's recording could not be read")
            }
            guard bytes > 0 else { break }
            let count = bytes / 4
            if let data {
                body(UnsafeBufferPointer(start: data.assumingMemoryBound(to: Float.self), count: count))
            } else {
                // A hole (the server dropped audio): silence keeps the timeline.
                let silence = [Float](repeating: 0, count: count)
                silence.withUnsafeBufferPointer { body($0) }
            }
            pa_stream_drop(stream)
            frames += count / max(1, channels)
        }
        return frames
    }

    /// The server's sources, monitors included (lock held).
    func sourcesLocked(timeout: Double = 2) throws(SoundstageError) -> [AudioInput] {
        guard let context else { throw SoundstageError(.audioServer, "not connected") }
        let query = DeviceListQuery<AudioInput>(self)
        let userdata = Unmanaged.passRetained(query).toOpaque()
        let operation = pa_context_get_source_info_list(context, { _, info, eol, userdata in
            let query = Unmanaged<DeviceListQuery<AudioInput>>.fromOpaque(userdata!).takeUnretainedValue()
            guard let info else { return query.end(eol) }
            let name = info.pointee.name.map { String(cString: $0) } ?? ""
            query.found.append(AudioInput(name: name, description: info.pointee.description.map { String(cString: $0) } ?? name,
                                          isMonitor: info.pointee.monitor_of_sink != UInt32.max,
                                          sampleRate: Int(info.pointee.sample_spec.rate),
                                          channels: Int(info.pointee.sample_spec.channels),
                                          formFactor: deviceProperty(info.pointee.proplist, "device.form_factor"),
                                          bus: deviceProperty(info.pointee.proplist, "device.bus"),
                                          activePort: info.pointee.active_port?.pointee.name.map { String(cString: $0) }))
        }, userdata)
        return try finishListLocked(operation, query, userdata, function: "pa_context_get_source_info_list", what: "inputs", timeout: timeout)
    }

    /// The server's sinks (lock held).
    func sinksLocked(timeout: Double = 2) throws(SoundstageError) -> [AudioOutput] {
        guard let context else { throw SoundstageError(.audioServer, "not connected") }
        let query = DeviceListQuery<AudioOutput>(self)
        let userdata = Unmanaged.passRetained(query).toOpaque()
        let operation = pa_context_get_sink_info_list(context, { _, info, eol, userdata in
            let query = Unmanaged<DeviceListQuery<AudioOutput>>.fromOpaque(userdata!).takeUnretainedValue()
            guard let info else { return query.end(eol) }
            let name = info.pointee.name.map { String(cString: $0) } ?? ""
            query.found.append(AudioOutput(name: name, description: info.pointee.description.map { String(cString: $0) } ?? name,
                                           formFactor: deviceProperty(info.pointee.proplist, "device.form_factor"),
                                           bus: deviceProperty(info.pointee.proplist, "device.bus"),
                                          activePort: info.pointee.active_port?.pointee.name.map { String(cString: $0) }))
        }, userdata)
        return try finishListLocked(operation, query, userdata, function: "pa_context_get_sink_info_list", what: "outputs", timeout: timeout)
    }

    /// Connects to `server` (the default when nil) for one device list, run with the lock held.
    /// - Throws: `.noInputDevice` / `.noOutputDevice` (by `what`) when no server answers.
    static func listing<Item>(server: String?, what: String,
                              _ body: (PulseConnection) throws(SoundstageError) -> [Item]) throws(SoundstageError) -> [Item] {
        let connection: PulseConnection
        do throws(SoundstageError) {
            connection = try PulseConnection(options: DesktopOutputOptions(server: server), stream: .none, timeout: 1)
        } catch {
            guard error.code == .noOutputDevice else { throw error }
            throw SoundstageError(what == "input" ? .noInputDevice : .noOutputDevice,
                                  "no desktop audio server (PulseAudio or PipeWire) answers, so there is no \(what)",
                                  subject: server, cause: error.cause)
        }
        let listed = connection.withLock { () -> Swift.Result<[Item], SoundstageError> in
            do throws(SoundstageError) { return .success(try body(connection)) } catch { return .failure(error) }
        }
        return try listed.get()
    }

    /// Waits for a device-list query to end (lock held) and returns what it found.
    private func finishListLocked<Item>(_ operation: OpaquePointer?, _ query: DeviceListQuery<Item>, _ userdata: UnsafeMutableRawPointer,
                                        function: String, what: String, timeout: Double) throws(SoundstageError) -> [Item] {
        defer { Unmanaged<DeviceListQuery<Item>>.fromOpaque(userdata).release() }
        guard let operation else { throw serverError(function, "the audio server did not list its \(what)") }
        let deadline = Date().addingTimeInterval(timeout)
        while !query.done, failure == nil, pa_operation_get_state(operation) == PA_OPERATION_RUNNING {
            if !waitLocked(until: deadline) {
                pa_operation_cancel(operation)
                break
            }
        }
        pa_operation_unref(operation)
        guard query.done else { throw SoundstageError(.audioServer, "the audio server did not list its \(what) within \(timeout) s") }
        return query.found
    }
}

/// The state of one device-list query (sources or sinks).
private final class DeviceListQuery<Item> {
    let connection: PulseConnection
    var found: [Item] = []
    var done = false
    init(_ connection: PulseConnection) { self.connection = connection }

    /// The list's end (`eol` > 0) or its failure (< 0): either way, the waiter goes on.
    func end(_ eol: Int32) {
        guard eol != 0 else { return }
        done = eol > 0
        connection.signal()
    }
}

/// A device property (`device.form_factor`, `device.bus`) from a proplist, nil when unset.
private func deviceProperty(_ list: OpaquePointer?, _ key: String) -> String? {
    guard let list, let value = pa_proplist_gets(list, key) else { return nil }
    let text = String(cString: value)
    return text.isEmpty ? nil : text
}

/// An input the desktop server offers (a source, in PulseAudio's words): a microphone, a line
/// input, a virtual source, or a sink's monitor (what that sink plays).
public struct AudioInput: Sendable, Equatable, Codable {
    /// The server's name for it: what `--input` and ``AudioRecorder/Settings/input`` take.
    public var name: String
    /// A human description (`Built-in Audio Analog Stereo`, `Monitor of A`).
    public var description: String
    /// Whether it is a sink's monitor rather than a real input.
    public var isMonitor: Bool
    /// Its own rate (Hz).
    public var sampleRate: Int
    /// Its own channel count.
    public var channels: Int
    /// What kind of device it is, as the server says (`device.form_factor`: `internal`,
    /// `microphone`, `headset`, `webcam`, ...), nil when it does not say.
    public var formFactor: String?
    /// How it is attached (`device.bus`: `pci`, `usb`, `bluetooth`, ...), nil when not said.
    public var bus: String?
    /// The port in use (`analog-input-mic`, `analog-input-headset-mic`, ...), nil without ports.
    public var activePort: String?

    /// An input as the server lists it.
    public init(name: String, description: String, isMonitor: Bool, sampleRate: Int, channels: Int,
                formFactor: String? = nil, bus: String? = nil, activePort: String? = nil) {
        self.activePort = activePort
        self.name = name
        self.description = description
        self.isMonitor = isMonitor
        self.sampleRate = sampleRate
        self.channels = channels
        self.formFactor = formFactor
        self.bus = bus
    }
}

/// An output the desktop server offers (a sink, in PulseAudio's words).
public struct AudioOutput: Sendable, Equatable, Codable {
    /// The server's name for it: what ``DesktopOutputOptions/sink`` takes.
    public var name: String
    /// A human description (`Built-in Audio Analog Stereo`).
    public var description: String
    /// What kind of device it is (`device.form_factor`: `headphones`, `headset`, `speaker`,
    /// `internal`, `hifi`, `tv`, ...), nil when the server does not say.
    public var formFactor: String?
    /// How it is attached (`device.bus`: `pci`, `usb`, `bluetooth`, ...), nil when not said.
    public var bus: String?
    /// The port in use (`analog-output-headphones`, `analog-output-speaker`, `hdmi-output-0`,
    /// ...), nil for a sink without ports (a virtual one).
    public var activePort: String?

    /// An output as the server lists it.
    public init(name: String, description: String, formFactor: String? = nil, bus: String? = nil, activePort: String? = nil) {
        self.activePort = activePort
        self.name = name
        self.description = description
        self.formFactor = formFactor
        self.bus = bus
    }
}
