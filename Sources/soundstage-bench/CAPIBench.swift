// soundstage-bench capi: what the C API adds to a call. Three rigs take turns update by update
// in one process: raw OpenAL, the Swift API (`source.position =`) and the C API
// (`ss_source_set_position`, called through its C symbol as a C game calls it), each moving 256
// looping sources every 10 ms and mixing. Prints a setter's cost per call on each side, the ratio
// C API / Swift setter (goal <= 1.2), and each side's CPU against raw OpenAL.
// Benchmarks/C/frame-bench.c measures the C API against raw OpenAL from a C program.
import CSoundstage
import Foundation
import Soundstage

/// The C API: a loopback device opened through `ss_device_open_loopback`, sources moved with
/// `ss_source_set_position`.
final class CAPIRig: Rig {
    let device: OpaquePointer?
    var sources: [OpaquePointer?] = []
    var output = [Float](repeating: 0, count: updateFrames * 2)

    init(reverbZones: Int32) {
        var device: OpaquePointer?
        var scene: OpaquePointer?
        var buffer: OpaquePointer?
        let tone = sine(440)
        guard ss_device_open_loopback(Int32(rate), SS_LAYOUT_STEREO, SS_OFF, reverbZones, &device) == SS_OK,
              ss_scene_create(device, Int32(sourceCount), &scene) == SS_OK,
              ss_buffer_create_pcm(device, tone, tone.count, 1, Int32(rate), &buffer) == SS_OK else {
            fatalError("C API setup failed: \(String(cString: ss_error_message()))")
        }
        self.device = device
        for _ in 0..<sourceCount {
            var source: OpaquePointer?
            ss_source_create(scene, buffer, &source)
            ss_source_set_looping(source, 1)
            ss_source_play(source)
            sources.append(source)
        }
    }

    deinit { ss_device_destroy(device) }

    func step(_ step: Int) throws -> Double {
        let t0 = cpuSeconds()
        for (i, source) in sources.enumerated() {
            let (x, y, z) = position(i, step)
            ss_source_set_position(source, x, y, z)
        }
        let moved = cpuSeconds() - t0
        _ = output.withUnsafeMutableBufferPointer { ss_device_render(device, $0.baseAddress, updateFrames) }
        return moved
    }
}

func capiBench() throws {
    print("soundstage-bench capi: \(sourceCount) looping sources moved every 10 ms, \(seconds) s a round, 7 rounds;")
    print("raw OpenAL, the Swift API and the C API take turns update by update (4 sends each; medians)")
    var swiftCalls: [Double] = [], cCalls: [Double] = [], rawCalls: [Double] = []
    var swiftRatios: [Double] = [], cRatios: [Double] = [], callRatios: [Double] = []
    for round in 1...7 {
        let m = try interleave([DirectRig(checked: false, sends: 4), EngineRig(reverbZones: 4), CAPIRig(reverbZones: 4)])
        let perCall = m.map { $0.moveSeconds / Double(updates * sourceCount) * 1e9 }
        rawCalls.append(perCall[0]); swiftCalls.append(perCall[1]); cCalls.append(perCall[2])
        callRatios.append(perCall[2] / perCall[1])
        swiftRatios.append(m[1].render / m[0].render)
        cRatios.append(m[2].render / m[0].render)
        print(String(format: "  round %d: per call: raw alSource3f %.1f ns, Swift setter %.1f ns, C API %.1f ns (C/Swift %.2f); CPU vs raw: Swift %.3f, C %.3f",
                     round, perCall[0], perCall[1], perCall[2], perCall[2] / perCall[1], swiftRatios.last!, cRatios.last!))
    }
    func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    print("medians:")
    print(String(format: "  one position set: Swift setter %.1f ns, C API %.1f ns, raw alSource3f %.1f ns", median(swiftCalls), median(cCalls), median(rawCalls)))
    print(String(format: "  ratio C API call / Swift setter: %.2f (goal <= 1.2)", median(callRatios)))
    print(String(format: "  CPU of whole updates against raw OpenAL: Swift API %.3f, C API %.3f", median(swiftRatios), median(cRatios)))
}
