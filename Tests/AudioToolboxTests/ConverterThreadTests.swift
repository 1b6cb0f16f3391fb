import AudioToolbox
import Foundation
import Testing

/// Converters on several threads: each converter is independent of the others, and one used from
/// two threads at once (which iOS code should not do) is serialized, never torn.
@Suite struct ConverterThreadTests {
    @Test func convertersOnTwoThreadsAreIndependent() async throws {
        // Each thread resamples its own tone; each result equals the same conversion done alone.
        let jobs: [(Double, Double, Double)] = [(44_100, 48_000, 440), (48_000, 22_050, 1_000), (22_050, 44_100, 300), (8_000, 16_000, 200)]
        func run(_ job: (Double, Double, Double)) -> [UInt8] {
            let input = sine(frequency: job.2, rate: job.0, frames: 6_000, channels: 2)
            return convertPCM([bytes(of: input)], from: pcmFormat(rate: job.0, bits: 32, float: true),
                              to: pcmFormat(rate: job.1, bits: 16), chunk: 333).output[0]
        }
        let alone = jobs.map(run)
        for _ in 0..<3 {
            let together = await withTaskGroup(of: (Int, [UInt8]).self) { group in
                for (index, job) in jobs.enumerated() {
                    group.addTask { (index, run(job)) }
                }
                var results = [[UInt8]](repeating: [], count: jobs.count)
                for await (index, output) in group { results[index] = output }
                return results
            }
            #expect(together == alone)
        }
    }

    @Test func oneConverterFromTwoThreadsAtOnceIsSerializedAndDisposeWaits() async throws {
        var from = pcmFormat(channels: 1, bits: 16), to = pcmFormat(rate: 48_000, channels: 1, bits: 32, float: true)
        var converter: AudioConverterRef?
        #expect(AudioConverterNew(&from, &to, &converter) == noErr)
        let id = try #require(converter)
        nonisolated(unsafe) let shared = id
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<4 {
                group.addTask {
                    let feed = ConverterFeed(pcm: [bytes(of: sine(frequency: 440, rate: 44_100, frames: 2_000).map { Int16($0 * 20_000) })], bytesPerFrame: 2)
                    for _ in 0..<20 {
                        _ = drain(shared, feed, bufferCount: 1, bytesPerPacket: 4, chunk: 64)
                        _ = AudioConverterReset(shared)
                    }
                    if task == 3 { _ = AudioConverterDispose(shared) }
                }
            }
        }
        // Disposed once, by one task, while the others were converting: stale now.
        #expect(AudioConverterReset(id) == kAudio_ParamError)
    }
}
