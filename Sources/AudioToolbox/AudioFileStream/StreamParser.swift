// Audio File Stream Services' parser: bytes in, in any split; properties and whole packets out, in
// order. First the header: the container parsers of Audio File Services run over the bytes that
// have arrived (StreamSource) until they reach the audio data. Then the packets: constant-size ones
// by the description, a CAF's or MPEG-4 file's by its packet table, MPEG audio and ADTS frames by
// FrameScanner — the same decoders the file reader uses, so a file read whole and the same file
// streamed give the same packets.

/// What parsing gave, in order.
enum StreamEvent {
    /// The listener is to be told of a property.
    case property(AudioFileStreamPropertyID)
    /// Whole packets: their bytes, how many, and their descriptions (nil for constant-size packets).
    case packets(bytes: [UInt8], count: Int, descriptions: [AudioStreamPacketDescription]?)
}

/// A stream's header, once parsed.
struct StreamHeader {
    /// The format, the data's place, counts, cookie, layout, packet table — as a file's header gives them.
    var layout: FileLayout
    /// Whether the header states the data's size in bytes and in packets.
    var byteCountKnown: Bool
    var packetCountKnown: Bool
    /// Where the audio data ends, when stated.
    var dataEnd: Int64?
    /// No packet is larger.
    var packetSizeUpperBound: UInt32
    /// MPEG audio and ADTS: a frame's bytes (header included) on average, as the header says it (a
    /// Xing header's counts, or the first frame), for seeking before any frame is seen.
    var statedFrameBytes: Double?
}

/// How the packets are cut from the data.
private enum Cutter {
    /// Constant-size packets (linear PCM, IMA4, µ-law, A-law).
    case constant(Int)
    /// A packet table (CAF, MPEG-4): each packet's place and size.
    case table([AudioStreamPacketDescription])
    /// MPEG audio or ADTS frames.
    case frames(FrameScanner)
}

/// The parse of one stream. Used under its stream's lock; not thread safe by itself.
final class StreamParser {
    /// The caller's hint (kAudioFileMP3Type, ... or 0).
    let hint: AudioFileTypeID
    /// The header's bytes while it is being parsed.
    private var source: StreamSource? = StreamSource()
    /// The header, once parsed.
    private(set) var header: StreamHeader?
    /// Whether ReadyToProducePackets has been announced.
    private(set) var isReady = false
    /// Properties found and not yet announced.
    private var announcements: [AudioFileStreamPropertyID] = []
    /// An error the stream cannot get past: every later parse returns it.
    private var failure: FileStatus?
    /// A discontinuity that a packet table cannot place: bytes are dropped until a seek.
    private var lost = false
    /// A seek has said where the next bytes are.
    private var seeked = false

    /// Bytes after the header, not yet cut into packets, and the place of the first in the stream.
    private var pending: [UInt8] = []
    private var pendingStart: Int64 = 0
    private var cutter = Cutter.constant(1)
    /// The next packet of a table.
    private var nextPacket = 0

    /// What has been cut, for the averages (AverageBytesPerPacket, BitRate, seek estimates).
    private(set) var packetsCut: Int64 = 0
    private(set) var packetBytesCut: Int64 = 0
    private(set) var frameBytesCut: Int64 = 0

    /// How much input is taken at a time (and so the most bytes one packets callback gets, but for a
    /// packet larger than that).
    static let window = 1 << 16

    init(hint: AudioFileTypeID) { self.hint = hint }

    // MARK: Parsing

    /// Starts a parse call: the discontinuity flag, and any error the stream is stuck on.
    func begin(discontinuity: Bool) throws(FileStatus) {
        if let failure { throw failure }
        defer { seeked = false }
        if discontinuity {
            guard header != nil else {
                if let source, source.received > 0 {
                    failure = .discontinuityCantRecover
                    throw .discontinuityCantRecover
                }
                return
            }
            pending = []
            switch cutter {
            case .frames(var scanner):
                scanner.synced = false
                cutter = .frames(scanner)
            case .table:
                if !seeked { lost = true }
            case .constant:
                break   // the bytes are taken to start a packet
            }
        }
        if lost { throw .discontinuityCantRecover }
    }

