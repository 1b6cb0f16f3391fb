import NIOConcurrencyHelpers
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

// One extended audio file: an AudioFileID and the AudioConverterRef between its format and the
// client's, as Apple builds it. Reading pulls the file's packets through the converter's input
// procedure (AudioFileReadPacketData), the file's priming and remainder trimmed by the converter
// (its discardFrames and remainingFrames); writing pushes the client's frames through the
// converter into AudioFileWritePackets, and at the end flushes it and sets the file's magic cookie
// and packet table. Every call holds `lock`.

/// An extended audio file's state. Touched only under ``lock``, except ``asyncWriter`` and
/// ``producing``, which are atomics for ExtAudioFileWriteAsync (AsyncWriter.swift).
final class ExtAudioFileObject: @unchecked Sendable {
    let lock = NIOLock()
    /// Set by ExtAudioFileDispose: a call that found the object before it was disposed returns
    /// kAudio_ParamError once it has the lock.
    var disposed = false

    let file: AudioFileID
    /// Whether ExtAudioFileDispose closes ``file`` (ExtAudioFileOpenURL, ExtAudioFileCreateWithURL).
    let ownsFile: Bool
    let isWriting: Bool

    private(set) var fileFormat: AudioStreamBasicDescription
    /// The file's frames in each of Audio File Services' (kAudioFilePropertyDataFormat's): 2 when
    /// the file format is HE-AAC at twice the rate of the base layer the file describes, else 1.
    private let frameScale: Int64
    /// The channel layout the file states or was created with (nil: none stated).
    private var fileLayout: [UInt8]?
    private(set) var clientFormat: AudioStreamBasicDescription
    /// The client's format as the converter reads and writes it (nil: not linear PCM).
    private(set) var client: PCMLayout?
    private var clientLayout: [UInt8]?
    /// Whether the client format was set (else it is the file's).
    private var clientWasSet = false
    var codecManufacturer: UInt32 = kAppleSoftwareAudioCodecManufacturer
    /// The converter between the two formats (nil until one is needed).
    private(set) var converter: AudioConverterRef?

    // The I/O buffer: packets read from the file, or made for it.
    private var ownBuffer: UnsafeMutableRawPointer
    private var ownBufferSize: Int
    private(set) var externalBuffer: UnsafeMutableRawPointer?
    private(set) var ioBufferSize = 65_536
    private var descriptions: UnsafeMutablePointer<AudioStreamPacketDescription>
    private let descriptionCapacity = 4_096
    private var ioList: UnsafeMutableAudioBufferListPointer

    // kExtAudioFileProperty_PacketTable's overrides (nil: none set).
    private var primingOverride: Int32?
    private var remainderOverride: Int32?

    // Reading.
    private var nextPacket: Int64 = 0
    /// Client frames to drop before the next read (after a seek that restarted the resampler early).
    private var clientDiscard: Int64 = 0
    /// The last seek's frame (the file's) and the client frame it is.
    private var seekFrame: Int64 = 0
    private var seekClientFrame: Int64 = 0
    /// The next client frame a read returns.
    private var clientFrame: Int64 = 0

    // Writing.
    private var packetsWritten: Int64 = 0
    private var clientFramesWritten: Int64 = 0
    private var cookieWritten: [UInt8]?
    private var finished = false
    /// The client's frames of the ExtAudioFileWrite in progress.
    private var feed: (list: UnsafeMutableAudioBufferListPointer, frames: Int, position: Int)?
    private var flushing = false

    // ExtAudioFileWriteAsync (AsyncWriter.swift).
    /// The queue, for the audio thread: read without the lock.
    let asyncQueue = Atomic<Unmanaged<AsyncWriter>?>(nil)
    /// The queue, owned (set under the lock).
    var asyncWriter: AsyncWriter?
    /// A producer is inside ExtAudioFileWriteAsync (one at a time; the queue is replaced only
    /// while this is held).
    let producing = Atomic<Bool>(false)
    /// An error the writing thread met, kept for ExtAudioFileDispose.
    var asyncFailureKept: OSStatus = noErr

    init(file: AudioFileID, ownsFile: Bool, isWriting: Bool, layout: [UInt8]? = nil) throws(ExtStatus) {
        self.file = file
        self.ownsFile = ownsFile
        self.isWriting = isWriting
        var format = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        try check(AudioFileGetProperty(file, kAudioFilePropertyDataFormat, &size, &format))
        var scale: Int64 = 1
        if !isWriting, let layer = Self.richestDecodedLayer(of: file, dataFormat: format) {
            scale = Int64(layer.mFramesPerPacket / format.mFramesPerPacket)
            format = layer
        }
        frameScale = scale
        fileFormat = format
        clientFormat = format
        client = PCMLayout(format)
        var layoutSize: UInt32 = 0
        if let layout {
            fileLayout = layout
        } else if AudioFileGetPropertyInfo(file, kAudioFilePropertyChannelLayout, &layoutSize, nil) == noErr, layoutSize >= 12 {
            var bytes = [UInt8](repeating: 0, count: Int(layoutSize))
            // (A layer of another channel count than the file states, HE-AAC v2's two channels
            // over a mono core, leaves the file's layout out.)
            if AudioFileGetProperty(file, kAudioFilePropertyChannelLayout, &layoutSize, &bytes) == noErr,
               scale == 1 || ChannelLayouts.channelCount(of: Array(bytes.prefix(Int(layoutSize)))) == format.mChannelsPerFrame {
                fileLayout = Array(bytes.prefix(Int(layoutSize)))
            }
        }
        ownBufferSize = ioBufferSize
        ownBuffer = .allocate(byteCount: ownBufferSize, alignment: 16)
        descriptions = .allocate(capacity: descriptionCapacity)
        ioList = AudioBufferList.allocate(maximumBuffers: 1)
        try growBuffer(to: Int(fileMaximumPacketSize))
    }

