import AudioToolbox
import Foundation
import Testing

/// The AudioFileID table and CFSTR's interned strings are process-wide: threads open, read and
/// close files and make strings at once, and each thread sees only its own files, whole.
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

    private func open(_ url: URL) throws -> AudioFileID {
        var fileID: AudioFileID?
        let status = AudioFileOpenURL(url as CFURL, .readPermission, 0, &fileID)
        guard status == noErr, let fileID else { throw CancellationError() }
        return fileID
    }
}