    /// The next event from `input` (taking bytes from it as needed), or nil when it needs more
    /// bytes; `atEnd`: no more bytes follow (a flush).
    func next(_ input: inout Slice<UnsafeRawBufferPointer>, atEnd: Bool) throws(FileStatus) -> StreamEvent? {
        while true {
            if !announcements.isEmpty {
                let id = announcements.removeFirst()
                if id == kAudioFileStreamProperty_ReadyToProducePackets { isReady = true }
                return .property(id)
            }
            if header == nil {
                guard try parseHeader(&input, atEnd: atEnd) else { return nil }
                continue
            }
            if let batch = cut(atEnd: atEnd && input.isEmpty) { return batch }
            guard !input.isEmpty else { return nil }
            let count = min(input.count, Self.window)
            pending.append(contentsOf: input.prefix(count))
            input = input.dropFirst(count)
        }
    }

    /// Feeds the header's parse; true once it is parsed (its properties then wait to be announced).
    private func parseHeader(_ input: inout Slice<UnsafeRawBufferPointer>, atEnd: Bool) throws(FileStatus) -> Bool {
        guard let source else { return true }
        if atEnd && input.isEmpty && source.received == 0 { return false }   // nothing came: nothing to say
        while true {
            if !input.isEmpty {
                let count = min(input.count, Self.window)
                source.append(input.prefix(count))
                input = input.dropFirst(count)
                guard source.keptBytes <= FileLimits.streamHeaderBytes else { return try fail(.invalidFile) }
            }
            if atEnd && input.isEmpty { source.ended = true }
            if source.isReady {
                source.beginTry()
                do throws(FileStatus) {
                    let header = try readHeader(source)
                    start(header, bytes: try source.bytes(from: header.layout.dataOffset), at: min(header.layout.dataOffset, source.received))
                    self.source = nil
                    return true
                } catch where error == .moreData {
                    source.keepForNextTry()
                    guard source.keptBytes <= FileLimits.streamHeaderBytes else { return try fail(.invalidFile) }
                } catch {
                    return try fail(error)
                }
            }
            if input.isEmpty { return false }
        }
    }

    private func fail(_ status: FileStatus) throws(FileStatus) -> Bool {
        failure = status
        source = nil
        throw status
    }

    /// The header, read by the file reader's parsers from the bytes so far.
    private func readHeader(_ source: StreamSource) throws(FileStatus) -> StreamHeader {
        let size = try source.size()
        let container = try Container.sniff(source, hint: hint)
        switch container {
        case .mpeg:
            let start = try MPEGAudioParser.start(source, size: size)
            var layout = FileLayout(fileType: start.fileType, format: start.format, dataOffset: start.dataStart, dataByteCount: 0,
                                    packetCount: 0, packets: nil, magicCookie: nil, channelLayout: nil, packetTable: nil,
                                    sourceBitDepth: nil, tags: start.tags)
            var stated = Double(start.first.isFreeFormat ? start.scanner.freeFormatBytes ?? 0 : start.first.frameBytes)
            if let frames = start.xing?.frames, frames > 0 {
                layout.packetCount = frames
                layout.packetTable = start.packetTable(totalFrames: frames * Int64(start.first.framesPerPacket))
                if let bytes = start.xing?.bytes, bytes > Int64(start.xingFrameBytes) {
                    layout.dataByteCount = bytes - Int64(start.xingFrameBytes)
                    stated = Double(layout.dataByteCount) / Double(frames)
                }
            }
            let upper = UInt32(start.first.largestFrame(freeFormatBytes: start.scanner.freeFormatBytes))
            cutter = .frames(start.scanner)
            return StreamHeader(layout: layout, byteCountKnown: layout.dataByteCount > 0, packetCountKnown: layout.packetCount > 0,
                                dataEnd: nil, packetSizeUpperBound: upper, statedFrameBytes: stated > 0 ? stated : nil)
        case .adts:
            let (dataStart, first, scanner, tags) = try ADTSParser.start(source, size: size)
            let (format, cookie) = try ADTSParser.format(first)
            let layout = FileLayout(fileType: kAudioFileAAC_ADTSType, format: format, dataOffset: dataStart, dataByteCount: 0,
                                    packetCount: 0, packets: nil, magicCookie: cookie, channelLayout: nil, packetTable: nil,
                                    sourceBitDepth: nil, tags: tags)
            cutter = .frames(scanner)
            return StreamHeader(layout: layout, byteCountKnown: false, packetCountKnown: false, dataEnd: nil,
                                packetSizeUpperBound: UInt32(ADTSParser.largestFrame - 7), statedFrameBytes: Double(first.frameBytes))
        case .wave, .aiff, .caf, .mpeg4:
            let layout = try container.parse(source, size: size, upToData: true)
            if let packets = layout.packets {
                cutter = .table(packets)
                return StreamHeader(layout: layout, byteCountKnown: true, packetCountKnown: true,
                                    dataEnd: layout.dataOffset + layout.dataByteCount,
                                    packetSizeUpperBound: layout.maximumPacketSize, statedFrameBytes: nil)
            }
            cutter = .constant(Int(layout.format.mBytesPerPacket))
            return StreamHeader(layout: layout, byteCountKnown: !layout.dataSizeUnknown, packetCountKnown: !layout.dataSizeUnknown,
                                dataEnd: layout.dataSizeUnknown ? nil : layout.dataOffset + layout.dataByteCount,
                                packetSizeUpperBound: layout.format.mBytesPerPacket, statedFrameBytes: nil)
        }
    }

