// An open audio file and the table that turns AudioFileIDs into them. An AudioFileID is not a
// pointer to anything: it is a slot's index and a generation count, so a closed (or never opened)
// ID is kAudioFileNotOpenError, never a use after free.
import NIOConcurrencyHelpers

/// An open audio file: its layout and its bytes. Reads are serialized by `readLock`.
final class OpenAudioFile: Sendable {
    /// What the header states.
    let layout: FileLayout
    /// Where the bytes come from.
    private let source: any ByteSource
    /// Held around every read: a caller's callbacks are not assumed reentrant. (NIO's locks, not
    /// `Mutex`, here and for the table: ThreadSanitizer does not see `Mutex`'s contended path on
    /// Linux and reported a race between two bodies of one `withLock`, 8 threads on the table.)
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

/// The open files, by AudioFileID.
enum AudioFileTable {
    private struct Slot {
        var file: OpenAudioFile?
        var generation: UInt16 = 1
    }

    private struct Table {
        var slots: [Slot] = []
        var free: [Int] = []
    }

    private static let table = NIOLockedValueBox(Table())

    /// A new ID for `file`.
    static func insert(_ file: OpenAudioFile) -> AudioFileID {
        table.withLockedValue { table in
            let index: Int
            if let reused = table.free.popLast() {
                index = reused
            } else {
                index = table.slots.count
                table.slots.append(Slot())
            }
            table.slots[index].file = file
            let bits = UInt(index + 1) << 16 | UInt(table.slots[index].generation)
            return AudioFileID(bitPattern: bits)!
        }
    }

    /// The open file behind `id`: `kAudio_ParamError` for NULL, `kAudioFileNotOpenError` for an ID
    /// that was closed or never given out.
    static func file(_ id: AudioFileID?) throws(FileStatus) -> OpenAudioFile {
        guard let id else { throw .parameter }
        let found = table.withLockedValue { table -> OpenAudioFile? in
            guard let (index, generation) = slot(id), index < table.slots.count,
                  table.slots[index].generation == generation else { return nil }
            return table.slots[index].file
        }
        guard let found else { throw .notOpen }
        return found
    }

    /// Closes `id`: its slot's generation moves on, so the ID is stale from now on.
    static func remove(_ id: AudioFileID?) throws(FileStatus) {
        guard let id else { throw .parameter }
        let removed = table.withLockedValue { table -> OpenAudioFile? in
            guard let (index, generation) = slot(id), index < table.slots.count,
                  table.slots[index].generation == generation, let file = table.slots[index].file else { return nil }
            table.slots[index].file = nil
            table.slots[index].generation = table.slots[index].generation &+ 1 == 0 ? 1 : table.slots[index].generation &+ 1
            table.free.append(index)
            return file
        }
        guard removed != nil else { throw .notOpen }
    }

    /// How many files are open (for tests: nothing leaks).
    static var openCount: Int { table.withLockedValue { $0.slots.filter { $0.file != nil }.count } }

    private static func slot(_ id: AudioFileID) -> (Int, UInt16)? {
        let bits = UInt(bitPattern: id)
        let index = Int(bits >> 16) - 1
        guard index >= 0, bits >> 16 <= UInt(Int32.max) else { return nil }
        return (index, UInt16(truncatingIfNeeded: bits))
    }
}
