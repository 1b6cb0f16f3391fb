import Foundation
import Testing
import TestSupport
@testable import SoundFile

/// Missing, empty, truncated, corrupt and non-audio input: typed errors, never a crash.
@Suite struct BadInputTests {
    private func expectError(_ code: SoundstageError.Code, _ body: () throws -> Void,
                             sourceLocation: SourceLocation = #_sourceLocation) {
        let error = #expect(throws: SoundstageError.self, sourceLocation: sourceLocation) { try body() }
        #expect(error?.code == code, "got \(String(describing: error))", sourceLocation: sourceLocation)
    }

    @Test func missingFile() {
        expectError(.notFound) { _ = try SoundFile(path: "/nonexistent/dir/file.wav") }
        let error = try? SoundFile(path: "/nonexistent.wav")
        #expect(error == nil)
    }

    @Test func errorsNameTheFileAndTheCause() throws {
        do {
            _ = try SoundFile(path: "/nonexistent.wav")
            Issue.record("no error")
        } catch let error as SoundstageError {
            #expect(error.subject == "/nonexistent.wav")
            #expect(error.description.contains("/nonexistent.wav"))
            #expect(error.description.contains("No such file"))
        }
    }

    @Test func aDirectoryIsNotAFile() throws {
        let dir = try Fixtures.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        expectError(.io) { _ = try SoundFile(path: dir.path) }
    }

    @Test func permissionErrorsMapToPermissionDenied() {
        // Root (as in CI) reads every file, so the file test below cannot provoke EACCES there;
        // the mapping itself is checked here on every machine.
        #expect(SoundstageError.posix("open", errno: EACCES, path: "x.wav", action: "open").code == .permissionDenied)
        #expect(SoundstageError.posix("open", errno: EPERM, path: "x.wav", action: "open").code == .permissionDenied)
        #expect(SoundstageError.posix("open", errno: ENOENT, path: "x.wav", action: "open").code == .notFound)
        #expect(SoundstageError.posix("open", errno: EISDIR, path: "x.wav", action: "open").code == .io)
    }

    @Test(.enabled(if: geteuid() != 0, "root reads every file"))
    func unreadableFile() throws {
        let dir = try Fixtures.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("locked.wav").path
        try SoundFileWriter.write(Fixtures.stereo, to: path, format: .wavPCM16)
        chmod(path, 0)
        expectError(.permissionDenied) { _ = try SoundFile(path: path) }
    }

    @Test func emptyFileAndEmptyData() throws {
        let dir = try Fixtures.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("empty.wav").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        expectError(.corruptData) { _ = try SoundFile(path: path) }
        expectError(.corruptData) { _ = try SoundFile(data: []) }
    }

