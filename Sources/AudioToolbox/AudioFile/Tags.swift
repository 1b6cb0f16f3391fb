// A file's own tags (title, artist, album, ...) for kAudioFilePropertyInfoDictionary, as each
// container states them: WAVE's LIST/INFO chunk, CAF's 'info' chunk, AIFF's NAME, AUTH, '(c) ' and
// ANNO chunks, ID3v2 (in front of MP3 and ADTS, or in a WAVE or AIFF 'ID3 ' chunk) and MPEG-4's
// moov/udta/meta/ilst. The container parsers hand over the bytes their own walk found; nothing
// here walks a file. Hostile bytes are bounded: at most `TagLimits.count` tags, values of at most
// `TagLimits.valueBytes`, and text that is not valid in its encoding is skipped.

enum TagLimits {
    /// The most tags a file gives.
    static let count = 64
    /// The longest value kept, in bytes (a longer one is skipped).
    static let valueBytes = 16 << 10
    /// The most bytes of a tag chunk or an ID3v2 tag read (frames past them are not seen: a large
    /// picture after the text frames costs nothing).
    static let regionBytes = 1 << 20
}

/// Tags in the order found; the first value of a key wins.
struct TagList {
    private(set) var tags: [(key: String, value: String)] = []

    /// Adds `value` for `key` unless the key has one, the value is empty or too long, or the list is full.
    mutating func add(_ key: String, _ value: String?) {
        guard let value, tags.count < TagLimits.count, !key.isEmpty, key.utf8.count <= 256 else { return }
        let trimmed = Tags.trim(value)
        guard !trimmed.isEmpty, trimmed.utf8.count <= TagLimits.valueBytes, !tags.contains(where: { $0.key == key }) else { return }
        tags.append((key, trimmed))
    }

    mutating func add(_ other: [(key: String, value: String)]) {
        for tag in other { add(tag.key, tag.value) }
    }
}

enum Tags {
    /// `text` without trailing NULs and white space, or leading white space.
    static func trim(_ text: String) -> String {
        let scalars = text.unicodeScalars
        var start = scalars.startIndex, end = scalars.endIndex
        while end > start, scalars[scalars.index(before: end)] == "\0" || scalars[scalars.index(before: end)].properties.isWhitespace {
            end = scalars.index(before: end)
        }
        while start < end, scalars[start].properties.isWhitespace { start = scalars.index(after: start) }
        return String(scalars[start..<end])
    }

    /// Bytes up to their first NUL.
    static func untilNUL(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        bytes.firstIndex(of: 0).map { bytes[..<$0] } ?? bytes
    }

    /// UTF-8 text; nil when invalid.
    static func utf8(_ bytes: ArraySlice<UInt8>) -> String? {
        guard bytes.count <= TagLimits.valueBytes else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }

    /// ISO-8859-1 text (every byte is a character).
    static func latin1(_ bytes: ArraySlice<UInt8>) -> String? {
        guard bytes.count <= TagLimits.valueBytes else { return nil }
        var out = String.UnicodeScalarView()
        for byte in bytes { out.append(Unicode.Scalar(byte)) }
        return String(out)
    }

    /// Text in a chunk that names no encoding (RIFF INFO, AIFF's text chunks): UTF-8 when it is valid
    /// UTF-8 (FFmpeg and most tools now), else ISO-8859-1.
    static func plainText(_ bytes: ArraySlice<UInt8>) -> String? {
        let text = untilNUL(bytes)
        return utf8(text) ?? latin1(text)
    }

    /// UTF-16 text, big-endian unless `littleEndian`; nil when invalid (an unpaired surrogate).
    static func utf16(_ bytes: ArraySlice<UInt8>, littleEndian: Bool) -> String? {
        guard bytes.count <= 2 * TagLimits.valueBytes else { return nil }
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var index = bytes.startIndex
        while index + 1 < bytes.endIndex {
            let a = UInt16(bytes[index]), b = UInt16(bytes[index + 1])
            units.append(littleEndian ? b << 8 | a : a << 8 | b)
            index += 2
        }
        return String(validating: units, as: UTF16.self)
    }

    // MARK: WAVE

