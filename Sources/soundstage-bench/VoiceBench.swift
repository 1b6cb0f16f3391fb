import Foundation
import Soundstage
import TestSupport

/// `soundstage-bench voices`: 10,000 looping sources scattered over 400 × 400 m on a 256-voice
/// scene with voice management, the listener moving every 16 ms, against a scene that plays only
/// the 256 sources nearest the listener's start directly. Two walks:
///
/// - *circling*: 10 m/s round a circle of 10 m radius — the nearest 256 stay much the same, so the
///   direct scene mixes the same kind of voices as the managed one: the ratio is the voice
///   manager's overhead;
/// - *crossing*: 10 m/s in a straight line across 200 m — the managed scene keeps mixing what is
///   near while the direct scene's sources fall behind (OpenAL Soft ramps the gains of near
///   voices more, which costs it more): the ratio also carries that difference in mixing.
///
/// Both scenes render 1 s before the measurement (the steady state of a game, not the moment
/// 10,000 sounds were started); five pairs, medians. Prints the manager's cost per ranking, per
/// 16 ms tick, and its share of the direct scene's CPU.
func voiceBench() throws {
    let count = 10_000, budget = 256, seconds = 20.0, warmUp = 1.0
    var random = SplitMix64(seed: 3)
    func coordinate() -> Float { Float(Int(random.next() % 40_000)) / 100 - 200 }
    let positions = (0..<count).map { _ in Vector3(coordinate(), 0, coordinate()) }
    let tickFrames = rate * 16 / 1_000
    let ticks = Int(seconds * 1_000 / 16)

    struct Walk {
        let name: String
        let position: (Int) -> Vector3
    }
    let walks = [
        Walk(name: "circling") { tick in
            let angle = Float(tick) * 0.016        // 10 m/s on a 10 m radius: 1 rad/s
            return Vector3(10 * cosf(angle), 0, 10 * sinf(angle))
        },
        Walk(name: "crossing") { tick in Vector3(-100 + Float(tick) * 0.16, 0, 0) },
    ]

    func run(_ walk: Walk, managed: Bool) throws -> (cpu: Double, statistics: VoiceStatistics) {
        let device = try Device.loopback(sampleRate: rate)
        defer { device.close() }
        let scene = try device.makeScene(sourceBudget: budget)
        scene.virtualizesVoices = managed
        let buffer = try device.makeBuffer(AudioBuffer(samples: sine(440), channels: 1, sampleRate: rate))
        let start = walk.position(0)
        let chosen = managed ? Array(positions.indices)
            : Array(positions.indices.sorted { (positions[$0] - start).length < (positions[$1] - start).length }.prefix(budget))
        for index in chosen {
            let source = scene.makeSource(buffer: buffer)
            source.isLooping = true
            source.position = positions[index]
            try source.play()
        }
        var output = [Float](repeating: 0, count: 2 * tickFrames)
        scene.listener.position = start
        for _ in 0..<Int(warmUp * 1_000 / 16) {
            try output.withUnsafeMutableBufferPointer { try device.render(into: $0) }
        }
        scene.resetVoiceStatistics()
        let begin = cpuSeconds()
        for tick in 0..<ticks {
            scene.listener.position = walk.position(tick)
            try output.withUnsafeMutableBufferPointer { try device.render(into: $0) }
        }
        let cpu = cpuSeconds() - begin
        return (cpu, scene.voiceStatistics)
    }

    print("voices: \(count) looping sources, \(budget) real voices, listener moving every 16 ms, "
          + "\(Int(seconds)) s at 48 kHz (medians of 5 pairs, after 1 s of warm-up)")
    for walk in walks {
        var ratios: [Double] = [], managedCPU: [Double] = [], directCPU: [Double] = []
        var perRanking: [Double] = [], choosing: [Double] = [], share: [Double] = [], perTick: [Double] = [], peaks: [Double] = []
        var last = VoiceStatistics()
        for _ in 0..<5 {
            let direct = try run(walk, managed: false)
            let managed = try run(walk, managed: true)
            let statistics = managed.statistics
            let updates = Double(max(statistics.updates, 1))
            directCPU.append(direct.cpu)
            managedCPU.append(managed.cpu)
            ratios.append(managed.cpu / direct.cpu)
            perRanking.append(statistics.totalUpdateMicroseconds / updates)
            choosing.append(statistics.totalSelectionMicroseconds / updates)
            perTick.append(statistics.totalUpdateMicroseconds / Double(ticks))
            share.append(statistics.totalUpdateMicroseconds / 1e6 / direct.cpu)
            peaks.append(statistics.peakUpdateMicroseconds)
            last = statistics
        }
        print("  \(walk.name):")
        print(String(format: "    256 nearest played directly: %.3f s CPU; voice-managed 10,000: %.3f s CPU",
                     median(directCPU), median(managedCPU)))
        print(String(format: "    ratio managed / direct: %.3f (goal <= 1.10)", median(ratios)))
        print(String(format: "    voice manager: mean %.1f µs per ranking (%.1f choosing, %.1f OpenAL work for the voices that changed), "
                     + "%.1f µs per 16 ms tick on average, peak %.1f µs (median of the runs' peaks; largest %.1f) (goal <= 1 ms per tick)",
                     median(perRanking), median(choosing), median(perRanking) - median(choosing), median(perTick),
                     median(peaks), peaks.max() ?? 0))
        print(String(format: "    the manager's own CPU: %.1f %% of the direct scene's; %d rankings, %d voices virtualized, %d realized",
                     100 * median(share), last.updates, last.virtualizations, last.realizations))
    }
}