    deinit {
        if let converter { AudioConverterDispose(converter) }
        ownBuffer.deallocate()
        descriptions.deallocate()
        free(ioList.unsafeMutablePointer)
    }

    /// The format a file being read is decoded as, when its format list puts a richer layer than
    /// its data format first (HE-AAC at the SBR rate above the base layer an M4A's data format
    /// states, QA1639) and this machine decodes it, as Apple's sample code picks it: the first
    /// layer of kAudioFilePropertyFormatList whose format is among the decodable ones. Nil when
    /// the data format is that layer, or when the layer's packets are not a whole number of the
    /// data format's (its packet table would not translate).
    private static func richestDecodedLayer(of file: AudioFileID, dataFormat: AudioStreamBasicDescription) -> AudioStreamBasicDescription? {
        var size: UInt32 = 0
        let stride = MemoryLayout<AudioFormatListItem>.stride
        // One item is the data format itself (every file but a layered one): nothing to choose.
        guard AudioFileGetPropertyInfo(file, kAudioFilePropertyFormatList, &size, nil) == noErr, Int(size) >= 2 * stride else { return nil }
        var items = [AudioFormatListItem](repeating: AudioFormatListItem(), count: Int(size) / stride)
        guard AudioFileGetProperty(file, kAudioFilePropertyFormatList, &size, &items) == noErr else { return nil }
        let decoded = Set(Codecs.decodeFormatIDs())
        guard let layer = items.prefix(Int(size) / stride).map(\.mASBD).first(where: { decoded.contains($0.mFormatID) }),
              layer.mFormatID != dataFormat.mFormatID,
              dataFormat.mFramesPerPacket > 0, layer.mFramesPerPacket >= dataFormat.mFramesPerPacket,
              layer.mFramesPerPacket % dataFormat.mFramesPerPacket == 0 else { return nil }
        return layer
    }

    // MARK: - Buffers

    /// The I/O buffer in use: the caller's (kExtAudioFileProperty_IOBuffer) or this object's.
    var ioBuffer: UnsafeMutableRawPointer { externalBuffer ?? ownBuffer }

    /// Makes the own buffer hold at least `bytes` (a packet must fit).
    private func growBuffer(to bytes: Int) throws(ExtStatus) {
        guard bytes > ioBufferSize else { return }
        guard externalBuffer == nil else { throw .parameter }   // the caller's buffer is too small for a packet
        guard bytes <= 1 << 24 else { throw .parameter }
        ioBufferSize = bytes
        if bytes > ownBufferSize {
            ownBuffer.deallocate()
            ownBuffer = .allocate(byteCount: bytes, alignment: 16)
            ownBufferSize = bytes
        }
    }

    /// Sets kExtAudioFileProperty_IOBufferSizeBytes.
    func setIOBufferSize(_ bytes: Int) throws(ExtStatus) {
        let packet = max(Int(fileMaximumPacketSize), Int(outputMaximumPacketSize ?? 0))
        guard bytes >= max(packet, 64), bytes <= 1 << 24 else { throw .parameter }
        if externalBuffer == nil && bytes > ownBufferSize {
            ownBuffer.deallocate()
            ownBuffer = .allocate(byteCount: bytes, alignment: 16)
            ownBufferSize = bytes
        }
        ioBufferSize = bytes
    }

    /// Sets kExtAudioFileProperty_IOBuffer: the caller's memory (NULL: this object's own again).
    /// The caller sets IOBufferSizeBytes after, as Apple documents; until then its buffer is taken
    /// to be as long as the size in force.
    func setIOBuffer(_ pointer: UnsafeMutableRawPointer?) {
        externalBuffer = pointer
        if pointer == nil { ioBufferSize = min(ioBufferSize, ownBufferSize) }
    }

    // MARK: - Facts

    /// The file's layout as Audio File Services holds it now.
    private var layout: FileLayout? { try? AudioFileTable.file(file).layout }

    /// kAudioFilePropertyMaximumPacketSize (0 when no packet is known yet).
    var fileMaximumPacketSize: UInt32 {
        var value: UInt32 = 0
        var size: UInt32 = 4
        _ = AudioFileGetProperty(file, kAudioFilePropertyMaximumPacketSize, &size, &value)
        return value
    }

    /// The largest packet the converter makes for the file (writing), when there is a converter.
    var outputMaximumPacketSize: UInt32? {
        guard let converter else { return nil }
        var value: UInt32 = 0
        var size: UInt32 = 4
        return AudioConverterGetProperty(converter, kAudioConverterPropertyMaximumOutputPacketSize, &size, &value) == noErr ? value : nil
    }

    /// The file's priming, valid frames and remainder as this object uses them (its overrides
    /// applied), and whether the file states a packet table.
    struct Geometry {
        var priming: Int64
        var valid: Int64
        var remainder: Int64
        var total: Int64
        var stated: Bool
    }

