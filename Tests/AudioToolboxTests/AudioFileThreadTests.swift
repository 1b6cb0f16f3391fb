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

    /// Four threads append packets to one file being written while four others read it back: each
    /// write is whole (an append that lost the race to the end is refused, and tried again), and the
    /// file holds every packet once, each thread's in its order.
    @Test func threadsWriteOneFileAtOnce() async throws {
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var format = AudioStreamBasicDescription(mSampleRate: 44_100, mFormatID: kAudioFormatAppleLossless, mFormatFlags: 0,
                                                 mBytesPerPacket: 0, mFramesPerPacket: 4096, mBytesPerFrame: 0,
                                                 mChannelsPerFrame: 1, mBitsPerChannel: 0, mReserved: 0)
        var fileID: AudioFileID?
        let url = directory.appendingPathComponent("shared.caf")
        try #require(AudioFileCreateWithURL(url as CFURL, kAudioFileCAFType, &format, .eraseFile, &fileID) == noErr)
        let file = try #require(fileID)
        let handle = UInt(bitPattern: file)   // an AudioFileID is a number here; tasks share it as one
        let perWriter = 50
        let results = await withTaskGroup(of: Bool.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    let file = AudioFileID(bitPattern: handle)!
                    if worker >= 4 {   // readers: whatever is there reads whole
                        for _ in 0..<perWriter { guard readAllPackets(file).status == noErr else { return false } }
                        return true
                    }
                    for index in 0..<perWriter {
                        // A packet saying who wrote it and which it is: [worker, index, index...].
                        var packet = [UInt8](repeating: UInt8(index), count: 8 + worker)
                        packet[0] = UInt8(worker)
                        var description = AudioStreamPacketDescription(mStartOffset: 0, mVariableFramesInPacket: 0,
                                                                       mDataByteSize: UInt32(packet.count))
                        while true {
                            let (_, count) = property(file, kAudioFilePropertyAudioDataPacketCount, UInt64(0))
                            var packets: UInt32 = 1
                            let status = AudioFileWritePackets(file, false, UInt32(packet.count), &description, Int64(count),
                                                               &packets, packet)
                            if status == noErr { break }
                            guard status == kAudioFileInvalidPacketOffsetError else { return false }
                        }
                    }
                    return true
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results == Array(repeating: true, count: 8))
        #expect(AudioFileClose(file) == noErr)
        let reopened = try open(url)
        defer { #expect(AudioFileClose(reopened) == noErr) }
        let all = readAllPackets(reopened)
        #expect(all.descriptions.count == 4 * perWriter)
        var next = [Int](repeating: 0, count: 4)
        for description in all.descriptions {
            let worker = Int(all.bytes[Int(description.mStartOffset)])
            #expect(Int(description.mDataByteSize) == 8 + worker)
            #expect(Int(all.bytes[Int(description.mStartOffset) + 1]) == next[worker])
            next[worker] += 1
        }
        #expect(next == [perWriter, perWriter, perWriter, perWriter])
    }
}

/// A value handed to other tasks: the test keeps it alive and the API under test does the locking.
private final class Shared<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
