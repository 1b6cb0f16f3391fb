// soundstage-assets: synthesizes the sounds the demos play and writes them to assets/sounds/.
//
//   swift run soundstage-assets [output-directory]     (default: assets/sounds)
//
// Everything is generated from code with fixed seeds, so the files are the same on every run.
// The formats are mixed on purpose, so the demos exercise the decoders.
import Foundation
import SoundFile

let directory = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "assets/sounds"
let themeDirectory = CommandLine.arguments.count > 2 ? CommandLine.arguments[2] : "assets/sound-theme/soundstage-fallback"
let rate = 44_100

/// A small deterministic noise source (xorshift).
struct Noise {
    var state: UInt64
    mutating func next() -> Double {
        state ^= state << 13; state ^= state >> 7; state ^= state << 17
        return Double(state >> 11) / Double(1 << 53) * 2 - 1
    }
}

func mono(_ seconds: Double, _ sample: (Double, Int) -> Double) -> AudioBuffer {
    let count = Int(seconds * Double(rate))
    return AudioBuffer(samples: (0..<count).map { Float(sample(Double($0) / Double(rate), $0)) }, channels: 1, sampleRate: rate)
}

func saw(_ phase: Double) -> Double { 2 * phase.truncatingRemainder(dividingBy: 1) - 1 }

/// A one-pole low-pass, for noise colouring.
struct LowPass {
    var y = 0.0
    let a: Double
    init(cutoff: Double) { a = exp(-2 * Double.pi * cutoff / Double(rate)) }
    mutating func callAsFunction(_ x: Double) -> Double { y = (1 - a) * x + a * y; return y }
}

// A bee: a buzzy 220 Hz saw with a 23 Hz wobble; 1 s, loops seamlessly (whole cycles).
let bee = mono(1) { t, _ in 0.35 * saw(220 * t + 0.02 * sin(2 * Double.pi * 5 * t)) * (0.75 + 0.25 * sin(2 * Double.pi * 23 * t)) }

// A footstep every half second: a thump and a scuff of filtered noise, then silence (loops as walking).
var stepNoise = Noise(state: 7)
var stepFilter = LowPass(cutoff: 1_800)
let footstep = mono(0.5) { t, _ in
    guard t < 0.18 else { return 0 }
    let thump = sin(2 * Double.pi * 70 * t) * exp(-t * 40)
    let scuff = stepFilter(stepNoise.next()) * exp(-t * 25) * 2.5
    return 0.6 * (0.7 * thump + 0.5 * scuff)
}

// An engine: firing pulses at 30 Hz on a 60 Hz growl; 1 s, loops seamlessly.
let engine = mono(1) { t, _ in
    let growl = 0.5 * saw(60 * t) + 0.3 * sin(2 * Double.pi * 120 * t) + 0.15 * saw(180 * t)
    let firing = 0.6 + 0.4 * pow(max(0, sin(2 * Double.pi * 30 * t)), 4)
    return 0.45 * growl * firing
}

// A chime: inharmonic bell partials with a long decay.
let chime = mono(1.5) { t, _ in
    let partials: [(Double, Double)] = [(880, 1), (1_760 * 1.002, 0.5), (2_640 * 0.997, 0.3), (3_960, 0.15)]
    let sum = partials.reduce(0.0) { $0 + $1.1 * sin(2 * Double.pi * $1.0 * t) }
    return 0.3 * sum * exp(-t * 3) * min(1, t * 500)
}

// A UI click: a 4 ms burst at 3 kHz.
let click = mono(0.03) { t, _ in t < 0.004 ? 0.8 * sin(2 * Double.pi * 3_000 * t) * (1 - t / 0.004) : 0 }

// A radio: a little square-wave tune with hiss, band-limited like a small speaker; 4 s loop.
var hiss = Noise(state: 99)
var speaker = LowPass(cutoff: 3_500)
let notes: [Double] = [523.25, 659.25, 783.99, 659.25, 587.33, 698.46, 880.0, 698.46]
let radio = mono(4) { t, _ in
    let note = notes[Int(t / 0.5) % notes.count]
    let within = t.truncatingRemainder(dividingBy: 0.5)
    let tone = (sin(2 * Double.pi * note * t) > 0 ? 1.0 : -1.0) * exp(-within * 3) * 0.25
    let bass = sin(2 * Double.pi * note / 4 * t) * 0.2
    return speaker(tone + bass + 0.03 * hiss.next())
}