    var geometry: Geometry {
        guard let layout else { return Geometry(priming: 0, valid: 0, remainder: 0, total: 0, stated: false) }
        // Audio File Services counts in its data format's frames; this object in its file format's.
        let total = layout.totalFrames * frameScale
        let table = layout.packetTable
        let filePriming = Int64(table?.mPrimingFrames ?? 0) * frameScale, fileRemainder = Int64(table?.mRemainderFrames ?? 0) * frameScale
        let fileValid = table.map { $0.mNumberValidFrames * frameScale } ?? total
        let tableFits = table == nil || (filePriming >= 0 && fileRemainder >= 0 && fileValid >= 0 && filePriming + fileValid + fileRemainder <= total)
        func resolve(_ override: Int32?, file value: Int64) -> Int64 {
            switch override {
            case nil, kExtAudioFilePacketTableInfoOverride_UseFileValue: return max(0, value)
            case kExtAudioFilePacketTableInfoOverride_UseFileValueIfValid: return tableFits ? max(0, value) : 0
            case let frames?: return Int64(max(0, frames))
            }
        }
        let priming = min(total, resolve(primingOverride, file: filePriming))
        let remainder = min(total - priming, resolve(remainderOverride, file: fileRemainder))
        var valid = total - priming - remainder
        if primingOverride == nil && remainderOverride == nil, table != nil {
            valid = min(max(0, fileValid), total - priming)   // a truncated file's table is believed as far as it can be
        }
        return Geometry(priming: priming, valid: valid, remainder: total - priming - valid, total: total, stated: table != nil)
    }

    /// The packet table kExtAudioFileProperty_PacketTable reports.
    func packetTable() throws(ExtStatus) -> AudioFilePacketTableInfo {
        if isWriting {
            let (priming, remainder) = writtenPrimingAndRemainder()
            let total = layout?.totalFrames ?? 0
            return AudioFilePacketTableInfo(mNumberValidFrames: max(0, total - Int64(priming) - Int64(remainder)),
                                            mPrimingFrames: priming, mRemainderFrames: remainder)
        }
        let g = geometry
        guard g.stated || primingOverride != nil || remainderOverride != nil else { throw .unsupportedProperty }
        return AudioFilePacketTableInfo(mNumberValidFrames: g.valid, mPrimingFrames: Int32(clamping: g.priming),
                                        mRemainderFrames: Int32(clamping: g.remainder))
    }

    /// Sets kExtAudioFileProperty_PacketTable's priming and remainder (a count, or an override value).
    func setPacketTable(_ table: AudioFilePacketTableInfo) throws(ExtStatus) {
        for value in [table.mPrimingFrames, table.mRemainderFrames] where value < kExtAudioFilePacketTableInfoOverride_UseFileValueIfValid {
            throw .parameter
        }
        primingOverride = table.mPrimingFrames
        remainderOverride = table.mRemainderFrames
        if !isWriting, converter != nil { try restart(at: min(tell, geometry.valid)) }
    }

    /// kExtAudioFileProperty_FileLengthFrames: the valid frames (read), or the frames written.
    var lengthFrames: Int64 {
        isWriting ? writtenFrames : geometry.valid
    }

    /// The frames written so far, at the file's rate.
    private var writtenFrames: Int64 {
        let inRate = clientFormat.mSampleRate, outRate = fileFormat.mSampleRate
        guard inRate > 0, outRate > 0, inRate != outRate else { return clientFramesWritten }
        return Int64((Double(clientFramesWritten) * outRate / inRate).rounded(.up))
    }

    /// ExtAudioFileTell: the file's frame at the file's rate.
    var tell: Int64 {
        if isWriting { return writtenFrames }
        guard let (step, denominator) = rateRatio else { return clientFrame }
        return seekFrame + (clientFrame - seekClientFrame) * step / denominator
    }

    /// The file's rate over the client's as a fraction in lowest terms (nil when they are equal or
    /// either is 0); (0, 0) for rates that are not whole numbers.
    private var rateRatio: (Int64, Int64)? {
        let inRate = fileFormat.mSampleRate, outRate = clientFormat.mSampleRate
        guard inRate > 0, outRate > 0, inRate != outRate else { return nil }
        guard inRate == inRate.rounded(), outRate == outRate.rounded(), inRate < 1e9, outRate < 1e9 else { return (0, 0) }
        var a = Int64(inRate), b = Int64(outRate)
        while b != 0 { (a, b) = (b, a % b) }
        return (Int64(inRate) / a, Int64(outRate) / a)
    }

    // MARK: - Formats

    /// Sets the client format (kExtAudioFileProperty_ClientDataFormat).
    func setClientFormat(_ format: AudioStreamBasicDescription) throws(ExtStatus) {
        guard format.mFormatID == kAudioFormatLinearPCM else { throw .nonPCMClientFormat }
        guard let layout = PCMLayout(format), format.mSampleRate.isFinite, format.mSampleRate >= 0 else { throw .invalidDataFormat }
        var completed = layout.description
        if completed.mSampleRate == 0 { completed.mSampleRate = fileFormat.mSampleRate }
        if isWriting && (packetsWritten > 0 || clientFramesWritten > 0) {
            guard sameFormat(completed, clientFormat) else { throw .invalidOperationOrder }   // as Apple's, once data is written
            return
        }
        if let clientLayout, Int(ChannelLayouts.channelCount(of: clientLayout)) != layout.channels { self.clientLayout = nil }
        let position = isWriting ? 0 : tell
        let previous = (clientFormat, client, clientWasSet, converter)
        clientFormat = completed
        client = PCMLayout(completed)
        clientWasSet = true
        converter = nil
        do {
            try makeConverter()
        } catch {
            (clientFormat, client, clientWasSet, converter) = previous
            throw error
        }
        if let old = previous.3 { AudioConverterDispose(old) }
        if !isWriting { try restart(at: min(position, geometry.valid)) }
    }

