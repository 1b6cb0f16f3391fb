import AudioToolbox
import Foundation
import Testing

/// One output queue used from several threads at once: a thread rendering it offline (its callback
/// refilling buffers on that thread) while others enqueue, reset, read its properties and set its
/// volume, and one disposes of it. Every call is serialized on the queue's lock, callbacks run
/// outside it, and a queue disposed mid-render finishes that render and is stale afterwards.
@Suite struct AudioQueueThreadTests {
    /// 16-bit mono at 44.1 kHz.
    static let pcm = AudioStreamBasicDescription(mSampleRate: 44_100, mFormatID: kAudioFormatLinearPCM,
                                                 mFormatFlags: kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked,
                                                 mBytesPerPacket: 2, mFramesPerPacket: 1, mBytesPerFrame: 2, mChannelsPerFrame: 1,
                                                 mBitsPerChannel: 16, mReserved: 0)

    /// Refills a buffer with a ramp and enqueues it again, as a player's callback does.
    static let refill: AudioQueueOutputCallback = { _, queue, buffer in
        let samples = buffer.pointee.mAudioData.assumingMemoryBound(to: Int16.self)
        for i in 0..<512 { samples[i] = Int16(i * 16) }
        buffer.pointee.mAudioDataByteSize = 1024
        _ = AudioQueueEnqueueBuffer(queue, buffer, 0, nil)
    }

    @Test func aQueueRenderedOnOneThreadAndChangedOnOthers() async throws {
        var format = Self.pcm
        var made: AudioQueueRef?
        #expect(AudioQueueNewOutput(&format, Self.refill, nil, nil, nil, 0, &made) == noErr)
        let queue = try #require(made)
        var render = Self.pcm
        render.mChannelsPerFrame = 2
        render.mBytesPerFrame = 4
        render.mBytesPerPacket = 4
        #expect(AudioQueueSetOfflineRenderFormat(queue, &render, nil) == noErr)
        for _ in 0..<3 {
            var buffer: AudioQueueBufferRef?
            #expect(AudioQueueAllocateBuffer(queue, 1024, &buffer) == noErr)
            if let buffer { Self.refill(nil, queue, buffer) }
        }
        var captureMade: AudioQueueBufferRef?
        #expect(AudioQueueAllocateBuffer(queue, 4096 * 4, &captureMade) == noErr)
        let capture = try #require(captureMade)
        #expect(AudioQueueStart(queue, nil) == noErr)
        nonisolated(unsafe) let shared = queue
        nonisolated(unsafe) let sharedCapture = capture
        let rendered = await withTaskGroup(of: Int.self) { group in
            group.addTask {
                var stamp = AudioTimeStamp()
                var frames = 0
                for _ in 0..<200 where AudioQueueOfflineRender(shared, &stamp, sharedCapture, 1024) == noErr {
                    frames += Int(sharedCapture.pointee.mAudioDataByteSize) / 4
                }
                return frames
            }
            for task in 0..<3 {
                group.addTask {
                    for round in 0..<100 {
                        var running: UInt32 = 0
                        var size = UInt32(MemoryLayout<UInt32>.size)
                        _ = AudioQueueGetProperty(shared, kAudioQueueProperty_IsRunning, &running, &size)
                        _ = AudioQueueSetParameter(shared, kAudioQueueParam_Volume, Float(round % 10) / 10)
                        if task == 0 && round % 25 == 0 { _ = AudioQueueReset(shared) }
                    }
                    return 0
                }
            }
            return await group.reduce(0, +)
        }
        // Every render before the dispose gave whole frames; afterwards the queue is stale.
        #expect(rendered > 0 && rendered % 1024 == 0)
        #expect(AudioQueueDispose(queue, true) == noErr)
        var stamp = AudioTimeStamp()
        #expect(AudioQueueOfflineRender(queue, &stamp, capture, 1024) == kAudio_ParamError)
    }

    @Test func aQueueDisposedWhileAnotherThreadRendersIt() async throws {
        var format = Self.pcm
        var made: AudioQueueRef?
        #expect(AudioQueueNewOutput(&format, Self.refill, nil, nil, nil, 0, &made) == noErr)
        let queue = try #require(made)
        var render = Self.pcm
        #expect(AudioQueueSetOfflineRenderFormat(queue, &render, nil) == noErr)
        var buffer: AudioQueueBufferRef?, capture: AudioQueueBufferRef?
        #expect(AudioQueueAllocateBuffer(queue, 1024, &buffer) == noErr)
        #expect(AudioQueueAllocateBuffer(queue, 4096, &capture) == noErr)
        if let buffer { Self.refill(nil, queue, buffer) }
        #expect(AudioQueueStart(queue, nil) == noErr)
        nonisolated(unsafe) let shared = queue
        nonisolated(unsafe) let sharedCapture = try #require(capture)
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                var stamp = AudioTimeStamp()
                while AudioQueueOfflineRender(shared, &stamp, sharedCapture, 512) == noErr {}
            }
            group.addTask {
                usleep(2_000)
                _ = AudioQueueDispose(shared, true)
            }
        }
        #expect(AudioQueueStart(queue, nil) == kAudio_ParamError)
    }
}
