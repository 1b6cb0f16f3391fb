import Foundation
import NIOConcurrencyHelpers
import Soundstage
import SoundstageJSON
import SoundstageServer
import TestSupport

/// `soundstage-bench daemon-clients [clients] [plays]`: many clients playing UI sounds at once
/// on one daemon (in this process, rendering in real time on a loopback device). 200 clients
/// connect and register a click, then each plays it 100 times, driven from 4 threads. Prints
/// throughput, p50/p99 of request → answer, and this process's resident memory and threads
/// before the clients, at their peak and after they left (goal: ≤ 200 MB with 200 clients, and
/// no thread per client).
func daemonClients(arguments: [String]) throws {
    let clients = arguments.first.flatMap(Int.init) ?? 200
    let plays = arguments.dropFirst().first.flatMap(Int.init) ?? 100
    let device = try Device.loopback(sampleRate: rate)
    defer { device.close() }
    let renderer = try RealTimeRenderer(device: device)
    renderer.start()
    defer { try? renderer.stop() }
    var configuration = SoundServer.Configuration()
    configuration.registryOptions.coalescingWindow = 0      // every play plays
    let server = SoundServer(device: device, configuration: configuration)
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bench-clients-\(getpid())").path
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try server.start(socketPath: directory + "/socket")
    defer { server.shutdown() }
    let click = directory + "/click.wav"
    try SoundFileWriter.write(AudioBuffer(samples: Array(sine(1_000).prefix(2_400)), channels: 1, sampleRate: rate),
                              to: click, format: .wavPCM16)

    let idle = ProcessSample.now()
    let sampler = ProcessSampler()
    sampler.start()
    let sockets = try (0..<clients).map { _ in try LineSocket(path: directory + "/socket") }
    for socket in sockets {
        guard socket.request(["id": 0, "command": "registerSound", "file": .string(click)])?["ok"] == true else {
            throw SoundstageError(.io, "a client could not register the click")
        }
    }
    let latencies = NIOLockedValueBox<[UInt64]>([])
    let failures = NIOLockedValueBox(0)
    let drivers = 4
    let start = nanoseconds()
    let threads = (0..<drivers).map { driver in
        Thread {
            var mine: [UInt64] = []
            mine.reserveCapacity(plays * clients / drivers + plays)
            let own = stride(from: driver, to: clients, by: drivers).map { sockets[$0] }
            for round in 0..<plays {
                for socket in own {
                    let sent = nanoseconds()
                    socket.send("{\"id\":\(round),\"command\":\"playSound\",\"sound\":1}\n")
                    let answer = socket.response(timeout: 10)
                    mine.append(nanoseconds() - sent)
                    if answer?["ok"] != true { failures.withLockedValue { $0 += 1 } }
                }
            }
            latencies.withLockedValue { $0 += mine }
        }
    }
    for thread in threads { thread.start() }
    // Each driver hands its latencies over when it is done.
    while latencies.withLockedValue({ $0.count }) < plays * clients { usleep(10_000) }
    let seconds = Double(nanoseconds() - start) / 1e9
    let peak = sampler.stop()
    let during = ProcessSample.now()
    for socket in sockets { socket.finishSending() }
    withExtendedLifetime(sockets) {}
    usleep(1_000_000)
    let after = ProcessSample.now()
    let sorted = latencies.withLockedValue { $0 }.sorted()
    print("\(clients) clients × \(plays) plays of a registered 50 ms click (one daemon, real-time loopback render, \(drivers) driver threads)")
    print(String(format: "  throughput: %.0f plays/s (%d plays in %.2f s), %d failed", Double(sorted.count) / seconds, sorted.count, seconds,
                 failures.withLockedValue { $0 }))
    print("  request → answer: \(frameSummary(sorted))")
    print("  resident memory: idle \(idle.rssKB / 1_024) MB; peak with the clients \(peak.rssKB / 1_024) MB (goal <= 200 MB); "
          + "clients connected \(during.rssKB / 1_024) MB; after they left \(after.rssKB / 1_024) MB")
    print("  threads: idle \(idle.threads); peak with the clients \(peak.threads) (goal: not one per client); after \(after.threads)")
}

/// This process's resident memory and threads, from /proc/self/status.
struct ProcessSample {
    var rssKB = 0
    var threads = 0

    static func now() -> ProcessSample {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        func field(_ name: String) -> Int {
            let line = status.split(separator: "\n").first { $0.hasPrefix(name) } ?? ""
            return Int(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "") ?? 0
        }
        return ProcessSample(rssKB: field("VmRSS:"), threads: field("Threads:"))
    }
}

/// Samples ``ProcessSample`` every 20 ms on a thread and keeps the peaks.
final class ProcessSampler: Sendable {
    private let state = NIOLockedValueBox((running: false, peak: ProcessSample()))

    func start() {
        state.withLockedValue { $0.running = true }
        Thread { [self] in
            while state.withLockedValue({ $0.running }) {
                let sample = ProcessSample.now()
                state.withLockedValue { state in
                    state.peak.rssKB = max(state.peak.rssKB, sample.rssKB)
                    state.peak.threads = max(state.peak.threads, sample.threads)
                }
                usleep(20_000)
            }
        }.start()
    }

    func stop() -> ProcessSample {
        state.withLockedValue { state in
            state.running = false
            return state.peak
        }
    }
}