    /// The keys of RIFF INFO's sub-chunks.
    private static let riffKeys: [UInt32: String] = [
        fourCC("INAM"): "title", fourCC("IART"): "artist", fourCC("IPRD"): "album", fourCC("ICRD"): "year",
        fourCC("IGNR"): "genre", fourCC("ICMT"): "comments", fourCC("ITRK"): "track number", fourCC("IPRT"): "track number",
        fourCC("ICOP"): "copyright", fourCC("ISFT"): "encoding application", fourCC("IWRI"): "composer",
        fourCC("ICMP"): "composer",
    ]

    /// The tags of a WAVE 'LIST' chunk's body, when it is a LIST of type 'INFO'.
    static func riffInfo(_ list: [UInt8]) -> [(key: String, value: String)] {
        guard list.count >= 4, list.fourCC(at: 0) == fourCC("INFO") else { return [] }
        var tags = TagList()
        var at = 4
        var walked = 0
        while at + 8 <= list.count, walked < 4 * TagLimits.count {
            walked += 1
            let id = list.fourCC(at: at)
            let length = Int(list.littleEndian(UInt32.self, at: at + 4))
            let body = at + 8
            guard length <= list.count - body else { break }
            if let key = riffKeys[id] { tags.add(key, plainText(list[body..<(body + length)])) }
            at = body + length + (length & 1)
        }
        return tags.tags
    }

    // MARK: CAF

    /// The tags of a CAF 'info' chunk: a big-endian count, then that many key and value pairs of
    /// NUL-terminated UTF-8 strings. The keys are kept as the file writes them (Core Audio writes
    /// the kAFInfoDictionary names; other tools their own).
    static func cafInfo(_ chunk: [UInt8]) -> [(key: String, value: String)] {
        guard chunk.count >= 4 else { return [] }
        let count = Int(chunk.bigEndian(UInt32.self, at: 0))
        var tags = TagList()
        var at = 4
        func string() -> ArraySlice<UInt8>? {
            guard at < chunk.count, let end = chunk[at...].firstIndex(of: 0) else { return nil }
            defer { at = end + 1 }
            return chunk[at..<end]
        }
        for _ in 0..<min(count, 4 * TagLimits.count) {
            guard let key = string(), let value = string() else { break }
            if let key = utf8(key), key != "approximate duration in seconds" { tags.add(key, utf8(value)) }
        }
        return tags.tags
    }

    // MARK: AIFF

    /// The key of an AIFF text chunk, or nil.
    static func aiffKey(_ id: UInt32) -> String? {
        switch id {
        case fourCC("NAME"): "title"
        case fourCC("AUTH"): "artist"
        case fourCC("(c) "): "copyright"
        case fourCC("ANNO"): "comments"
        default: nil
        }
    }

    // MARK: MPEG-4

    /// The keys of iTunes-style 'ilst' items.
    private static let ilstKeys: [UInt32: String] = [
        0xA96E_616D: "title",        // ©nam
        0xA941_5254: "artist",       // ©ART
        0xA961_6C62: "album",        // ©alb
        0xA964_6179: "year",         // ©day
        0xA967_656E: "genre",        // ©gen
        0xA963_6D74: "comments",     // ©cmt
        0xA977_7274: "composer",     // ©wrt
        0xA974_6F6F: "encoding application",   // ©too
        0xA96C_7972: "lyricist",     // ©lyr
        fourCC("cprt"): "copyright",
        fourCC("trkn"): "track number",
    ]

