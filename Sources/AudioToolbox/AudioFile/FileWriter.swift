// The writing half of an open audio file: packets and bytes appended or overwritten in the data,
// the properties a writer sets (magic cookie, channel layout, priming and remainder, the data
// format before any data), and the header and trailer brought up to date at close. Used under
// the open file's lock only.

/// Writes one file through its container's rules.
final class FileWriter {
    private let container: any ContainerWriter
    private let sink: any ByteSink
    /// The layout when the first data was written: the header's size is fixed from then on.
    private var frozen: FileLayout?
    /// Whether the header and trailer are up to date (kAudioFilePropertyIsOptimized).
    private(set) var isOptimized = false

    /// Starts a new file for `layout` (whose format the container must take): the header written,
    /// no data yet, anything the file held before cut off.
    init(container: any ContainerWriter, sink: any ByteSink, layout: inout FileLayout) throws(FileStatus) {
        try container.check(layout.format)
        self.container = container
        self.sink = sink
        layout.packets = Self.isVariable(layout.format) ? [] : nil
        try sink.setSize(0)
        try writeHeader(&layout)
    }

    /// Whether packets vary in size or frames (they then need their descriptions).
    static func isVariable(_ format: AudioStreamBasicDescription) -> Bool {
        format.mBytesPerPacket == 0 || format.mFramesPerPacket == 0
    }

    /// Writes `count` packets from `buffer` (`byteCount` bytes, described by `descriptions` when
    /// they vary) starting at packet `start`: constant packets anywhere up to the end, variable ones
    /// at the end only. Returns how many were written.
    func writePackets(_ layout: inout FileLayout, buffer: UnsafeRawPointer, byteCount: Int,
                      descriptions: UnsafePointer<AudioStreamPacketDescription>?, start: Int64,
                      count: Int) throws(FileStatus) -> Int {
        guard start >= 0 else { throw .invalidPacketOffset }
        freeze(layout)
        let format = layout.format
        if layout.packets == nil {
            let bytesPerPacket = Int64(format.mBytesPerPacket)
            guard start <= layout.packetCount else { throw .invalidPacketOffset }
            let bytes = Int64(count) * bytesPerPacket
            guard bytes <= Int64(byteCount) else { throw .parameter }
            let offset = start * bytesPerPacket
            guard offset + bytes <= container.maximumDataBytes else { throw .dataTooLarge }
            try sink.write(at: layout.dataOffset + offset, UnsafeRawBufferPointer(start: buffer, count: Int(bytes)))
            layout.dataByteCount = max(layout.dataByteCount, offset + bytes)
            layout.packetCount = layout.dataByteCount / max(bytesPerPacket, 1)
            isOptimized = false
            return count
        }
        guard let descriptions else { throw .parameter }   // variable packets come with their descriptions
        guard start == layout.packetCount else { throw .invalidPacketOffset }
        var written = 0
        for index in 0..<count {
            let description = descriptions[index]
            let size = Int64(description.mDataByteSize)
            guard description.mStartOffset >= 0, description.mStartOffset <= Int64(byteCount) - size, size > 0,
                  size <= Int64(FileLimits.packetBytes) else { throw .parameter }
            let frames = description.mVariableFramesInPacket != 0 ? description.mVariableFramesInPacket : format.mFramesPerPacket
            guard frames > 0 else { throw .parameter }
            let framing = try container.packetHeader(size: Int(size), layout)
            let at = layout.dataByteCount
            guard at + Int64(framing.count) + size <= container.maximumDataBytes else { throw .dataTooLarge }
            if !framing.isEmpty { try sink.write(at: layout.dataOffset + at, framing) }
            try sink.write(at: layout.dataOffset + at + Int64(framing.count),
                           UnsafeRawBufferPointer(start: buffer + Int(description.mStartOffset), count: Int(size)))
            layout.packets!.append(AudioStreamPacketDescription(
                mStartOffset: at + Int64(framing.count),
                mVariableFramesInPacket: format.mFramesPerPacket == 0 ? frames : 0, mDataByteSize: UInt32(size)))
            layout.dataByteCount = at + Int64(framing.count) + size
            layout.packetCount += 1
            written += 1
            isOptimized = false
        }
        return written
    }

