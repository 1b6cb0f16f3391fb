import Foundation
import SoundFile
import Testing
import TestSupport

/// Tests/C/audio_format.c, audio_file.c, audio_file_stream.c, audio_converter.c, audio_queue_offline.c, audio_units.c,
/// audio_queue_player.c (the books' command-line file player, in real time on OpenAL Soft's null
/// output; CProgramsOnTheDesktop/AudioQueuePlayerDesktopTests hears it on real servers), audio_session.c,
/// openal_loader.c, openal_orbit.c (on OpenAL Soft's wave writer), recorder_to_file.c and openal_extensions.c, C programs in the style of the Core Audio books and of iOS games, compiled as
/// C99 and as C++17 by clang and clang++ with every warning an error, linked against the debug
/// build's libSoundstageC.so (which carries the AudioToolbox functions), and run: each checks its
/// own results and ends with "N passed, 0 failed". scripts/test-c.sh runs them built by gcc and g++.
@Suite struct CProgramTests {
    /// clang as C99 and clang++ as C++17: scripts/test-c.sh builds and runs every one of these
    /// programs with gcc and g++ (and once more with AddressSanitizer), so the suite adds the
    /// other compiler rather than run the same builds again.
    static let compilers = [["clang", "-std=c99"], ["clang++", "-x", "c++", "-std=c++17"]]

    /// The repository's root, from this file's place in it.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The directory holding the built libSoundstageC.so, above the test bundle.
    static let libraryDirectory: URL? = {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while dir.path != "/" {
            if FileManager.default.fileExists(atPath: dir.appendingPathComponent("libSoundstageC.so").path) { return dir }
            dir.deleteLastPathComponent()
        }
        return nil
    }()

    /// Runs a program, returning its status and what it printed (both streams).
    static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// A fresh directory for one test's program and files.
    static func workDirectory(_ prefix: String) throws -> URL {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        return work
    }

