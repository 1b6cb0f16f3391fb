import Foundation
import Soundstage

/// `soundstage-bench streaming`: CPU per second of streamed audio against the same audio from a
/// static buffer, and the process's peak memory while streaming a 10-minute and a 60-minute file
/// (each measured in a child process: `soundstage-bench stream-memory FILE`).
func streamingBench() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bench-stream-\(getpid())").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    var peaks: [(minutes: Int, kilobytes: Int)] = []
    for minutes in [10, 60] {
        let path = directory + "/\(minutes)min.wav"
        try writeSweep(path: path, seconds: minutes * 60)
        peaks.append((minutes, try measureInChild(path)))
        if minutes == 10 { try streamingCPU(path) }
        unlink(path)
    }
    print("peak memory of a process streaming the file (VmHWM; 30 s from the start, 30 s before the end):")
    for peak in peaks { print(String(format: "  %2d-minute file: %d kB", peak.minutes, peak.kilobytes)) }
    print(String(format: "  60 min / 10 min: %.3f (goal: within 5%%)", Double(peaks[1].kilobytes) / Double(peaks[0].kilobytes)))
}

/// A mono 48 kHz PCM16 sweep of `seconds`, written in one-second chunks.
func writeSweep(path: String, seconds: Int) throws {
    let writer = try SoundFileWriter(path: path, format: .wavPCM16, sampleRate: rate, channels: 1)
    var phase = 0.0
    var chunk = [Float](repeating: 0, count: rate)
    for second in 0..<seconds {
        for i in 0..<rate {
            phase += 2 * Double.pi * (200 + Double((second + i / rate) % 60) * 20) / Double(rate)
            chunk[i] = Float(0.3 * sin(phase))
        }
        try writer.write(AudioBuffer(samples: chunk, channels: 1, sampleRate: rate))
    }
    try writer.finish()
}

/// Runs this benchmark program again with `arguments` and returns what it prints.
func runBenchChild(_ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
    process.arguments = arguments
    let out = Pipe()
    process.standardOutput = out
    try process.run()
    let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return text
}

/// Runs `soundstage-bench stream-memory path` and returns the peak it prints.
func measureInChild(_ path: String) throws -> Int {
    let text = try runBenchChild(["stream-memory", path])
    guard let kilobytes = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
        throw SoundstageError(.io, "stream-memory printed \(text)")
    }
    return kilobytes
}

/// In this process: streams `path` — 30 s from the start, then 30 s from 30 s before the end —
/// and prints the peak resident memory in kB.
func streamMemory(_ path: String) throws {
    let device = try Device.loopback(sampleRate: rate)
    let source = try device.makeScene().makeStreamingSource(file: path)
    try source.play()
    var output = [Float](repeating: 0, count: 2 * updateFrames)
    for _ in 0..<3_000 { try output.withUnsafeMutableBufferPointer { try device.render(into: $0) } }
    let length = try SoundFile(path: path).format.duration
    try source.seek(to: length - 30)
    for _ in 0..<3_000 { try output.withUnsafeMutableBufferPointer { try device.render(into: $0) } }
    source.stop()
    device.close()
    print(peakResidentKilobytes())
}

func peakResidentKilobytes() -> Int {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
    return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
}

/// CPU seconds to render 60 s of the file streamed, from a static buffer, and of silence.
func streamingCPU(_ path: String) throws {
    func cpu(_ prepare: (Device) throws -> Void) throws -> Double {
        let device = try Device.loopback(sampleRate: rate)
        defer { device.close() }
        try prepare(device)
        var output = [Float](repeating: 0, count: 2 * updateFrames)
        let start = cpuSeconds()
        for _ in 0..<6_000 { try output.withUnsafeMutableBufferPointer { try device.render(into: $0) } }
        return cpuSeconds() - start
    }
    var streamed: [Double] = [], buffered: [Double] = [], silent: [Double] = []
    let audio = try SoundFile(path: path).read(frames: 61 * rate)
    for _ in 0..<5 {
        streamed.append(try cpu { try $0.makeScene().makeStreamingSource(file: path).play() })
        buffered.append(try cpu { device in
            try device.makeScene().makeSource(buffer: try device.makeBuffer(audio)).play()
        })
        silent.append(try cpu { _ = try $0.makeScene() })
    }
    let s = median(streamed), b = median(buffered), z = median(silent)
    print("streaming CPU, 60 s of a 48 kHz mono file (medians of 5):")
    print(String(format: "  streamed %.1f ms, static buffer %.1f ms, empty scene %.1f ms", s * 1e3, b * 1e3, z * 1e3))
    print(String(format: "  streaming costs %.2f ms of CPU per second of audio (%.2f ms more than a static buffer)",
                 (s - z) / 60 * 1e3, (s - b) / 60 * 1e3))
}
