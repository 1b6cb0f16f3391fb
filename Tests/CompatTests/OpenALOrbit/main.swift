// The Core Audio books' OpenAL orbit, as a Swift developer writes it on a Mac or iOS: the file is
// loaded whole through Extended Audio File Services (a client format of 16-bit native-endian mono
// PCM at the file's own rate, since OpenAL positions mono sounds only;
// kExtAudioFileProperty_FileLengthFrames sizes the buffer; ExtAudioFileRead fills it in a loop),
// handed to alBufferData, played looped from one source at AL_MAX_GAIN and moved round the
// listener on an ellipse (x = 3 cos t, y = 0.5 sin t, z = sin t: the right at t = 0, in front at
// pi/2, the left at pi) by the main loop, which runs its run loop a tenth of a second between
// moves (CFRunLoopRunInMode: the audio system on the main run loop keeps it waiting, once the
// program has made an OpenAL context). Unchanged from Apple's platforms: `import AudioToolbox`,
// `import OpenAL`, `import Foundation`. Tests/C/openal_orbit.c is the same program in C.
//
//   compat-openal-orbit FILE SECONDS [RADIANS-PER-SECOND]
//
// It plays on OpenAL's default device and prints "loaded N frames at R Hz" and, at each move,
// "at T x X z Z" (T seconds after alSourcePlay), for CompatTests to follow the sound from side to
// side in what the device played (OpenAL Soft's wave writer). It exits 1 when a call fails.
import AudioToolbox
import Foundation
import OpenAL

struct LoopPlayer {
    var dataFormat = AudioStreamBasicDescription()
    var samples: UnsafeMutablePointer<Int16>?
    var frames: UInt32 = 0
    var source: ALuint = 0
}

/// The books' CheckError: the status as four characters when it has them, then exit.
func CheckError(_ error: OSStatus, _ operation: String) {
    guard error != noErr else { return }
    let bytes = withUnsafeBytes(of: UInt32(bitPattern: error).bigEndian) { Array($0) }
    let code = bytes.allSatisfy { isprint(Int32($0)) != 0 } ? "'" + String(decoding: bytes, as: UTF8.self) + "'" : String(error)
    FileHandle.standardError.write(Data("openal_orbit: \(operation) (\(code))\n".utf8))
    exit(1)
}

func CheckALError(_ operation: String) {
    let error = alGetError()
    guard error != AL_NO_ERROR else { return }
    FileHandle.standardError.write(Data("openal_orbit: \(operation) (AL error \(String(error, radix: 16)))\n".utf8))
    exit(1)
}

/// The whole file as 16-bit mono PCM at its own rate, through Extended Audio File Services.
func loadLoop(_ player: inout LoopPlayer, path: String) {
    let url = URL(fileURLWithPath: path) as CFURL
    var file: ExtAudioFileRef?
    CheckError(ExtAudioFileOpenURL(url, &file), "ExtAudioFileOpenURL failed")
    guard let file else { exit(1) }

    var fileFormat = AudioStreamBasicDescription()
    var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
    CheckError(ExtAudioFileGetProperty(file, kExtAudioFileProperty_FileDataFormat, &size, &fileFormat), "couldn't get the file's format")

    player.dataFormat.mFormatID = kAudioFormatLinearPCM
    player.dataFormat.mFormatFlags = kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked
    player.dataFormat.mSampleRate = fileFormat.mSampleRate
    player.dataFormat.mChannelsPerFrame = 1
    player.dataFormat.mFramesPerPacket = 1
    player.dataFormat.mBitsPerChannel = 16
    player.dataFormat.mBytesPerFrame = 2
    player.dataFormat.mBytesPerPacket = 2
    CheckError(ExtAudioFileSetProperty(file, kExtAudioFileProperty_ClientDataFormat,
                                       UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &player.dataFormat),
               "couldn't set the client format")

    var fileFrames: Int64 = 0
    size = UInt32(MemoryLayout<Int64>.size)
    CheckError(ExtAudioFileGetProperty(file, kExtAudioFileProperty_FileLengthFrames, &size, &fileFrames), "couldn't get the file's length")
    guard fileFrames > 0, fileFrames <= 60 * 192_000 else {
        FileHandle.standardError.write(Data("openal_orbit: the file holds \(fileFrames) frames\n".utf8))
        exit(1)
    }
    player.frames = UInt32(fileFrames)
    let samples = UnsafeMutablePointer<Int16>.allocate(capacity: Int(player.frames))
    samples.initialize(repeating: 0, count: Int(player.frames))
    player.samples = samples

    // ExtAudioFileRead may return fewer frames than asked: read until the file ends.
    var read: UInt32 = 0
    while read < player.frames {
        var frames = player.frames - read
        var buffers = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: 1, mDataByteSize: frames * 2,
                                                                               mData: UnsafeMutableRawPointer(samples + Int(read))))
        CheckError(ExtAudioFileRead(file, &frames, &buffers), "ExtAudioFileRead failed")
        if frames == 0 { break }
        read += frames
    }
    player.frames = read
    CheckError(ExtAudioFileDispose(file), "ExtAudioFileDispose failed")
    print("loaded \(player.frames) frames at \(Int(player.dataFormat.mSampleRate)) Hz")
}

