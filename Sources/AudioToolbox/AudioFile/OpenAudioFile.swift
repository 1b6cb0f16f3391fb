// An open audio file and the table that turns AudioFileIDs into them (HandleTable.swift). An
// AudioFileID is not a pointer to anything: a closed (or never opened) ID is
// kAudioFileNotOpenError, never a use after free.
import NIOConcurrencyHelpers

/// An open audio file: its layout, its bytes, and for a file opened to write, its writer. Every
/// read and write holds `lock`: a caller's callbacks are not assumed reentrant, and a write
/// changes the layout a read uses.
final class OpenAudioFile: @unchecked Sendable {
    // @unchecked: `state` and the writer are touched under `lock` only. (NIO's locks, not `Mutex`,
    // here and for the table: ThreadSanitizer does not see `Mutex`'s contended path on Linux and
    // reported a race between two bodies of one `withLock`, 8 threads on the table.)
    private var state: FileLayout
    /// Where the bytes come from (nil: a file created through callbacks without a read callback).
    private let source: (any ByteSource)?
    /// How the file is written (nil: opened for reading).
    private let writer: FileWriter?
    private let lock = NIOLock()

    init(layout: FileLayout, source: (any ByteSource)?, writer: FileWriter? = nil) {
        self.state = layout
        self.source = source
        self.writer = writer
    }

    /// What the header states, with what was written since.
    var layout: FileLayout { locked { state } }

    /// Whether the file can be written.
    var isWritable: Bool { writer != nil }

    /// Whether the file's header and trailer are up to date (always, for a file being read).
    var isOptimized: Bool { locked { writer?.isOptimized ?? true } }

    /// Opens the file `source` serves: finds its type from its first bytes and reads its header.
    static func open(_ source: any ByteSource) throws(FileStatus) -> OpenAudioFile {
        OpenAudioFile(layout: try parse(source), source: source)
    }

    /// Creates a file of `type` holding `format` in `sink` (read back through `source`).
    static func create(type: AudioFileTypeID, format: AudioStreamBasicDescription, sink: any ByteSink,
                       source: (any ByteSource)?) throws(FileStatus) -> OpenAudioFile {
        guard let container = containerWriter(for: type) else { throw .unsupportedFileType }
        try container.check(format)   // before anything is made of the description
        var layout = FileLayout(fileType: type, format: format, dataOffset: 0, dataByteCount: 0, packetCount: 0, packets: nil,
                                magicCookie: nil, channelLayout: nil, packetTable: nil,
                                sourceBitDepth: format.mFormatID == kAudioFormatLinearPCM ? Int32(format.mBitsPerChannel) : nil)
        let writer = try FileWriter(container: container, sink: sink, layout: &layout)
        return OpenAudioFile(layout: layout, source: source, writer: writer)
    }

    /// The layout of the file `source` serves, from its type's parser.
    static func parse(_ source: any ByteSource) throws(FileStatus) -> FileLayout {
        let size = try source.size()
        return try Container.sniff(source, hint: 0).parse(source, size: size)
    }

    /// Reads `count` bytes of audio data at `offset` from the data's start (fewer at the end).
    func readData(at offset: Int64, count: Int, into buffer: UnsafeMutableRawPointer) throws(FileStatus) -> Int {
        try locked { () throws(FileStatus) -> Int in
            guard let source else { throw .permissions }
            let available = max(0, state.dataByteCount - offset)
            let wanted = Int(min(Int64(count), available))
            guard wanted > 0 else { return 0 }
            return try source.read(at: state.dataOffset + offset, count: wanted, into: buffer)
        }
    }

    /// Runs `body` with the writer and the layout it changes: `kAudioFilePermissionsError` for a
    /// file opened for reading.
    func write<T>(_ body: (FileWriter, inout FileLayout) throws(FileStatus) -> T) throws(FileStatus) -> T {
        try locked { () throws(FileStatus) -> T in
            guard let writer else { throw .permissions }
            return try body(writer, &state)
        }
    }

    /// Brings a written file's header and trailer up to date (at close, and AudioFileOptimize).
    func finish() throws(FileStatus) {
        try locked { () throws(FileStatus) in try writer?.finish(state) }
    }

    private func locked<T>(_ body: () throws(FileStatus) -> T) throws(FileStatus) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }
}

/// The containers Audio File Services and Audio File Stream Services read, and which one a file is.
enum Container: Sendable {
    case wave, aiff, caf, mpeg4, adts, mpeg

    /// The container of the file `source` serves, from its first bytes: the magic numbers of WAVE,
    /// AIFF, CAF and MPEG-4 first, then ADTS and MPEG audio frames. A hint of ADTS or MPEG audio
    /// (Audio File Stream Services') lets those frames follow junk; otherwise they must start the
    /// file (after an ID3v2 tag). `kAudioFileUnsupportedFileTypeError` when none matches.
    static func sniff(_ source: any ByteSource, hint: AudioFileTypeID) throws(FileStatus) -> Container {
        let head = try source.bytes(at: 0, count: 12)
        if WAVEParser.matches(head) { return .wave }
        if AIFFParser.matches(head) { return .aiff }
        if CAFParser.matches(head) { return .caf }
        if MPEG4Parser.matches(head) { return .mpeg4 }
        if hint == kAudioFileAAC_ADTSType { return .adts }
        if hint == kAudioFileMP3Type || hint == kAudioFileMP2Type || hint == kAudioFileMP1Type { return .mpeg }
        if try ADTSParser.matches(source, head: head) { return .adts }
        if try MPEGAudioParser.matches(source, head: head) { return .mpeg }
        throw .unsupportedFileType
    }

    /// The file's layout, read by the container's parser; `upToData`: a stream's header, read up to
    /// its audio data (MPEG audio and ADTS are not read here: their frames are cut as they come).
    func parse(_ source: any ByteSource, size: Int64, upToData: Bool = false) throws(FileStatus) -> FileLayout {
        switch self {
        case .wave: try WAVEParser.parse(source, size: size, upToData: upToData)
        case .aiff: try AIFFParser.parse(source, size: size, upToData: upToData)
        case .caf: try CAFParser.parse(source, size: size, upToData: upToData)
        case .mpeg4: try MPEG4Parser.parse(source, size: size, upToData: upToData)
        case .adts: try ADTSParser.parse(source, size: size)
        case .mpeg: try MPEGAudioParser.parse(source, size: size)
        }
    }
}

/// The open files, by AudioFileID (a ``HandleTable``, tag 1).
enum AudioFileTable {
    private static let table = HandleTable<OpenAudioFile>(tag: 1)

    /// A new ID for `file`.
    static func insert(_ file: OpenAudioFile) -> AudioFileID { table.insert(file) }

    /// The open file behind `id`: `kAudio_ParamError` for NULL, `kAudioFileNotOpenError` for an ID
    /// that was closed or never given out.
    static func file(_ id: AudioFileID?) throws(FileStatus) -> OpenAudioFile {
        guard let id else { throw .parameter }
        guard let found = table.object(id) else { throw .notOpen }
        return found
    }

    /// Closes `id` and returns its file: its slot's generation moves on, so the ID is stale from now on.
    @discardableResult
    static func remove(_ id: AudioFileID?) throws(FileStatus) -> OpenAudioFile {
        guard let id else { throw .parameter }
        guard let removed = table.remove(id) else { throw .notOpen }
        return removed
    }

    /// How many files are open (for tests: nothing leaks).
    static var openCount: Int { table.count }
}
