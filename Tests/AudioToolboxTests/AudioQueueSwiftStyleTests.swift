import AudioToolbox
import Foundation
import Testing

/// Audio Queue Services as iOS Swift code writes it: a player class passing itself as the
/// callback's user data (`Unmanaged.passUnretained(self).toOpaque()`), a closure literal for the
/// callback, `CFRunLoopGetCurrent()` and `CFRunLoopMode.commonModes.rawValue`, and Apple's
/// offline-render loop. Runs on the calling thread.
@Suite struct AudioQueueSwiftStyleTests {
    final class TonePlayer {
        var queue: AudioQueueRef?
        var samples: [Int16]
        var position = 0
        var finished = false

        init(samples: [Int16]) { self.samples = samples }

        func fill(_ buffer: AudioQueueBufferRef) {
            let count = min(Int(buffer.pointee.mAudioDataBytesCapacity) / 2, samples.count - position)
            guard count > 0, let queue else {
                if !finished, let queue { AudioQueueStop(queue, false) }
                finished = true
                return
            }
            samples.withUnsafeBytes { bytes in
                buffer.pointee.mAudioData.copyMemory(from: bytes.baseAddress! + position * 2, byteCount: count * 2)
            }
            buffer.pointee.mAudioDataByteSize = UInt32(count * 2)
            position += count
            AudioQueueEnqueueBuffer(queue, buffer, 0, nil)
        }
    }

    @Test func anOfflineRenderAsSwiftCodeWritesIt() throws {
        let tone = (0..<10_000).map { Int16(10_000 * sin(2 * Double.pi * 440 * Double($0) / 44_100)) }
        let player = TonePlayer(samples: tone)
        var format = AudioStreamBasicDescription(mSampleRate: 44_100, mFormatID: kAudioFormatLinearPCM,
                                                 mFormatFlags: kLinearPCMFormatFlagIsSignedInteger | kLinearPCMFormatFlagIsPacked,
                                                 mBytesPerPacket: 2, mFramesPerPacket: 1, mBytesPerFrame: 2, mChannelsPerFrame: 1,
                                                 mBitsPerChannel: 16, mReserved: 0)
        let status = AudioQueueNewOutput(&format, { userData, queue, buffer in
            let player = Unmanaged<TonePlayer>.fromOpaque(userData!).takeUnretainedValue()
            player.fill(buffer)
        }, Unmanaged.passUnretained(player).toOpaque(), CFRunLoopGetCurrent(), CFRunLoopMode.commonModes.rawValue, 0, &player.queue)
        #expect(status == noErr)
        let queue = try #require(player.queue)
        defer { AudioQueueDispose(queue, true) }
        for _ in 0..<3 {
            var buffer: AudioQueueBufferRef?
            AudioQueueAllocateBuffer(queue, 4_096, &buffer)
            if let buffer { player.fill(buffer) }
        }
        var render = format
        #expect(AudioQueueSetOfflineRenderFormat(queue, &render, nil) == noErr)
        var capture: AudioQueueBufferRef?
        AudioQueueAllocateBuffer(queue, 1_024 * 2, &capture)
        let buffer = try #require(capture)
        #expect(AudioQueueStart(queue, nil) == noErr)
        var time = AudioTimeStamp()
        time.mFlags = .sampleTimeValid
        AudioQueueOfflineRender(queue, &time, buffer, 0)
        var rendered: [Int16] = []
        for _ in 0..<100 {
            #expect(AudioQueueOfflineRender(queue, &time, buffer, 1_024) == noErr)
            let count = Int(buffer.pointee.mAudioDataByteSize) / 2
            if count == 0 && player.finished { break }
            rendered += UnsafeBufferPointer(start: buffer.pointee.mAudioData.assumingMemoryBound(to: Int16.self), count: count)
            time.mSampleTime += 1_024
        }
        // The tone comes out sample for sample, and nothing after it.
        #expect(rendered == tone)
        var running: UInt32 = 1
        var size = UInt32(MemoryLayout<UInt32>.size)
        AudioQueueGetProperty(queue, kAudioQueueProperty_IsRunning, &running, &size)
        #expect(running == 0)
    }
}
