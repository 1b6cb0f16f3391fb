/// Frames waiting between two stages of a conversion: one growing array of samples a channel,
/// read from the front.
package struct FrameQueue {
    package private(set) var planes: [[Double]]
    private var start = 0

    package init(channels: Int) { planes = Array(repeating: [], count: channels) }

    package var channels: Int { planes.count }
    /// Frames waiting.
    package var count: Int { planes.isEmpty ? 0 : planes[0].count - start }

    /// Appends `frames` frames that `fill` writes, one channel at a time (its pointer has room for them).
    package mutating func append(frames: Int, _ fill: (Int, UnsafeMutablePointer<Double>) throws -> Void) rethrows {
        guard frames > 0 else { return }
        for c in planes.indices {
            let old = planes[c].count
            planes[c].append(contentsOf: repeatElement(0, count: frames))
            try planes[c].withUnsafeMutableBufferPointer { try fill(c, $0.baseAddress! + old) }
        }
    }

    /// Appends zeros (silence).
    package mutating func appendSilence(frames: Int) {
        guard frames > 0 else { return }
        for c in planes.indices { planes[c].append(contentsOf: repeatElement(0, count: frames)) }
    }

    /// Reads the first `frames` frames (at most ``count``) of each channel.
    package func withFront<R>(channel: Int, _ body: (UnsafePointer<Double>) throws -> R) rethrows -> R {
        try planes[channel].withUnsafeBufferPointer { try body($0.baseAddress! + start) }
    }

    /// Drops the first `frames` frames.
    package mutating func consume(_ frames: Int) {
        start += min(frames, count)
        if start > 0 && (start >= 65_536 || start == planes.first?.count) {
            for c in planes.indices { planes[c].removeSubrange(0..<start) }
            start = 0
        }
    }

    /// Moves every frame of `other` here without copying, when this queue is empty (and has as
    /// many channels); false when it is not.
    package mutating func takeAll(from other: inout FrameQueue) -> Bool {
        guard count == 0, other.channels == channels else { return false }
        self = other
        other = FrameQueue(channels: channels)
        return true
    }

    /// Forgets everything.
    package mutating func removeAll() {
        for c in planes.indices { planes[c].removeAll(keepingCapacity: true) }
        start = 0
    }
}
