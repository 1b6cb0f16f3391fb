// The one decoder that cuts a run of self-describing frames (MPEG audio, AAC in ADTS) into packets.
// Audio File Services walks a file with it (the packet index) and Audio File Stream Services runs
// it over the bytes as they arrive, so a file and a stream of the same bytes give the same packets.
//
// It looks at the bytes from where a frame may start and says what they are: too few to tell yet,
// bytes to drop (not a frame of this stream: garbage, a tag, the rest of a frame cut by a seek), or a
// frame. A frame that does not follow the one before it (the first, or one after garbage or a
// discontinuity) counts only when the frame after it confirms it, as FFmpeg's demuxer and decoders
// do, so that a stray sync word in a tag or in audio data is not taken for a frame.

/// Cuts MPEG audio or ADTS frames; one per stream (it learns the stream's parameters as it goes).
struct FrameScanner: Sendable {
    /// Which frames.
    enum Kind: Sendable { case mpeg, adts }

    /// What the bytes at a frame's possible start are.
    enum Step: Equatable {
        /// Too few bytes to tell: look again with at least this many (more than were given).
        case need(Int)
        /// Not a frame of the stream: drop this many bytes.
        case skip(Int)
        /// A frame of `length` bytes; its packet is the `packet` range of it (an ADTS frame's packet
        /// is its access unit, without the header).
        case frame(length: Int, packet: Range<Int>)
    }

    /// The frame headers the stream's frames must match.
    enum Reference: Sendable {
        case mpeg(MPEGAudioParser.Header)
        case adts(ADTSParser.Header)
    }

    let kind: Kind
    /// The stream's first frame; nil while searching for it.
    private(set) var reference: Reference?
    /// Whether the bytes start where the last frame ended (else a frame needs the next to confirm it).
    var synced = false
    /// Free-format MPEG audio: the frame's size without its padding, learnt from the distance
    /// between the first two headers (a free-format header does not state its bit rate).
    private(set) var freeFormatBytes: Int?

    init(_ kind: Kind) { self.kind = kind }

    /// The bytes a header needs.
    var headerBytes: Int { kind == .mpeg ? 4 : 7 }

    /// The longest free-format frame looked for (layer 3 at 640 kbit/s and 8 kHz is 5,760 bytes).
    static let freeFormatSearch = 8_192

    /// The step for the bytes in `b` (from a frame's possible start); `atEnd`: no more bytes follow.
    mutating func step(_ b: ArraySlice<UInt8>, atEnd: Bool) -> Step {
        guard b.count >= headerBytes else { return atEnd ? .skip(b.count) : .need(headerBytes) }
        guard let found = candidate(b, continuing: reference) else {
            synced = false
            return .skip(Self.nextSync(b))
        }
        var length: Int
        if let known = found.length {
            length = known
        } else if let freeFormatBytes {
            length = freeFormatBytes + found.padding
        } else {
            // Free format: the next header of the same stream says where this frame ends.
            var next: Int?
            var at = b.startIndex + headerBytes
            while at + headerBytes <= b.endIndex && at - b.startIndex <= Self.freeFormatSearch {
                if b[at] == 0xFF, let after = candidate(b[at...], continuing: found.reference), after.length == nil {
                    next = at - b.startIndex
                    break
                }
                at += 1
            }
            guard let next else {
                if !atEnd && b.count < Self.freeFormatSearch + headerBytes { return .need(Self.freeFormatSearch + headerBytes) }
                synced = false
                return .skip(Self.nextSync(b))
            }
            length = next
            freeFormatBytes = next - found.padding
        }
        guard length > headerBytes else {
            synced = false
            return .skip(Self.nextSync(b))
        }
        guard b.count >= length else { return atEnd ? .skip(b.count) : .need(length) }
        if !synced {
            if b.count >= length + headerBytes {
                guard candidate(b[(b.startIndex + length)...], continuing: found.reference) != nil else {
                    if reference == nil { freeFormatBytes = nil }
                    return .skip(Self.nextSync(b))
                }
            } else if !atEnd {
                return .need(length + headerBytes)
            }
            synced = true
            if reference == nil { reference = found.reference }
        }
        return .frame(length: length, packet: found.packetStart..<length)
    }

    /// A header at the start of `b` that continues `reference` (any valid header when nil).
    private func candidate(_ b: ArraySlice<UInt8>, continuing reference: Reference?) -> (length: Int?, padding: Int, packetStart: Int, reference: Reference)? {
        switch kind {
        case .mpeg:
            guard let header = MPEGAudioParser.header(b) else { return nil }
            if case .mpeg(let first) = reference, !header.continues(first) { return nil }
            return (header.isFreeFormat ? nil : header.frameBytes, header.padding * header.slotBytes, 0, .mpeg(header))
        case .adts:
            guard let header = ADTSParser.header(b) else { return nil }
            if case .adts(let first) = reference, !header.continues(first) { return nil }
            return (header.frameBytes, 0, header.headerBytes, .adts(header))
        }
    }

    /// Where the next possible sync word is (both formats' headers start with 0xFF), after the first byte.
    private static func nextSync(_ b: ArraySlice<UInt8>) -> Int {
        var at = b.startIndex + 1
        while at < b.endIndex && b[at] != 0xFF { at += 1 }
        return at - b.startIndex
    }

    /// Walks the frames of `reader`'s source from `position` up to `size`, calling `visit` with each
    /// frame's place, length and packet range until it returns false; returns where the walk
    /// stopped. More than `skipLimit` bytes dropped in a row is `kAudioFileInvalidFileError` (no
    /// stream to be found).
    @discardableResult
    mutating func walk(_ reader: inout WindowedReader, from position: Int64, size: Int64, skipLimit: Int64 = .max,
                       _ visit: (Int64, Int, Range<Int>) throws(FileStatus) -> Bool) throws(FileStatus) -> Int64 {
        var position = position
        var skipped: Int64 = 0
        var want = headerBytes
        while position < size {
            var view = try reader.view(at: position, minimum: want)
            if Int64(view.count) > size - position { view = view.prefix(Int(size - position)) }
            guard !view.isEmpty else { break }
            switch step(view, atEnd: view.count < want) {
            case .need(let count):
                guard count > view.count else { return position }   // cannot happen: the scanner asks for more than it had
                want = count
            case .skip(let count):
                position += Int64(count)
                skipped += Int64(count)
                guard skipped <= skipLimit else { throw .invalidFile }
                want = headerBytes
            case .frame(let length, let packet):
                skipped = 0
                guard try visit(position, length, packet) else { return position }
                position += Int64(length)
                want = headerBytes
            }
        }
        return position
    }
}
