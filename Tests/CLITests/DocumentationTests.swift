import Foundation
import SoundFile
import Testing
import TestSupport

/// The code blocks of README.md and docs/getting-started.md compile and run, as a new user would
/// copy them. Each ```swift and ```c block is marked, on the line before it, with what checks it:
///
/// - `<!-- checked: Examples/NAME/main.swift -->`: the block is that file, byte for byte; the file is
///   an executable target of the package, so the build compiles it, and the tests below run it.
/// - `<!-- checked: manifest -->`: a whole `Package.swift`, loaded by `swift package dump-package`.
/// - `<!-- checked: program -->` / `<!-- checked: fragment -->` (C): compiled with every warning an
///   error, the fragment inside a `main`, and the program run, by scripts/test-c.sh
///   (`Tests/C/doc_blocks.py`).
///
/// A block without a mark fails here, so no block escapes being compiled.
@Suite struct DocumentationTests {
    /// The repository: three levels above this file.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let documents = ["README.md", "docs/getting-started.md"]

    struct Block {
        var document: String
        var line: Int           // the opening fence's line, from 1
        var language: String
        var mark: String?
        var code: String        // every line of the block, each ending in a newline
        var place: String { "\(document):\(line)" }
    }

    /// Every ```swift and ```c block of the two documents, with its mark.
    static func blocks() throws -> [Block] {
        var blocks: [Block] = []
        for document in documents {
            let lines = try String(contentsOf: root.appendingPathComponent(document), encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            var index = 0
            while index < lines.count {
                let fence = lines[index]
                guard fence == "```swift" || fence == "```c" else { index += 1; continue }
                var mark: String? = nil
                if index > 0 {
                    let before = lines[index - 1].trimmingCharacters(in: .whitespaces)
                    if before.hasPrefix("<!-- checked:") && before.hasSuffix("-->") {
                        mark = before.dropFirst("<!-- checked:".count).dropLast(3).trimmingCharacters(in: .whitespaces)
                    }
                }
                var end = index + 1
                while end < lines.count && lines[end] != "```" { end += 1 }
                let code = lines[(index + 1)..<min(end, lines.count)].map { $0 + "\n" }.joined()
                blocks.append(Block(document: document, line: index + 1, language: String(fence.dropFirst(3)),
                                    mark: mark, code: code))
                index = end + 1
            }
        }
        return blocks
    }

    /// Each block is marked; a Swift program is the file its mark names, and that file is built.
    @Test func everyCodeBlockIsCompiled() throws {
        let blocks = try Self.blocks()
        #expect(blocks.filter { $0.language == "swift" }.count >= 3, "the README's two and getting-started's one")
        #expect(blocks.contains { $0.language == "c" && $0.mark == "program" }, "the README's C program")
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        for block in blocks {
            guard let mark = block.mark else {
                Issue.record("\(block.place): a ```\(block.language) block without <!-- checked: ... --> on the line before it")
                continue
            }
            switch (block.language, mark) {
            case ("swift", "manifest"), ("c", "program"), ("c", "fragment"):
                continue
            case ("swift", _) where mark.hasPrefix("Examples/") && mark.hasSuffix("/main.swift"):
                let file = Self.root.appendingPathComponent(mark)
                guard let text = try? String(contentsOf: file, encoding: .utf8) else {
                    Issue.record("\(block.place): \(mark) does not exist")
                    continue
                }
                // The build compiles the file; the block must be it, or the build proves nothing.
                if block.code != text {
                    let ours = block.code.split(separator: "\n", omittingEmptySubsequences: false)
                    let theirs = text.split(separator: "\n", omittingEmptySubsequences: false)
                    let first = (0..<min(ours.count, theirs.count)).first { ours[$0] != theirs[$0] } ?? min(ours.count, theirs.count)
                    Issue.record("""
                        \(block.place) differs from \(mark), which the build compiles: keep them identical. \
                        First difference, the block's line \(first + 1):
                          block: \(first < ours.count ? String(ours[first]) : "(ends)")
                          file:  \(first < theirs.count ? String(theirs[first]) : "(ends)")
                        """)
                }
                let directory = String(mark.dropLast("/main.swift".count))
                #expect(manifest.contains("path: \"\(directory)\""), "\(mark) is no executable target of Package.swift")
            default:
                Issue.record("\(block.place): unknown mark '\(mark)' for a ```\(block.language) block")
            }
        }
    }

    /// The Package.swift blocks load: a game can paste them (`swift package dump-package` compiles
    /// and runs the manifest without resolving its dependencies: about a second).
    @Test func manifestBlocksLoad() throws {
        let manifests = try Self.blocks().filter { $0.mark == "manifest" }
        #expect(!manifests.isEmpty)
        for block in manifests {
            let dir = try CLIRunner.directory()
            defer { try? FileManager.default.removeItem(at: dir) }
            try block.code.write(to: dir.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["swift", "package", "--package-path", dir.path, "dump-package"]
            let out = Pipe(), err = Pipe()
            process.standardOutput = out
            process.standardError = err
            try process.run()
            let said = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let complaint = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(block.place): \(complaint)")
            #expect(said.contains("\"Soundstage\""), "\(block.place) depends on the Soundstage product: \(said.prefix(400))")
        }
    }

    /// The README's Swift program, run as `swift run hello` runs it (in the repository), on OpenAL
    /// Soft's wave writer (no desktop server answers): the bee flies from the left to the right.
    @Test func helloFliesTheBeeFromLeftToRight() throws {
        let dir = try CLIRunner.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let wave = dir.appendingPathComponent("mix.wav").path
        let config = dir.appendingPathComponent("alsoft.conf")
        try "[wave]\nfile=\(wave)\n".write(to: config, atomically: true, encoding: .utf8)
        let result = try CLIRunner.run([], in: Self.root, environment: [
            "ALSOFT_DRIVERS": "wave", "ALSOFT_CONF": config.path, "PULSE_SERVER": "unix:\(dir.path)/no-server",
        ], program: "hello")
        #expect(result.status == 0, "\(result.stderr)")
        let mix = try SoundFile.decode(path: wave)
        #expect(mix.channels == 2)
        // 240 frames of about 16 ms: about 4 s (the sleeps run long, never short).
        #expect(mix.duration > 3.8 && mix.duration < 8, "\(mix.duration) s")
        func rms(_ channel: Int, _ from: Double, _ to: Double) -> Double {
            Signals.rms(mix.channel(channel)[Int(from * Double(mix.sampleRate))..<Int(to * Double(mix.sampleRate))])
        }
        #expect(rms(0, 0.2, 1) > 2 * rms(1, 0.2, 1), "on the left first")
        #expect(rms(1, 3, 3.7) > 2 * rms(0, 3, 3.7), "on the right at the end")
    }

    /// getting-started.md's first program prints what its last comment says: 0.0 on the left,
    /// 0.1 on the right.
    @Test func firstProgramHearsTheToneOnTheRight() throws {
        let result = try CLIRunner.run([], program: "first-program")
        #expect(result.status == 0, "\(result.stderr)")
        let peaks = result.stdout.split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
        #expect(peaks.count == 2, "\(result.stdout)")
        guard peaks.count == 2 else { return }
        #expect(peaks[0] == 0, "left: \(peaks[0])")
        #expect(abs(peaks[1] - 0.1) < 0.005, "right: \(peaks[1])")
    }
}
