/// What the iLBC writer is given at another rate or channel count, made into what iLBC codes:
/// mono (the channels' average) at 8 kHz (SoundFile's streaming resampler, 24 zero crossings,
/// 80 dB stopband), a chunk at a time, so a recording of the mix or a render writes iLBC as
/// it goes.
final class ILBCInput {
    let sampleRate: Int
    let channels: Int
    private let resampler: Resampler?
    private var pending = FrameQueue(channels: 1)
    private var made = FrameQueue(channels: 1)

    init(sampleRate: Int, channels: Int) {
        self.sampleRate = sampleRate
        self.channels = channels
        resampler = sampleRate == ILBCMode.sampleRate ? nil
            : Resampler(inRate: Double(sampleRate), outRate: Double(ILBCMode.sampleRate), channels: 1,
                        design: ResamplerDesign(zeroCrossings: 24, attenuation: 80, linear: false))
    }

    /// Interleaved frames at the input's rate and channels → 8 kHz mono, as far as they go.
    func convert(_ samples: UnsafeBufferPointer<Float>) -> [Float] {
        let frames = samples.count / channels
        guard frames > 0 else { return [] }
        let scale = 1 / Double(channels)
        pending.append(frames: frames) { _, mono in
            for frame in 0..<frames {
                var sum = 0.0
                for channel in 0..<channels { sum += Double(samples[frame * channels + channel]) }
                mono[frame] = sum * scale
            }
        }
        guard let resampler else { return take(&pending) }
        resampler.append(&pending, frames: frames)
        resampler.produce(maximum: frames, into: &made)
        return take(&made)
    }

    /// What the resampler still holds, once the input has ended.
    func finish() -> [Float] {
        guard let resampler else { return take(&pending) }
        resampler.endInput()
        while !resampler.isFinished, resampler.produce(maximum: 4_096, into: &made) > 0 {}
        return take(&made)
    }

    private func take(_ queue: inout FrameQueue) -> [Float] {
        let count = queue.count
        guard count > 0 else { return [] }
        let out = queue.withFront(channel: 0) { front in (0..<count).map { Float(front[$0]) } }
        queue.consume(count)
        return out
    }
}
