import AudioToolbox
import Foundation
import Testing

/// AudioQueueEnqueueBufferWithParameters, rendered offline (so sample for sample): trims, a start
/// time on the queue's clock with silence before it, parameter events applied at the buffer's
/// first frame, the scheduled start reported; and what it refuses. On the calling thread.
@Suite struct AudioQueueParameterTests {
    static let format = AudioStreamBasicDescription(mSampleRate: 44_100, mFormatID: kAudioFormatLinearPCM,
                                                    mFormatFlags: kLinearPCMFormatFlagIsSignedInteger | kLinearPCMFormatFlagIsPacked,
                                                    mBytesPerPacket: 2, mFramesPerPacket: 1, mBytesPerFrame: 2, mChannelsPerFrame: 1,
                                                    mBitsPerChannel: 16, mReserved: 0)

    /// A queue rendering offline in its own format, and a buffer holding `samples`.
    static func makeQueue() throws -> AudioQueueRef {
        var format = Self.format
        var made: AudioQueueRef?
        #expect(AudioQueueNewOutput(&format, { _, _, _ in }, nil, nil, nil, 0, &made) == noErr)
        let queue = try #require(made)
        #expect(AudioQueueSetOfflineRenderFormat(queue, &format, nil) == noErr)
        return queue
    }