    /// Sets the client's channel layout (kExtAudioFileProperty_ClientChannelLayout).
    func setClientLayout(_ bytes: [UInt8]) throws(ExtStatus) {
        guard Int(ChannelLayouts.channelCount(of: bytes)) == Int(clientFormat.mChannelsPerFrame) else { throw .invalidChannelMap }
        clientLayout = bytes
        if converter != nil { try applyLayouts() }
    }

    /// Sets the file's channel layout while writing, before any data.
    func setFileLayout(_ bytes: [UInt8]) throws(ExtStatus) {
        guard isWriting else { throw .invalidProperty }
        guard packetsWritten == 0 else { throw .invalidOperationOrder }
        guard Int(ChannelLayouts.channelCount(of: bytes)) == Int(fileFormat.mChannelsPerFrame) else { throw .invalidChannelMap }
        fileLayout = bytes
        try storeFileLayout()
        if converter != nil { try applyLayouts() }
    }

    /// The file's channel layout, or one stating only its channel count.
    var fileLayoutBytes: [UInt8] { fileLayout ?? Self.defaultLayout(channels: Int(fileFormat.mChannelsPerFrame)) }
    /// The client's channel layout, or one stating only its channel count.
    var clientLayoutBytes: [UInt8] { clientLayout ?? Self.defaultLayout(channels: Int(clientFormat.mChannelsPerFrame)) }

    static func defaultLayout(channels: Int) -> [UInt8] {
        let tag: AudioChannelLayoutTag = channels == 1 ? kAudioChannelLayoutTag_Mono
            : channels == 2 ? kAudioChannelLayoutTag_Stereo : kAudioChannelLayoutTag_DiscreteInOrder | UInt32(channels)
        var bytes = [UInt8](repeating: 0, count: 12)
        withUnsafeBytes(of: tag) { bytes.replaceSubrange(0..<4, with: $0) }
        return bytes
    }

    /// Writes the file's layout into the file when its container keeps one.
    func storeFileLayout() throws(ExtStatus) {
        guard let fileLayout else { return }
        let status = fileLayout.withUnsafeBytes {
            AudioFileSetProperty(file, kAudioFilePropertyChannelLayout, UInt32($0.count), $0.baseAddress)
        }
        // AIFF, ADTS and M4A keep no layout: the layout is this object's alone, as a channel count says it all.
        guard status == noErr || status == kAudioFileUnsupportedPropertyError else { throw ExtStatus(status) }
    }

    /// A new converter between the client's format and the file's, set up as the file needs.
    private func makeConverter() throws(ExtStatus) {
        guard client != nil else { throw .nonPCMClientFormat }
        var made: AudioConverterRef?
        var from = isWriting ? clientFormat : fileFormat
        var to = isWriting ? fileFormat : clientFormat
        try check(AudioConverterNew(&from, &to, &made))
        guard let made else { throw .parameter }
        converter = made
        if !isWriting {
            if let cookie = fileCookie() {
                let status = cookie.withUnsafeBytes { AudioConverterSetProperty(made, kAudioConverterDecompressionMagicCookie, UInt32($0.count), $0.baseAddress) }
                guard status == noErr || status == kAudioConverterErr_PropertyNotSupported else { throw ExtStatus(status) }
            }
        } else {
            try syncFileFormat()
            try growBuffer(to: Int(outputMaximumPacketSize ?? 0))
        }
        try applyLayouts()
    }

    /// The file's magic cookie, when it has one.
    private func fileCookie() -> [UInt8]? {
        var size: UInt32 = 0
        guard AudioFileGetPropertyInfo(file, kAudioFilePropertyMagicCookieData, &size, nil) == noErr, size > 0 else { return nil }
        var cookie = [UInt8](repeating: 0, count: Int(size))
        guard AudioFileGetProperty(file, kAudioFilePropertyMagicCookieData, &size, &cookie) == noErr else { return nil }
        return Array(cookie.prefix(Int(size)))
    }

    /// Writing: the file takes the description the encoder completes (ALAC's source depth, AAC's
    /// object type), before any data.
    private func syncFileFormat() throws(ExtStatus) {
        guard let converter, packetsWritten == 0 else { return }
        var current = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        try check(AudioConverterGetProperty(converter, kAudioConverterCurrentOutputStreamDescription, &size, &current))
        guard current.mFormatID != kAudioFormatLinearPCM else { return }
        current.mSampleRate = fileFormat.mSampleRate
        guard !sameFormat(current, fileFormat) else { return }
        try check(AudioFileSetProperty(file, kAudioFilePropertyDataFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &current))
        fileFormat = current
    }

