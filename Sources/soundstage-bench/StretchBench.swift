import Foundation
import Soundstage
import SoundFile
import TestSupport

/// `soundstage-bench stretch`: what keeping the pitch costs. 16 ``AudioPlayer``s at rate 1.5
/// with ``AudioPlayer/preservesPitch`` on (SoundTouch) against the same players at rate 1.5 as
/// OpenAL's pitch, each rendering 10 s on a loopback device (medians of 5, taking turns): the
/// CPU one stretched stream adds, as a share of one core. Then the pitch error: a 440 Hz tone
/// played at rates 0.5…2, its frequency measured in the render, in cents.
func stretchBench() throws {
    try TimeStretch.check()
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bench-stretch-\(getpid())").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let music = directory + "/music.wav"
    try writeSweep(path: music, seconds: 30)
    let count = 16, seconds = 10.0
    func run(keepPitch: Bool) throws -> Double {
        let device = try Device.loopback(sampleRate: rate)
        defer { device.close() }
        let scene = try device.makeScene(sourceBudget: count)
        var players: [AudioPlayer] = []
        for index in 0..<count {
            let player = try AudioPlayer(contentsOf: music, scene: scene)
            player.preservesPitch = keepPitch
            player.rate = 1.5
            player.currentTime = Double(index)
            player.numberOfLoops = -1
            try player.play()
            players.append(player)
        }
        _ = try device.render(frames: 4_800)
        let start = cpuSeconds()
        for _ in 0..<Int(seconds * 10) { _ = try device.render(frames: rate / 10) }
        let used = cpuSeconds() - start
        withExtendedLifetime(players) {}
        return used
    }
    var stretched: [Double] = [], pitched: [Double] = []
    for _ in 0..<5 {
        pitched.append(try run(keepPitch: false))
        stretched.append(try run(keepPitch: true))
    }
    let withStretch = median(stretched), without = median(pitched)
    let perStream = (withStretch - without) / Double(count) / seconds
    print("soundstage-bench stretch: SoundTouch \(TimeStretch.version ?? "?"), \(count) players at rate 1.5, \(Int(seconds)) s rendered "
          + "(loopback, \(rate) Hz), medians of 5 (CPU, decoder thread included)")
    print(String(format: "  rate as OpenAL's pitch:      %.3f s CPU", without))
    print(String(format: "  rate keeping the pitch:      %.3f s CPU (%.2fx)", withStretch, withStretch / without))
    print(String(format: "  one stretched stream adds:   %.2f %% of one core", perStream * 100))

    let tone = directory + "/tone.wav"
    try SoundFileWriter.write(Signals.sine(440, seconds: 8), to: tone, format: .wavPCM16)
    var line = "  pitch of a 440 Hz tone kept at rate"
    for playbackRate in [Float(0.5), 0.75, 1.25, 1.5, 2] {
        let device = try Device.loopback(sampleRate: rate)
        defer { device.close() }
        let scene = try device.makeScene()
        let player = try AudioPlayer(contentsOf: tone, scene: scene)
        player.preservesPitch = true
        player.rate = playbackRate
        try player.play()
        let mix = try device.render(frames: rate * 3)
        let heard = Signals.frequency(Array(mix.channel(0)[(rate / 2)..<(rate * 5 / 2)]))
        line += String(format: " %.2f: %+.2f cents;", playbackRate, 1_200 * log2(heard / 440))
    }
    print(line.dropLast())
}