    /// The header is parsed: its properties wait to be announced, and the bytes after it to be cut.
    private func start(_ header: StreamHeader, bytes: [UInt8], at position: Int64) {
        self.header = header
        let layout = header.layout
        announcements = [kAudioFileStreamProperty_FileFormat, kAudioFileStreamProperty_DataFormat]
        if layout.magicCookie != nil { announcements.append(kAudioFileStreamProperty_MagicCookieData) }
        if layout.channelLayout != nil { announcements.append(kAudioFileStreamProperty_ChannelLayout) }
        if layout.packetTable != nil { announcements.append(kAudioFileStreamProperty_PacketTableInfo) }
        announcements.append(kAudioFileStreamProperty_DataOffset)
        if header.byteCountKnown { announcements.append(kAudioFileStreamProperty_AudioDataByteCount) }
        if header.packetCountKnown { announcements.append(kAudioFileStreamProperty_AudioDataPacketCount) }
        announcements.append(kAudioFileStreamProperty_ReadyToProducePackets)
        pending = bytes
        pendingStart = position
    }

    /// Cuts the whole packets `pending` holds (up to a window's worth) and lets go of the bytes
    /// before them; nil when there is none yet.
    private func cut(atEnd: Bool) -> StreamEvent? {
        guard let header else { return nil }
        let dataStart = header.layout.dataOffset
        var bytes: [UInt8] = []
        var count = 0
        var descriptions: [AudioStreamPacketDescription] = []
        var cursor = 0
        scan: while cursor < pending.count && bytes.count < Self.window {
            let position = pendingStart + Int64(cursor)
            let rest = pending[cursor...]
            if position < dataStart {
                cursor += Int(min(Int64(rest.count), dataStart - position))
                continue
            }
            if let end = header.dataEnd, position >= end {
                cursor = pending.count   // after the audio data: other chunks, not audio
                break
            }
            switch cutter {
            case .constant(let size):
                var available = rest.count
                var endsData = false
                if let end = header.dataEnd, end - position <= Int64(available) {
                    available = Int(end - position)
                    endsData = true
                }
                let whole = min(available / size, max(1, (Self.window - bytes.count) / size))
                guard whole > 0 else {
                    guard endsData || atEnd else { break scan }
                    cursor += available   // a partial packet where the data (or the stream) ends
                    continue
                }
                bytes.append(contentsOf: rest.prefix(whole * size))
                count += whole
                cursor += whole * size
                note(packets: whole, bytes: whole * size, frameBytes: whole * size)
            case .table(let packets):
                guard nextPacket < packets.count else {
                    cursor = pending.count
                    break scan
                }
                let packet = packets[nextPacket]
                let start = dataStart + packet.mStartOffset
                if position < start {
                    cursor += Int(min(Int64(rest.count), start - position))
                    continue
                }
                if position > start {   // bytes were not where the seek said: this packet is gone
                    nextPacket += 1
                    continue
                }
                let size = Int(packet.mDataByteSize)
                guard rest.count >= size else {
                    if atEnd { cursor = pending.count }
                    break scan
                }
                descriptions.append(AudioStreamPacketDescription(mStartOffset: Int64(bytes.count),
                                                                 mVariableFramesInPacket: packet.mVariableFramesInPacket,
                                                                 mDataByteSize: packet.mDataByteSize))
                bytes.append(contentsOf: rest.prefix(size))
                count += 1
                cursor += size
                nextPacket += 1
                note(packets: 1, bytes: size, frameBytes: size)
            case .frames(var scanner):
                let step = scanner.step(rest, atEnd: atEnd)
                cutter = .frames(scanner)
                switch step {
                case .need:
                    break scan
                case .skip(let skipped):
                    cursor += max(skipped, 1)
                case .frame(let length, let packet):
                    descriptions.append(AudioStreamPacketDescription(mStartOffset: Int64(bytes.count), mVariableFramesInPacket: 0,
                                                                     mDataByteSize: UInt32(packet.count)))
                    bytes.append(contentsOf: rest[(rest.startIndex + packet.lowerBound)..<(rest.startIndex + packet.upperBound)])
                    count += 1
                    cursor += length
                    note(packets: 1, bytes: packet.count, frameBytes: length)
                }
            }
        }
        pending.removeFirst(cursor)
        pendingStart += Int64(cursor)
        guard count > 0 else { return nil }
        if case .constant = cutter { return .packets(bytes: bytes, count: count, descriptions: nil) }
        return .packets(bytes: bytes, count: count, descriptions: descriptions)
    }

