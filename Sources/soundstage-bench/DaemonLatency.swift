import Foundation
import Soundstage
import SoundstageClient
import SoundstageJSON
import SoundstageServer
import TestSupport

/// p50/p99 of request → source playing for `playSound` over the daemon's socket (the answer
/// is sent once OpenAL reports the source playing), and the same play through the in-process
/// API, in one run, on one loopback device.
func daemonLatency() async throws {
    let plays = 10_000
    let device = try Device.loopback(sampleRate: rate)
    defer { device.close() }
    var configuration = SoundServer.Configuration()
    configuration.registryOptions.coalescingWindow = 0      // measure every play, none merged
    let server = SoundServer(device: device, configuration: configuration)
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bench-daemon-\(getpid())").path
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try server.start(socketPath: directory + "/socket")
    defer { server.shutdown() }
    let path = directory + "/click.wav"
    try SoundFileWriter.write(AudioBuffer(samples: Array(sine(1_000).prefix(4_800)), channels: 1, sampleRate: rate),
                              to: path, format: .wavPCM16)

    let client = try await SoundstageClient.connect(socketPath: directory + "/socket")
    let remoteID = try await client.registerSound(file: path)
    var socket: [UInt64] = []
    socket.reserveCapacity(plays)
    for i in 0..<plays {
        let start = nanoseconds()
        let play = try await client.playSound(id: remoteID)
        socket.append(nanoseconds() - start)
        precondition(play.outcome == .playing, "the daemon did not play: \(play.outcome)")
        if i % 100 == 99 { _ = try device.render(frames: updateFrames) }
    }
    await client.close()

    // The same over a plain blocking socket, as a C program or a script would talk to it.
    let plain = try LineSocket(path: directory + "/socket")
    let plainID = plain.request(["id": 0, "command": "registerSound", "file": .string(path)])?["result"]?["sound"]
    let line = "{\"id\":1,\"command\":\"playSound\",\"sound\":\(plainID ?? .null)}\n"
    var blocking: [UInt64] = []
    blocking.reserveCapacity(plays)
    for i in 0..<plays {
        let start = nanoseconds()
        plain.send(line)
        let answer = plain.response()
        blocking.append(nanoseconds() - start)
        precondition(answer?["result"]?["outcome"]?.stringValue == "playing", "the daemon did not play: \(String(describing: answer))")
        if i % 100 == 99 { _ = try device.render(frames: updateFrames) }
    }

    var options = SystemSoundRegistry.Options()
    options.coalescingWindow = 0
    let registry = try SystemSoundRegistry(device: device, options: options)
    defer { registry.close() }
    var local = try playLatencies(registry, try registry.register(file: path), plays: plays)

    // The transport alone: `ping` round trips on the same connection.
    var pings: [UInt64] = []
    pings.reserveCapacity(plays)
    for _ in 0..<plays {
        let start = nanoseconds()
        plain.send("{\"id\":2,\"command\":\"ping\"}\n")
        _ = plain.response()
        pings.append(nanoseconds() - start)
    }

    socket.sort()
    blocking.sort()
    pings.sort()
    local.sort()
    print("playSound: request → source playing, \(plays) sequential plays of a registered 0.1 s click (loopback device)")
    print("  over the socket (SoundstageClient): \(latencySummary(socket))")
    print("  over the socket (blocking client):   \(latencySummary(blocking))")
    print("  ping round trip (blocking client):   \(latencySummary(pings))")
    print("  in-process (SystemSoundRegistry):   \(latencySummary(local))")
    print(String(format: "  socket / in-process at p50: %.0f× (SoundstageClient), %.0f× (blocking)",
                 percentile(socket, 0.5) / percentile(local, 0.5), percentile(blocking, 0.5) / percentile(local, 0.5)))
}