    /// Sets the converter's channel layouts, and a channel map when both layouts name their
    /// channels and every channel of the converter's output is found among its input's.
    private func applyLayouts() throws(ExtStatus) {
        guard let converter else { return }
        let (input, output) = isWriting ? (clientLayoutBytes, fileLayoutBytes) : (fileLayoutBytes, clientLayoutBytes)
        _ = input.withUnsafeBytes { AudioConverterSetProperty(converter, kAudioConverterInputChannelLayout, UInt32($0.count), $0.baseAddress) }
        _ = output.withUnsafeBytes { AudioConverterSetProperty(converter, kAudioConverterOutputChannelLayout, UInt32($0.count), $0.baseAddress) }
        guard (isWriting ? clientLayout : fileLayout) != nil || (isWriting ? fileLayout : clientLayout) != nil,
              let from = try? input.withUnsafeBytes({ (raw) throws(FormatStatus) in try ChannelLayouts.labels(ofLayout: raw) }),
              let to = try? output.withUnsafeBytes({ (raw) throws(FormatStatus) in try ChannelLayouts.labels(ofLayout: raw) }),
              from != to else { return }
        var map: [Int32] = []
        for label in to {
            guard let index = from.firstIndex(of: label) else { return }   // not all found: the converter's own mixing
            map.append(Int32(index))
        }
        let status = map.withUnsafeBytes { AudioConverterSetProperty(converter, kAudioConverterChannelMap, UInt32($0.count), $0.baseAddress) }
        guard status == noErr else { throw .invalidChannelMap }
    }

    /// kExtAudioFileProperty_ConverterConfig set to NULL: the converter's settings taken up again
    /// (writing: the cookie and description the encoder now gives go into the file before any data).
    func reapplyConverter() throws(ExtStatus) {
        guard converter != nil else { return }
        if isWriting && packetsWritten == 0 {
            try syncFileFormat()
            try growBuffer(to: Int(outputMaximumPacketSize ?? 0))
            cookieWritten = nil
            try writeCookie()
        } else if !isWriting {
            try restart(at: min(tell, geometry.valid))
        }
    }

    // MARK: - Reading

    /// Packets a seek decodes before the one holding its frame: AAC's overlapped transform (and
    /// HE-AAC's SBR) and MPEG audio's bit reservoir reach into earlier packets.
    private var prerollPackets: Int64 {
        switch fileFormat.mFormatID {
        case kAudioFormatMPEG4AAC, kAudioFormatMPEG4AAC_HE, kAudioFormatMPEG4AAC_HE_V2, kAudioFormatMPEG4AAC_LD, kAudioFormatMPEG4AAC_ELD: 2
        case kAudioFormatMPEGLayer1, kAudioFormatMPEGLayer2, kAudioFormatMPEGLayer3: 3
        default: 0
        }
    }

    /// Makes the converter read from `frame` (the file's frames, from the first valid one) on.
    /// Without a resampler: decoding starts `prerollPackets` before the frame's packet and the
    /// converter drops the decoded frames before it. With one: the resampler starts early enough
    /// that its filter has only real input under it at the frame, at an input frame whose output
    /// instant is a whole client frame (so the samples after are those a read from the start gives),
    /// and the client frames before the target are dropped here.
    func restart(at frame: Int64) throws(ExtStatus) {
        guard let converter, let object = ConverterTable.table.object(converter) else { return }
        try check(AudioConverterReset(converter))
        let g = geometry
        var start = frame, clientStart = frame, clientTarget = frame
        var ratio = rateRatio
        var resampledFrom: Double?
        if ratio == nil, fileFormat.mFormatID == kAudioFormatMPEG4AAC {
            // AAC whose SBR the file does not state (implicit signalling, in the packets): FFmpeg's
            // decoder runs at twice the file's rate, and the converter resamples to it even when the
            // client's rate is the file's. The seek restarts that resampler as it would any other
            // (early, its client frames before the target dropped); without SBR it only decodes a
            // few more frames to drop.
            ratio = (1, 1)
            resampledFrom = 2 * fileFormat.mSampleRate
        }
        if let (step, denominator) = ratio {
            if step > 0 {
                clientTarget = (frame * denominator + step - 1) / step
                let reach = Int64(object.lock.withLock { object.resamplerPrimeFrames(from: resampledFrom) }) + 2
                start = frame > reach ? (frame - reach) / step * step : 0
                clientStart = start / step * denominator
            } else {
                // Rates that are not whole numbers have no exact common instant: from the start.
                clientTarget = Int64((Double(frame) * clientFormat.mSampleRate / fileFormat.mSampleRate).rounded(.up))
                start = 0
                clientStart = 0
            }
        }
        let absolute = g.priming + start
        let framesPerPacket = Int64(fileFormat.mFramesPerPacket)
        var firstPacket: Int64 = 0, discard = absolute
        if framesPerPacket > 0 {
            firstPacket = max(0, absolute / framesPerPacket - prerollPackets)
            discard = absolute - firstPacket * framesPerPacket
        }
        object.lock.withLock {
            object.discardFrames = Int(discard)
            object.remainingFrames = Int(max(0, g.valid - start))
            // A short last packet counted as full is silence; a claim further off is not believed.
            object.maximumPadding = Int(min(2 * max(framesPerPacket, 4_096), 1 << 20))
        }
        nextPacket = firstPacket
        clientDiscard = clientTarget - clientStart
        seekFrame = frame
        seekClientFrame = clientTarget
        clientFrame = clientTarget
    }

