import Foundation
import Logging
@testable import Soundstage
import SoundFile
import SoundstageProtocol
import SoundstageServer
import TestSupport

/// A daemon on a loopback device and a private socket, for one test. The test renders the
/// device to hear what the clients made it play.
final class TestDaemon {
    let directory: String
    let socketPath: String
    let device: Device
    let server: SoundServer

    init(logger: Logger? = nil, configure: (inout SoundServer.Configuration) -> Void = { _ in }) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("soundstage-\(UUID().uuidString.prefix(8))").path
        socketPath = directory + "/run/socket"
        device = try Device.loopback()
        var configuration = SoundServer.Configuration()
        configure(&configuration)
        server = SoundServer(device: device, configuration: configuration, logger: logger)
        try server.start(socketPath: socketPath)
    }

    /// Stops the server, closes the device, removes the files.
    func stop() {
        server.shutdown()
        device.close()
        try? FileManager.default.removeItem(atPath: directory)
    }

    func render(seconds: Double) throws -> AudioBuffer {
        try device.render(frames: Int(seconds * Double(device.sampleRate)))
    }

    /// A mono sine written as a WAV file in the test's directory.
    func sineFile(_ name: String, frequency: Double = 440, seconds: Double = 0.5) throws -> String {
        let path = directory + "/\(name).wav"
        try SoundFileWriter.write(Signals.sine(frequency, seconds: seconds), to: path, format: .wavPCM16)
        return path
    }

    /// Connects a raw line client.
    func connect() throws -> LineSocket { try LineSocket(path: socketPath) }

    /// Renders in 10 ms steps until `condition` holds (the daemon works on its own threads), for
    /// at most `timeout` seconds of wall-clock time (generous: sanitizer builds are slow).
    func render(until condition: () -> Bool, timeout: Double = 60) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() && Date() < deadline {
            _ = try render(seconds: 0.01)
            usleep(1_000)
        }
    }
}

extension JSONValue {
    /// The error code of an error response.
    var errorCode: String? { self["error"]?["code"]?.stringValue }
    var isOK: Bool { self["ok"]?.boolValue == true }
}