    @Test func nonAudioData() {
        let text = Array("This is a text file, not a sound. It has no RIFF header at all.\n".utf8)
        expectError(.unsupportedFormat) { _ = try SoundFile(data: text, name: "notes.txt") }
        let random = (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) }
        expectError(.unsupportedFormat) { _ = try SoundFile(data: random) }
    }

    @Test(arguments: [OutputFormat.wavPCM16, .aiffPCM16, .flac, .oggVorbis, .cafIMA4])
    func truncatedFiles(_ format: OutputFormat) throws {
        let dir = try Fixtures.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("whole").path
        try SoundFileWriter.write(Fixtures.stereo, to: path, format: format)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        for fraction in [0.3, 0.6, 0.9] {
            let cut = Array(bytes.prefix(Int(Double(bytes.count) * fraction)))
            let error = #expect(throws: SoundstageError.self, "\(format.name) cut at \(fraction)") {
                _ = try SoundFile(data: cut, name: "cut").readAll()
            }
            #expect(error?.code == .corruptData, "\(format.name) cut at \(fraction): \(String(describing: error))")
        }
    }

    @Test func streamingPlaceholderSizesAreNotTruncation() {
        #expect(SndFileDecoder.truncation(in: "  data : 0xFFFFFFFF (should be 96000)") == nil)
        #expect(SndFileDecoder.truncation(in: "  data : 96000 (should be 49956)") != nil)
        #expect(SndFileDecoder.truncation(in: "RIFF : 96036 (should be 49992)") == nil)
    }

    /// Hundreds of randomly mutated copies of valid files: each one decodes or fails with a
    /// typed error. A crash fails the whole test run.
    @Test(arguments: [OutputFormat.wavPCM16, .wavIMA4, .wavMSADPCM, .aiffPCM16, .cafPCM16, .cafIMA4, .cafALAC,
                      .flac, .oggVorbis, .mp3])
    func mutatedFilesNeverCrash(_ format: OutputFormat) throws {
        let dir = try Fixtures.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("valid").path
        let short = Fixtures.stereo.slice(frames: 0..<4_800)
        try SoundFileWriter.write(short, to: path, format: format)
        let valid = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        var rng = SplitMix64(seed: UInt64(format.name.utf8.reduce(0) { $0 &* 31 &+ UInt64($1) }))
        var decoded = 0, rejected = 0
        for _ in 0..<40 {
            var bytes = valid
            for _ in 0..<Int.random(in: 1...8, using: &rng) {
                let at = Int.random(in: 0..<bytes.count, using: &rng)
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: bytes[at] = UInt8.random(in: 0...255, using: &rng)
                case 1: bytes[at] ^= 0x80
                default: bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...64, using: &rng)))
                }
                if bytes.isEmpty { bytes = [0] }
            }
            do {
                let audio = try SoundFile(data: bytes, name: "mutant").readAll(maxFrames: 10_000_000)
                #expect(audio.channels > 0)
                decoded += 1
            } catch is SoundstageError {
                rejected += 1
            }
        }
        // Any other error type escapes and fails the test; some mutants must have been refused.
        #expect(decoded + rejected == 40)
        #expect(rejected > 0, "no mutant of \(format.name) was refused: the mutation did nothing")
    }

    @Test func hugeFrameCountsAreBounded() throws {
        let dir = try Fixtures.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("long.wav").path
        try SoundFileWriter.write(Fixtures.stereo, to: path, format: .wavPCM16)
        let error = #expect(throws: SoundstageError.self) { _ = try SoundFile(path: path).readAll(maxFrames: 1_000) }
        #expect(error?.code == .tooLarge)
    }

    @Test func specialFilesAreWrittenNeverReplaced() throws {
        let dir = try Fixtures.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // /dev/null stays a character device.
        try SoundFileWriter.write(Fixtures.stereo, to: "/dev/null", format: .wavPCM16)
        var info = stat()
        #expect(stat("/dev/null", &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR)
        // A FIFO without a reader: a clear error at once, and the FIFO is still there.
        let fifo = dir.appendingPathComponent("pipe.wav").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let error = #expect(throws: SoundstageError.self) { try SoundFileWriter.write(Fixtures.stereo, to: fifo, format: .wavPCM16) }
        #expect(error?.code == .io)
        #expect(stat(fifo, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO)
        // A symbolic link is followed: its target is replaced, the link stays.
        let target = dir.appendingPathComponent("target.wav").path, link = dir.appendingPathComponent("link.wav").path
        try SoundFileWriter.write(Fixtures.stereo.slice(frames: 0..<10), to: target, format: .wavPCM16)
        #expect(symlink(target, link) == 0)
        try SoundFileWriter.write(Fixtures.stereo, to: link, format: .wavPCM16)
        #expect(lstat(link, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK)
        #expect(try SoundFile(path: target).format.frames == 24_000)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["link.wav", "pipe.wav", "target.wav"])
    }

    @Test func aFailedWriteLeavesNothingBehind() throws {
        let dir = try Fixtures.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let error = #expect(throws: SoundstageError.self) {
            try SoundFileWriter.write(Fixtures.stereo, to: dir.appendingPathComponent("no/such/dir/x.wav").path, format: .wavPCM16)
        }
        #expect(error?.code == .notFound)
        let existing = dir.appendingPathComponent("keep.wav").path
        try SoundFileWriter.write(Fixtures.stereo, to: existing, format: .wavPCM16)
        do {
            let writer = try SoundFileWriter(path: existing, format: .wavPCM16, sampleRate: 48_000, channels: 2)
            try writer.write(Fixtures.stereo.slice(frames: 0..<10))
            // abandoned without finish(): the old file stays whole
        }
        #expect(try SoundFile(path: existing).readAll() .frames == 24_000)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["keep.wav"])
    }
}

/// Nothing a file claims makes the process allocate without bound, and nothing but a regular file is read.
@Suite struct MemoryBoundTests {
    @Test func aSparseThreeGigabyteWAVIsRefusedFromItsHeader() throws {
        let dir = try Fixtures.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("huge.wav").path
        try LargeFiles.sparseWAV(at: path, frames: 750_000_000, channels: 2)     // 3 GB of PCM, 6 GB as floats
        let file = try SoundFile(path: path)
        #expect(file.format.frames == 750_000_000)
        let error = #expect(throws: SoundstageError.self) { _ = try file.readAll() }
        #expect(error?.code == .tooLarge)
        #expect(error?.message.contains("stream it") == true, "\(String(describing: error))")
        // Reading it in chunks (streaming) works: memory is the chunk.
        #expect(try SoundFile(path: path).read(frames: 4_800).frames == 4_800)
    }

    @Test func aHeaderClaimingTwoToTheThirtyTwoFramesNeverAllocatesThem() throws {
        let dir = try Fixtures.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("liar.caf").path
        try LargeFiles.cafClaimingFourBillionFrames(at: path)
        // Either the header is believed (and refused up front) or the real length is read: a
        // typed error or the few frames there are, never a 32 GB allocation.
        do {
            let audio = try SoundFile.decode(path: path)
            #expect(audio.frames <= 4_800)
        } catch let error as SoundstageError {
            #expect([.tooLarge, .corruptData].contains(error.code), "\(error)")
        }
    }

    @Test func specialFilesAreNotRead() throws {
        let dir = try Fixtures.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("pipe.wav").path
        #expect(mkfifo(fifo, 0o600) == 0)
        // No writer: opening must not wait for one.
        let error = #expect(throws: SoundstageError.self) { _ = try SoundFile(path: fifo) }
        #expect(error?.message.contains("FIFO") == true, "\(String(describing: error))")
        let device = #expect(throws: SoundstageError.self) { _ = try SoundFile(path: "/dev/zero") }
        #expect(device?.message.contains("character device") == true, "\(String(describing: device))")
    }
}