    /// Compiles Tests/C/NAME.c with `compiler` and every warning an error, against the debug build's
    /// libSoundstageC.so; the program's path, or nil (and a recorded issue) when it did not compile.
    static func compile(_ name: String, with compiler: [String], in work: URL,
                        sourceLocation: SourceLocation = #_sourceLocation) throws -> String? {
        let library = try #require(Self.libraryDirectory, "no libSoundstageC.so above \(CommandLine.arguments[0])",
                                   sourceLocation: sourceLocation)
        let program = work.appendingPathComponent(name).path
        let compile = try Self.run(compiler + ["-Wall", "-Wextra", "-Werror", "-pedantic",
                                               "-I", Self.root.appendingPathComponent("Sources/CAudioToolbox/include").path,
                                               Self.root.appendingPathComponent("Tests/C/\(name).c").path,
                                               "-L", library.path, "-l:libSoundstageC.so", "-Wl,-rpath," + library.path, "-lopenal", "-lm", "-o", program])
        #expect(compile.status == 0, "\(compiler.joined(separator: " ")): \(compile.output)", sourceLocation: sourceLocation)
        return compile.status == 0 ? program : nil
    }

    @Test(arguments: Self.compilers)
    func theCProgramPasses(compiler: [String]) throws {
        let work = try Self.workDirectory("audio-format")
        defer { try? FileManager.default.removeItem(at: work) }
        guard let program = try Self.compile("audio_format", with: compiler, in: work) else { return }
        let result = try Self.run([program])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains(" passed, 0 failed"), "\(result.output)")
    }

    @Test(arguments: Self.compilers)
    func theAudioFileProgramPasses(compiler: [String]) throws {
        let work = try Self.workDirectory("audio-file-c")
        defer { try? FileManager.default.removeItem(at: work) }
        guard let program = try Self.compile("audio_file", with: compiler, in: work) else { return }
        // Files the program did not write itself: Apple Lossless and IMA4 in CAF, by SoundFileWriter.
        let alac = try AudioFileFixture.write(frames: 10_000, channels: 2, .cafALAC, name: "alac.caf", in: work)
        let ima4 = try AudioFileFixture.write(frames: 1_000, channels: 1, .cafIMA4, name: "ima4.caf", in: work)
        let m4a = try AudioFileFixture.write(frames: 10_000, channels: 2, .m4aALAC, name: "alac.m4a", in: work)
        let mp3 = try AudioFileFixture.write(frames: 10_000, channels: 1, .mp3, name: "mono.mp3", in: work)
        let result = try Self.run([program, alac.path, ima4.path, m4a.path, mp3.path])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains(" passed, 0 failed"), "\(result.output)")
        #expect(result.output.contains("alac.caf: 'alac', 44100 Hz, 2 channels, 0 bits, 0 bytes and 4096 frames a packet, 3 packets"),
                "\(result.output)")
        #expect(result.output.contains("ima4.caf: 'ima4', 44100 Hz, 1 channels, 0 bits, 34 bytes and 64 frames a packet, 16 packets"),
                "\(result.output)")
        #expect(result.output.contains("alac.m4a: 'alac', 44100 Hz, 2 channels"), "\(result.output)")
        #expect(result.output.contains("mono.mp3: '.mp3', 44100 Hz, 1 channels, 0 bits, 0 bytes and 1152 frames a packet"),
                "\(result.output)")
    }

    @Test(arguments: Self.compilers)
    func theOfflineAudioQueueProgramPasses(compiler: [String]) throws {
        let work = try Self.workDirectory("audio-queue-c")
        defer { try? FileManager.default.removeItem(at: work) }
        guard let program = try Self.compile("audio_queue_offline", with: compiler, in: work) else { return }
        let result = try Self.run([program, work.path])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("audio_queue_offline: 51 passed, 0 failed"), "\(result.output)")
    }

    /// Tests/C/audio_units.c: Audio Units and AUGraph pulled offline through the generic output.
    @Test(arguments: Self.compilers)
    func theAudioUnitsProgramPasses(compiler: [String]) throws {
        let work = try Self.workDirectory("audio-units-c")
        defer { try? FileManager.default.removeItem(at: work) }
        guard let program = try Self.compile("audio_units", with: compiler, in: work) else { return }
        let result = try Self.run([program])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("audio_units: ") && result.output.contains(" passed, 0 failed"), "\(result.output)")
    }

    @Test(.enabled(if: AudioQueuePlayerInputs.ffmpeg != nil),
          arguments: Self.compilers)
    func theAudioQueuePlayerProgramPasses(compiler: [String]) throws {
        let work = try Self.workDirectory("audio-queue-player-c")
        defer { try? FileManager.default.removeItem(at: work) }
        guard let program = try Self.compile("audio_queue_player", with: compiler, in: work) else { return }
        // AAC, MP3, Apple Lossless, IMA4 and 16-bit PCM, 0.3 s each, played in real time on the app's
        // output: with no desktop server, OpenAL Soft's null output (it mixes in real time, plays nowhere).
        let files = try AudioQueuePlayerInputs.make(in: work)
        let result = try Self.run(["PULSE_SERVER=unix:/nonexistent", "ALSOFT_DRIVERS=null", "ALSOFT_LOGLEVEL=0", program] + files.map(\.path))
        #expect(result.status == 0, "\(result.output)")
        // Its checks (179 with these files; a few are per buffer) all pass.
        let summary = result.output.split(separator: "\n").first { $0.hasPrefix("audio_queue_player: ") }
        let passed = summary.flatMap { Int($0.dropFirst("audio_queue_player: ".count).prefix { $0.isNumber }) } ?? 0
        #expect(passed >= 170 && summary?.hasSuffix(" passed, 0 failed") == true, "\(result.output)")
        for line in ["player-aac.m4a: 'aac ', 44100 Hz, 2 channels", "player.mp3: '.mp3', 44100 Hz, 1 channels",
                     "player-alac.m4a: 'alac', 44100 Hz, 2 channels", "player-ima4.caf: 'ima4', 44100 Hz, 1 channels",
                     "player.wav: 'lpcm', 44100 Hz, 2 channels"] {
            #expect(result.output.contains(line), "\(result.output)")
        }
        #expect(result.output.components(separatedBy: "IsRunning 1 then 0 after").count == 6, "\(result.output)")
    }

    @Test(arguments: Self.compilers)
    func theAudioSessionProgramPasses(compiler: [String]) throws {
        let work = try Self.workDirectory("audio-session-c")
        defer { try? FileManager.default.removeItem(at: work) }
        guard let program = try Self.compile("audio_session", with: compiler, in: work) else { return }
        // The session opens the app's default output: with no desktop server, OpenAL Soft's null
        // output, which mixes in real time (so the click ends and its completion comes) and plays nowhere.
        let result = try Self.run(["PULSE_SERVER=unix:/nonexistent", "ALSOFT_DRIVERS=null", "ALSOFT_LOGLEVEL=0", program, work.path])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("audio_session: 50 passed, 0 failed"), "\(result.output)")
    }

    @Test(arguments: Self.compilers)
    func theAudioConverterProgramPasses(compiler: [String]) throws {
        let work = try Self.workDirectory("audio-converter-c")
        defer { try? FileManager.default.removeItem(at: work) }
        guard let program = try Self.compile("audio_converter", with: compiler, in: work) else { return }
        // Files to decode: AAC and Apple Lossless in M4A, MP3, IMA4 in CAF.
        let aac = try AudioFileFixture.write(frames: 20_000, channels: 2, .m4aAAC, name: "aac.m4a", in: work)
        let alac = try AudioFileFixture.write(frames: 10_000, channels: 2, .m4aALAC, name: "alac.m4a", in: work)
        let mp3 = try AudioFileFixture.write(frames: 10_000, channels: 1, .mp3, name: "mono.mp3", in: work)
        let ima4 = try AudioFileFixture.write(frames: 1_000, channels: 1, .cafIMA4, name: "ima4.caf", in: work)
        let result = try Self.run([program, aac.path, alac.path, mp3.path, ima4.path])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains(" passed, 0 failed"), "\(result.output)")
        #expect(result.output.contains("aac.m4a: 'aac ', 44100 Hz, 2 channels"), "\(result.output)")
        #expect(result.output.contains("alac.m4a: 'alac', 44100 Hz, 2 channels: 10000 frames decoded"), "\(result.output)")
        #expect(result.output.contains("ima4.caf: 'ima4', 44100 Hz, 1 channels: 1024 frames decoded"), "\(result.output)")
    }

    @Test(arguments: Self.compilers)
    func theAudioFileStreamProgramPasses(compiler: [String]) throws {
        let work = try Self.workDirectory("audio-file-stream-c")
        defer { try? FileManager.default.removeItem(at: work) }
        guard let program = try Self.compile("audio_file_stream", with: compiler, in: work) else { return }
        // Besides the streams it writes itself: an MP3 that libsndfile's LAME wrote (an Info frame, LAME's tag).
        let mp3 = try AudioFileFixture.write(frames: 30_000, channels: 2, .mp3, name: "song.mp3", in: work)
        let result = try Self.run([program, mp3.path])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains(" passed, 0 failed"), "\(result.output)")
        #expect(result.output.contains("-junk: "), "\(result.output)")
        #expect(result.output.contains("song.mp3: "), "\(result.output)")
    }

    @Test(arguments: Self.compilers)
    func theOpenALLoaderProgramPasses(compiler: [String]) throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("openal-loader-c-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        guard let program = try Self.compile("openal_loader", with: compiler, in: work) else { return }
        // One second of a sine in each: PCM, and (with FFmpeg) AAC, Apple Lossless and MP3.
        var files: [(OutputFormat, String, Int)] = [(.wavPCM16, "tone.wav", 2), (.cafIMA4, "tone-ima4.caf", 1), (.aiffPCM16, "tone.aiff", 1)]
        if FFmpeg.isAvailable { files += [(.m4aAAC, "tone.m4a", 2), (.cafALAC, "tone-alac.caf", 1), (.mp3, "tone.mp3", 1)] }
        var paths: [String] = []
        for (format, name, channels) in files {
            let path = work.appendingPathComponent(name).path
            let samples = (0..<44_100).flatMap { i in [Float](repeating: Float(0.4 * sin(2 * Double.pi * 660 * Double(i) / 44_100)), count: channels) }
            try SoundFileWriter.write(.init(samples: samples, channels: channels, sampleRate: 44_100), to: path, format: format)
            paths.append(path)
        }
        let result = try Self.run([program] + paths)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains(" passed, 0 failed"), "\(result.output)")
        #expect(result.output.contains("tone.wav: AL_FORMAT_STEREO16, 44100 Hz: 44100 frames"), "\(result.output)")
        if FFmpeg.isAvailable { #expect(result.output.contains("tone.m4a: AL_FORMAT_STEREO16, 44100 Hz: 44100 frames"), "\(result.output)") }
    }

    /// openal_orbit.c, the Core Audio books' OpenAL orbit: a tone (1 s of 440 Hz, 16-bit stereo
    /// WAVE, and AAC in M4A with FFmpeg) loaded through Extended Audio File Services as 16-bit mono,
    /// looped on one source and moved round the listener once in 3 s by the program's run-loop
    /// loop (ten moves a second: the main run loop holds the audio system once the program has an
    /// OpenAL context, so its 0.1 s runs wait, as on a Mac), played by OpenAL Soft's wave writer (its default device here, writing in real time to
    /// a file): the file holds the tone for the run's length, and the sound is on the right while
    /// the program had it at x > 2 and on the left while at x < -2, within a window of the mixer's
    /// latency of each move it printed.
    @Test(arguments: Self.compilers)
    func theOpenALOrbitGoesRoundTheListener(compiler: [String]) throws {
        let work = try Self.workDirectory("openal-orbit-c")
        defer { try? FileManager.default.removeItem(at: work) }
        guard let program = try Self.compile("openal_orbit", with: compiler, in: work) else { return }
        var inputs: [(OutputFormat, String)] = [(.wavPCM16, "tone.wav")]
        if FFmpeg.isAvailable { inputs.append((.m4aAAC, "tone.m4a")) }
        for (format, name) in inputs {
            let input = work.appendingPathComponent(name).path
            try SoundFileWriter.write(OrbitHearing.tone, to: input, format: format)
            let played = work.appendingPathComponent("\(name)-played.wav").path
            let config = work.appendingPathComponent("alsoft.conf").path
            try OrbitHearing.waveWriterConfiguration(played: played).write(toFile: config, atomically: true, encoding: .utf8)
            let result = try Self.run(["ALSOFT_DRIVERS=wave", "ALSOFT_CONF=\(config)", "ALSOFT_LOGLEVEL=0", program, input, "3", "\(2 * Double.pi / 3)"])
            #expect(result.status == 0, "\(name): \(result.output)")
            let hearing = try OrbitHearing(output: result.output, played: played, seconds: 3)
            #expect(hearing.problems.isEmpty, "\(name): \(hearing.problems)")
        }
    }

    @Test(arguments: Self.compilers)
    func theRecorderProgramPasses(compiler: [String]) throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("recorder-c-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        guard let program = try Self.compile("recorder_to_file", with: compiler, in: work) else { return }
        let result = try Self.run([program, work.path])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains(" passed, 0 failed"), "\(result.output)")
        #expect(result.output.contains("102400 frames, 440.00 Hz"), "\(result.output)")
    }

    @Test(arguments: Self.compilers)
    func theOpenALExtensionsProgramPasses(compiler: [String]) throws {
        let work = try Self.workDirectory("openal-extensions-c")
        defer { try? FileManager.default.removeItem(at: work) }
        guard let program = try Self.compile("openal_extensions", with: compiler, in: work) else { return }
        // It renders on OpenAL Soft's loopback device: no output, no server.
        let result = try Self.run(["PULSE_SERVER=unix:/nonexistent", "ALSOFT_DRIVERS=null", "ALSOFT_LOGLEVEL=0", program])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("openal_extensions: 66 passed, 0 failed"), "\(result.output)")
        #expect(result.output.contains("mixer rate 22050 Hz: the device mixes at 22050 Hz"), "\(result.output)")
        #expect(result.output.contains("static buffer: RMS 0.1542, 440.0 Hz"), "\(result.output)")
    }

    /// A start time on OpenAL's own output (the app's device when no desktop server answers, here
    /// OpenAL Soft's null output): the queue starts at once, as docs/porting-from-ios.md says, and
    /// plays to its end. (It was kAudioQueueErr_CannotStart: the device cannot start a source on a
    /// sample, and the refusal of that was passed on.)
    @Test func aStartTimeOnOpenALsOwnOutputStartsTheQueue() throws {
        let work = try Self.workDirectory("audio-queue-start-time")
        defer { try? FileManager.default.removeItem(at: work) }
        let source = work.appendingPathComponent("start_time.c")
        try """
        #include <AudioToolbox/AudioToolbox.h>
        #include <stdio.h>
        #include <string.h>
        #include <unistd.h>
        static void fill(void *data, AudioQueueRef queue, AudioQueueBufferRef buffer) { (void)data; (void)queue; (void)buffer; }
        int main(void) {
            AudioStreamBasicDescription format;
            AudioQueueRef queue = NULL;
            AudioQueueBufferRef buffer = NULL;
            AudioTimeStamp start;
            UInt32 running = 0, size = sizeof running;
            OSStatus status;
            int i;
            memset(&format, 0, sizeof format);
            format.mSampleRate = 44100; format.mFormatID = kAudioFormatLinearPCM;
            format.mFormatFlags = kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked;
            format.mBitsPerChannel = 16; format.mChannelsPerFrame = 1; format.mFramesPerPacket = 1;
            format.mBytesPerFrame = format.mBytesPerPacket = 2;
            if (AudioQueueNewOutput(&format, fill, NULL, NULL, NULL, 0, &queue) != noErr) return 2;
            AudioQueueAllocateBuffer(queue, 8820, &buffer);
            memset(buffer->mAudioData, 0, 8820);
            buffer->mAudioDataByteSize = 8820;
            AudioQueueEnqueueBuffer(queue, buffer, 0, NULL);
            AudioQueueDeviceGetCurrentTime(queue, &start);
            start.mSampleTime += 4410;
            start.mFlags = kAudioTimeStampSampleTimeValid;
            status = AudioQueueStart(queue, &start);
            AudioQueueGetProperty(queue, kAudioQueueProperty_IsRunning, &running, &size);
            printf("AudioQueueStart with a time: %d, IsRunning %u\\n", (int)status, (unsigned)running);
            AudioQueueStop(queue, false);
            for (i = 0; i < 300 && running; i++) {
                usleep(10000);
                AudioQueueGetProperty(queue, kAudioQueueProperty_IsRunning, &running, &size);
            }
            printf("IsRunning %u after the stop\\n", (unsigned)running);
            AudioQueueDispose(queue, true);
            return status == noErr && running == 0 ? 0 : 1;
        }
        """.write(to: source, atomically: true, encoding: .utf8)
        let library = try #require(Self.libraryDirectory)
        let program = work.appendingPathComponent("start_time").path
        let compile = try Self.run(["gcc", "-std=c99", "-D_DEFAULT_SOURCE", "-Wall", "-Wextra", "-Werror",
                                    "-I", Self.root.appendingPathComponent("Sources/CAudioToolbox/include").path, source.path,
                                    "-L", library.path, "-l:libSoundstageC.so", "-Wl,-rpath," + library.path, "-o", program])
        try #require(compile.status == 0, "\(compile.output)")
        let result = try Self.run(["PULSE_SERVER=unix:/nonexistent", "ALSOFT_DRIVERS=null", "ALSOFT_LOGLEVEL=0", program])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("AudioQueueStart with a time: 0, IsRunning 1"), "\(result.output)")
        #expect(result.output.contains("IsRunning 0 after the stop"), "\(result.output)")
    }

    @Test func theHeadersCanBeImportedTwice() throws {
        // #import, as Objective-C-flavoured ports write it: the include guards make it harmless.
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("audio-import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let source = work.appendingPathComponent("imports.c")
        try """
        #import <AudioToolbox/AudioToolbox.h>
        #import <AudioToolbox/AudioToolbox.h>
        #import <CoreAudio/CoreAudioTypes.h>
        #import <MacTypes.h>
        #import <TargetConditionals.h>
        #import <CoreFoundation/CoreFoundation.h>
        #import <AudioToolbox/AudioFile.h>
        #import <AudioToolbox/AudioFileStream.h>
        #import <OpenAL/al.h>
        #import <OpenAL/alc.h>
        #import <OpenAL/OpenAL.h>
        #import <OpenAL/MacOSX_OALExtensions.h>
        #import <OpenAL/oalMacOSX_OALExtensions.h>
        #import <OpenAL/oalStaticBufferExtension.h>
        #if TARGET_OS_IPHONE || TARGET_OS_MAC || !TARGET_OS_LINUX
        #error "this is Linux"
        #endif
        int main(void) { AudioStreamBasicDescription a; a.mFormatID = kAudioFormatLinearPCM; return a.mFormatID == 0; }
        """.write(to: source, atomically: true, encoding: .utf8)
        for compiler in ["gcc", "clang"] {
            let result = try Self.run([compiler, "-std=c99", "-Wall", "-Wextra", "-Werror", "-Wno-deprecated",
                                       "-I", Self.root.appendingPathComponent("Sources/CAudioToolbox/include").path,
                                       "-fsyntax-only", source.path])
            #expect(result.status == 0, "\(compiler): \(result.output)")
        }
    }
}
