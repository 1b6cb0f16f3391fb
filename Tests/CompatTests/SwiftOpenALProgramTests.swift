import Foundation
import SoundFile
import Testing
import TestSupport

/// The Swift OpenAL programs, each a process of its own (OpenAL's current context is the
/// process's, and OpenAL Soft picks its backend once per process): played on OpenAL Soft's wave
/// writer, and heard in the file it wrote.
@Suite struct SwiftOpenALProgramTests {
    /// `compat-openal-orbit`, the Core Audio books' orbit in Swift through `import OpenAL`,
    /// `import AudioToolbox`: a 1 s tone loaded through Extended Audio File Services as 16-bit mono,
    /// looped on one source and moved round the listener once in 3 s, ten moves a second (its
    /// `CFRunLoopRunInMode(.defaultMode, 0.1, false)` waits: Swift's `alcCreateContext` is the
    /// routed one, which attaches the audio system to the main run loop; OpenAL Soft's own returned
    /// at once, and the loop spun). Heard as the C program's (`OrbitHearing`).
    @Test func theSwiftOpenALOrbitGoesRoundTheListener() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("openal-orbit-swift-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let input = work.appendingPathComponent("tone.wav").path
        try SoundFileWriter.write(OrbitHearing.tone, to: input, format: .wavPCM16)
        let played = work.appendingPathComponent("played.wav").path
        let config = work.appendingPathComponent("alsoft.conf").path
        try OrbitHearing.waveWriterConfiguration(played: played).write(toFile: config, atomically: true, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment
        environment["ALSOFT_DRIVERS"] = "wave"
        environment["ALSOFT_CONF"] = config
        environment["ALSOFT_LOGLEVEL"] = "0"
        let result = try ChildProcess.run(Self.binaries + "/compat-openal-orbit", [input, "3", "\(2 * Double.pi / 3)"], environment: environment)
        #expect(result.status == 0, "\(result.output)")
        let hearing = try OrbitHearing(output: result.output, played: played, seconds: 3)
        #expect(hearing.problems.isEmpty, "\(hearing.problems)")
    }

    /// The directory of the built programs: `.build/<configuration>/`, above the test bundle.
    static let binaries: String = {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: dir.appendingPathComponent("compat-openal-orbit").path) && dir.path != "/" {
            dir.deleteLastPathComponent()
        }
        return dir.path
    }()
}
