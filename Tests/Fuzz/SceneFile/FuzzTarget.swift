import FuzzSupport
import Soundstage
import SoundstageScenes
import Foundation

// Scene files (relative sound paths as from Examples/scenes; run from the repository's root): any bytes are a scene or a typed error naming where it is wrong; a scene that
// validates prepares on a loopback device within a decode budget, renders finite audio for its
// first 0.2 s, and closes without leaving a context behind.

@main struct FuzzSceneFile {
    static func main() { Fuzzing.main(testOneInput) }
}

/// One loopback device for the whole run (opening one per input would measure OpenAL).
nonisolated(unsafe) private var device: Device? = nil

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Fuzzing.bytes(data, size)
    let description: SceneDescription
    do {
        description = try SceneDescription.parse(Data(bytes), name: "fuzz.json", baseDirectory: "Examples/scenes")
    } catch let error as SoundstageError {
        Fuzzing.require(error.code == .invalidScene, "a malformed scene gave \(error.code.rawValue), not invalidScene: \(error)")
        return 0
    } catch {
        Fuzzing.require(false, "the parser threw something other than a SoundstageError: \(error)")
        return 0
    }
    if device == nil { device = try? Device.loopback(sampleRate: 22_050) }
    guard let device else { return 0 }
    let before = device.liveObjects
    do {
        let runner = try SceneRunner(description, device: device, decodeBudget: 8 << 20)
        defer { runner.close() }
        for step in 1...4 {
            try runner.advance(to: Double(step) * 0.05)
            let mix = try device.render(frames: device.sampleRate / 20)
            Fuzzing.require(mix.samples.allSatisfy { $0.isFinite }, "a scene rendered a non-finite sample")
        }
    } catch is SoundstageError {
        // A scene that validates may still fail to load (a missing sound file, over the budget).
    } catch {
        Fuzzing.require(false, "the runner threw something other than a SoundstageError: \(error)")
    }
    let after = device.liveObjects
    Fuzzing.require(after.contexts == before.contexts && after.sources == before.sources,
                    "a closed scene left OpenAL objects behind: \(before) then \(after)")
    return 0
}