    /// ExtAudioFileSeek.
    func seek(_ frame: Int64) throws(ExtStatus) {
        guard !isWriting else { throw .invalidOperationOrder }
        guard frame >= 0, frame <= geometry.valid else { throw .invalidSeek }
        if converter == nil {
            seekFrame = frame
            seekClientFrame = frame
            clientFrame = frame
            if client != nil { try makeConverter(); try restart(at: frame) }
            return
        }
        try restart(at: frame)
    }

    /// ExtAudioFileRead: up to `wanted` frames into `list`; returns the frames read, and the status
    /// of a failure met after them.
    func read(_ wanted: Int, into list: UnsafeMutablePointer<AudioBufferList>) throws(ExtStatus) -> (Int, OSStatus) {
        guard !isWriting else { throw .invalidOperationOrder }
        guard let client else { throw .nonPCMClientFormat }
        let buffers = UnsafeMutableAudioBufferListPointer(list)
        guard buffers.count == client.bufferCount else { throw .parameter }
        var capacity = wanted
        for buffer in buffers {
            guard buffer.mDataByteSize == 0 || buffer.mData != nil else { throw .parameter }
            capacity = min(capacity, Int(buffer.mDataByteSize) / client.bytesPerFrame)
        }
        guard wanted > 0 else {
            for i in 0..<buffers.count { buffers[i].mDataByteSize = 0 }
            return (0, noErr)
        }
        guard capacity > 0 else { throw .parameter }   // not room for one frame
        if converter == nil {
            try makeConverter()
            try restart(at: seekFrame)
        }
        guard let converter else { throw .parameter }
        try dropClientFrames()
        // A chunk at a time into the caller's buffers: the converter's queues stay small (a loader
        // reading a whole file in one call would otherwise hold it all as Doubles, twice).
        let chunk = 16_384
        let part = AudioBufferList.allocate(maximumBuffers: client.bufferCount)
        defer { free(part.unsafeMutablePointer) }
        let userData = Unmanaged.passUnretained(self).toOpaque()
        var done = 0
        var status: OSStatus = noErr
        while done < capacity && status == noErr {
            let wanted = min(chunk, capacity - done)
            for i in 0..<client.bufferCount {
                part[i] = AudioBuffer(mNumberChannels: buffers[i].mNumberChannels, mDataByteSize: UInt32(wanted * client.bytesPerFrame),
                                      mData: buffers[i].mData! + done * client.bytesPerFrame)
            }
            var frames = UInt32(wanted)
            status = AudioConverterFillComplexBuffer(converter, readProcedure, userData, &frames, part.unsafeMutablePointer, nil)
            done += Int(frames)
            if frames < UInt32(wanted) { break }   // the end (or a failure, whose status goes out)
        }
        for i in 0..<buffers.count {
            buffers[i].mDataByteSize = UInt32(done * client.bytesPerFrame)
            buffers[i].mNumberChannels = UInt32(client.nonInterleaved ? 1 : client.channels)
        }
        clientFrame += Int64(done)
        return (done, status)
    }

    /// Reads and drops the client frames a seek left before its target.
    private func dropClientFrames() throws(ExtStatus) {
        guard clientDiscard > 0, let client, let converter else { return }
        let chunk = 4_096
        let scratch = AudioBufferList.allocate(maximumBuffers: client.bufferCount)
        let memory = UnsafeMutableRawPointer.allocate(byteCount: chunk * client.bytesPerFrame * client.bufferCount, alignment: 16)
        defer {
            free(scratch.unsafeMutablePointer)
            memory.deallocate()
        }
        while clientDiscard > 0 {
            let n = Int(min(Int64(chunk), clientDiscard))
            for i in 0..<client.bufferCount {
                scratch[i] = AudioBuffer(mNumberChannels: UInt32(client.nonInterleaved ? 1 : client.channels),
                                         mDataByteSize: UInt32(n * client.bytesPerFrame), mData: memory + i * chunk * client.bytesPerFrame)
            }
            var frames = UInt32(n)
            let status = AudioConverterFillComplexBuffer(converter, readProcedure, Unmanaged.passUnretained(self).toOpaque(), &frames,
                                                         scratch.unsafeMutablePointer, nil)
            clientDiscard -= Int64(frames)
            try check(status)
            if frames == 0 { clientDiscard = 0 }
        }
    }

    /// The read procedure's work: the next packets that fit in the I/O buffer.
    fileprivate func supplyPackets(_ ioNumberDataPackets: UnsafeMutablePointer<UInt32>, _ ioData: UnsafeMutablePointer<AudioBufferList>,
                                   _ outDescriptions: UnsafeMutablePointer<UnsafeMutablePointer<AudioStreamPacketDescription>?>?) -> OSStatus {
        let asked = Int(ioNumberDataPackets.pointee)
        ioNumberDataPackets.pointee = 0
        let variable = fileFormat.mBytesPerPacket == 0 || fileFormat.mFramesPerPacket == 0
        var count = UInt32(variable ? min(asked, descriptionCapacity) : asked)
        var bytes = UInt32(ioBufferSize)
        guard count > 0 else { return noErr }
        let status = AudioFileReadPacketData(file, false, &bytes, variable ? descriptions : nil, nextPacket, &count, ioBuffer)
        if status == kAudioFileEndOfFileError || (status == noErr && count == 0) { return noErr }   // the end of the data
        guard status == noErr else { return status }
        nextPacket += Int64(count)
        let buffers = UnsafeMutableAudioBufferListPointer(ioData)
        guard buffers.count >= 1 else { return kAudio_ParamError }
        buffers[0] = AudioBuffer(mNumberChannels: fileFormat.mChannelsPerFrame, mDataByteSize: bytes, mData: ioBuffer)
        if variable { outDescriptions?.pointee = descriptions }
        ioNumberDataPackets.pointee = count
        return noErr
    }

