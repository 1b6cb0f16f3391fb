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
        let head = try source.bytes(at: 0, count: 12)
        let layout: FileLayout
        if WAVEParser.matches(head) {
            layout = try WAVEParser.parse(source, size: size)
        } else if AIFFParser.matches(head) {
            layout = try AIFFParser.parse(source, size: size)
        } else if CAFParser.matches(head) {
            layout = try CAFParser.parse(source, size: size)
        } else if MPEG4Parser.matches(head) {
            layout = try MPEG4Parser.parse(source, size: size)
        } else if ADTSParser.matches(source, head: head) {
            layout = try ADTSParser.parse(source, size: size)
        } else if MPEGAudioParser.matches(source, head: head) {
            layout = try MPEGAudioParser.parse(source, size: size)
        } else {
            throw .unsupportedFileType
        }
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

/// The open files, by AudioFileID (a generation-counted handle: HandleTable.swift).
enum AudioFileTable {
    private static let files = HandleTable<OpenAudioFile>()

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