    /// Writes `count` bytes of audio data at `start` (from the data's start): constant-size packets
    /// only (variable ones must be written as packets, with their descriptions).
    func writeBytes(_ layout: inout FileLayout, buffer: UnsafeRawPointer, start: Int64, count: Int) throws(FileStatus) {
        guard layout.packets == nil else { throw .operationNotSupported }
        guard start >= 0, start <= layout.dataByteCount else { throw .position }
        guard start + Int64(count) <= container.maximumDataBytes else { throw .dataTooLarge }
        freeze(layout)
        try sink.write(at: layout.dataOffset + start, UnsafeRawBufferPointer(start: buffer, count: count))
        layout.dataByteCount = max(layout.dataByteCount, start + Int64(count))
        layout.packetCount = layout.dataByteCount / Int64(max(layout.format.mBytesPerPacket, 1))
        isOptimized = false
    }

    /// Whether `id` can be set on this file.
    func canSet(_ id: AudioFilePropertyID) -> Bool {
        switch id {
        case kAudioFilePropertyMagicCookieData: container.storesCookie
        case kAudioFilePropertyChannelLayout: container.storesChannelLayout
        case kAudioFilePropertyPacketTableInfo: container is CAFWriter || container is MPEG4Writer
        case kAudioFilePropertyDataFormat: frozen == nil
        default: false
        }
    }

    /// Sets a property a writer may set.
    func setProperty(_ layout: inout FileLayout, _ id: AudioFilePropertyID, _ data: UnsafeRawBufferPointer) throws(FileStatus) {
        guard canSet(id) else {
            if id == kAudioFilePropertyDataFormat { throw .operationNotSupported }   // data written already
            throw .unsupportedProperty
        }
        switch id {
        case kAudioFilePropertyMagicCookieData:
            guard data.count <= Int(FileLimits.chunkBytes) else { throw .badPropertySize }
            layout.magicCookie = data.isEmpty ? nil : Array(data)
        case kAudioFilePropertyChannelLayout:
            let fixed = 12, each = MemoryLayout<AudioChannelDescription>.stride
            guard data.count >= fixed else { throw .badPropertySize }
            let described = Int(data.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
            guard described <= Int(FileLimits.channels), data.count >= fixed + described * each else { throw .badPropertySize }
            layout.channelLayout = Array(data.prefix(fixed + described * each))
        case kAudioFilePropertyPacketTableInfo:
            guard data.count == MemoryLayout<AudioFilePacketTableInfo>.size else { throw .badPropertySize }
            let table = data.loadUnaligned(as: AudioFilePacketTableInfo.self)
            // Apple: the three must add up to the frames in the packets written, else paramErr.
            guard table.mPrimingFrames >= 0, table.mRemainderFrames >= 0, table.mNumberValidFrames >= 0,
                  table.mNumberValidFrames + Int64(table.mPrimingFrames) + Int64(table.mRemainderFrames) == layout.totalFrames
            else { throw .parameter }
            layout.packetTable = table
        case kAudioFilePropertyDataFormat:
            guard data.count == MemoryLayout<AudioStreamBasicDescription>.size else { throw .badPropertySize }
            let format = data.loadUnaligned(as: AudioStreamBasicDescription.self)
            try container.check(format)
            layout.format = format
            layout.packets = Self.isVariable(format) ? [] : nil
        default:
            throw .unsupportedProperty
        }
        isOptimized = false
        if frozen == nil { try writeHeader(&layout) }
    }

    /// Brings the header up to date and writes the trailer (at close, and for AudioFileOptimize).
    func finish(_ layout: FileLayout) throws(FileStatus) {
        freeze(layout)
        let header = try container.header(layout, frozen: frozen)
        guard Int64(header.count) == layout.dataOffset else { throw .invalidFile }   // a header never changes size
        try sink.write(at: 0, header)
        let trailer = try container.trailer(layout, frozen: frozen)
        let end = layout.dataOffset + layout.dataByteCount
        try sink.write(at: end, trailer)
        try sink.setSize(end + Int64(trailer.count))
        isOptimized = true
    }

    /// Fixes the header's size at the first data.
    private func freeze(_ layout: FileLayout) {
        if frozen == nil { frozen = layout }
    }

    /// Writes the header while no data is written (it may change size then).
    private func writeHeader(_ layout: inout FileLayout) throws(FileStatus) {
        let header = try container.header(layout, frozen: nil)
        try sink.write(at: 0, header)
        try sink.setSize(Int64(header.count))
        layout.dataOffset = Int64(header.count)
    }
}
