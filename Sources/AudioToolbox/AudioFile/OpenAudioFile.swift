// An open audio file and the table that turns AudioFileIDs into them. An AudioFileID is not a
// pointer to anything: it is a generation-counted handle (HandleTable.swift), so a closed (or never
// opened) ID is kAudioFileNotOpenError, never a use after free.
import NIOConcurrencyHelpers

/// An open audio file: its layout and its bytes. Reads are serialized by `readLock`.
final class OpenAudioFile: Sendable {
    /// What the header states.
    let layout: FileLayout
    /// Where the bytes come from.
    private let source: any ByteSource
    /// Held around every read: a caller's callbacks are not assumed reentrant. (NIO's lock, not
    /// `Mutex`, here and for the handle table: ThreadSanitizer does not see `Mutex`'s contended path
    /// on Linux and reported a race between two bodies of one `withLock`, 8 threads on the table.)
    private let readLock = NIOLock()

    init(layout: FileLayout, source: any ByteSource) {
        self.layout = layout
        self.source = source
    }

    /// Opens the file `source` serves: finds its type from its first bytes and reads its header.
    static func open(_ source: any ByteSource) throws(FileStatus) -> OpenAudioFile {
        let size = try source.size()
        let layout = try Container.sniff(source, hint: 0).parse(source, size: size)
        return OpenAudioFile(layout: layout, source: source)
    }

    /// Reads `count` bytes of audio data at `offset` from the data's start (fewer at the end).
    func readData(at offset: Int64, count: Int, into buffer: UnsafeMutableRawPointer) throws(FileStatus) -> Int {
        let available = max(0, layout.dataByteCount - offset)
        let wanted = Int(min(Int64(count), available))
        guard wanted > 0 else { return 0 }
        let position = layout.dataOffset + offset
        let result = readLock.withLock { () -> Result<Int, FileStatus> in
            do throws(FileStatus) { return .success(try source.read(at: position, count: wanted, into: buffer)) } catch { return .failure(error) }
        }
        return try result.get()
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

/// The open files, by AudioFileID (a generation-counted handle: HandleTable.swift).
enum AudioFileTable {
    private static let files = HandleTable<OpenAudioFile>(tag: 1)

    /// A new ID for `file`.
    static func insert(_ file: OpenAudioFile) -> AudioFileID { files.insert(file) }

    /// The open file behind `id`: `kAudio_ParamError` for NULL, `kAudioFileNotOpenError` for an ID
    /// that was closed or never given out.
    static func file(_ id: AudioFileID?) throws(FileStatus) -> OpenAudioFile {
        guard let id else { throw .parameter }
        guard let found = files.object(id) else { throw .notOpen }
        return found
    }

    /// Closes `id`: its slot's generation moves on, so the ID is stale from now on.
    static func remove(_ id: AudioFileID?) throws(FileStatus) {
        guard let id else { throw .parameter }
        guard files.remove(id) != nil else { throw .notOpen }
    }

    /// How many files are open (for tests: nothing leaks).
    static var openCount: Int { files.count }
}
