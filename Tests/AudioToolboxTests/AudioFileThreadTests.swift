import AudioToolbox
import Foundation
import Testing

/// The AudioFileID and AudioFileStreamID tables and CFSTR's interned strings are process-wide:
/// threads open, read and close files, parse streams and make strings at once, and each thread sees
/// only its own files and streams, whole.
@Suite struct AudioFileThreadTests {
    @Test func threadsOpenReadAndCloseAtOnce() async throws {
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try AudioFileFixture.write(frames: 20_000, channels: 2, .wavPCM16, name: "shared.wav", in: directory)
        let expected = readAllPackets(try open(url)).bytes
        let results = await withTaskGroup(of: Bool.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for round in 0..<20 {
                        guard let file = try? open(url) else { return false }
                        // One file shared by two reads on this thread, and a stale ID after the close.
                        let packets = readAllPackets(file, chunkBytes: 1_000 + 97 * worker)
                        let constant = __CFStringMakeConstantString("worker \(round % 3)")
                        guard packets.status == noErr, packets.bytes == expected, CFStringGetLength(constant) == 8,
                              AudioFileClose(file) == noErr, AudioFileClose(file) == kAudioFileNotOpenError else { return false }
                    }
                    return true
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results == Array(repeating: true, count: 8))
    }

    /// Streams parse on several threads at once; meanwhile those threads ask one more stream, being
    /// parsed on a thread of its own, for its format (noErr, or kAudioFileStreamError_DataUnavailable
    /// before its header is parsed).
    @Test func streamsParseOnSeveralThreadsAtOnce() async throws {
        let data = try AudioFileStreamTests.written(.wavPCM16, frames: 20_000, name: "threads.wav")
        let expected = FileReading(data).bytes
        let shared = Shared(StreamRecorder(hint: 0))
        let id = Shared(shared.value.streamID!)
        let results = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                shared.value.feed(data, pieces: { _ in 97 })
                return shared.value.errors.isEmpty && shared.value.bytes == expected
            }
            for worker in 0..<6 {
                group.addTask {
                    var answers = Set<OSStatus>()
                    for round in 0..<10 {
                        let stream = streamed(data, split: .random, seed: UInt64(worker * 100 + round))
                        guard stream.errors.isEmpty, stream.bytes == expected else { return false }
                        var format = AudioStreamBasicDescription()
                        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
                        answers.insert(AudioFileStreamGetProperty(id.value, kAudioFileStreamProperty_DataFormat, &size, &format))
                    }
                    return answers.isSubset(of: [noErr, kAudioFileStreamError_DataUnavailable])
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results == Array(repeating: true, count: 7))
        shared.value.close()
    }

    private func open(_ url: URL) throws -> AudioFileID {
        var fileID: AudioFileID?
        let status = AudioFileOpenURL(url as CFURL, .readPermission, 0, &fileID)
        guard status == noErr, let fileID else { throw CancellationError() }
        return fileID
    }
}

/// A value handed to other tasks: the test keeps it alive and the API under test does the locking.
private final class Shared<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