/// The source's place on its ellipse `elapsed` seconds into the orbit.
func updateSourceLocation(_ player: LoopPlayer, elapsed: Double, speed: Double) {
    let theta = fmod(elapsed * speed, 2 * Double.pi)
    let x = ALfloat(3 * cos(theta)), y = ALfloat(0.5 * sin(theta)), z = ALfloat(sin(theta))
    alSource3f(player.source, AL_POSITION, x, y, z)
    print(String(format: "at %.3f x %.3f z %.3f", elapsed, x, z))
    fflush(stdout)
}

let arguments = CommandLine.arguments
guard (3...4).contains(arguments.count), let seconds = Double(arguments[2]), seconds > 0,
      let speed = arguments.count == 4 ? Double(arguments[3]) : 1, speed > 0 else {
    FileHandle.standardError.write(Data("usage: compat-openal-orbit FILE SECONDS [RADIANS-PER-SECOND]\n".utf8))
    exit(2)
}
var player = LoopPlayer()
loadLoop(&player, path: arguments[1])

guard let device = alcOpenDevice(nil) else {
    FileHandle.standardError.write(Data("openal_orbit: no OpenAL device opens\n".utf8))
    exit(1)
}
guard let context = alcCreateContext(device, nil), alcMakeContextCurrent(context) != 0 else {
    FileHandle.standardError.write(Data("openal_orbit: no context\n".utf8))
    exit(1)
}
_ = alGetError()

var buffer: ALuint = 0
alGenBuffers(1, &buffer)
alBufferData(buffer, AL_FORMAT_MONO16, player.samples, ALsizei(player.frames) * 2, ALsizei(player.dataFormat.mSampleRate))
CheckALError("couldn't fill the buffer")
player.samples?.deallocate()   // OpenAL copied them
player.samples = nil

alGenSources(1, &player.source)
alSourcei(player.source, AL_LOOPING, AL_TRUE)
alSourcef(player.source, AL_GAIN, ALfloat(AL_MAX_GAIN))
alSourcei(player.source, AL_BUFFER, ALint(buffer))
CheckALError("couldn't set up the source")
updateSourceLocation(player, elapsed: 0, speed: speed)
alListener3f(AL_POSITION, 0, 0, 0)
CheckALError("couldn't place the listener")

alSourcePlay(player.source)
CheckALError("couldn't play")
let start = CFAbsoluteTimeGetCurrent()
var elapsed = 0.0
while elapsed < seconds {
    CFRunLoopRunInMode(.defaultMode, 0.1, false)
    elapsed = CFAbsoluteTimeGetCurrent() - start
    updateSourceLocation(player, elapsed: elapsed, speed: speed)
}

alSourceStop(player.source)
alDeleteSources(1, &player.source)
alDeleteBuffers(1, &buffer)
alcMakeContextCurrent(nil)
alcDestroyContext(context)
alcCloseDevice(device)
print("done")