    // MARK: - Writing

    /// Checks that `list` holds `frames` frames of the client format.
    func checkClientBuffers(_ list: UnsafePointer<AudioBufferList>?, frames: Int) throws(ExtStatus) -> PCMLayout {
        guard let client else { throw .nonPCMClientFormat }
        guard frames > 0 else { return client }
        guard let list else { throw .parameter }
        let buffers = UnsafeMutableAudioBufferListPointer(UnsafeMutablePointer(mutating: list))
        guard buffers.count == client.bufferCount else { throw .parameter }
        let (bytes, overflow) = frames.multipliedReportingOverflow(by: client.bytesPerFrame)
        guard !overflow else { throw .parameter }
        for buffer in buffers {
            guard buffer.mData != nil, Int(buffer.mDataByteSize) >= bytes else { throw .parameter }
        }
        return client
    }

    /// ExtAudioFileWrite's work (also the asynchronous writer's): `frames` frames of the client
    /// format from `list` through the converter into the file.
    func write(_ frames: Int, from list: UnsafePointer<AudioBufferList>?) throws(ExtStatus) {
        guard isWriting else { throw .invalidOperationOrder }
        guard !finished else { throw .invalidOperationOrder }
        _ = try checkClientBuffers(list, frames: frames)
        guard frames > 0, let list else { return }
        if converter == nil { try makeConverter() }
        if packetsWritten == 0 { try writeCookie() }
        feed = (UnsafeMutableAudioBufferListPointer(UnsafeMutablePointer(mutating: list)), frames, 0)
        defer { feed = nil }
        try pump()
        clientFramesWritten += Int64(frames)
    }

    /// Runs the converter until it has taken the frames fed to it (or, flushing, until it has
    /// nothing more), writing each batch of packets it makes.
    private func pump() throws(ExtStatus) {
        guard let converter else { return }
        let coded = fileFormat.mFormatID != kAudioFormatLinearPCM
        let variable = fileFormat.mBytesPerPacket == 0 || fileFormat.mFramesPerPacket == 0
        let packetBytes = coded ? max(1, Int(outputMaximumPacketSize ?? fileFormat.mBytesPerPacket)) : max(1, Int(fileFormat.mBytesPerFrame))
        let perCall = max(1, min(ioBufferSize / packetBytes, variable ? descriptionCapacity : Int.max))
        let userData = Unmanaged.passUnretained(self).toOpaque()
        while true {
            var packets = UInt32(clamping: perCall)
            ioList[0] = AudioBuffer(mNumberChannels: fileFormat.mChannelsPerFrame, mDataByteSize: UInt32(clamping: ioBufferSize), mData: ioBuffer)
            let status = AudioConverterFillComplexBuffer(converter, writeProcedure, userData, &packets, ioList.unsafeMutablePointer,
                                                         variable ? descriptions : nil)
            if packets > 0 {
                var count = packets
                try check(AudioFileWritePackets(file, false, ioList[0].mDataByteSize, variable ? descriptions : nil, packetsWritten, &count, ioBuffer))
                packetsWritten += Int64(count)
            }
            if status == extAudioFileInputTaken { return }
            try check(status)
            if packets == 0 { return }
        }
    }

    /// The write procedure's work: the fed frames not yet taken (0 when flushing: the end).
    fileprivate func supplyFrames(_ ioNumberDataPackets: UnsafeMutablePointer<UInt32>, _ ioData: UnsafeMutablePointer<AudioBufferList>) -> OSStatus {
        let asked = Int(ioNumberDataPackets.pointee)
        ioNumberDataPackets.pointee = 0
        if flushing { return noErr }
        guard var current = feed, let client else { return extAudioFileInputTaken }
        let n = min(asked, current.frames - current.position)
        guard n > 0 else { return extAudioFileInputTaken }
        let buffers = UnsafeMutableAudioBufferListPointer(ioData)
        guard buffers.count == client.bufferCount else { return kAudio_ParamError }
        for i in 0..<client.bufferCount {
            buffers[i] = AudioBuffer(mNumberChannels: UInt32(client.nonInterleaved ? 1 : client.channels),
                                     mDataByteSize: UInt32(n * client.bytesPerFrame),
                                     mData: current.list[i].mData! + current.position * client.bytesPerFrame)
        }
        current.position += n
        feed = current
        ioNumberDataPackets.pointee = UInt32(n)
        return noErr
    }

    /// Sets the encoder's magic cookie on the file when it differs from the one set (before the
    /// first packet: CAF's 'kuki' then comes before the data).
    private func writeCookie() throws(ExtStatus) {
        guard let converter else { return }
        var size: UInt32 = 0
        guard AudioConverterGetPropertyInfo(converter, kAudioConverterCompressionMagicCookie, &size, nil) == noErr, size > 0 else { return }
        var cookie = [UInt8](repeating: 0, count: Int(size))
        guard AudioConverterGetProperty(converter, kAudioConverterCompressionMagicCookie, &size, &cookie) == noErr else { return }
        cookie = Array(cookie.prefix(Int(size)))
        guard cookie != cookieWritten else { return }
        let status = AudioFileSetProperty(file, kAudioFilePropertyMagicCookieData, UInt32(cookie.count), cookie)
        guard status == noErr || status == kAudioFileUnsupportedPropertyError else { throw ExtStatus(status) }
        cookieWritten = cookie
    }

