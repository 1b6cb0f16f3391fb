import CPulse
import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif
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
        /// The active port of the stream's sink changed, or was unplugged or plugged in (a
        /// laptop's headphones): the stream stays on the sink.
        case portChanged(PortChange)
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
    var sinkIndex: UInt32 = UInt32.max
    var sinkName: String?
    var lastVolume: (Float, Bool)?
    /// The ports of the stream's sink, as last read (``sinkInfoArrived(_:)``).
    var portTracker = SinkPortTracker()
    /// How many times the server answered a question about the sink's ports (for tests).
    var sinkInfoAnswers = 0
    /// Set once a test has handed in a sink's info (``DesktopOutput/receiveSinkInfo(_:)``): the
    /// server's own answers (about a null sink, which has no ports) are then counted, not read,
    /// so that a change the server makes meanwhile (PipeWire's node going idle) does not reset
    /// the ports the test described.
    var sinkInfoFromTest = false
    /// Bytes per frame of the stream (float samples).
    private(set) var frameBytes = 4
    /// The stream's rate and channels, as the server granted them.
    private(set) var sampleRate = 0
    private(set) var channels = 0
    /// The server's name and version, e.g. `pulseaudio 16.1`.
    var serverDescription = ""
    /// Whether the server is PipeWire's pulse server (its name says so once the server's info
    /// has arrived, right after connecting).
    var isPipeWireLocked: Bool { serverDescription.contains("PipeWire") }

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
        guard pa_threaded_mainloop_in_thread(mainloop) != 0 else {
            pa_threaded_mainloop_stop(mainloop)
            pa_threaded_mainloop_free(mainloop)
            return
        }
        // The last reference went inside a callback, on the loop's own thread, which cannot stop
        // itself (libpulse aborts): another thread stops and frees it once the callback returns.
        let loop = LoopToFree(mainloop)
        DispatchQueue.global().async { loop.free() }
    }

}


/// The state of one "does the old sink still exist?" query.
final class MoveQuery {
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

/// A main loop whose connection was let go on the loop's own thread, stopped and freed from another.
private final class LoopToFree: @unchecked Sendable {
    // @unchecked: the pointer is touched once, by the thread that frees it.
    private let loop: OpaquePointer
    init(_ loop: OpaquePointer) { self.loop = loop }
    func free() {
        pa_threaded_mainloop_stop(loop)
        pa_threaded_mainloop_free(loop)
    }
}
