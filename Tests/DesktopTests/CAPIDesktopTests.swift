import CSoundstage
import Foundation
import NIOConcurrencyHelpers
import SoundFile
import Testing
import TestSupport

/// The C API on a real PulseAudio/PipeWire server the test starts: a C game's desktop output
/// (options, panning, pitch at the sink's monitor) and its output callback (the user's volume).
@Suite struct CAPIDesktopTests {
    /// A desktop device opened through `ss_device_open_output` with the fixture's server.
    private func openDesktop(_ fixture: AudioServerFixture, adjust: (inout ss_desktop_options) -> Void = { _ in }) throws -> OpaquePointer? {
        var options = ss_desktop_options()
        #expect(ss_desktop_options_init(&options) == SS_OK)
        adjust(&options)
        var device: OpaquePointer?
        let result = fixture.server.withCString { server in
            "soundstage-c-tests".withCString { name in
                options.server = server
                options.application_name = name
                return ss_device_open_output(SS_BACKEND_DESKTOP, &options, &device)
            }
        }
        #expect(result == SS_OK, "\(String(cString: ss_error_message()))")
        return device
    }

    /// A mono sine source in a new scene of `device`, at `x` metres to the right.
    private func sineSource(_ device: OpaquePointer?, seconds: Double, x: Float) -> OpaquePointer? {
        var scene: OpaquePointer?
        var buffer: OpaquePointer?
        var source: OpaquePointer?
        let tone = Signals.sine(440, seconds: seconds).samples
        #expect(ss_scene_create(device, 0, &scene) == SS_OK)
        #expect(ss_buffer_create_pcm(device, tone, tone.count, 1, 48_000, &buffer) == SS_OK)
        #expect(ss_source_create(scene, buffer, &source) == SS_OK)
        #expect(ss_source_set_position(source, x, 0, 0) == SS_OK)
        return source
    }

