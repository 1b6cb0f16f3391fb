import FuzzSupport
import SoundFile
import Soundstage

// Sound files from memory: every decoder Soundstage has (libsndfile's formats, the IMA4 CAF
// codec, FFmpeg's MPEG-4/ADTS/CAF-AAC path and iLBC in CAF, its packets checked by Soundstage
// before FFmpeg decodes them, when FFmpeg is installed), chosen by content. The
// first byte picks how it is read: whole, in chunks, or after a seek. Any bytes decode or give a
// typed error; what decodes has a sane shape and plays as a finite mix.

@main struct FuzzSoundFile {
    static func main() { Fuzzing.main(testOneInput) }
}

nonisolated(unsafe) private var device: Device? = nil
nonisolated(unsafe) private var scene: Scene? = nil

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(Fuzzing.bytes(data, size))
    let mode = input.byte()
    let seekTo = Int64(input.u32())
    let file: SoundFile
    do {
        file = try SoundFile(data: input.rest(), name: "fuzz")
    } catch is SoundstageError {
        return 0
    } catch {
        Fuzzing.require(false, "opening threw something other than a SoundstageError: \(error)")
        return 0
    }
    let format = file.format
    Fuzzing.require(format.channels >= 1 && format.sampleRate >= 1, "an opened file reports \(format)")
    var audio: AudioBuffer?
    do {
        switch mode % 3 {
        case 0:
            audio = try file.readAll(maxFrames: 1 << 18)
        case 1:
            var samples: [Float] = []
            for _ in 0..<64 {
                let chunk = try file.read(frames: 4_096)
                Fuzzing.require(chunk.channels == format.channels, "a chunk has \(chunk.channels) channels, the file \(format.channels)")
                if chunk.frames == 0 { break }
                samples += chunk.samples
            }
            audio = AudioBuffer(samples: samples, channels: format.channels, sampleRate: format.sampleRate)
        default:
            try file.seek(toFrame: seekTo % 1_000_000)
            audio = try file.read(frames: 8_192)
        }
    } catch is SoundstageError {
        return 0
    } catch {
        Fuzzing.require(false, "decoding threw something other than a SoundstageError: \(error)")
    }
    guard let audio, audio.frames > 0 else { return 0 }
    Fuzzing.require(audio.samples.count == audio.frames * audio.channels, "decoded samples are not whole frames")
    // Played: a buffer is refused or made, and the mix stays finite whatever the file held.
    if device == nil {
        device = try? Device.loopback(sampleRate: 22_050)
        scene = try? device?.makeScene()
    }
    guard let device, let scene, let buffer = try? device.makeBuffer(audio) else { return 0 }
    let source = scene.makeSource(buffer: buffer)
    try? source.play()
    let mix = try? device.render(frames: 512)
    source.stop()
    Fuzzing.require(mix?.samples.allSatisfy { $0.isFinite } ?? true, "a decoded file made the mix non-finite")
    Fuzzing.require(device.nonFiniteMixCount == 0, "a decoded file reached the mix non-finite (silenced by the guard)")
    return 0
}