    private func note(packets: Int, bytes: Int, frameBytes: Int) {
        packetsCut += Int64(packets)
        packetBytesCut += Int64(bytes)
        frameBytesCut += Int64(frameBytes)
    }

    // MARK: Seeking and what the packets are worth

    /// A frame's bytes in the stream on average (MPEG audio, ADTS): what has been cut, else what the header says.
    var averageFrameBytes: Double? {
        if packetsCut > 0, case .frames = cutter { return Double(frameBytesCut) / Double(packetsCut) }
        return header?.statedFrameBytes
    }

    /// The bytes of a packet on average (AverageBytesPerPacket).
    var averagePacketBytes: Double? {
        guard let header else { return nil }
        switch cutter {
        case .constant(let size):
            return Double(size)
        case .table(let packets):
            return packets.isEmpty ? nil : Double(header.layout.dataByteCount) / Double(packets.count)
        case .frames:
            if packetsCut > 0 { return Double(packetBytesCut) / Double(packetsCut) }
            guard let frame = header.statedFrameBytes else { return nil }
            if header.layout.fileType == kAudioFileAAC_ADTSType { return max(0, frame - 7) }
            return frame
        }
    }

    /// Where packet `packet` starts, counted from the data's start, and whether that is an estimate.
    func offset(ofPacket packet: Int64) throws(FileStatus) -> (offset: Int64, estimated: Bool) {
        guard let header else { throw .moreData }
        guard packet >= 0 else { throw .invalidPacketOffset }
        let layout = header.layout
        switch cutter {
        case .constant(let size):
            guard !header.packetCountKnown || packet <= layout.packetCount else { throw .invalidPacketOffset }
            let (offset, overflow) = packet.multipliedReportingOverflow(by: Int64(size))
            guard !overflow, offset <= Int64.max - layout.dataOffset else { throw .invalidPacketOffset }
            return (offset, false)
        case .table(let packets):
            guard packet <= Int64(packets.count) else { throw .invalidPacketOffset }
            return (packet < Int64(packets.count) ? packets[Int(packet)].mStartOffset : layout.dataByteCount, false)
        case .frames:
            guard !header.packetCountKnown || packet <= layout.packetCount else { throw .invalidPacketOffset }
            let average = averageFrameBytes ?? 0
            let estimate = (Double(packet) * average).rounded(.down)
            guard estimate < Double(Int64.max - layout.dataOffset) else { throw .invalidPacketOffset }
            return (Int64(estimate), true)
        }
    }

    /// AudioFileStreamSeek: the next bytes start packet `packet`.
    func seek(toPacket packet: Int64) throws(FileStatus) -> (offset: Int64, estimated: Bool) {
        let answer = try offset(ofPacket: packet)
        guard let header else { throw .moreData }
        pending = []
        pendingStart = header.layout.dataOffset + answer.offset
        lost = false
        seeked = true
        switch cutter {
        case .table:
            nextPacket = Int(packet)
        case .frames(var scanner):
            scanner.synced = false
            cutter = .frames(scanner)
        case .constant:
            break
        }
        return answer
    }

    /// The packet holding data byte `byte` (counted from the data's start) and where in it, and
    /// whether that is an estimate; nil where the layout answers exactly (constant sizes, tables).
    func estimatedPacket(forByte byte: Int64) -> (packet: Int64, offset: UInt32)? {
        guard case .frames = cutter, let average = averageFrameBytes, average > 0 else { return nil }
        let packet = (Double(byte) / average).rounded(.down)
        let start = (packet * average).rounded(.down)
        return (Int64(packet), UInt32(clamping: Int64(Double(byte) - start)))
    }

    /// Whether packets are MPEG audio or ADTS frames (their byte offsets are estimates).
    var cutsFrames: Bool {
        if case .frames = cutter { return true }
        return false
    }
}
