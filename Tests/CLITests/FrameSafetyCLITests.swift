import Foundation
import SoundFile
import Testing
import TestSupport

/// The command line with what a user can throw at it: outputs that are not regular files, long
/// files, long renders and Ctrl-C.
@Suite struct FrameSafetyCLITests {
    /// A command that writes a file, and its arguments for a given output.
    enum Writer: String, CaseIterable {
        case render, plot, convert, play

        func arguments(_ target: String, in dir: URL) -> [String] {
            switch self {
            case .render: ["render", dir.appendingPathComponent("scene.json").path, "-o", target]
            case .plot: ["render", dir.appendingPathComponent("scene.json").path, "-o", dir.appendingPathComponent("mix.wav").path,
                         "--plot", target]
            case .convert: ["convert", dir.appendingPathComponent("tone.wav").path, target, "--format", "wav-pcm16"]
            case .play: ["play", dir.appendingPathComponent("tone.wav").path, "--render", "--output", target]
            }
        }

        /// How what it writes begins.
        var magic: String { self == .plot ? "<svg" : "RIFF" }
    }

    static func prepare() throws -> URL {
        let dir = try CLIRunner.directory()
        try SoundFileWriter.write(Signals.sine(440, seconds: 0.3), to: dir.appendingPathComponent("tone.wav").path, format: .wavPCM16)
        try Data(#"{"format": 1, "duration": 0.3, "sources": [{"name": "a", "sound": "tone.wav"}]}"#.utf8)
            .write(to: dir.appendingPathComponent("scene.json"))
        return dir
    }

    static func fileType(_ path: String, followingLinks: Bool = false) -> mode_t? {
        var info = stat()
        guard (followingLinks ? stat(path, &info) : lstat(path, &info)) == 0 else { return nil }
        return info.st_mode & S_IFMT
    }

    @Test(arguments: Writer.allCases)
    func writersWriteDevicesFIFOsAndLinkTargetsInPlace(_ writer: Writer) throws {
        let dir = try Self.prepare()
        defer { try? FileManager.default.removeItem(at: dir) }

        // /dev/null stays the character device it is.
        let null = try CLIRunner.run(writer.arguments("/dev/null", in: dir), in: dir)
        #expect(null.status == 0, "\(writer) to /dev/null: \(null.stderr)")
        #expect(Self.fileType("/dev/null") == S_IFCHR)

        // A FIFO with a reader receives the bytes and stays a FIFO.
        let fifo = dir.appendingPathComponent("pipe").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = FIFOReader(fifo)
        let piped = try CLIRunner.run(writer.arguments(fifo, in: dir), in: dir)
        let received = reader.finish()
        #expect(piped.status == 0, "\(writer) to a FIFO: \(piped.stderr)")
        #expect(received.starts(with: Array(writer.magic.utf8)), "\(writer) wrote \(received.count) bytes into the FIFO")
        #expect(Self.fileType(fifo) == S_IFIFO)

        // A link to an existing file: the target is replaced, the link stays.
        let target = dir.appendingPathComponent("target").path, link = dir.appendingPathComponent("link").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: target))
        #expect(symlink(target, link) == 0)
        let linked = try CLIRunner.run(writer.arguments(link, in: dir), in: dir)
        #expect(linked.status == 0, "\(writer) to a link: \(linked.stderr)")
        #expect(Self.fileType(link) == S_IFLNK)
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)).starts(with: Array(writer.magic.utf8)))

        // A dangling link: its target is created, the link stays.
        let later = dir.appendingPathComponent("later").path, dangling = dir.appendingPathComponent("dangling").path
        #expect(symlink("later", dangling) == 0)
        let created = try CLIRunner.run(writer.arguments(dangling, in: dir), in: dir)
        #expect(created.status == 0, "\(writer) to a dangling link: \(created.stderr)")
        #expect(Self.fileType(dangling) == S_IFLNK)
        #expect(Self.fileType(later) == S_IFREG)
        #expect(!(try FileManager.default.contentsOfDirectory(atPath: dir.path)).contains { $0.contains(".part-") }, "no temporary left")
    }

    @Test func aRenderTooLongForWAVIsRefusedBeforeItStarts() throws {
        let dir = try CLIRunner.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(#"{"format": 1, "duration": 86400, "sources": [{"name": "hum", "sound": {"tone": {}}}]}"#.utf8)
            .write(to: dir.appendingPathComponent("day.json"))
        let result = try CLIRunner.run(["render", "day.json", "-o", "day.wav"], in: dir)
        #expect(result.status == 1)
        #expect(result.stderr.contains("wav-f32 holds at most") && result.stderr.contains("w64"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["day.json"], "nothing written")
    }

    @Test func ctrlCStopsARenderAndLeavesAPlayableFile() throws {
        let dir = try CLIRunner.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(#"{"format": 1, "duration": 3600, "sources": [{"name": "hum", "sound": {"tone": {"frequency": 220}}}]}"#.utf8)
            .write(to: dir.appendingPathComponent("hour.json"))
        let output = dir.appendingPathComponent("hour.wav").path
        var pipe: [Int32] = [0, 0]
        #expect(ChildProcess.makePipe(&pipe))
        let child = try ChildProcess(CLIRunner.binary.path, ["render", dir.appendingPathComponent("hour.json").path, "-o", output,
                                                            "--format", "wav-pcm16"],
                                     environment: ProcessInfo.processInfo.environment, stderr: pipe[1])
        close(pipe[1])
        // Interrupt once a second of audio is on disk.
        let partial = { (try? FileManager.default.contentsOfDirectory(atPath: dir.path))?.first { $0.contains(".part-") } }
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if let name = partial(), let size = try? FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent(name).path)[.size] as? Int,
               size > 192_000 { break }
            usleep(10_000)
        }
        kill(child.pid, SIGINT)
        let status = child.wait()
        let stderr = String(decoding: FileHandle(fileDescriptor: pipe[0], closeOnDealloc: true).readDataToEndOfFile(), as: UTF8.self)
        #expect(status == 130, "\(stderr)")
        #expect(stderr.contains("interrupted"), "\(stderr)")
        let audio = try SoundFile.decode(path: output)
        #expect(audio.duration > 0.9 && audio.duration < 3_599, "what was rendered: \(audio.duration) s")
        #expect(abs(Signals.frequency(audio, channel: 0) - 220) < 1)
        #expect(partial() == nil, "the temporary file became the output")
    }

    /// Peak memory of `render` and `play` for a 60-minute file stays within 5 % of a 10-minute one:
    /// long files stream. Each runs in a child process whose high-water mark (`VmHWM` in
    /// /proc/PID/status) is read while it runs — `wait4`'s `ru_maxrss` would count the test
    /// runner's memory, which a `posix_spawn` child shares until it execs.
    @Test func renderAndPlayStreamLongFilesInFlatMemory() throws {
        let dir = try CLIRunner.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let environment = ProcessInfo.processInfo.environment.merging(CLIRunner.silentSoundCard) { $1 }
        func peak(_ arguments: [String], stopAfter seconds: Double? = nil) throws -> Int {
            let child = try ChildProcess(CLIRunner.binary.path, arguments, environment: environment)
            let end = seconds.map { Date().addingTimeInterval($0) }
            var kilobytes = 0
            while child.isRunning {
                if let status = try? String(contentsOfFile: "/proc/\(child.pid)/status", encoding: .utf8),
                   let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
                   let value = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") {
                    kilobytes = max(kilobytes, value)
                }
                if let end, Date() >= end { kill(child.pid, SIGKILL) }
                usleep(5_000)
            }
            #expect(seconds != nil || child.wait() == 0, "\(arguments)")
            return kilobytes
        }
        var peaks: [String: [Int: Int]] = ["render": [:], "play": [:]]
        for minutes in [10, 60] {
            let file = dir.appendingPathComponent("\(minutes)min.wav").path
            try LargeFiles.sparseWAV(at: file, frames: 48_000 * 60 * minutes)
            let scene = dir.appendingPathComponent("\(minutes).json").path
            try Data(#"{"format": 1, "duration": 60, "sources": [{"name": "music", "sound": "\#(file)"}]}"#.utf8)
                .write(to: URL(fileURLWithPath: scene))
            peaks["render"]![minutes] = try peak(["render", scene, "-o", dir.appendingPathComponent("out.wav").path])
            // `play` on a (silent) sound card, stopped after 3 s of playing.
            peaks["play"]![minutes] = try peak(["play", file], stopAfter: 3)
            unlink(file)
        }
        for (command, peak) in peaks {
            let ratio = Double(peak[60]!) / Double(peak[10]!)
            #expect(ratio < 1.05, "\(command): 60 min peaks at \(peak[60]!) kB, 10 min at \(peak[10]!) kB")
        }
    }
}

/// Reads a FIFO on a thread of its own until its writer closes it.
final class FIFOReader: @unchecked Sendable {
    // @unchecked: `bytes` is written by the thread and read after `done` is signalled.
    private var bytes: [UInt8] = []
    private let done = DispatchSemaphore(value: 0)

    init(_ path: String) {
        let fd = open(path, O_RDONLY | O_NONBLOCK)      // open at once: a writer finds a reader
        Thread { [self] in
            defer { close(fd); done.signal() }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline {
                let n = read(fd, &chunk, chunk.count)
                if n > 0 {
                    bytes += chunk[0..<n]
                } else if n == 0 && !bytes.isEmpty {
                    return                                  // the writer closed it
                } else {
                    usleep(2_000)                           // no writer yet, or nothing to read
                }
            }
        }.start()
    }

    /// Waits for the writer to close the FIFO and returns what it wrote.
    func finish() -> [UInt8] {
        done.wait()
        return bytes
    }
}