    /// The priming and remainder a finished file gets: the encoder's priming, and what its packets
    /// hold past the frames written (or kExtAudioFileProperty_PacketTable's values).
    private func writtenPrimingAndRemainder() -> (Int32, Int32) {
        let total = layout?.totalFrames ?? 0
        var priming: Int64 = 0
        var valid = writtenFrames
        if let converter, fileFormat.mFormatID != kAudioFormatLinearPCM {
            var info = AudioConverterPrimeInfo()
            var size = UInt32(MemoryLayout<AudioConverterPrimeInfo>.size)
            if AudioConverterGetProperty(converter, kAudioConverterPrimeInfo, &size, &info) == noErr { priming = Int64(info.leadingFrames) }
            if let object = ConverterTable.table.object(converter) { valid = Int64(object.lock.withLock { object.encodedFrames }) }
        }
        if let primingOverride, primingOverride >= 0 { priming = Int64(primingOverride) }
        priming = min(priming, total)
        var remainder = max(0, total - priming - valid)
        if let remainderOverride, remainderOverride >= 0 { remainder = min(Int64(remainderOverride), total - priming) }
        return (Int32(clamping: priming), Int32(clamping: remainder))
    }

    /// Whether the file being written is finished (the asynchronous writer then writes nothing).
    var isFinished: Bool { finished }

    /// Makes the converter a write needs now (ExtAudioFileWriteAsync's priming call).
    func prepareForWriting() throws(ExtStatus) {
        guard isWriting, !finished else { throw .invalidOperationOrder }
        guard client != nil else { throw .nonPCMClientFormat }
        if converter == nil { try makeConverter() }
        if packetsWritten == 0 { try writeCookie() }
    }

    /// Disposes of the converter (ExtAudioFileDispose).
    func releaseConverter() {
        if let converter { AudioConverterDispose(converter) }
        converter = nil
    }

    /// Finishes a file being written: the converter flushed, the cookie and the packet table set.
    func finishWriting() throws(ExtStatus) {
        guard isWriting, !finished else { return }
        finished = true
        guard converter != nil else { return }
        flushing = true
        defer { flushing = false }
        try pump()
        try writeCookie()
        let coded = fileFormat.mFormatID != kAudioFormatLinearPCM
        guard coded || primingOverride != nil || remainderOverride != nil else { return }
        let (priming, remainder) = writtenPrimingAndRemainder()
        let total = layout?.totalFrames ?? 0
        var table = AudioFilePacketTableInfo(mNumberValidFrames: max(0, total - Int64(priming) - Int64(remainder)),
                                             mPrimingFrames: priming, mRemainderFrames: remainder)
        var writable: UInt32 = 0
        var size: UInt32 = 0
        guard AudioFileGetPropertyInfo(file, kAudioFilePropertyPacketTableInfo, &size, &writable) == noErr, writable != 0 else { return }
        try check(AudioFileSetProperty(file, kAudioFilePropertyPacketTableInfo, UInt32(MemoryLayout<AudioFilePacketTableInfo>.size), &table))
    }
}

/// The converter's input procedure when reading: packets from the file.
private let readProcedure: AudioConverterComplexInputDataProc = { _, ioNumberDataPackets, ioData, outDataPacketDescription, inUserData in
    let object = Unmanaged<ExtAudioFileObject>.fromOpaque(inUserData!).takeUnretainedValue()
    return object.supplyPackets(ioNumberDataPackets, ioData, outDataPacketDescription)
}

/// The converter's input procedure when writing: the client's frames.
private let writeProcedure: AudioConverterComplexInputDataProc = { _, ioNumberDataPackets, ioData, _, inUserData in
    let object = Unmanaged<ExtAudioFileObject>.fromOpaque(inUserData!).takeUnretainedValue()
    return object.supplyFrames(ioNumberDataPackets, ioData)
}

/// Whether two descriptions say the same thing, field by field.
func sameFormat(_ a: AudioStreamBasicDescription, _ b: AudioStreamBasicDescription) -> Bool {
    a.mSampleRate == b.mSampleRate && a.mFormatID == b.mFormatID && a.mFormatFlags == b.mFormatFlags && a.mBytesPerPacket == b.mBytesPerPacket
        && a.mFramesPerPacket == b.mFramesPerPacket && a.mBytesPerFrame == b.mBytesPerFrame && a.mChannelsPerFrame == b.mChannelsPerFrame
        && a.mBitsPerChannel == b.mBitsPerChannel
}

extension ChannelLayouts {
    /// The channels an AudioChannelLayout's bytes stand for (0 for fewer than its 12 fixed bytes).
    static func channelCount(of bytes: [UInt8]) -> UInt32 {
        guard bytes.count >= 12 else { return 0 }
        return bytes.withUnsafeBytes {
            channelCount(tag: $0.loadUnaligned(as: UInt32.self), bitmap: $0.loadUnaligned(fromByteOffset: 4, as: UInt32.self),
                         descriptions: $0.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
        }
    }
}
