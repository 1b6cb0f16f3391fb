import Foundation
import NIOConcurrencyHelpers
import Testing
import Soundstage
import SoundFile
import TestSupport

/// Soundstage's own stream on a real PulseAudio and a real PipeWire server, started by each test,
/// heard by recording the sink's monitor.
@Suite struct DesktopOutputTests {
    @Test(arguments: installedServers)
    func panningAndPitchReachTheSink(_ kind: AudioServerFixture.Kind) throws {
        let fixture = try AudioServerFixture(kind)
        let recording = try fixture.record(sink: "A")
        let device = try desktopDevice(on: fixture)
        let scene = try device.makeScene()
        let source = scene.makeSource(buffer: try device.makeBuffer(Signals.sine(440, seconds: 1)))
        source.position = Vector3(5, 0, 0)
        try source.play()
        #expect(waitFor(10) { source.playbackState != .playing })
        device.close()
        usleep(100_000)
        let samples = recording.stop()
        let span = try #require(soundingSpan(samples))
        let heard = Array(samples[(2 * span.first)..<(2 * span.last)])
        #expect(Signals.rms(channel(heard, 0)) < 0.001)
        #expect(Signals.rms(channel(heard, 1)) > 0.05)
        #expect(abs(Signals.frequency(channel(heard, 1)) - 440) < 1)
    }
}
