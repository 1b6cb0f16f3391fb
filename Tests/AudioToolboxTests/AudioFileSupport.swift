import AudioToolbox
import Foundation
import SoundFile

/// Files for the Audio File Services tests, written by Soundstage's own SoundFileWriter, and the
/// helpers iOS code would have: open, get a property, read every packet.
enum AudioFileFixture {
    /// A fresh directory for one test's files.
    static func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("audio-file-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A test signal: a sine per channel plus a ramp, so neighbouring samples differ (interleaved).
    static func signal(frames: Int, channels: Int, sampleRate: Int = 44_100) -> [Float] {
        var samples: [Float] = []
        samples.reserveCapacity(frames * channels)
        for frame in 0..<frames {
            for channel in 0..<channels {
                let phase = Double(frame) * Double(220 * (channel + 1)) / Double(sampleRate) * 2 * .pi
                samples.append(Float(0.6 * sin(phase) + 0.3 * Double(frame % 97) / 97.0 - 0.15))
            }
        }
        return samples
    }

    /// Writes `frames` frames of the test signal in `format` to `name` in `directory` (44.1 kHz).
    static func write(frames: Int, channels: Int, _ format: OutputFormat, name: String, in directory: URL) throws -> URL {
        let url = directory.appendingPathComponent(name)
        // `.init`: Core Audio's AudioBuffer and SoundFile's share a name; the parameter picks SoundFile's.
        try SoundFileWriter.write(.init(samples: signal(frames: frames, channels: channels), channels: channels, sampleRate: 44_100),
                                  to: url.path, format: format)
        return url
    }

    /// Everything SoundFile decodes from the file, interleaved.
    static func decoded(_ url: URL) throws -> [Float] {
        let file = try SoundFile(path: url.path)
        var all: [Float] = []
        while true {
            let chunk = try file.read(frames: 4096)
            if chunk.samples.isEmpty { return all }
            all += chunk.samples
        }
    }
}

/// A property of a fixed-size type, as iOS code reads one.
func property<T: BitwiseCopyable>(_ file: AudioFileID, _ id: AudioFilePropertyID, _ initial: T) -> (OSStatus, T) {
    var value = initial
    var size = UInt32(MemoryLayout<T>.size)
    let status = AudioFileGetProperty(file, id, &size, &value)
    return (status, value)
}

/// Every packet's bytes (and descriptions, for variable packets), read with AudioFileReadPacketData
/// in chunks of `chunkBytes`, as a queue player's callback reads them.
func readAllPackets(_ file: AudioFileID, chunkBytes: Int = 32_768) -> (status: OSStatus, bytes: [UInt8], descriptions: [AudioStreamPacketDescription]) {
    var (status, upperBound) = property(file, kAudioFilePropertyPacketSizeUpperBound, UInt32(0))
    guard status == noErr else { return (status, [], []) }
    let format = property(file, kAudioFilePropertyDataFormat, AudioStreamBasicDescription()).1
    let variable = format.mBytesPerPacket == 0   // only variable packets have descriptions
    let room = max(chunkBytes, Int(upperBound))
    var buffer = [UInt8](repeating: 0, count: room)
    var descriptions = [AudioStreamPacketDescription](repeating: AudioStreamPacketDescription(), count: room)
    var all: [UInt8] = []
    var allDescriptions: [AudioStreamPacketDescription] = []
    var packet: Int64 = 0
    while true {
        var numBytes = UInt32(room)
        var numPackets = UInt32(room)
        status = AudioFileReadPacketData(file, false, &numBytes, &descriptions, packet, &numPackets, &buffer)
        if status == kAudioFileEndOfFileError || numPackets == 0 { break }
        guard status == noErr else { return (status, all, allDescriptions) }
        for index in 0..<Int(numPackets) where variable {
            var description = descriptions[index]
            description.mStartOffset += Int64(all.count)
            allDescriptions.append(description)
        }
        all += buffer[0..<Int(numBytes)]
        packet += Int64(numPackets)
    }
    return (noErr, all, allDescriptions)
}

/// Linear PCM bytes as floats, scaled as libsndfile scales them (so SoundFile's decode compares exactly).
func floats(fromLinearPCM bytes: [UInt8], _ asbd: AudioStreamBasicDescription) -> [Float] {
    let width = Int(asbd.mBytesPerFrame / asbd.mChannelsPerFrame)
    let big = asbd.mFormatFlags & kAudioFormatFlagIsBigEndian != 0
    let isFloat = asbd.mFormatFlags & kAudioFormatFlagIsFloat != 0
    let signed = asbd.mFormatFlags & kAudioFormatFlagIsSignedInteger != 0
    var out: [Float] = []
    out.reserveCapacity(bytes.count / width)
    var at = 0
    while at + width <= bytes.count {
        var raw: UInt64 = 0
        for k in 0..<width { raw |= UInt64(bytes[at + (big ? width - 1 - k : k)]) << (8 * k) }
        at += width
        if isFloat {
            out.append(width == 4 ? Float(bitPattern: UInt32(raw)) : Float(Double(bitPattern: raw)))
        } else if !signed {
            out.append((Float(raw) - 128) / 128)
        } else {
            let shift = 64 - 8 * width
            let value = Int64(bitPattern: raw << shift) >> shift
            out.append(Float(Double(value) / Double(Int64(1) << (8 * width - 1))))
        }
    }
    return out
}
