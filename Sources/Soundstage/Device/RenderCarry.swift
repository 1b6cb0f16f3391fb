/// Up to 4 frames mixed ahead of a device's output, handed out first by the next render (see
/// ``Device/renderAligned(into:frames:)``).
final class RenderCarry: @unchecked Sendable {
    // @unchecked: used only by the thread that holds the device's `renderLock`.
    private var samples = [Float](repeating: 0, count: 4 * 8)
    private var start = 0
    private var count = 0

    /// Copies up to `frames` carried frames into `output`; returns how many.
    func take(into output: UnsafeMutablePointer<Float>, frames: Int, channels: Int) -> Int {
        let taken = min(frames, count)
        guard taken > 0 else { return 0 }
        samples.withUnsafeBufferPointer { carried in
            output.update(from: carried.baseAddress! + start * channels, count: taken * channels)
        }
        start += taken
        count -= taken
        return taken
    }

    /// Mixes 4 new frames into the carry (which must be empty) with `mix`.
    func fill(channels: Int, _ mix: (UnsafeMutablePointer<Float>) throws(SoundstageError) -> Void) throws(SoundstageError) {
        start = 0
        count = 0
        try samples.withUnsafeMutableBufferPointer { buffer throws(SoundstageError) in try mix(buffer.baseAddress!) }
        count = 4
    }
}

/// The render's list of the device's scenes for one update, in storage kept from update to update
/// (the render used to copy the list three times an update, each an allocation).
final class RenderScratch: @unchecked Sendable {
    // @unchecked: used only by the thread that holds the device's `renderLock`; emptied at the
    // end of each update, so it holds no scene alive longer than a local list did.
    var scenes: [Scene] = []

    /// Fills ``scenes`` with `device`'s live scenes.
    @inline(__always)
    func takeScenes(from device: Device) {
        scenes.removeAll(keepingCapacity: true)
        device.appendLiveScenes(to: &scenes)
    }
}
