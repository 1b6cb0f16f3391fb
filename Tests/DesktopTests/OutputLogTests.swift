import Foundation
import InMemoryLogging
import Logging
import Soundstage
import SoundstageServer
import Testing
import TestSupport

/// What the daemon logs about its output, against a real server the test starts: an underrun
/// (the render thread starved) and a pulled sink reach the log as a warning and a route change.
@Suite(.serialized) struct OutputLogTests {
    @Test(arguments: installedServers)
    func anUnderrunAndAPulledSinkAreLogged(_ kind: AudioServerFixture.Kind) throws {
        let fixture = try AudioServerFixture(kind)
        let handler = InMemoryLogHandler()
        let log = OutputLog(logger: Logger(label: "test", factory: { _ in handler }))
        let device = try desktopDevice(on: fixture)
        log.watch(device)
        let scene = try device.makeScene()
        let source = try toneSource(scene, device, Signals.sine(440, seconds: 0.2))
        source.completionHandler = { _ in usleep(300_000) }   // runs on the render thread: starves the stream
        try source.play()
        func logged(_ test: (InMemoryLogHandler.Entry) -> Bool) -> Bool { handler.entries.contains(where: test) }
        #expect(waitFor(10) { logged { "\($0.message)".hasPrefix("output underrun") && $0.level == .warning } },
                "\(handler.entries.map { "\($0.message)" })")
        try fixture.unloadSink("A")
        #expect(waitFor(20) { logged { "\($0.message)" == "route change" && $0.metadata["from"] == "A" } },
                "\(handler.entries.map { "\($0.message) \($0.metadata)" })")
        #expect(logged { $0.level == .notice && $0.metadata["reason"] == "oldDeviceUnavailable" })
        log.stop(watching: device)
        device.close()
    }
}
