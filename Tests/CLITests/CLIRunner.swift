import Foundation

/// Runs the built `soundstage` binary and captures what it prints.
struct CLIRunner {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The directory of the built binaries: `.build/<configuration>/`, above the test bundle.
    static let binaries: URL = {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: dir.appendingPathComponent("soundstage").path) && dir.path != "/" {
            dir.deleteLastPathComponent()
        }
        return dir
    }()

    /// The `soundstage` binary.
    static let binary = binaries.appendingPathComponent("soundstage")

    /// OpenAL Soft with every backend excluded: behaves like a machine without a sound card.
    static let noSoundCard = ["ALSOFT_DRIVERS": "-alsa,-pulse,-oss,-null,-wave,-sdl2,-portaudio,-jack,-sndio"]
    /// OpenAL Soft's silent real-time backend: behaves like a machine with a sound card.
    static let silentSoundCard = ["ALSOFT_DRIVERS": "null"]

    /// Runs `program` (`soundstage`, or an example such as `orbit`) with `arguments`.
    static func run(_ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:],
                    program: String = "soundstage") throws -> Result {
        let process = Process()
        process.executableURL = binaries.appendingPathComponent(program)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }

    static func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("cli-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
