import CSoundstage
import Foundation
import NIOConcurrencyHelpers
import Testing
import TestSupport

/// The C API on a real PulseAudio/PipeWire server the test starts: a C game's desktop output
/// (options, panning, pitch at the sink's monitor) and its output callback (the user's volume).
@Suite struct CAPIDesktopTests {
    /// A desktop device opened through `ss_device_open_output` with the fixture's server.
    private func openDesktop(_ fixture: AudioServerFixture) throws -> OpaquePointer? {
        var options = ss_desktop_options()
        #expect(ss_desktop_options_init(&options) == SS_OK)
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
