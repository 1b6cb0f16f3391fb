import AudioToolbox
import Foundation
import SoundFile
import Testing

/// kAudioFilePropertyInfoDictionary as iOS Swift code reads it: a `CFDictionary?` filled by
/// AudioFileGetProperty (the variable owns the new dictionary), read with CFDictionaryGetValue.
/// The file's own tags come from each container's place for them (WAVE LIST/INFO, CAF info,
/// AIFF's text chunks, ID3v2 before MP3 and ADTS, MPEG-4 ilst), through a file and through a stream.
@Suite struct InfoDictionaryTests {
    @Test func theDurationIsThere() throws {
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try AudioFileFixture.write(frames: 22_050, channels: 1, .wavPCM16, name: "half.wav", in: directory)
        var fileID: AudioFileID?
        #expect(AudioFileOpenURL(url as CFURL, .readPermission, 0, &fileID) == noErr)
        let file = try #require(fileID)
        defer { #expect(AudioFileClose(file) == noErr) }
        var size: UInt32 = 0
        var writable: UInt32 = 1
        #expect(AudioFileGetPropertyInfo(file, kAudioFilePropertyInfoDictionary, &size, &writable) == noErr)
        #expect(size == UInt32(MemoryLayout<CFDictionary?>.size) && writable == 0)
        var info: CFDictionary? = nil
        #expect(AudioFileGetProperty(file, kAudioFilePropertyInfoDictionary, &size, &info) == noErr)
        let dictionary = try #require(info)
        #expect(CFDictionaryGetCount(dictionary) == 1)
        let key = try #require(__CFStringMakeConstantString(kAFInfoDictionary_ApproximateDurationInSeconds))
        let value = CFDictionaryGetValue(dictionary, Unmanaged.passUnretained(key).toOpaque())
        let text = try #require(value.map { Unmanaged<CFStringObject>.fromOpaque($0).takeUnretainedValue() })
        var buffer = [CChar](repeating: 0, count: 16)
        #expect(CFStringGetCString(text, &buffer, 16, CFStringBuiltInEncodings.UTF8.rawValue))
        #expect(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) == "0.500")
    }

    // MARK: Files FFmpeg tags

    /// FFmpeg's -metadata names, and what each container makes of them.
    static let metadata = ["-metadata", "title=Tïtle", "-metadata", "artist=Ärtist", "-metadata", "album=Ålbum", "-metadata", "date=2024",
                           "-metadata", "genre=Rock", "-metadata", "comment=A comment", "-metadata", "track=3/12",
                           "-metadata", "composer=Compöser", "-metadata", "copyright=(C) Someone", "-metadata", "author=Äuthor"]

    struct Case: CustomStringConvertible, Sendable {
        var name: String
        var arguments: [String]
        var hint: AudioFileTypeID = 0
        var expected: [String: String]
        var description: String { name }
    }

    static let cases: [Case] = [
        Case(name: "t.wav", arguments: [], expected: [
            "title": "Tïtle", "artist": "Ärtist", "album": "Ålbum", "year": "2024", "genre": "Rock", "comments": "A comment",
            "track number": "3/12", "copyright": "(C) Someone"]),
        Case(name: "t.mp3", arguments: ["-c:a", "libmp3lame"], hint: kAudioFileMP3Type, expected: [
            "title": "Tïtle", "artist": "Ärtist", "album": "Ålbum", "year": "2024", "genre": "Rock", "track number": "3/12",
            "composer": "Compöser", "copyright": "(C) Someone"]),
        Case(name: "v3.mp3", arguments: ["-c:a", "libmp3lame", "-id3v2_version", "3"], hint: kAudioFileMP3Type, expected: [
            "title": "Tïtle", "artist": "Ärtist", "album": "Ålbum", "year": "2024", "genre": "Rock", "track number": "3/12",
            "composer": "Compöser", "copyright": "(C) Someone"]),
        Case(name: "t.aac", arguments: ["-c:a", "aac", "-f", "adts", "-write_id3v2", "1"], hint: kAudioFileAAC_ADTSType, expected: [
            "title": "Tïtle", "artist": "Ärtist", "album": "Ålbum", "genre": "Rock", "track number": "3/12"]),
        Case(name: "t.m4a", arguments: ["-c:a", "aac", "-movflags", "+faststart"], expected: [
            "title": "Tïtle", "artist": "Ärtist", "album": "Ålbum", "year": "2024", "genre": "Rock", "comments": "A comment",
            "track number": "3/12", "composer": "Compöser", "copyright": "(C) Someone"]),
        Case(name: "t.aiff", arguments: [], expected: [
            "title": "Tïtle", "artist": "Äuthor", "copyright": "(C) Someone", "comments": "A comment"]),
        // CAF's keys as FFmpeg writes them (Core Audio writes the kAFInfoDictionary names).
        Case(name: "t.caf", arguments: [], expected: [
            "title": "Tïtle", "artist": "Ärtist", "album": "Ålbum", "date": "2024", "genre": "Rock", "comment": "A comment",
            "track": "3/12", "composer": "Compöser", "copyright": "(C) Someone"]),
    ]

    @Test(arguments: cases) func ffmpegsTagsThroughAFileAndAStream(_ test: Case) throws {
        let data = try ffmpegFile(test.arguments + Self.metadata, name: test.name, seconds: 0.3)
        // Through AudioFileOpenURL.
        let directory = try AudioFileFixture.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent(test.name)
        try Data(data).write(to: url)
        let fromFile = try Self.fileEntries(url)
        for (key, value) in test.expected { #expect(fromFile[key] == value, "\(test.name): \(key) from the file") }
        #expect(fromFile["approximate duration in seconds"] != nil)
        // Through a stream, whole and a byte at a time.
        for split in [Split.whole, .byteAtATime] {
            let fromStream = try Self.streamEntries(data, hint: test.hint, split: split)
            for (key, value) in test.expected { #expect(fromStream[key] == value, "\(test.name): \(key) from a stream (\(split))") }
        }
    }

    @Test func theTitleAsItsKeySaysIt() throws {
        let data = try ffmpegFile(["-c:a", "libmp3lame", "-metadata", "title=Ein Lied"], name: "k.mp3", seconds: 0.2)
        var fileID: AudioFileID?
        let box = MemoryFile(bytes: data)
        #expect(AudioFileOpenWithCallbacks(Unmanaged.passUnretained(box).toOpaque(), MemoryFile.read, nil, MemoryFile.size, nil, 0,
                                           &fileID) == noErr)
        let file = try #require(fileID)
        defer { #expect(AudioFileClose(file) == noErr) }
        var info: CFDictionary?
        var size = UInt32(MemoryLayout<CFDictionary?>.size)
        #expect(AudioFileGetProperty(file, kAudioFilePropertyInfoDictionary, &size, &info) == noErr)
        let dictionary = try #require(info)
        let key = try #require(__CFStringMakeConstantString(kAFInfoDictionary_Title))
        let value = try #require(CFDictionaryGetValue(dictionary, Unmanaged.passUnretained(key).toOpaque()))
        #expect(Self.string(value) == "Ein Lied")
        withExtendedLifetime(box) {}
    }

    // MARK: Hand-made tags

    /// An MP3 without a tag, for hand-made tags to go in front of.
    static func bareMP3() throws -> [UInt8] {
        try ffmpegFile(["-c:a", "libmp3lame", "-id3v2_version", "0", "-write_xing", "0"], name: "bare.mp3", seconds: 0.2)
    }

    @Test func id3v22LatinText() throws {
        let tag = ID3Bytes(version: 2).frame("TT2", [0] + Array("Caf\u{E9}".unicodeScalars.map { UInt8($0.value) }))
            .frame("TP1", [0] + Array("Someone".utf8)).frame("COM", [0] + Array("eng".utf8) + [0] + Array("Said".utf8))
            .frame("TYE", [0] + Array("1999".utf8)).bytes()
        let entries = try Self.bothWays(tag + Self.bareMP3(), hint: kAudioFileMP3Type)
        #expect(entries["title"] == "Café" && entries["artist"] == "Someone" && entries["comments"] == "Said"
                && entries["year"] == "1999")
    }

    @Test func id3v23UnicodeWithUnsynchronisation() throws {
        // UTF-16 with a little-endian BOM; "ÿ" is 0xFF 0x00 in UTF-16LE, which unsynchronisation escapes.
        func le(_ text: String) -> [UInt8] { [0xFF, 0xFE] + text.utf16.flatMap { unit -> [UInt8] in [UInt8(unit & 0xFF), UInt8(unit >> 8)] } }
        let utf16 = le("Tÿtle ☃")
        let description = le("d") + [0, 0]
        let comment = le("Hé")
        let tag = ID3Bytes(version: 3, unsynchronised: true).frame("TIT2", [1] + utf16)
            .frame("COMM", [1] + Array("eng".utf8) + description + comment)
            .frame("TSSE", [0] + Array("Encoder 1".utf8)).bytes()
        #expect(tag.count > 10 && zip(tag.dropFirst(10), tag.dropFirst(11)).contains { $0 == 0xFF && $1 == 0 })
        let entries = try Self.bothWays(tag + Self.bareMP3(), hint: kAudioFileMP3Type)
        #expect(entries["title"] == "Tÿtle ☃" && entries["comments"] == "Hé" && entries["encoding application"] == "Encoder 1")
    }

    @Test func id3v24EncodingsAndFrameFlags() throws {
        let utf16BE = "Ärtist".utf16.flatMap { unit -> [UInt8] in [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
        let tag = ID3Bytes(version: 4).frame("TIT2", [3] + Array("Tïtle".utf8))
            .frame("TPE1", [2] + utf16BE)
            .frame("TALB", [3] + Array("Ålbum ÿ".utf8), unsynchronised: true, dataLength: true)
            .frame("TCON", [3, 0xC3, 0x28])   // invalid UTF-8: skipped
            .frame("TCOM", [3] + Array("Comp".utf8), flags: 0x0008)   // compressed: skipped
            .frame("TRCK", [3] + Array("7".utf8)).bytes()
        let entries = try Self.bothWays(tag + Self.bareMP3(), hint: kAudioFileMP3Type)
        #expect(entries["title"] == "Tïtle" && entries["artist"] == "Ärtist" && entries["album"] == "Ålbum ÿ"
                && entries["track number"] == "7")
        #expect(entries["genre"] == nil && entries["composer"] == nil)
    }

    @Test func hostileTagsAreBoundedNeverATrap() throws {
        let bare = try Self.bareMP3()
        // A frame claiming more than the tag holds, frames without end, a text of a lone surrogate.
        let lone = ID3Bytes(version: 4).frame("TIT2", [2, 0xD8, 0x00]).bytes()
        #expect(try Self.bothWays(lone + bare, hint: kAudioFileMP3Type)["title"] == nil)
        var overrun = ID3Bytes(version: 3).frame("TIT2", [0] + Array("x".utf8)).bytes()
        overrun[14...17] = [0x7F, 0xFF, 0xFF, 0xFF]   // the frame's size
        #expect(try Self.bothWays(overrun + bare, hint: kAudioFileMP3Type)["title"] == nil)
        var many = ID3Bytes(version: 3)
        for index in 0..<500 { many = many.frame("TIT2", [0] + Array("t\(index)".utf8)) }
        #expect(try Self.bothWays(many.bytes() + bare, hint: kAudioFileMP3Type)["title"] == "t0")
        // A CAF info chunk whose count is absurd and whose strings do not end.
        var caf = try ffmpegFile([], name: "h.caf", seconds: 0.1)
        let chunks = cafChunks(caf)
        var rebuilt = Array(caf[0..<8])
        for (type, chunk) in chunks {
            if type == "data" {
                let info: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF] + Array("title".utf8) + [0] + Array("unended".utf8)
                rebuilt += Array("info".utf8) + withUnsafeBytes(of: Int64(info.count).bigEndian) { Array($0) } + info
            }
            rebuilt += chunk
        }
        caf = rebuilt
        let entries = try Self.bothWays(caf)
        #expect(entries.count == 1 && entries["approximate duration in seconds"] != nil)
    }

    @Test func riffInfoInLatin1AndAIFFTextChunks() throws {
        // A WAVE whose LIST/INFO holds ISO-8859-1 text (older tools), before the data.
        let pcm = try ffmpegFile(["-c:a", "pcm_s16le", "-bitexact"], name: "b.wav", seconds: 0.1, channels: 1)
        let dataAt = try #require((12..<(pcm.count - 4)).first { pcm[$0..<($0 + 4)] == Array("data".utf8)[...] })
        let info: [UInt8] = Array("INFO".utf8) + Array("INAM".utf8) + [5, 0, 0, 0] + [0x43, 0x61, 0x66, 0xE9, 0] + [0]
            + Array("IART".utf8) + [4, 0, 0, 0] + Array("Band".utf8)
        var wave = Array(pcm[..<dataAt]) + Array("LIST".utf8) + withUnsafeBytes(of: UInt32(info.count).littleEndian) { Array($0) } + info
            + Array(pcm[dataAt...])
        let riffSize = UInt32(wave.count - 8)
        wave[4...7] = ArraySlice(withUnsafeBytes(of: riffSize.littleEndian) { Array($0) })
        let entries = try Self.bothWays(wave)
        #expect(entries["title"] == "Café" && entries["artist"] == "Band")
    }

    @Test func aStreamsDictionaryWaitsForItsHeader() throws {
        // Before the header is parsed: kAudioFileStreamError_DataUnavailable.
        let recorder = StreamRecorder(hint: 0)
        defer { recorder.close() }
        let stream = try #require(recorder.streamID)
        var info: CFDictionary?
        var size = UInt32(MemoryLayout<CFDictionary?>.size)
        #expect(AudioFileStreamGetProperty(stream, kAudioFileStreamProperty_InfoDictionary, &size, &info) == kAudioFileStreamError_DataUnavailable)
        #expect(info == nil)
        var writable = true
        #expect(AudioFileStreamGetPropertyInfo(stream, kAudioFileStreamProperty_InfoDictionary, &size, &writable) == kAudioFileStreamError_DataUnavailable)
        // An MP3 stream without a Xing header states no length: its dictionary has no duration.
        let mp3 = ID3Bytes(version: 3).frame("TIT2", [0] + Array("T".utf8)).bytes() + (try Self.bareMP3())
        let entries = try Self.streamEntries(mp3, hint: kAudioFileMP3Type, split: .whole)
        #expect(entries == ["title": "T"])
    }

    // MARK: Reading the dictionary

    /// The dictionary's entries through a file opened on the bytes and through a stream, which must agree
    /// (but for the duration, which a stream knows only when its header states its length).
    static func bothWays(_ data: [UInt8], hint: AudioFileTypeID = 0) throws -> [String: String] {
        let box = MemoryFile(bytes: data)
        var fileID: AudioFileID?
        let status = AudioFileOpenWithCallbacks(Unmanaged.passUnretained(box).toOpaque(), MemoryFile.read, nil, MemoryFile.size, nil,
                                                0, &fileID)
        #expect(status == noErr)
        let file = try #require(fileID)
        defer { _ = AudioFileClose(file) }
        let fromFile = try entries { size, info in AudioFileGetProperty(file, kAudioFilePropertyInfoDictionary, &size, &info) }
        for split in Split.allCases {
            var fromStream = try streamEntries(data, hint: hint, split: split)
            var withoutDuration = fromFile
            withoutDuration["approximate duration in seconds"] = nil
            fromStream["approximate duration in seconds"] = nil
            #expect(fromStream == withoutDuration, "a stream (\(split)) and a file disagree")
        }
        withExtendedLifetime(box) {}
        return fromFile
    }

    static func fileEntries(_ url: URL) throws -> [String: String] {
        var fileID: AudioFileID?
        #expect(AudioFileOpenURL(url as CFURL, .readPermission, 0, &fileID) == noErr)
        let file = try #require(fileID)
        defer { _ = AudioFileClose(file) }
        return try entries { size, info in AudioFileGetProperty(file, kAudioFilePropertyInfoDictionary, &size, &info) }
    }

    static func streamEntries(_ data: [UInt8], hint: AudioFileTypeID, split: Split) throws -> [String: String] {
        let recorder = StreamRecorder(hint: hint)
        defer { recorder.close() }
        var random = SplitMix(seed: 46)
        switch split {
        case .whole: recorder.feed(data, pieces: { $0 })
        case .byteAtATime: recorder.feed(data, pieces: { _ in 1 })
        case .random: recorder.feed(data, pieces: { _ in Int.random(in: 1...3_000, using: &random) })
        }
        #expect(recorder.errors.isEmpty)
        let stream = try #require(recorder.streamID)
        return try entries { size, info in AudioFileStreamGetProperty(stream, kAudioFileStreamProperty_InfoDictionary, &size, &info) }
    }

    /// Every entry of the dictionary `get` makes.
    static func entries(_ get: (inout UInt32, inout CFDictionary?) -> OSStatus) throws -> [String: String] {
        var info: CFDictionary?
        var size = UInt32(MemoryLayout<CFDictionary?>.size)
        #expect(get(&size, &info) == noErr)
        let dictionary = try #require(info)
        let count = CFDictionaryGetCount(dictionary)
        var keys = [UnsafeRawPointer?](repeating: nil, count: count)
        var values = [UnsafeRawPointer?](repeating: nil, count: count)
        CFDictionaryGetKeysAndValues(dictionary, &keys, &values)
        var out: [String: String] = [:]
        for (key, value) in zip(keys, values) {
            out[string(try #require(key))] = string(try #require(value))
        }
        return out
    }

    /// A CFString's text.
    static func string(_ pointer: UnsafeRawPointer) -> String {
        let text = Unmanaged<CFStringObject>.fromOpaque(pointer).takeUnretainedValue()
        var buffer = [CChar](repeating: 0, count: 1 << 17)
        guard CFStringGetCString(text, &buffer, buffer.count, CFStringBuiltInEncodings.UTF8.rawValue) else { return "?" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// An ID3v2 tag built frame by frame.
struct ID3Bytes {
    var version: UInt8
    var unsynchronised = false
    private var frames: [UInt8] = []

    init(version: UInt8, unsynchronised: Bool = false) {
        self.version = version
        self.unsynchronised = unsynchronised
    }

    /// Adds a frame; for 2.4, `unsynchronised` escapes its body and says so, `dataLength` adds the
    /// data length indicator, `flags` adds other format flags.
    func frame(_ id: String, _ body: [UInt8], unsynchronised frameUnsync: Bool = false, dataLength: Bool = false,
               flags: UInt16 = 0) -> ID3Bytes {
        var copy = self
        var payload = body
        var formatFlags = flags
        if version == 4 {
            if frameUnsync {
                payload = Self.unsynchronise(payload)
                formatFlags |= 0x0002
            }
            if dataLength {
                payload = Self.synchsafe(body.count) + payload
                formatFlags |= 0x0001
            }
        }
        copy.frames += Array(id.utf8)
        switch version {
        case 2: copy.frames += [UInt8(payload.count >> 16 & 0xFF), UInt8(payload.count >> 8 & 0xFF), UInt8(payload.count & 0xFF)]
        case 3: copy.frames += withUnsafeBytes(of: UInt32(payload.count).bigEndian) { Array($0) }
        default: copy.frames += Self.synchsafe(payload.count)
        }
        if version >= 3 { copy.frames += [UInt8(formatFlags >> 8), UInt8(formatFlags & 0xFF)] }
        copy.frames += payload
        return copy
    }

    /// The whole tag, with 16 bytes of padding.
    func bytes() -> [UInt8] {
        var body = frames + [UInt8](repeating: 0, count: 16)
        if unsynchronised && version < 4 { body = Self.unsynchronise(body) }
        return Array("ID3".utf8) + [version, 0, unsynchronised ? 0x80 : 0] + Self.synchsafe(body.count) + body
    }

    static func synchsafe(_ value: Int) -> [UInt8] {
        [UInt8(value >> 21 & 0x7F), UInt8(value >> 14 & 0x7F), UInt8(value >> 7 & 0x7F), UInt8(value & 0x7F)]
    }

    /// A zero after every 0xFF that is followed by 0 or by 0xE0 and up (and at the end).
    static func unsynchronise(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        for (index, byte) in bytes.enumerated() {
            out.append(byte)
            if byte == 0xFF && (index + 1 == bytes.count || bytes[index + 1] == 0 || bytes[index + 1] >= 0xE0) { out.append(0) }
        }
        return out
    }
}
