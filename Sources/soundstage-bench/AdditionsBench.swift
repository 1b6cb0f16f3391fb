import COpenAL
import Foundation
import Soundstage

/// `soundstage-bench additions [rounds]`: where the engine's update costs more than raw OpenAL's,
/// each part alone. On the default mode's pair (256 looping sources, 4 sends, loopback), in one
/// run, over `rounds` rounds (default 7; medians):
///
/// - the baseline: a raw OpenAL update (move 256 sources, mix 10 ms) and the engine's, taking
///   turns update by update as the default mode does; their difference is the gap to explain;
/// - the property path: 256 `source.position =` on the game thread, then the render thread's
///   write pass (``Device/writeUnwrittenPropertiesNow()``), against the 256 `alSource3f` raw
///   OpenAL makes for the same move (positions computed beforehand on both sides);
/// - each fixed addition of an update (``Device/renderAdditions()``: the exit gate, the locks,
///   the scene list, the engine update, the non-finite check, …), run 20,000 times alone, less
///   an empty closure's cost measured the same way.
///
/// Prints each one's nanoseconds per update and its share of the raw update (in %), and the sum
/// against the measured gap.
func additionsBench(arguments: [String]) throws {
    let rounds = arguments.first.flatMap(Int.init) ?? 7
    let engine = try EngineRig(reverbZones: 4)
    let direct = DirectRig(checked: false, sends: 4)
    var step = 0
    for _ in 0..<200 {
        _ = try engine.step(step)
        _ = direct.step(step)
        step += 1
    }
    let additions = engine.device.renderAdditions()
    let empty: @Sendable () -> Void = {}
    let runs = 20_000
    let moves = 100

    var rawUpdate: [Double] = [], engineUpdate: [Double] = []
    var setters: [Double] = [], pass: [Double] = [], rawWrites: [Double] = []
    var alone = [[Double]](repeating: [], count: additions.count)
    for _ in 0..<rounds {
        // The baseline and the engine's whole update, taking turns (seconds per update).
        var rawSeconds = 0.0, engineSeconds = 0.0
        for _ in 0..<300 {
            var start = cpuSeconds()
            _ = direct.step(step)
            rawSeconds += cpuSeconds() - start
            start = cpuSeconds()
            _ = try engine.step(step)
            engineSeconds += cpuSeconds() - start
            step += 1
        }
        rawUpdate.append(rawSeconds / 300)
        engineUpdate.append(engineSeconds / 300)

        // The property path against raw OpenAL's writes of the same positions.
        var setSeconds = 0.0, passSeconds = 0.0, rawSecondsWrites = 0.0
        for _ in 0..<moves {
            let targets = (0..<sourceCount).map { i in position(i, step) }
            step += 1
            var start = cpuSeconds()
            for (i, source) in engine.sources.enumerated() {
                let (x, y, z) = targets[i]
                source.position = Vector3(x, y, z)
            }
            let set = cpuSeconds()
            engine.device.writeUnwrittenPropertiesNow()
            let written = cpuSeconds()
            setSeconds += set - start
            passSeconds += written - set
            alcSetThreadContext(direct.context)
            start = cpuSeconds()
            for (i, source) in direct.sources.enumerated() {
                let (x, y, z) = targets[i]
                alSource3f(source, AL_POSITION, x, y, z)
            }
            rawSecondsWrites += cpuSeconds() - start
        }
        setters.append(setSeconds / Double(moves))
        pass.append(passSeconds / Double(moves))
        rawWrites.append(rawSecondsWrites / Double(moves))

        // Each fixed addition alone, less an empty closure's call.
        func time(_ body: @Sendable () -> Void) -> Double {
            let start = cpuSeconds()
            for _ in 0..<runs { body() }
            return (cpuSeconds() - start) / Double(runs)
        }
        let call = time(empty)
        for (index, addition) in additions.enumerated() {
            alone[index].append(max(0, time(addition.run) - call))
        }
    }

    func column(_ text: String) -> String { text.count >= 84 ? text : text + String(repeating: " ", count: 84 - text.count) }
    let raw = median(rawUpdate), whole = median(engineUpdate)
    func share(_ seconds: Double) -> String { String(format: "%6.2f %%", seconds / raw * 100) }
    print("render additions, each alone: \(sourceCount) looping sources moved every 10 ms, 4 sends, loopback at \(rate) Hz; medians of \(rounds) rounds")
    print(String(format: "  baseline, raw OpenAL update (move + mix):  %8.1f µs", raw * 1e6))
    print(String(format: "  engine update (same, taking turns):        %8.1f µs  ratio %.3f, gap %.1f µs (%@)",
                 whole * 1e6, whole / raw, (whole - raw) * 1e6, share(whole - raw)))
    print("  per update, ns and share of the raw update:")
    let set = median(setters), written = median(pass), rawWritten = median(rawWrites)
    print(String(format: "    %@ %8.0f ns  (raw alSource3f ×%d: %.0f ns)", column("game thread: \(sourceCount) × source.position = (scene lock, note)"),
                 set * 1e9, sourceCount, rawWritten * 1e9))
    print(String(format: "    %@ %8.0f ns", column("render thread: the write pass (\(sourceCount) alSource3f and the walk)"), written * 1e9))
    let property = set + written - rawWritten
    print(String(format: "    %@ %8.0f ns  %@", column("property path, beyond raw OpenAL's writes"), property * 1e9, share(property)))
    var fixed = 0.0
    for (index, addition) in additions.enumerated() {
        let each = median(alone[index])
        let perUpdate = each * Double(addition.perUpdate)
        fixed += perUpdate
        let label = addition.perUpdate == 1 ? addition.name : "\(addition.name) ×\(addition.perUpdate)"
        print(String(format: "    %@ %8.1f ns  %@", column(label), perUpdate * 1e9, share(perUpdate)))
    }
    print(String(format: "    %@ %8.1f ns  %@", column("fixed additions, together"), fixed * 1e9, share(fixed)))
    print(String(format: "  sum of the parts: %.1f µs (%@) against the measured gap %.1f µs (%@); the rest is what the parts",
                 (property + fixed) * 1e6, share(property + fixed), (whole - raw) * 1e6, share(whole - raw)))
    print("  do not show alone: cache misses on the sources and OpenAL's objects, the game loop's retains of each Source")
}
