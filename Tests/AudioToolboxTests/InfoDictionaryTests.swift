import AudioToolbox
import Foundation
import SoundFile
import Testing

/// kAudioFilePropertyInfoDictionary as iOS Swift code reads it: a `CFDictionary?` filled by
/// AudioFileGetProperty (the variable owns the new dictionary), read with CFDictionaryGetValue.
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
}
