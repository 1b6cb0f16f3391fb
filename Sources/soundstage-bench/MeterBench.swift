import Foundation
import Soundstage

/// `soundstage-bench meters`: the render's CPU with every meter on — the output, the scene, a
/// group and each of 64 playing sources — against the same render with metering off, in
/// alternating rounds (medians of 7). Goal: ≤ 2 % more.
func meterBench() throws {
    func render(metered: Bool) throws -> Double {
        let device = try Device.loopback(sampleRate: rate)
        defer { device.close() }
        let scene = try device.makeScene()
        let group = scene.makeGroup("all")
        let buffer = try device.makeBuffer(AudioBuffer(samples: sine(440), channels: 1, sampleRate: rate))
        let sources = (0..<64).map { index -> Source in
            let source = scene.makeSource(buffer: buffer)
            source.isLooping = true
            source.group = group
            source.position = Vector3(Float(index % 8) - 4, 0, -Float(index / 8) - 1)
            return source
        }
        if metered {
            device.isOutputMeteringEnabled = true
            scene.isMeteringEnabled = true
            group.isMeteringEnabled = true
            for source in sources { source.isMeteringEnabled = true }
        }
        for source in sources { try source.play() }
        // Steady state: the first metered update computes each buffer's level table once.
        _ = try device.render(frames: rate / 5)
        let start = cpuSeconds()
        for second in 0..<30 {
            _ = try device.render(frames: rate)
            if metered {       // read them as a game or `soundstage top` would, ten times a second
                for _ in 0..<10 { _ = device.outputLevels(); _ = scene.meterLevels(); _ = group.meterLevels() }
                for source in sources { _ = source.meterLevels() }
            }
            _ = second
        }
        return cpuSeconds() - start
    }
    var off: [Double] = [], on: [Double] = [], ratios: [Double] = []
    for _ in 0..<7 {
        let a = try render(metered: false), b = try render(metered: true)
        off.append(a); on.append(b); ratios.append(b / a)
    }
    print("render CPU, 30 s of 64 looping sources (medians of 7 alternating rounds):")
    print(String(format: "  meters off: %.3f s; every meter on (output, scene, group, 64 sources): %.3f s", median(off), median(on)))
    print(String(format: "  ratio on / off: %.3f (goal <= 1.02)", median(ratios)))
}