// Ambience: stereo wind, slowly swelling, different in each ear; 4 s, crossfaded to loop.
var windL = Noise(state: 3), windR = Noise(state: 5)
var filterL = LowPass(cutoff: 400), filterR = LowPass(cutoff: 450)
let ambienceCount = 4 * rate
var ambience = [Float](repeating: 0, count: ambienceCount * 2)
for i in 0..<ambienceCount {
    let t = Double(i) / Double(rate)
    let swell = 0.6 + 0.4 * sin(2 * Double.pi * t / 4)
    ambience[2 * i] = Float(filterL(windL.next()) * 3 * swell)
    ambience[2 * i + 1] = Float(filterR(windR.next()) * 3 * (1.6 - swell))
}
let fade = rate / 4   // crossfade the last 0.25 s into the first, so the loop has no seam
for i in 0..<fade {
    let w = Float(i) / Float(fade)
    for c in 0..<2 {
        let head = ambience[2 * i + c], tail = ambience[2 * (ambienceCount - fade + i) + c]
        ambience[2 * i + c] = head * w + tail * (1 - w)
    }
}
let ambienceBuffer = AudioBuffer(samples: Array(ambience[0..<(2 * (ambienceCount - fade))]), channels: 2, sampleRate: rate)

// The fallback sound theme: UI event names that sound-theme-freedesktop lacks.
/// A short blip at `frequency`, optionally gliding to `to`, with a fast decay.
func blip(_ frequency: Double, to: Double? = nil, seconds: Double = 0.06, level: Double = 0.5) -> AudioBuffer {
    mono(seconds) { t, _ in
        let f = frequency + ((to ?? frequency) - frequency) * t / seconds
        return level * sin(2 * Double.pi * f * t) * exp(-t * 6 / seconds) * min(1, t * 2_000)
    }
}
func twoTone(_ a: Double, _ b: Double) -> AudioBuffer {
    let first = blip(a, seconds: 0.15, level: 0.45), second = blip(b, seconds: 0.25, level: 0.45)
    return AudioBuffer(samples: first.samples + second.samples, channels: 1, sampleRate: rate)
}
let themeSounds: [(String, AudioBuffer)] = [
    ("button-pressed", blip(1_600, seconds: 0.03)),
    ("button-released", blip(1_200, seconds: 0.03, level: 0.35)),
    ("button-toggle-on", blip(900, to: 1_400, seconds: 0.07)),
    ("button-toggle-off", blip(1_400, to: 900, seconds: 0.07)),
    ("menu-click", blip(2_200, seconds: 0.02, level: 0.4)),
    ("menu-popup", blip(700, to: 1_100, seconds: 0.09, level: 0.35)),
    ("dialog-error", twoTone(660, 440)),
    ("dialog-question", twoTone(523, 784)),
]
let themeIndex = """
[Sound Theme]
Name=Soundstage fallback
Comment=UI sounds generated by Soundstage for event names the freedesktop theme lacks
Hidden=true
Directories=stereo

[stereo]
OutputProfile=stereo

"""

let outputs: [(String, AudioBuffer, OutputFormat)] = [
    ("bee.wav", bee, .wavPCM16),
    ("footstep.caf", footstep, .cafIMA4),
    ("engine.flac", engine, .flac),
    ("chime.aiff", chime, .aiffPCM16),
    ("click.wav", click, .wavULaw),
    ("radio.ogg", radio, .oggVorbis),
    ("ambience.ogg", ambienceBuffer, .oggVorbis),
]

do {
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    for (name, audio, format) in outputs {
        let path = "\(directory)/\(name)"
        try SoundFileWriter.write(audio, to: path, format: format)
        print("\(path)  \(format.name), \(audio.channels) ch, \(String(format: "%.2f", audio.duration)) s")
    }
    try FileManager.default.createDirectory(atPath: "\(themeDirectory)/stereo", withIntermediateDirectories: true)
    try themeIndex.write(toFile: "\(themeDirectory)/index.theme", atomically: true, encoding: .utf8)
    for (name, audio) in themeSounds {
        let path = "\(themeDirectory)/stereo/\(name).wav"
        try SoundFileWriter.write(audio.resampled(to: 48_000), to: path, format: .wavPCM16)
        print("\(path)  wav-pcm16, 1 ch, \(String(format: "%.2f", audio.duration)) s")
    }
} catch {
    FileHandle.standardError.write(Data("soundstage-assets: \(error)\n".utf8))
    exit(1)
}