    /// The tags of an 'ilst' box's body (`bytes[range]`): each item a box holding a 'data' box
    /// (a type, a locale, then the value: UTF-8 or UTF-16 text, or trkn's numbers).
    static func ilst(_ bytes: [UInt8], _ range: Range<Int>) -> [(key: String, value: String)] {
        var tags = TagList()
        var at = range.lowerBound
        var walked = 0
        while at + 8 <= range.upperBound, walked < 4 * TagLimits.count {
            walked += 1
            let size = Int(bytes.bigEndian(UInt32.self, at: at))
            let type = bytes.fourCC(at: at + 4)
            guard size >= 8, size <= range.upperBound - at else { break }
            defer { at += size }
            guard let key = ilstKeys[type] else { continue }
            // The item's first 'data' box.
            var inner = at + 8
            while inner + 16 <= at + size {
                let dataSize = Int(bytes.bigEndian(UInt32.self, at: inner))
                guard dataSize >= 8, dataSize <= at + size - inner else { break }
                if bytes.fourCC(at: inner + 4) == fourCC("data"), dataSize >= 16 {
                    let kind = bytes.bigEndian(UInt32.self, at: inner + 8) & 0xFF_FFFF
                    let value = bytes[(inner + 16)..<(inner + dataSize)]
                    if type == fourCC("trkn") {
                        if value.count >= 6 {
                            let s = value.startIndex
                            let number = Int(value[s + 2]) << 8 | Int(value[s + 3])
                            let total = Int(value[s + 4]) << 8 | Int(value[s + 5])
                            if number > 0 { tags.add(key, total > 0 ? "\(number)/\(total)" : "\(number)") }
                        }
                    } else if kind == 1 {
                        tags.add(key, utf8(value))
                    } else if kind == 2 {
                        tags.add(key, utf16(value, littleEndian: false))
                    }
                    break
                }
                inner += dataSize
            }
        }
        return tags.tags
    }
}

// MARK: ID3v2

/// ID3v2 tags (versions 2.2, 2.3 and 2.4): their text frames and comments.
enum ID3Tag {
    /// The keys of the text frames (four-character IDs of 2.3 and 2.4, three-character ones of 2.2).
    private static let keys: [String: String] = [
        "TIT2": "title", "TT2": "title", "TPE1": "artist", "TP1": "artist", "TALB": "album", "TAL": "album",
        "TYER": "year", "TDRC": "year", "TYE": "year", "TCON": "genre", "TCO": "genre", "COMM": "comments", "COM": "comments",
        "TRCK": "track number", "TRK": "track number", "TCOM": "composer", "TCM": "composer", "TCOP": "copyright",
        "TCR": "copyright", "TSSE": "encoding application", "TSS": "encoding application", "TEXT": "lyricist", "TXT": "lyricist",
        "TIT3": "subtitle", "TT3": "subtitle", "TSRC": "ISRC", "TRC": "ISRC",
    ]

    /// The tag at `position` of `source` (or none there): its size in bytes (0 when there is none)
    /// and its tags. At most `TagLimits.regionBytes` of it are read.
    static func read(_ source: ByteSource, at position: Int64 = 0) throws(FileStatus) -> (size: Int64, tags: [(key: String, value: String)]) {
        let head = try source.bytes(at: position, count: 10)
        let size = MPEGAudioParser.id3Size(head)
        guard size > 0 else { return (0, []) }
        let bytes = try source.bytes(at: position, count: Int(min(size, Int64(TagLimits.regionBytes))))
        return (size, tags(bytes))
    }

    /// The tags of a whole ID3v2 tag (or its first bytes), header included.
    static func tags(_ tag: [UInt8]) -> [(key: String, value: String)] {
        guard tag.count >= 10, tag[0] == 0x49, tag[1] == 0x44, tag[2] == 0x33 else { return [] }
        let version = Int(tag[3])
        let flags = tag[5]
        guard version >= 2, version <= 4 else { return [] }
        let stated = tag[6..<10].reduce(0) { $0 << 7 | Int($1 & 0x7F) }
        var body = Array(tag[10..<min(tag.count, 10 + stated)])
        // 2.2 and 2.3: unsynchronisation applies to the whole tag; 2.4: frame by frame (below).
        if flags & 0x80 != 0 && version < 4 { body = resynchronised(body[...]) }
        var at = 0
        if flags & 0x40 != 0 && version >= 3 {   // an extended header
            guard body.count >= 4 else { return [] }
            let length = version == 4 ? body[0..<4].reduce(0) { $0 << 7 | Int($1 & 0x7F) }
                                      : Int(body.bigEndian(UInt32.self, at: 0)) + 4
            guard length >= 4, length <= body.count else { return [] }
            at = length
        }
        var tags = TagList()
        let idBytes = version == 2 ? 3 : 4
        let headerBytes = version == 2 ? 6 : 10
        var walked = 0
        while at + headerBytes <= body.count, walked < 16 * TagLimits.count {
            walked += 1
            guard body[at] != 0 else { break }   // padding
            let id = String(decoding: body[at..<(at + idBytes)], as: UTF8.self)
            let size: Int
            var frameFlags: UInt16 = 0
            switch version {
            case 2: size = Int(body[at + 3]) << 16 | Int(body[at + 4]) << 8 | Int(body[at + 5])
            case 3: size = Int(body.bigEndian(UInt32.self, at: at + 4))
            default: size = body[(at + 4)..<(at + 8)].reduce(0) { $0 << 7 | Int($1 & 0x7F) }
            }
            if version >= 3 { frameFlags = body.bigEndian(UInt16.self, at: at + 8) }
            let start = at + headerBytes
            guard size <= body.count - start else { break }   // cut (a tag read in part): the frames before it
            at = start + size
            guard let key = keys[id] else { continue }
            var frame = body[start..<(start + size)]
            if version == 3 {
                guard frameFlags & 0x00C0 == 0 else { continue }   // compressed or encrypted
                if frameFlags & 0x0020 != 0 { frame = frame.dropFirst(1) }   // a group byte
            } else if version == 4 {
                guard frameFlags & 0x000C == 0 else { continue }   // compressed or encrypted
                if frameFlags & 0x0040 != 0 { frame = frame.dropFirst(1) }   // a group byte
                if frameFlags & 0x0001 != 0 { frame = frame.dropFirst(4) }   // the data length
                if frameFlags & 0x0002 != 0 || flags & 0x80 != 0 { frame = resynchronised(frame)[...] }
            }
            let value = id.hasPrefix("COM") ? comment(frame) : text(frame)
            tags.add(key, value)
        }
        return tags.tags
    }

