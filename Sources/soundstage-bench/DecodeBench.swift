import Foundation
import Soundstage
import TestSupport

/// `soundstage-bench decode`: decode speed as a multiple of real time for AAC and ALAC (through
/// FFmpeg) next to FLAC and Ogg Vorbis (through libsndfile), and against the `ffmpeg` tool
/// decoding the same AAC and ALAC files to nothing (`-f null`), if it is installed; then the
/// memory of 32 AAC streams playing at once (in a child: `soundstage-bench aac-streams FILE`).
func decodeBench() throws {
    try FFmpeg.requireAvailable()
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bench-decode-\(getpid())").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let seconds = 120, fileRate = 44_100
    // Music-like: two sweeping partials and noise, stereo, so no codec gets an easy ride.
    var random = SplitMix64(seed: 9)
    var samples = [Float](repeating: 0, count: seconds * fileRate * 2)
    var phase = (0.0, 0.0)
    for i in 0..<(seconds * fileRate) {
        let t = Double(i) / Double(fileRate)
        phase.0 += 2 * Double.pi * (220 + 200 * sin(t * 0.7)) / Double(fileRate)
        phase.1 += 2 * Double.pi * (330 + 150 * sin(t * 1.3)) / Double(fileRate)
        let noise = Float(Double(random.next() % 10_000) / 10_000 - 0.5) * 0.05
        samples[2 * i] = Float(0.3 * sin(phase.0) + 0.1 * sin(phase.1 * 3)) + noise
        samples[2 * i + 1] = Float(0.3 * sin(phase.1) + 0.1 * sin(phase.0 * 2)) - noise
    }
    let audio = AudioBuffer(samples: samples, channels: 2, sampleRate: fileRate)
    let files: [(name: String, format: OutputFormat, ffmpegTool: Bool)] = [
        ("AAC-LC 128k (.m4a)", .m4aAAC, true), ("ALAC (.m4a)", .m4aALAC, true),
        ("FLAC", .flac, false), ("Ogg Vorbis", .oggVorbis, false),
    ]
    let tool = ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first { FileManager.default.isExecutableFile(atPath: $0) }
    // The tool's fixed cost (start-up, probing), from a file of 0.1 s: subtracted for a fair ratio.
    var startup = 0.0
    if let tool {
        let tiny = directory + "/tiny.m4a"
        try SoundFileWriter.write(AudioBuffer(samples: Array(samples.prefix(8820)), channels: 2, sampleRate: fileRate), to: tiny, format: .m4aAAC)
        startup = median(try (0..<5).map { _ in try childCPU(tool, ["-v", "error", "-nostdin", "-threads", "1", "-i", tiny, "-f", "null", "-"]) })
    }
    print("soundstage-bench decode: \(seconds) s of stereo at \(fileRate) Hz, decoded to floats 5 times each; medians of CPU time")
    print("(\(FFmpeg.versionDescription ?? "")); ffmpeg tool: \(tool ?? "not installed")")
    var aacPath = "", flacPath = ""
    for file in files {
        let path = directory + "/bench.\(file.format.name)"
        try SoundFileWriter.write(audio, to: path, format: file.format)
        if file.format == .m4aAAC { aacPath = path }
        if file.format == .flac { flacPath = path }
        var times: [Double] = []
        for _ in 0..<5 {
            let start = cpuSeconds()
            let sound = try SoundFile(path: path)
            var frames = 0
            while true {
                let chunk = try sound.read(frames: 4096)
                if chunk.frames == 0 { break }
                frames += chunk.frames
            }
            times.append(cpuSeconds() - start)
            precondition(abs(frames - seconds * fileRate) < 4096, "decoded \(frames) frames")
        }
        let ours = median(times)
        var line = String(format: "  %-20@ %7.1f× real time (%.3f s)", file.name as NSString, Double(seconds) / ours, ours)
        if file.ffmpegTool, let tool {
            var toolTimes: [Double] = []
            for _ in 0..<5 { toolTimes.append(try childCPU(tool, ["-v", "error", "-nostdin", "-threads", "1", "-i", path, "-f", "null", "-"])) }
            let theirs = median(toolTimes), decoding = max(1e-6, theirs - startup)
            line += String(format: "   ffmpeg tool %7.1f× (%.3f s, %.3f s without its %.3f s start-up)   Soundstage / ffmpeg: %.2f, %.2f without start-up (goal ≤ 1.2)",
                           Double(seconds) / theirs, theirs, decoding, startup, ours / theirs, ours / decoding)
        }
        print(line)
    }
    print(try runBenchChild(["aac-streams", aacPath, "AAC"]), terminator: "")
    print(try runBenchChild(["aac-streams", flacPath, "FLAC (baseline, libsndfile)"]), terminator: "")
}

/// In this process: 32 streaming sources play `path` at once for 10 s of loopback render;
/// prints the resident memory before and after, and per stream.
func aacStreamsMemory(_ path: String, label: String) throws {
    let device = try Device.loopback(sampleRate: 44_100)
    let scene = try device.makeScene()
    _ = try device.render(frames: 4410)
    let before = residentKilobytes()
    var sources: [Source] = []
    for index in 0..<32 {
        let source = try scene.makeStreamingSource(file: path)
        try source.seek(to: Double(index) * 3)
        try source.play()
        sources.append(source)
    }
    for _ in 0..<100 { _ = try device.render(frames: 4410) }
    let after = residentKilobytes()
    print(String(format: "32 %@ streams playing at once: resident memory %d kB before, %d kB after 10 s: %.0f kB per stream (peak VmHWM %d kB)",
                 label as NSString, before, after, Double(after - before) / 32, peakKilobytes()))
    withExtendedLifetime(sources) {}
    device.close()
}

/// The CPU time (user + system) of running `tool` with `arguments` to completion.
private func childCPU(_ tool: String, _ arguments: [String]) throws -> Double {
    var before = rusage(), after = rusage()
    getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &before)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = arguments
    try process.run()
    process.waitUntilExit()
    getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &after)
    func seconds(_ u: rusage) -> Double {
        Double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + Double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6
    }
    return seconds(after) - seconds(before)
}

private func statusKilobytes(_ key: String) -> Int {
    let text = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    for line in text.split(separator: "\n") where line.hasPrefix(key) {
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
    }
    return 0
}

private func residentKilobytes() -> Int { statusKilobytes("VmRSS:") }
private func peakKilobytes() -> Int { statusKilobytes("VmHWM:") }
