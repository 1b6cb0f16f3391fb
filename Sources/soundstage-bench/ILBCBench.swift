import Foundation
import SoundFile
import TestSupport

/// `soundstage-bench ilbc`: what Soundstage's iLBC encoder costs per second of speech, in both
/// frame modes, against FFmpeg's AAC-LC encoder (what iOS records otherwise) on the same 8 kHz
/// mono input, measured in the same run (CPU time, medians of 5 rounds, the coders alternating).
/// The speech is an espeak-ng sentence repeated to 30 s, or the synthetic sung vowel when
/// espeak-ng is not installed (the report says which).
func ilbcBench() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bench-ilbc-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let seconds = 30, rate = ILBCMode.sampleRate
    let spoken = try SpeechSignals.speech(in: directory)
    let unit = spoken ?? SpeechSignals.vowel(f0: 160, seconds: 2)
    var speech: [Float] = []
    while speech.count < seconds * rate { speech += unit }
    speech = Array(speech.prefix(seconds * rate))

    func ilbc(_ mode: ILBCMode) -> Int {
        var encoder = ILBCEncoder(mode: mode)
        return encoder.encode(speech).count + encoder.flush().count
    }
    func aac() throws -> Int {
        let encoder = try FFmpegPacketEncoder(codec: "aac", sampleRate: rate, channels: 1, bitRate: 32_000)
        let input = speech.map(Double.init)
        var bytes = 0
        try input.withUnsafeBufferPointer { all in
            var at = 0
            while at < all.count {
                let n = min(encoder.frameSize, all.count - at)
                try encoder.encode([all.baseAddress! + at], frames: n) { packet, _ in bytes += packet.count }
                at += n
            }
            try encoder.finish { packet, _ in bytes += packet.count }
        }
        return bytes
    }

    let hasAAC = FFmpeg.hasEncoder(named: "aac")
    var times: [String: [Double]] = [:]
    var sizes: [String: Int] = [:]
    for _ in 0..<5 {
        for mode in ILBCMode.allCases {
            let start = cpuSeconds()
            sizes["\(mode)"] = ilbc(mode)
            times["\(mode)", default: []].append(cpuSeconds() - start)
        }
        if hasAAC {
            let start = cpuSeconds()
            sizes["aac"] = try aac()
            times["aac", default: []].append(cpuSeconds() - start)
        }
    }
    print("soundstage-bench ilbc: \(seconds) s of 8 kHz mono \(spoken == nil ? "synthetic sung vowel (espeak-ng is not installed)" : "espeak-ng speech"), "
          + "encoded 5 times by each coder in turn; medians of CPU time")
    func line(_ name: String, _ key: String) {
        guard let t = times[key] else { return }
        let m = median(t), bits = Double(sizes[key] ?? 0) * 8 / Double(seconds)
        print(String(format: "  %@ %.3f s  %6.2f ms per second of speech  %5.0f× real time  %5.1f kbit/s",
                     name.padding(toLength: 32, withPad: " ", startingAt: 0) as NSString, m, 1000 * m / Double(seconds), Double(seconds) / m, bits / 1000))
    }
    line("Soundstage iLBC, 20 ms frames", "20 ms")
    line("Soundstage iLBC, 30 ms frames", "30 ms")
    if hasAAC {
        line("FFmpeg AAC-LC, 32 kbit/s", "aac")
        if let a = times["aac"], let i = times["30 ms"] {
            print(String(format: "  iLBC 30 ms / AAC: %.2f (%@)", median(i) / median(a), (FFmpeg.versionDescription ?? "") as NSString))
        }
    } else {
        print("  FFmpeg AAC-LC: not measured (no FFmpeg with an AAC encoder loaded)")
    }
}
