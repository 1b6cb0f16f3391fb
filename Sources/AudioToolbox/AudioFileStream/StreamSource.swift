// A stream's header, as a ByteSource the container parsers read like a file: Audio File Stream
// Services runs the same parsers as Audio File Services over the bytes that have arrived. A read past
// them throws 'more' (FileStatus.moreData) and records where the parse waits; the parse is tried
// again, from the start, once those bytes are there. Each try reads what the last one read, in the
// same order, then further on: so the bytes no try read before the place it waited at (an ID3 tag, a
// chunk the parser skips) are never read again, and are not kept. A stream with a large tag or chunk
// before its audio holds only the few bytes its header really is.

/// The bytes of a stream's header that have arrived and may be read again.
final class StreamSource: ByteSource, @unchecked Sendable {
    // @unchecked: a StreamSource belongs to one parser and is used under its stream's lock only.

    /// Runs of kept bytes, in order, not touching.
    private var runs: [(start: Int64, bytes: [UInt8])] = []
    /// How many bytes have arrived (the next byte's place in the stream).
    private(set) var received: Int64 = 0
    /// Bytes that arrive from here on are kept (the place the last try waited at).
    private var keepFrom: Int64 = 0
    /// Whether the stream has ended (a flush): a read past the end is short, as a file's is.
    var ended = false
    /// The ranges the current try has read.
    private var reads: [Range<Int64>] = []
    /// Where the last try waited: the read's start and the bytes it needs to have arrived.
    private var waiting: (start: Int64, end: Int64)?

    /// The bytes kept.
    private(set) var keptBytes = 0

    /// How many bytes had arrived at the last try.
    private var triedAt: Int64 = 0

    /// Whether a try can get further than the last one: the bytes it waited for are there, and (so
    /// that a stream that keeps a parser waiting, a byte at a time, costs it no more than a few
    /// passes over what it keeps) an eighth as many more as it keeps, up to 4 KB.
    var isReady: Bool {
        if ended { return true }
        guard let waiting else { return true }
        return received >= waiting.end && received - triedAt >= Int64(min(keptBytes / 8, 4_096))
    }

    /// Takes the next bytes of the stream.
    func append(_ bytes: Slice<UnsafeRawBufferPointer>) {
        let start = received
        received += Int64(bytes.count)
        let skip = Int(max(0, min(Int64(bytes.count), keepFrom - start)))
        guard skip < bytes.count else { return }
        let kept = bytes.dropFirst(skip)
        let keptStart = start + Int64(skip)
        keptBytes += kept.count
        if let last = runs.last, last.start + Int64(last.bytes.count) == keptStart {
            runs[runs.count - 1].bytes.append(contentsOf: kept)
        } else {
            runs.append((keptStart, Array(kept)))
        }
    }

    /// Starts a try.
    func beginTry() {
        reads = []
        waiting = nil
        triedAt = received
    }

    /// After a try that waited: keeps only what the next try will read again and what is at or past
    /// the place it waited at.
    func keepForNextTry() {
        guard let waiting else { return }
        var keep = reads.sorted { $0.lowerBound < $1.lowerBound }
        keep.append(waiting.start..<Int64.max)
        var merged: [Range<Int64>] = []
        for range in keep where !range.isEmpty {
            if let last = merged.last, range.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        var kept: [(start: Int64, bytes: [UInt8])] = []
        for run in runs {
            let runRange = run.start..<(run.start + Int64(run.bytes.count))
            for range in merged where range.overlaps(runRange) {
                let from = max(range.lowerBound, runRange.lowerBound)
                let to = min(range.upperBound, runRange.upperBound)
                kept.append((from, Array(run.bytes[Int(from - run.start)..<Int(to - run.start)])))
            }
        }
        runs = kept
        keptBytes = kept.reduce(0) { $0 + $1.bytes.count }
        keepFrom = max(keepFrom, waiting.start)
    }

    /// The kept bytes from `position` to the last that arrived (they must all be kept).
    func bytes(from position: Int64) throws(FileStatus) -> [UInt8] {
        guard position < received else { return [] }
        let run = try window(at: position, minimum: Int(received - position), limit: Int(received - position))
        guard run.count == Int(received - position) else { throw .invalidFile }
        return run
    }

    func size() throws(FileStatus) -> Int64 { ended ? received : Int64.max }

    func read(at position: Int64, count: Int, into buffer: UnsafeMutableRawPointer) throws(FileStatus) -> Int {
        let bytes = try window(at: position, minimum: count, limit: count)
        bytes.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
        return bytes.count
    }

    func window(at position: Int64, minimum: Int, limit: Int) throws(FileStatus) -> [UInt8] {
        guard position >= 0, minimum >= 0 else { throw .invalidFile }
        let (wanted, overflow) = position.addingReportingOverflow(Int64(minimum))
        if (overflow || wanted > received) && !ended {
            waiting = (position, overflow ? Int64.max : wanted)
            throw .moreData
        }
        guard position < received else { return [] }
        // The run holding `position`: a try reads only what the last one kept (see above); a read
        // of a byte that was let go would be a fault in that reasoning, and is an error, not a crash.
        guard let run = runs.last(where: { $0.start <= position }), position < run.start + Int64(run.bytes.count) else {
            throw .invalidFile
        }
        let from = Int(position - run.start)
        let available = run.bytes.count - from
        guard available >= minimum || run.start + Int64(run.bytes.count) == received else { throw .invalidFile }
        let count = min(available, max(minimum, limit))
        reads.append(position..<(position + Int64(count)))
        return Array(run.bytes[from..<(from + count)])
    }
}