    static func buffer(_ queue: AudioQueueRef, _ samples: [Int16]) throws -> AudioQueueBufferRef {
        var made: AudioQueueBufferRef?
        #expect(AudioQueueAllocateBuffer(queue, UInt32(samples.count * 2), &made) == noErr)
        let buffer = try #require(made)
        samples.withUnsafeBytes { buffer.pointee.mAudioData.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        buffer.pointee.mAudioDataByteSize = UInt32(samples.count * 2)
        return buffer
    }

    /// Renders `frames` frames after the start; the samples.
    static func render(_ queue: AudioQueueRef, frames: Int) throws -> [Int16] {
        var made: AudioQueueBufferRef?
        AudioQueueAllocateBuffer(queue, UInt32(frames * 2), &made)
        let output = try #require(made)
        var time = AudioTimeStamp()
        time.mFlags = .sampleTimeValid
        #expect(AudioQueueStart(queue, nil) == noErr)
        AudioQueueOfflineRender(queue, &time, output, 0)
        #expect(AudioQueueOfflineRender(queue, &time, output, UInt32(frames)) == noErr)
        return Array(UnsafeBufferPointer(start: output.pointee.mAudioData.assumingMemoryBound(to: Int16.self),
                                         count: Int(output.pointee.mAudioDataByteSize) / 2))
    }

    @Test func trimsAStartTimeAndAVolumeEventAreRenderedSampleForSample() throws {
        let queue = try Self.makeQueue()
        defer { AudioQueueDispose(queue, true) }
        let first = (0..<1_000).map { Int16($0 + 1) }, second = (0..<500).map { Int16(1_000 + $0 * 2) }
        // The first buffer without its first 100 and last 200 frames: 700 frames, from 0.
        var actual = AudioTimeStamp()
        #expect(AudioQueueEnqueueBufferWithParameters(queue, try Self.buffer(queue, first), 0, nil, 100, 200, 0, nil, nil, &actual) == noErr)
        #expect(actual.mSampleTime == 0)
        // The second at sample 2,000 at half volume: silence from 700 to 2,000.
        var start = AudioTimeStamp()
        start.mSampleTime = 2_000
        start.mFlags = .sampleTimeValid
        var half = AudioQueueParameterEvent(mID: kAudioQueueParam_Volume, mValue: 0.5)
        #expect(AudioQueueEnqueueBufferWithParameters(queue, try Self.buffer(queue, second), 0, nil, 0, 0, 1, &half, &start, &actual) == noErr)
        #expect(actual.mSampleTime == 2_000)
        let rendered = try Self.render(queue, frames: 3_000)
        #expect(rendered.count == 3_000)
        #expect(Array(rendered[0..<700]) == Array(first[100..<800]))
        #expect(rendered[700..<2_000].allSatisfy { $0 == 0 }, "silence until the start time")
        let expected = second.map { Int16((Double($0) * 0.5).rounded()) }
        let heard = Array(rendered[2_000..<2_500])
        #expect(zip(heard, expected).allSatisfy { abs(Int($0) - Int($1)) <= 1 }, "\(heard.prefix(4)) vs \(expected.prefix(4))")
        var volume: Float = 0
        AudioQueueGetParameter(queue, kAudioQueueParam_Volume, &volume)
        #expect(volume == 0.5, "the event set the queue's volume")
    }

    @Test func withoutATimeABufferFollowsWhatIsEnqueued() throws {
        let queue = try Self.makeQueue()
        defer { AudioQueueDispose(queue, true) }
        let samples = (0..<300).map { Int16($0 + 1) }
        var actual = AudioTimeStamp()
        #expect(AudioQueueEnqueueBuffer(queue, try Self.buffer(queue, samples), 0, nil) == noErr)
        #expect(AudioQueueEnqueueBufferWithParameters(queue, try Self.buffer(queue, samples), 0, nil, 0, 50, 0, nil, nil, &actual) == noErr)
        #expect(actual.mSampleTime == 300, "scheduled where the first buffer ends")
        let rendered = try Self.render(queue, frames: 600)
        #expect(Array(rendered[0..<550]) == samples + Array(samples[0..<250]))
        #expect(rendered[550...].allSatisfy { $0 == 0 }, "\(rendered[550...].prefix(60))")
    }

    @Test func whatItRefuses() throws {
        let queue = try Self.makeQueue()
        defer { AudioQueueDispose(queue, true) }
        let buffer = try Self.buffer(queue, [Int16](repeating: 1, count: 100))
        #expect(AudioQueueEnqueueBufferWithParameters(nil, buffer, 0, nil, 0, 0, 0, nil, nil, nil) == kAudio_ParamError)
        #expect(AudioQueueEnqueueBufferWithParameters(queue, buffer, 0, nil, 60, 60, 0, nil, nil, nil) == kAudio_ParamError,
                "trims longer than the buffer")
        var unknown = AudioQueueParameterEvent(mID: 99, mValue: 1)
        #expect(AudioQueueEnqueueBufferWithParameters(queue, buffer, 0, nil, 0, 0, 1, &unknown, nil, nil) == kAudioQueueErr_InvalidParameter)
        var nan = AudioQueueParameterEvent(mID: kAudioQueueParam_Volume, mValue: .nan)
        #expect(AudioQueueEnqueueBufferWithParameters(queue, buffer, 0, nil, 0, 0, 1, &nan, nil, nil) == kAudioQueueErr_InvalidParameter)
        #expect(AudioQueueEnqueueBufferWithParameters(queue, buffer, 0, nil, 0, 0, 1, nil, nil, nil) == kAudio_ParamError)
        var bad = AudioTimeStamp()
        bad.mSampleTime = .infinity
        bad.mFlags = .sampleTimeValid
        #expect(AudioQueueEnqueueBufferWithParameters(queue, buffer, 0, nil, 0, 0, 0, nil, &bad, nil) == kAudio_ParamError)
        bad.mSampleTime = 10
        bad.mFlags = .hostTimeValid
        #expect(AudioQueueEnqueueBufferWithParameters(queue, buffer, 0, nil, 0, 0, 0, nil, &bad, nil) == kAudio_ParamError,
                "a start time is a sample of the queue's clock")
        #expect(AudioQueueEnqueueBufferWithParameters(queue, buffer, 0, nil, 10, 10, 0, nil, nil, nil) == noErr)
        #expect(AudioQueueEnqueueBufferWithParameters(queue, buffer, 0, nil, 0, 0, 0, nil, nil, nil) == kAudioQueueErr_BufferEnqueuedTwice)
    }
}

extension AudioQueueParameterTests {
    /// A far start time and trims on a 1 Hz queue rendered at 768 kHz (the largest rate ratio a
    /// caller can ask): beyond Int64 in output frames, which must not trap.
    @Test func farStartTimesAtTheLargestRateRatioDoNotTrap() throws {
        var format = Self.format
        format.mSampleRate = 1
        var made: AudioQueueRef?
        guard AudioQueueNewOutput(&format, { _, _, _ in }, nil, nil, nil, 0, &made) == noErr, let queue = made else { return }
        defer { AudioQueueDispose(queue, true) }
        var render = Self.format
        render.mSampleRate = 768_000
        guard AudioQueueSetOfflineRenderFormat(queue, &render, nil) == noErr else { return }
        var start = AudioTimeStamp()
        start.mSampleTime = 9e14
        start.mFlags = .sampleTimeValid
        #expect(AudioQueueEnqueueBufferWithParameters(queue, try Self.buffer(queue, [1, 2, 3, 4]), 0, nil, 1, 1, 0, nil, &start, nil) == noErr)
        let rendered = try Self.render(queue, frames: 512)
        #expect(rendered.count == 512 && rendered.allSatisfy { $0 == 0 }, "silence until a start 3 × 10^14 s away")
    }
}
