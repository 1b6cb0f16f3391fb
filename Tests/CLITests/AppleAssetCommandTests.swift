import AudioToolbox
import Foundation
import SoundFile
import Testing

/// `soundstage afinfo` and `soundstage afconvert`: Apple's asset commands as a game's asset scripts
/// call them, their output read as the scripts read it, and afconvert's files read back by Audio
/// File Services and by SoundFile (libsndfile and FFmpeg, which share no code with the writer).
@Suite struct AppleAssetCommandTests {
    /// A 0.5 s stereo 44.1 kHz 16-bit WAVE file.
    private func wave(in dir: URL, name: String = "tone.wav") throws -> String {
        let samples = (0..<44_100).map { Float(0.5 * sin(2 * Double.pi * 440 * Double($0 / 2) / 44_100)) }
        let path = dir.appendingPathComponent(name).path
        try SoundFileWriter.write(SoundBuffer(samples: samples, channels: 2, sampleRate: 44_100), to: path, format: .wavPCM16)
        return path
    }

    @Test func afinfoDescribesAFileAsApplesDoes() throws {
        let dir = try CLIRunner.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try wave(in: dir)
        let result = try CLIRunner.run(["afinfo", path])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("File:           \(path)"))
        #expect(lines.contains("File type ID:   WAVE"))
        #expect(lines.contains("Data format:     2 ch,  44100 Hz, 'lpcm' (0x0000000C) 16-bit little-endian signed integer"))
        #expect(lines.contains("estimated duration: 0.500000 sec"))
        #expect(lines.contains("audio packets: 22050") && lines.contains("audio bytes: 88200"))
        #expect(lines.contains("bit rate: 1411200 bits per second"))
        #expect(lines.contains("audio data file offset: 44") && lines.contains("source bit depth: I16"))
        #expect(result.stderr.isEmpty)
    }

    @Test func afinfoBriefIsOneLineAFileAndGoesOnPastABadOne() throws {
        let dir = try CLIRunner.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = try wave(in: dir, name: "a.wav"), second = try wave(in: dir, name: "b.wav")
        let text = dir.appendingPathComponent("notes.txt").path
        try "not audio".write(toFile: text, atomically: true, encoding: .utf8)
        let result = try CLIRunner.run(["afinfo", "-b", first, text, dir.appendingPathComponent("missing.wav").path, second])
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 2 && lines[0].hasPrefix("\(first): 'WAVE',  2 ch,  44100 Hz,") && lines[1].hasPrefix("\(second): "))
        let errors = result.stderr.split(separator: "\n")
        #expect(errors.count == 2)
        #expect(errors.first?.hasSuffix("not an audio file type Audio File Services reads ('typ?')") == true)
        #expect(errors.last?.hasSuffix("no such file (-43)") == true)
    }

    @Test func afinfoUsageErrorsAreStatus64() throws {
        let none = try CLIRunner.run(["afinfo"])
        #expect(none.status == 64 && none.stderr.contains("no file given"))
        let unknown = try CLIRunner.run(["afinfo", "-q", "x.wav"])
        #expect(unknown.status == 64 && unknown.stderr.contains("unknown option '-q'"))
        let help = try CLIRunner.run(["afinfo", "-h"])
        #expect(help.status == 0 && help.stdout.contains("afinfo"))
    }

    // MARK: - afconvert

    /// The file's data format, packet table (nil without one) and frames SoundFile decodes.
    private func facts(_ path: String) throws -> (format: AudioStreamBasicDescription, table: AudioFilePacketTableInfo?, type: AudioFileTypeID,
                                                  decoded: [Float]) {
        var fileID: AudioFileID?
        try #require(AudioFileOpenURL(URL(fileURLWithPath: path) as CFURL, .readPermission, 0, &fileID) == noErr, "\(path)")
        let file = try #require(fileID)
        defer { AudioFileClose(file) }
        var format = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        #expect(AudioFileGetProperty(file, kAudioFilePropertyDataFormat, &size, &format) == noErr)
        var table = AudioFilePacketTableInfo()
        size = UInt32(MemoryLayout<AudioFilePacketTableInfo>.size)
        let hasTable = AudioFileGetProperty(file, kAudioFilePropertyPacketTableInfo, &size, &table) == noErr
        var type: AudioFileTypeID = 0
        size = 4
        #expect(AudioFileGetProperty(file, kAudioFilePropertyFileFormat, &size, &type) == noErr)
        var decoded: [Float] = []
        if let sound = try? SoundFile(path: path) {
            while true {
                let chunk = try sound.read(frames: 4_096)
                if chunk.samples.isEmpty { break }
                decoded += chunk.samples
            }
        }
        return (format, hasTable ? table : nil, type, decoded)
    }

    @Test func afconvertEncodesAsAsked() throws {
        try #require(FFmpeg.isAvailable)
        let dir = try CLIRunner.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try wave(in: dir)   // 22,050 stereo frames, 16-bit
        let source = try facts(input).decoded

        // afconvert -f caff -d aac in.wav out.caf
        let caf = dir.appendingPathComponent("out.caf").path
        var result = try CLIRunner.run(["afconvert", "-f", "caff", "-d", "aac", input, caf])
        #expect(result.status == 0 && result.stderr.isEmpty && result.stdout.isEmpty, "\(result.stderr)")
        var file = try facts(caf)
        #expect(file.type == kAudioFileCAFType && file.format.mFormatID == kAudioFormatMPEG4AAC && file.format.mChannelsPerFrame == 2)
        #expect(file.table?.mNumberValidFrames == 22_050 && file.table?.mPrimingFrames == 2_112)
        #expect(file.decoded.count == source.count, "SoundFile decodes \(file.decoded.count / 2) frames")

        // -d alac into M4A, -o: lossless, so SoundFile decodes the input's samples exactly.
        let m4a = dir.appendingPathComponent("out.m4a").path
        result = try CLIRunner.run(["afconvert", "-d", "alac", "-f", "m4af", input, "-o", m4a])
        #expect(result.status == 0, "\(result.stderr)")
        file = try facts(m4a)
        #expect(file.format.mFormatID == kAudioFormatAppleLossless && file.format.mFormatFlags == kAppleLosslessFormatFlag_16BitSourceData)
        #expect(file.decoded == source)

        // A bit rate and a quality: a larger file than the default's.
        let loud = dir.appendingPathComponent("192k.m4a").path
        result = try CLIRunner.run(["afconvert", "-f", "m4af", "-d", "aac", "-b", "192000", "-q", "127", input, loud])
        #expect(result.status == 0, "\(result.stderr)")
        let small = dir.appendingPathComponent("64k.m4a").path
        result = try CLIRunner.run(["afconvert", "-f", "m4af", "-d", "aac", "-b", "64000", input, small])
        #expect(result.status == 0, "\(result.stderr)")
        let sizes = try [loud, small].map { try FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int ?? 0 }
        #expect(sizes[0] > 2 * sizes[1], "\(sizes)")
    }

    @Test func afconvertWritesPCMAndTheOldCodecs() throws {
        let dir = try CLIRunner.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try wave(in: dir)
        let source = try facts(input).decoded
        // LEF32@48000 in WAVE: resampled, ⌈22050 × 48000 / 44100⌉ frames.
        let float = dir.appendingPathComponent("f32.wav").path
        var result = try CLIRunner.run(["afconvert", "-f", "WAVE", "-d", "LEF32@48000", input, float])
        #expect(result.status == 0, "\(result.stderr)")
        var file = try facts(float)
        #expect(file.format.mSampleRate == 48_000 && file.format.mBitsPerChannel == 32 && file.format.mFormatFlags & kAudioFormatFlagIsFloat != 0)
        #expect(file.decoded.count == 2 * 24_000)
        // BEI24 in AIFF: exact (16 bits in 24).
        let aiff = dir.appendingPathComponent("i24.aiff").path
        result = try CLIRunner.run(["afconvert", "-f", "AIFF", "-d", "BEI24", input, aiff])
        #expect(result.status == 0, "\(result.stderr)")
        file = try facts(aiff)
        #expect(file.format.mBitsPerChannel == 24 && file.format.mFormatFlags & kAudioFormatFlagIsBigEndian != 0)
        #expect(file.decoded == source)
        // I16 mono (-c 1: the channels' mean), UI8 in WAVE, IMA4 in AIFC, µ-law in WAVE, A-law in CAF.
        for (args, name, formatID, channels) in [(["-d", "I16", "-c", "1"], "mono.caf", kAudioFormatLinearPCM, UInt32(1)),
                                                 (["-f", "WAVE", "-d", "UI8"], "u8.wav", kAudioFormatLinearPCM, 2),
                                                 (["-f", "AIFC", "-d", "ima4"], "ima4.aifc", kAudioFormatAppleIMA4, 2),
                                                 (["-f", "WAVE", "-d", "ulaw"], "ulaw.wav", kAudioFormatULaw, 2),
                                                 (["-d", "alaw"], "alaw.caf", kAudioFormatALaw, 2)] {
            let out = dir.appendingPathComponent(name).path
            result = try CLIRunner.run(["afconvert"] + args + [input, out])
            #expect(result.status == 0, "\(name): \(result.stderr)")
            file = try facts(out)
            #expect(file.format.mFormatID == formatID && file.format.mChannelsPerFrame == channels, "\(name)")
            if !name.hasSuffix(".aifc") {
                let frames = file.decoded.count / Int(channels)
                #expect(frames == 22_050, "\(name): \(frames) frames")
                // The tone is there, at its level (a half-scale sine's RMS is 0.354).
                let left = stride(from: 0, to: file.decoded.count, by: Int(channels)).map { file.decoded[$0] }
                let rms = (left.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(left.count)).squareRoot()
                #expect(abs(rms - 0.3536) < 0.01, "\(name): RMS \(rms)")
            }
        }
        // No output named: the input's name with the type's extension, beside it.
        result = try CLIRunner.run(["afconvert", "-f", "caff", "-d", "LEI16", input])
        #expect(result.status == 0 && FileManager.default.fileExists(atPath: dir.appendingPathComponent("tone.caf").path), "\(result.stderr)")
        // -v prints the formats.
        result = try CLIRunner.run(["afconvert", "-v", "-d", "BEI16", input, dir.appendingPathComponent("v.aiff").path])
        #expect(result.stdout.contains("Input file: \(input), 22050 frames") && result.stdout.contains("Output file:"), "\(result.stdout)")
    }

    @Test func afconvertListsAndRefuses() throws {
        let dir = try CLIRunner.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try wave(in: dir)
        let formats = try CLIRunner.run(["afconvert", "-hf"])
        #expect(formats.status == 0 && formats.stdout.contains("'caff' = CAF (.caf)") && formats.stdout.contains("'WAVE' = WAVE"))
        #expect(formats.stdout.contains("'lpcm'") && formats.stdout.contains("'ima4'"))
        let data = try CLIRunner.run(["afconvert", "-hd"])
        #expect(data.status == 0 && data.stdout.contains("'ulaw' ulaw") && data.stdout.contains("[BE|LE]{F|[U]I}{8|16|24|32|64}"))
        let help = try CLIRunner.run(["afconvert", "-h"])
        #expect(help.status == 0 && help.stdout.contains("afconvert"))
        // Usage errors: status 64, one line.
        for args in [[String](), ["-d", "XYZ12", input, "x.wav"], ["-f", "mp3 ", input, "x.mp3"], ["-q", "200", input, "x.caf"],
                     ["--frobnicate", input], [input, "a.caf", "b.caf"], ["-c"]] {
            let result = try CLIRunner.run(["afconvert"] + args, in: dir)
            #expect(result.status == 64, "\(args): \(result.status) \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(args): \(result.stderr)")
        }
        // Failures: status 1, one line, no output file left.
        for (args, out) in [(["-f", "WAVE", "-d", "aac"], "aac.wav"), (["-d", "I16"], "missing-input.caf"), (["-d", "aac@44101", "-f", "m4af"], "odd.m4a")] {
            let source = out == "missing-input.caf" ? dir.appendingPathComponent("nothing.wav").path : input
            let result = try CLIRunner.run(["afconvert"] + args + [source, dir.appendingPathComponent(out).path])
            #expect(result.status == 1, "\(args): \(result.status) \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(args): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent(out).path), "\(out) left behind")
        }
        let same = try CLIRunner.run(["afconvert", "-f", "WAVE", "-d", "LEI16", input, input])
        #expect(same.status == 1 && same.stderr.contains("the output is the input"))
        #expect(try facts(input).decoded.count == 2 * 22_050)   // untouched
        // --soundcheck-generate: accepted, a note, the file written.
        let checked = try CLIRunner.run(["afconvert", "--soundcheck-generate", "-d", "LEI16", input, dir.appendingPathComponent("sc.caf").path])
        #expect(checked.status == 0 && checked.stderr.contains("--soundcheck-generate accepted and ignored"))
    }
}
