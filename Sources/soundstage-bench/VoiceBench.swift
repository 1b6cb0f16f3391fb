import Foundation
import Soundstage
import TestSupport

/// `soundstage-bench voices`: 10,000 looping sources on a 256-voice scene with voice management,
/// the listener moving every 16 ms, against a scene that plays only the 256 sources nearest the
/// listener's start directly. Both render 1 s before the measurement starts (the steady state of a
/// game, not the moment 10,000 sounds were started); five pairs, medians. Prints the voice
/// manager's cost per update and the CPU ratio.
func voiceBench() throws {
    let count = 10_000, budget = 256, seconds = 20.0, warmUp = 1.0
    var random = SplitMix64(seed: 3)
    func coordinate() -> Float { Float(Int(random.next() % 40_000)) / 100 - 200 }
    let positions = (0..<count).map { _ in Vector3(coordinate(), 0, coordinate()) }
    let tickFrames = rate * 16 / 1_000
    let ticks = Int(seconds * 1_000 / 16)
    func listener(at tick: Int) -> Vector3 { Vector3(-50 + Float(tick) * 0.16, 0, 0) }   // 10 m/s

    func run(managed: Bool) throws -> (cpu: Double, statistics: VoiceStatistics) {
        let device = try Device.loopback(sampleRate: rate)
        defer { device.close() }
        let scene = try device.makeScene(sourceBudget: budget)
        scene.virtualizesVoices = managed
        let buffer = try device.makeBuffer(AudioBuffer(samples: sine(440), channels: 1, sampleRate: rate))
        let start = listener(at: 0)
        let chosen = managed ? Array(positions.indices)
            : Array(positions.indices.sorted { (positions[$0] - start).length < (positions[$1] - start).length }.prefix(budget))
        for index in chosen {
            let source = scene.makeSource(buffer: buffer)
            source.isLooping = true
            source.position = positions[index]
            try source.play()
        }
        var output = [Float](repeating: 0, count: 2 * tickFrames)
        for _ in 0..<Int(warmUp * 1_000 / 16) {
            scene.listener.position = listener(at: 0)
            try output.withUnsafeMutableBufferPointer { try device.render(into: $0) }
        }
        let warmed = scene.voiceStatistics
        let begin = cpuSeconds()
        for tick in 0..<ticks {
            scene.listener.position = listener(at: tick)
            try output.withUnsafeMutableBufferPointer { try device.render(into: $0) }
        }
        var statistics = scene.voiceStatistics
        // Only what the measured ticks did.
        statistics.updates -= warmed.updates
        statistics.totalUpdateMicroseconds -= warmed.totalUpdateMicroseconds
        statistics.totalSelectionMicroseconds -= warmed.totalSelectionMicroseconds
        statistics.virtualizations -= warmed.virtualizations
        statistics.realizations -= warmed.realizations
        return (cpuSeconds() - begin, statistics)
    }

    var ratios: [Double] = [], managedCPU: [Double] = [], directCPU: [Double] = []
    var last = VoiceStatistics()
    for _ in 0..<5 {
        let direct = try run(managed: false)
        let managed = try run(managed: true)
        directCPU.append(direct.cpu)
        managedCPU.append(managed.cpu)
        ratios.append(managed.cpu / direct.cpu)
        last = managed.statistics
    }
    print("voices: \(count) looping sources, \(budget) real voices, listener moving every 16 ms, \(Int(seconds)) s at 48 kHz (medians of 5, after 1 s of warm-up)")
    print(String(format: "  256 nearest played directly: %.3f s CPU", median(directCPU)))
    print(String(format: "  voice-managed 10,000:        %.3f s CPU", median(managedCPU)))
    print(String(format: "  ratio managed / direct: %.3f (goal <= 1.10)", median(ratios)))
    print(String(format: "  voice manager per update: mean %.1f µs, peak %.1f µs over %d rankings (goal <= 1 ms per tick)",
                 last.totalUpdateMicroseconds / Double(max(last.updates, 1)), last.peakUpdateMicroseconds, last.updates))
    print(String(format: "    of which choosing (keys and selection): mean %.1f µs; OpenAL work for the voices that changed: mean %.1f µs",
                 last.totalSelectionMicroseconds / Double(max(last.updates, 1)),
                 (last.totalUpdateMicroseconds - last.totalSelectionMicroseconds) / Double(max(last.updates, 1))))
    print("  real \(last.realVoices), virtual \(last.virtualVoices), virtualizations \(last.virtualizations), realizations \(last.realizations)")
}
