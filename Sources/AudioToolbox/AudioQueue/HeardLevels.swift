/// What a device queue's level meters read: the levels of what is heard now, not of what was
/// last decoded. A device run decodes a chunk of 10–250 ms at a time, up to seven chunks ahead
/// of the ear (1.2 s for a program's 170 ms buffers, ``queueStreamOptions(firstBufferFrames:rate:)``),
/// so each block of at most ``blockFrames`` is measured as it is decoded and kept, by where it ends
/// on the run's clock, until the run has played that far.
struct HeardLevels {
    /// Frames a block measured at once (21 ms at 48 kHz: iOS meters a render slice of about that).
    static let blockFrames = 1_024
    /// Blocks kept at the most (21 s at 48 kHz, far more than is ever decoded ahead).
    static let limit = 1_024

    private var blocks: [(end: Int64, levels: [AudioQueueLevelMeterState])] = []

    /// Measures `frames` interleaved frames of `channels` decoded from frame `start` of the run.
    mutating func add(_ samples: UnsafePointer<Float>, frames: Int, channels: Int, from start: Int64) {
        var offset = 0
        while offset < frames {
            let count = min(Self.blockFrames, frames - offset)
            let block = UnsafeBufferPointer(start: samples + offset * channels, count: count * channels)
            if blocks.count == Self.limit { blocks.removeFirst() }
            blocks.append((start + Int64(offset + count), AudioQueueObject.levels(of: block, frames: count, channels: channels)))
            offset += count
        }
    }

    /// The levels of the block playing at frame `played` of the run (or, past every block, of
    /// the last one); nil when none was measured. The blocks played are let go.
    mutating func levels(playedTo played: Int64) -> [AudioQueueLevelMeterState]? {
        var last: [AudioQueueLevelMeterState]?
        while let first = blocks.first, first.end <= played {
            last = first.levels
            blocks.removeFirst()
        }
        return blocks.first?.levels ?? last
    }

    /// Forgets every block (a new run, metering off).
    mutating func removeAll() { blocks.removeAll() }
}
