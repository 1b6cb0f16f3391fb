import Foundation
import Soundstage

/// `soundstage-bench players`: 64 ``AudioPlayer``s against 64 plain streaming sources of the same
/// file, each pair rendering 10 s on its own loopback device: the CPU of the render (medians of 5,
/// taking turns) and the ratio, whose goal is 1 (a player costs what its stream costs).
func playerBench() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bench-players-\(getpid())").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/music.wav"
    try writeSweep(path: path, seconds: 30)
    let count = 64, seconds = 10.0
    func run(players: Bool) throws -> Double {
        let device = try Device.loopback(sampleRate: rate)
        defer { device.close() }
        let scene = try device.makeScene(sourceBudget: count)
        var keep: [AnyObject] = []
        for index in 0..<count {
            if players {
                let player = try AudioPlayer(contentsOf: path, scene: scene)
                player.currentTime = Double(index % 20)
                player.numberOfLoops = -1
                try player.play()
                keep.append(player)
            } else {
                let source = try scene.makeStreamingSource(file: path)
                source.isHeadRelative = true
                source.rolloffFactor = 0
                source.position = Vector3(0, 0, -1)
                try source.seek(to: Double(index % 20))
                source.isLooping = true
                try source.play()
                keep.append(source)
            }
        }
        _ = try device.render(frames: 4_800)
        let start = cpuSeconds()
        for _ in 0..<Int(seconds * 10) { _ = try device.render(frames: rate / 10) }
        let used = cpuSeconds() - start
        withExtendedLifetime(keep) {}
        return used
    }
    var playerTimes: [Double] = [], streamTimes: [Double] = []
    for _ in 0..<5 {
        streamTimes.append(try run(players: false))
        playerTimes.append(try run(players: true))
    }
    let players = median(playerTimes), streams = median(streamTimes)
    print("soundstage-bench players: \(count) at once, \(Int(seconds)) s rendered (loopback, \(rate) Hz), medians of 5 (CPU, decoder threads included)")
    print(String(format: "  %d streaming sources: %.3f s CPU", count, streams))
    print(String(format: "  %d AudioPlayers:      %.3f s CPU", count, players))
    print(String(format: "  players / streams: %.3f (goal: 1, within noise)", players / streams))
}
