import AudioToolbox
import Foundation
import SoundFile
import Testing

/// Extended Audio File Services and threads (run under ThreadSanitizer too: docs/testing.md):
/// files read on four tasks at once read what each reads alone; one file shared by four tasks is
/// serialized, never torn; WriteAsync's audio thread, its writing thread and a disposing thread
/// meet without a race, and the file holds every accepted frame in order.
@Suite struct ExtAudioFileThreadTests {
    @Test func fourFilesOnFourTasksReadWhatEachReadsAlone() async throws {
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let formats: [OutputFormat] = FFmpeg.isAvailable ? [.wavPCM16, .cafIMA4, .m4aAAC, .cafALAC] : [.wavPCM16, .cafIMA4, .cafULaw, .aiffPCM16]
        let urls = try formats.enumerated().map { try AudioFileFixture.write(frames: 20_000, channels: 2, $1, name: "t\($0).\($1 == .wavPCM16 ? "wav" : $1 == .aiffPCM16 ? "aiff" : $1 == .m4aAAC ? "m4a" : "caf")", in: directory) }
        let alone = urls.map { extRead($0, client: floatFormat(rate: 48_000)).buffers[0] }
        let together = await withTaskGroup(of: (Int, [UInt8]).self) { group in
            for (index, url) in urls.enumerated() {
                group.addTask { (index, extRead(url, client: floatFormat(rate: 48_000), chunk: 999).buffers[0]) }
            }
            var results = [[UInt8]](repeating: [], count: urls.count)
            for await (index, bytes) in group { results[index] = bytes }
            return results
        }
        #expect(together == alone)
    }

    @Test func oneFileSharedByFourTasksIsSerialized() async throws {
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try AudioFileFixture.write(frames: 40_000, channels: 2, .wavPCM16, name: "shared.wav", in: directory)
        var opened: ExtAudioFileRef?
        #expect(ExtAudioFileOpenURL(url as CFURL, &opened) == noErr)
        nonisolated(unsafe) let file = try #require(opened)
        defer { ExtAudioFileDispose(file) }
        let format = int16Format()
        let totals = await withTaskGroup(of: (Int, Bool).self) { group in
            for _ in 0..<4 {
                group.addTask {
                    let read = extReadAll(file, format: format, chunk: 500)
                    return (read.frames, read.status == noErr)
                }
            }
            var frames = 0, ok = true
            for await (n, good) in group {
                frames += n
                ok = ok && good
            }
            return (frames, ok)
        }
        // Every frame went to exactly one reader.
        #expect(totals.0 == 40_000 && totals.1)
    }

    /// An audio thread calling WriteAsync every few hundred microseconds, the object's writing
    /// thread encoding, and the main task disposing while the audio thread has just stopped.
    @Test func writeAsyncFromAnAudioThread() async throws {
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("rt.caf")
        var format = int16Format()
        var opened: ExtAudioFileRef?
        #expect(ExtAudioFileCreateWithURL(url as CFURL, kAudioFileCAFType, &format, nil, AudioFileFlags.eraseFile.rawValue, &opened) == noErr)
        nonisolated(unsafe) let file = try #require(opened)
        #expect(ExtAudioFileWriteAsync(file, 0, nil) == noErr)
        let callbacks = 400, perCallback = 256
        let samples = (0..<(2 * callbacks * perCallback)).map { Int16(truncatingIfNeeded: $0 &* 13) }
        let accepted = Accepted()
        let thread = Thread {
            samples.withUnsafeBytes { raw in
                var list = AudioBufferList()
                var index = 0
                while index < callbacks {
                    list.mNumberBuffers = 1
                    list.mBuffers = AudioBuffer(mNumberChannels: 2, mDataByteSize: UInt32(perCallback * 4),
                                                mData: UnsafeMutableRawPointer(mutating: raw.baseAddress! + index * perCallback * 4))
                    let status = ExtAudioFileWriteAsync(file, UInt32(perCallback), &list)
                    if status == noErr { index += 1 } else { accepted.record(status) }
                    usleep(100)
                }
            }
            accepted.finish()
        }
        thread.start()
        while !accepted.isFinished { try await Task.sleep(for: .milliseconds(5)) }
        #expect(accepted.failures.allSatisfy { $0 == kExtAudioFileError_AsyncWriteBufferOverflow })
        #expect(ExtAudioFileDispose(file) == noErr)
        let read = extRead(url, client: nil)
        #expect(read.frames == callbacks * perCallback)
        #expect(int16s(of: read.buffers[0]) == samples)
    }

    /// Disposing while another thread reads: the reader gets noErr or kAudio_ParamError, never a crash.
    @Test func disposingWhileAnotherThreadReads() async throws {
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try AudioFileFixture.write(frames: 200_000, channels: 2, .wavPCM16, name: "long.wav", in: directory)
        for _ in 0..<5 {
            var opened: ExtAudioFileRef?
            #expect(ExtAudioFileOpenURL(url as CFURL, &opened) == noErr)
            nonisolated(unsafe) let file = try #require(opened)
            let reader = Task.detached {
                var statuses = Set<OSStatus>()
                for _ in 0..<200 {
                    let read = extReadAll(file, format: int16Format(), chunk: 256, limit: 256)
                    statuses.insert(read.status)
                    if read.status != noErr { break }
                }
                return statuses
            }
            try await Task.sleep(for: .milliseconds(1))
            #expect(ExtAudioFileDispose(file) == noErr)
            let statuses = await reader.value
            #expect(statuses.isSubset(of: [noErr, kAudio_ParamError]), "\(statuses)")
        }
    }
}

/// What the audio thread saw, for the test's task.
private final class Accepted: @unchecked Sendable {
    private let lock = NSLock()
    private var statuses: [OSStatus] = []
    private var done = false

    func record(_ status: OSStatus) { lock.withLock { statuses.append(status) } }
    func finish() { lock.withLock { done = true } }
    var isFinished: Bool { lock.withLock { done } }
    var failures: [OSStatus] { lock.withLock { statuses } }
}