    /// `idle_timeout` from C: the output rests after it (the stream corked, `ss_device_get_output_rest`
    /// says so and counts it) and a play wakes it; 2 s by default, and a struct from a header older
    /// than the field (its `struct_size` ends before it) rests after 2 s too; out of range is refused.
    @Test(arguments: installedServers)
    func aCGameRestsWhenSilent(_ kind: AudioServerFixture.Kind) throws {
        let fixture = try AudioServerFixture(kind)
        var defaults = ss_desktop_options()
        #expect(ss_desktop_options_init(&defaults) == SS_OK)
        #expect(defaults.idle_timeout == 2)
        for (refused, code) in [(-1, SS_ERROR_OUT_OF_RANGE), (3_601, SS_ERROR_OUT_OF_RANGE), (.nan, SS_ERROR_NOT_FINITE),
                                (.infinity, SS_ERROR_NOT_FINITE)] as [(Double, ss_result)] {
            var device: OpaquePointer?
            var options = defaults
            options.idle_timeout = refused
            #expect(ss_device_open_output(SS_BACKEND_DESKTOP, &options, &device) == code, "\(refused)")
            #expect(device == nil)
        }
        let device = try openDesktop(fixture) { $0.idle_timeout = 0.3 }
        defer { #expect(ss_device_destroy(device) == SS_OK) }
        let source = sineSource(device, seconds: 0.2, x: 0)
        #expect(ss_source_play(source) == SS_OK)
        var resting: Int32 = 0, rests: Int32 = 0
        #expect(ss_device_get_output_rest(device, &resting, &rests) == SS_OK)
        #expect(resting == 0 && rests == 0)
        #expect(waitFor(10) { ss_device_get_output_rest(device, &resting, &rests) == SS_OK && resting == 1 && rests == 1 })
        #expect(waitFor(5) { corked(try? fixture.sinkInputs()) == true })
        #expect(ss_source_play(source) == SS_OK)
        // The render thread wakes the output (a CI run read `resting` before it had).
        #expect(waitFor(2) { ss_device_get_output_rest(device, &resting, nil) == SS_OK && resting == 0 })
        #expect(ss_device_get_output_rest(device, nil, nil) == SS_OK)
        #expect(ss_device_get_output_rest(nil, &resting, &rests) == SS_ERROR_NULL_ARGUMENT)

        // A caller built against the 0.1 header: its struct ends before idle_timeout.
        let old = try openDesktop(fixture) { $0.struct_size = MemoryLayout<ss_desktop_options>.offset(of: \.idle_timeout)! }
        defer { #expect(ss_device_destroy(old) == SS_OK) }
        let quiet = sineSource(old, seconds: 0.05, x: 0)
        #expect(ss_source_play(quiet) == SS_OK)
        usleep(1_500_000)
        #expect(ss_device_get_output_rest(old, &resting, nil) == SS_OK && resting == 0, "rested before 2 s")
        #expect(waitFor(5) { ss_device_get_output_rest(old, &resting, nil) == SS_OK && resting == 1 }, "no rest after 2 s")
    }

    @Test(arguments: installedServers)
    func aCGameIsHeardAtTheSink(_ kind: AudioServerFixture.Kind) throws {
        let fixture = try AudioServerFixture(kind)
        let recording = try fixture.record(sink: "A")
        let device = try openDesktop(fixture)
        var info = ss_device_info()
        #expect(ss_device_get_info(device, &info) == SS_OK)
        #expect(info.kind == SS_DEVICE_DESKTOP)
        let source = sineSource(device, seconds: 1, x: 5)
        #expect(ss_source_play(source) == SS_OK)
        var state = SS_SOURCE_PLAYING
        #expect(waitFor(10) { ss_source_get_state(source, &state) == SS_OK && state != SS_SOURCE_PLAYING })
        #expect(ss_device_destroy(device) == SS_OK)      // plays the tail out
        usleep(100_000)
        try expectRightOnly440(recording.stop())
    }

    /// A C recorder records the sink's monitor while a C game plays: the file holds the tone,
    /// and the recorder's callback hears how the recording ended.
    @Test(arguments: installedServers)
    func aCRecorderRecordsTheSinksMonitor(_ kind: AudioServerFixture.Kind) throws {
        let fixture = try AudioServerFixture(kind)
        let path = fixture.directory + "/take.wav"
        var settings = ss_recorder_settings()
        #expect(ss_recorder_settings_init(&settings) == SS_OK)
        let ended = RecordingEnds()
        let context = Unmanaged.passRetained(ended).toOpaque()
        defer { Unmanaged<RecordingEnds>.fromOpaque(context).release() }
        var recorder: OpaquePointer?
        let created = fixture.server.withCString { server in
            "A.monitor".withCString { input in
                settings.server = server
                settings.input = input
                return ss_recorder_create(path, &settings, nil, { _, recording, userData in
                    let frames = recording!.pointee.frames
                    Unmanaged<RecordingEnds>.fromOpaque(userData!).takeUnretainedValue().frames.withLockedValue { $0.append(frames) }
                }, context, &recorder)
            }
        }
        #expect(created == SS_OK, "\(String(cString: ss_error_message()))")
        #expect(ss_recorder_record(recorder) == SS_OK, "\(String(cString: ss_error_message()))")
        let device = try openDesktop(fixture)
        let source = sineSource(device, seconds: 0.5, x: 5)
        #expect(ss_source_play(source) == SS_OK)
        var state = SS_SOURCE_PLAYING
        #expect(waitFor(10) { ss_source_get_state(source, &state) == SS_OK && state != SS_SOURCE_PLAYING })
        #expect(ss_device_destroy(device) == SS_OK)
        usleep(200_000)
        var recording = ss_recording()
        #expect(ss_recorder_stop(recorder, &recording) == SS_OK)
        #expect(recording.end == SS_RECORDING_STOPPED && recording.frames > 24_000)
        #expect(ended.frames.withLockedValue { $0 } == [recording.frames])
        #expect(ss_recorder_destroy(recorder) == SS_OK)
        let audio = try SoundFile(path: path).readAll()
        try expectRightOnly440(audio.samples)
    }

    /// Destroying a scene file's handle on another thread ends its real-time play at once.
    @Test(arguments: installedServers)
    func destroyingAPlayingSceneFileEndsThePlay(_ kind: AudioServerFixture.Kind) throws {
        let fixture = try AudioServerFixture(kind)
        let device = try openDesktop(fixture)
        defer { ss_device_destroy(device) }
        var file: OpaquePointer?
        #expect(ss_scene_file_load(device, "Examples/scenes/orbit.json", &file) == SS_OK, "\(String(cString: ss_error_message()))")
        let handle = UInt(bitPattern: Int(bitPattern: file.map(UnsafeRawPointer.init)))
        let busy = NIOLockedValueBox<(advance: ss_result, source: ss_result)>((SS_OK, SS_ERROR_INTERNAL))
        Thread.detachNewThread {
            usleep(500_000)
            let file = OpaquePointer(bitPattern: handle)
            var bee: OpaquePointer?
            let advance = ss_scene_file_advance(file, 1)     // the play holds the runner: refused at once
            let source = ss_scene_file_get_source(file, "bee", &bee)
            busy.withLockedValue { $0 = (advance, source) }
            _ = ss_scene_file_destroy(file)
            ss_thread_detach()
        }
        var mixed = 0.0
        #expect(ss_scene_file_play(file) == SS_OK)
        #expect(ss_device_get_mix_time(device, &mixed) == SS_OK)
        #expect(mixed < 6, "the 8 s scene played \(mixed) s before its handle's destruction ended it")
        #expect(ss_scene_file_play(file) == SS_ERROR_STALE_HANDLE)
        #expect(busy.withLockedValue { $0.advance } == SS_ERROR_INVALID_STATE)
        #expect(busy.withLockedValue { $0.source } == SS_OK)
    }

    /// The route callback hears the stream follow the default sink, with the sinks' names.
    @Test(arguments: installedServers)
    func theRouteCallbackHearsTheDefaultSinkChange(_ kind: AudioServerFixture.Kind) throws {
        let fixture = try AudioServerFixture(kind)
        let device = try openDesktop(fixture)
        defer { ss_device_destroy(device) }
        let routes = Routes()
        let context = Unmanaged.passRetained(routes).toOpaque()
        defer { Unmanaged<Routes>.fromOpaque(context).release() }
        #expect(ss_device_set_route_callback(device, { _, reason, previous, output, userData in
            let entry = "\(reason.rawValue) \(previous.map { String(cString: $0) } ?? "-") \(output.map { String(cString: $0) } ?? "-")"
            Unmanaged<Routes>.fromOpaque(userData!).takeUnretainedValue().seen.withLockedValue { $0.append(entry) }
        }, context) == SS_OK)
        let source = sineSource(device, seconds: 3, x: 0)
        #expect(ss_source_play(source) == SS_OK)
        var time = 0.0
        #expect(waitFor(5) { ss_device_get_mix_time(device, &time) == SS_OK && time > 0.2 })
        try fixture.setDefaultSink("B")
        let moved = "\(SS_ROUTE_OUTPUT_MOVED.rawValue) A B"
        #expect(waitFor(5) { routes.seen.withLockedValue { $0.contains(moved) } }, "\(routes.seen.withLockedValue { $0 })")
    }

    @Test(arguments: installedServers)
    func theServersInputsAreEnumerated(_ kind: AudioServerFixture.Kind) throws {
        let fixture = try AudioServerFixture(kind)
        let names = InputNames()
        let context = Unmanaged.passRetained(names).toOpaque()
        defer { Unmanaged<InputNames>.fromOpaque(context).release() }
        let result = fixture.server.withCString { server in
            ss_enumerate_inputs(server, { name, _, userData in
                let names = Unmanaged<InputNames>.fromOpaque(userData!).takeUnretainedValue()
                names.names.withLockedValue { $0.append(String(cString: name!)) }
            }, context)
        }
        #expect(result == SS_OK)
        let listed = names.names.withLockedValue { $0 }
        #expect(listed.contains("A.monitor") && listed.contains("B.monitor"), "\(listed)")
    }

    @Test(arguments: installedServers)
    func theOutputCallbackHearsTheUsersVolume(_ kind: AudioServerFixture.Kind) throws {
        let fixture = try AudioServerFixture(kind)
        let device = try openDesktop(fixture)
        defer { ss_device_destroy(device) }
        let heard = VolumeEvents()
        let context = Unmanaged.passRetained(heard).toOpaque()
        defer { Unmanaged<VolumeEvents>.fromOpaque(context).release() }
        #expect(ss_device_set_output_callback(device, { _, event, userData in
            guard let event, event.pointee.kind == SS_OUTPUT_VOLUME_CHANGED else { return }
            Unmanaged<VolumeEvents>.fromOpaque(userData!).takeUnretainedValue().volumes.withLockedValue {
                $0.append((event.pointee.volume, event.pointee.muted != 0))
            }
        }, context) == SS_OK)
        let source = sineSource(device, seconds: 3, x: 0)
        #expect(ss_source_play(source) == SS_OK)
        var time = 0.0
        #expect(waitFor(5) { ss_device_get_mix_time(device, &time) == SS_OK && time > 0.2 })
        let inputs = try fixture.pactl(["list", "short", "sink-inputs"])
        let index = try #require(inputs.split(separator: "\n").first?.split(separator: "\t").first.map(String.init))
        try fixture.pactl(["set-sink-input-volume", index, "50%"])
        // 50 % on the server's cubic volume scale is 0.125 linear (as the Swift test finds).
        #expect(waitFor(5) { heard.volumes.withLockedValue { $0.contains { abs($0.0 - 0.125) < 0.01 && !$0.1 } } },
                "\(heard.volumes.withLockedValue { $0 })")
        var status = ss_output_status()
        #expect(ss_device_get_output_status(device, &status) == SS_OK)
        let backend = withUnsafeBytes(of: status.backend) { bytes in String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self) }
        #expect(backend == "desktop")
        #expect(abs(status.volume - 0.125) < 0.01)
        #expect(ss_device_set_output_callback(device, nil, nil) == SS_OK)
    }
}

/// Volume events a C callback saw.
private final class VolumeEvents: Sendable {
    let volumes = NIOLockedValueBox<[(Float, Bool)]>([])
}

/// Input names a C callback listed.
private final class InputNames: Sendable {
    let names = NIOLockedValueBox<[String]>([])
}

/// Frame counts a C recorder callback reported.
private final class RecordingEnds: Sendable {
    let frames = NIOLockedValueBox<[Int64]>([])
}

/// Route changes a C callback heard, as "reason previous output".
private final class Routes: Sendable {
    let seen = NIOLockedValueBox<[String]>([])
}
