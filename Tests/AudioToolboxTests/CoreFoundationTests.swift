import AudioToolbox
import Foundation
import Testing

/// The Core Foundation subset from Swift, as iOS code writes it: `url as CFURL`, `"name" as
/// CFString`, CFURLCreateWithFileSystemPath with a path string, the main bundle's resources, and the
/// C functions on the C objects (which Swift retains and releases itself, as on iOS).
@Suite struct CoreFoundationTests {
    @Test func iOSSpellingsCompileAndMeanTheSame() {
        let url = URL(fileURLWithPath: "/tmp/sound.caf")
        let cfURL: CFURL = url as CFURL
        #expect(cfURL.path == "/tmp/sound.caf")
        let name = "Music" as CFString
        #expect(name == "Music")
        // The String overload is the one chosen for a CFString argument; it gives a URL.
        let made = CFURLCreateWithFileSystemPath(kCFAllocatorDefault, "/tmp/x.wav" as CFString, .cfurlposixPathStyle, false)
        #expect(made == URL(fileURLWithPath: "/tmp/x.wav"))
        #expect(CFURLCreateWithFileSystemPath(kCFAllocatorDefault, "x" as CFString, .cfurlWindowsPathStyle, false) == nil)
        let relative = CFURLCreateWithFileSystemPath(nil, "sounds/./a.caf", .cfurlposixPathStyle, false)
        #expect(relative?.path == FileManager.default.currentDirectoryPath + "/sounds/a.caf")
    }

    @Test func cStringsRoundTrip() throws {
        let text = try #require(CFStringCreateWithCString(nil, "héllo wörld", CFStringBuiltInEncodings.UTF8.rawValue))
        #expect(CFStringGetLength(text) == 11)
        var buffer = [CChar](repeating: 0, count: 64)
        #expect(CFStringGetCString(text, &buffer, 64, CFStringBuiltInEncodings.UTF8.rawValue))
        #expect(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) == "héllo wörld")
        #expect(!CFStringGetCString(text, &buffer, 64, CFStringBuiltInEncodings.ASCII.rawValue))   // not ASCII
        #expect(CFStringGetCString(text, &buffer, 64, CFStringBuiltInEncodings.isoLatin1.rawValue))
        #expect(!CFStringGetCString(text, &buffer, 5, CFStringBuiltInEncodings.UTF8.rawValue))     // does not fit
        #expect(CFStringCreateWithCString(nil, "é", CFStringBuiltInEncodings.ASCII.rawValue) == nil)
        #expect(CFStringCreateWithCString(nil, nil, CFStringBuiltInEncodings.UTF8.rawValue) == nil)
        let other = try #require(CFStringCreateWithCString(nil, "HÉLLO WÖRLD", CFStringBuiltInEncodings.UTF8.rawValue))
        #expect(CFStringCompare(text, other, []) == .compareGreaterThan)
        #expect(CFStringGetCStringPtr(text, CFStringBuiltInEncodings.UTF8.rawValue) != nil)
        #expect(CFStringGetCStringPtr(text, CFStringBuiltInEncodings.ASCII.rawValue) == nil)
        // CFSTR's function: one interned string per text.
        #expect(__CFStringMakeConstantString("Soundstage") === __CFStringMakeConstantString("Soundstage"))
    }

    @Test func fileURLsFromBytes() throws {
        let path = Array("/tmp/a b/c.wav".utf8)
        let url = try #require(CFURLCreateFromFileSystemRepresentation(nil, path, path.count, false))
        var out = [UInt8](repeating: 0, count: 64)
        #expect(CFURLGetFileSystemRepresentation(url, true, &out, 64))
        #expect(Array(out.prefix { $0 != 0 }) == path)
        #expect(!CFURLGetFileSystemRepresentation(url, true, &out, 5))
        #expect(CFURLCreateFromFileSystemRepresentation(nil, path, 0, false) == nil)
        let ext = try #require(CFURLCopyPathExtension(url))
        #expect(CFStringGetLength(ext) == 3)
        #expect(!CFURLHasDirectoryPath(url))
    }

    @Test func theMainBundleIsTheExecutablesDirectory() throws {
        let bundle = try #require(CFBundleGetMainBundle())
        let directory = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            .deletingLastPathComponent()
        let name = "soundstage-resource-\(UUID().uuidString)"
        let file = directory.appendingPathComponent(name + ".caf")
        try Data([1, 2, 3]).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(CFBundleCopyResourceURL(bundle, name as CFString, "caf" as CFString, nil) == file)
        #expect(CFBundleCopyResourceURL(bundle, name as CFString, "wav" as CFString, nil) == nil)
        #expect(CFBundleCopyResourceURL(bundle, (name + ".caf") as CFString, nil, nil) == file)
    }

    @Test func byteSwappingAndTime() {
        #expect(CFSwapInt16(0x0102) == 0x0201)
        #expect(CFSwapInt32BigToHost(0x0102_0304) == 0x0403_0201)
        #expect(CFSwapInt64HostToLittle(7) == 7)
        #expect(CFSwapInt32HostToBig(CFSwapInt32BigToHost(0xDEAD_BEEF)) == 0xDEAD_BEEF)
        let now = CFAbsoluteTimeGetCurrent()
        let expected = Date().timeIntervalSinceReferenceDate
        #expect(abs(now - expected) < 1)
    }
}