    /// Bytes with the unsynchronisation's inserted zero after each 0xFF taken out.
    static func resynchronised(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var previous: UInt8 = 0
        for byte in bytes {
            if !(previous == 0xFF && byte == 0) { out.append(byte) }
            previous = byte
        }
        return out
    }

    /// A text frame's first value: an encoding byte, then the text (values after a NUL are not read).
    static func text(_ frame: ArraySlice<UInt8>) -> String? {
        guard let encoding = frame.first else { return nil }
        return decode(firstString(frame.dropFirst(), encoding: encoding).value, encoding: encoding)
    }

    /// A comment: an encoding byte, a language (3 bytes), a short description and the text.
    static func comment(_ frame: ArraySlice<UInt8>) -> String? {
        guard frame.count >= 4, let encoding = frame.first else { return nil }
        let rest = firstString(frame.dropFirst(4), encoding: encoding).rest
        return decode(firstString(rest, encoding: encoding).value, encoding: encoding)
    }

    /// The bytes up to the first terminator of `encoding` (a NUL, or two for UTF-16), and those after it.
    private static func firstString(_ bytes: ArraySlice<UInt8>, encoding: UInt8) -> (value: ArraySlice<UInt8>, rest: ArraySlice<UInt8>) {
        if encoding == 1 || encoding == 2 {
            var index = bytes.startIndex
            while index + 1 < bytes.endIndex {
                if bytes[index] == 0 && bytes[index + 1] == 0 { return (bytes[..<index], bytes[(index + 2)...]) }
                index += 2
            }
            return (bytes, [])
        }
        guard let end = bytes.firstIndex(of: 0) else { return (bytes, []) }
        return (bytes[..<end], bytes[(end + 1)...])
    }

    /// Text in ID3's encoding `encoding`: 0 ISO-8859-1, 1 UTF-16 with a byte-order mark, 2 UTF-16BE, 3 UTF-8.
    private static func decode(_ bytes: ArraySlice<UInt8>, encoding: UInt8) -> String? {
        switch encoding {
        case 0:
            return Tags.latin1(bytes)
        case 1:
            guard bytes.count >= 2 else { return bytes.isEmpty ? "" : nil }
            let s = bytes.startIndex
            if bytes[s] == 0xFF && bytes[s + 1] == 0xFE { return Tags.utf16(bytes.dropFirst(2), littleEndian: true) }
            if bytes[s] == 0xFE && bytes[s + 1] == 0xFF { return Tags.utf16(bytes.dropFirst(2), littleEndian: false) }
            return Tags.utf16(bytes, littleEndian: false)   // no mark: big-endian, as the standard's default
        case 2:
            return Tags.utf16(bytes, littleEndian: false)
        case 3:
            return Tags.utf8(bytes)
        default:
            return nil
        }
    }
}
