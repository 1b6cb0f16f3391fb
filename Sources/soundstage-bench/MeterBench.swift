import Foundation
import Soundstage

/// `soundstage-bench meters`: the render's CPU with every meter on — the output, the scene, a
/// group and each of 64 playing sources — against the same render with metering off, in
/// alternating rounds (medians of 7). Goal: ≤ 2 % more. It also prints what each kind of meter
/// costs alone. Reading the meters (the game's side, not the render's) is timed apart and
/// printed per reading.
func meterBench() throws {
    /// Which meters a round turns on.
    struct Meters: OptionSet {
        let rawValue: Int
        static let output = Meters(rawValue: 1), sources = Meters(rawValue: 2), buses = Meters(rawValue: 4)
        static let all: Meters = [.output, .sources, .buses]
    }
    /// The CPU the round's renders took, metering's cost against the rest of the render timed
    /// inside it, and the CPU of reading the meters with how many readings.
    func render(_ meters: Meters, hrtf: Bool = false) throws -> (cpu: Double, inside: Double, reading: Double, readings: Int) {
        let device = try Device.loopback(sampleRate: rate, hrtf: hrtf)
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
        device.isOutputMeteringEnabled = meters.contains(.output)
        scene.isMeteringEnabled = meters.contains(.buses)
        group.isMeteringEnabled = meters.contains(.buses)
        for source in sources { source.isMeteringEnabled = meters.contains(.sources) }
        for source in sources { try source.play() }
        // Steady state: the first metered update computes each buffer's level table once.
        _ = try device.render(frames: rate / 5)
        let load = device.renderLoad
        var cpu = 0.0, reading = 0.0, readings = 0
        for _ in 0..<30 {
            let rendering = cpuSeconds()
            _ = try device.render(frames: rate)
            let read = cpuSeconds()
            cpu += read - rendering
            // Read them as a game or `soundstage top` would, ten times a second.
            for _ in 0..<10 {
                if meters.contains(.output) { _ = device.outputLevels(); readings += 1 }
                if meters.contains(.buses) { _ = scene.meterLevels(); _ = group.meterLevels(); readings += 2 }
            }
            if meters.contains(.sources) { for source in sources { _ = source.meterLevels() }; readings += sources.count }
            reading += cpuSeconds() - read
        }
        return (cpu, device.renderLoad.meteringCost(since: load) ?? 0, reading, readings)
    }
    // `meters --only KIND`: forty renders of one kind and nothing else, to profile it (perf record).
    if let at = CommandLine.arguments.firstIndex(of: "--only"), at + 1 < CommandLine.arguments.count {
        let kinds: [String: Meters] = ["all": .all, "sources": .sources, "buses": .buses, "output": .output, "none": []]
        guard let meters = kinds[CommandLine.arguments[at + 1]] else {
            FileHandle.standardError.write(Data("soundstage-bench: --only takes one of \(kinds.keys.sorted().joined(separator: ", "))\n".utf8))
            exit(2)
        }
        var cpu = 0.0, inside = 0.0
        for _ in 0..<40 {
            let round = try render(meters)
            cpu += round.cpu
            inside += round.inside
        }
        print(String(format: "%@: render CPU %.4f s (mean of 40); timed in the render: +%.2f %%", CommandLine.arguments[at + 1], cpu / 40, inside / 40 * 100))
        return
    }
    let kinds: [(String, Meters, Bool)] = [("every meter (output, scene, group, 64 sources)", .all, false), ("output only", .output, false),
                                           ("64 sources only", .sources, false), ("scene and group only", .buses, false),
                                           ("every meter, HRTF render (headphones)", .all, true)]
    var off: [Double] = [], on = [[Double]](repeating: [], count: kinds.count), ratios = on, inside = on, perReading = on
    for _ in 0..<7 {
        for (index, kind) in kinds.enumerated() {
            let a = try render([], hrtf: kind.2), b = try render(kind.1, hrtf: kind.2)
            off.append(a.cpu); on[index].append(b.cpu); ratios[index].append(b.cpu / a.cpu); inside[index].append(b.inside)
            perReading[index].append(b.reading / Double(max(b.readings, 1)))
        }
    }
    print("render CPU, 30 s of 64 looping sources (medians of 7 alternating rounds; reading the meters timed apart):")
    print(String(format: "  meters off: %.4f s (plain stereo)", median(off.enumerated().filter { !kinds[$0.offset % kinds.count].2 }.map(\.element))))
    for (index, kind) in kinds.enumerated() {
        print(String(format: "  %@: %.4f s, ratio on / off %.3f; timed in the render: +%.2f %%; a reading %.2f µs", kind.0, median(on[index]),
                     median(ratios[index]), median(inside[index]) * 100, median(perReading[index]) * 1e6))
    }
    print(String(format: "  every meter on / off: %.3f, timed in the render +%.2f %% (goal <= 2 %%)", median(ratios[0]), median(inside[0]) * 100))
}
