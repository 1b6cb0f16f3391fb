// The seeds' OpenAL game with the interruption listener of the C Audio Session API: when an
// interruption begins it makes no context current, and when it ends it sets its category,
// reactivates the session and makes its context current again. Written as on iOS; only one
// import changed (`import AudioToolbox` became `import SoundstageCompat`; `import OpenAL` stays).
//
// Run by CompatDesktopTests against a real PulseAudio server: `compat-openal-game STOP-FILE`
// plays a looping 440 Hz tone through OpenAL until STOP-FILE exists, and prints what its
// listener is told ("began", "ended") on standard output.
import Foundation
import OpenAL
import SoundstageCompat

final class OpenALController {
    let device: OpaquePointer
    let context: OpaquePointer
    var buffer: ALuint = 0
    var source: ALuint = 0

    init?() {
        guard let device = alcOpenDevice(nil) else { return nil }
        guard let context = alcCreateContext(device, nil) else {
            alcCloseDevice(device)
            return nil
        }
        self.device = device
        self.context = context
        alcMakeContextCurrent(context)

        // One second of a 440 Hz tone, looped: the level music of a small game.
        let rate = 44_100
        let samples = (0..<rate).map { Int16(12_000 * sin(2 * Double.pi * 440 * Double($0) / Double(rate))) }
        alGenBuffers(1, &buffer)
        samples.withUnsafeBytes { alBufferData(buffer, AL_FORMAT_MONO16, $0.baseAddress, ALsizei($0.count), ALsizei(rate)) }
        alGenSources(1, &source)
        alSourcei(source, AL_BUFFER, ALint(buffer))
        alSourcei(source, AL_LOOPING, AL_TRUE)
        alSourcePlay(source)
    }

    func tearDown() {
        alSourceStop(source)
        alDeleteSources(1, &source)
        alDeleteBuffers(1, &buffer)
        alcMakeContextCurrent(nil)
        alcDestroyContext(context)
        alcCloseDevice(device)
    }
}

func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func interruptionListener(_ inClientData: UnsafeMutableRawPointer?, _ inInterruptionState: UInt32) {
    guard let inClientData else { return }
    let controller = Unmanaged<OpenALController>.fromOpaque(inClientData).takeUnretainedValue()
    if inInterruptionState == UInt32(kAudioSessionBeginInterruption) {
        alcMakeContextCurrent(nil)
        alcSuspendContext(controller.context)
        say("began")
    } else if inInterruptionState == UInt32(kAudioSessionEndInterruption) {
        var sessionCategory = UInt32(kAudioSessionCategory_AmbientSound)
        AudioSessionSetProperty(AudioSessionPropertyID(kAudioSessionProperty_AudioCategory), UInt32(MemoryLayout.size(ofValue: sessionCategory)), &sessionCategory)
        AudioSessionSetActive(true)
        alcMakeContextCurrent(controller.context)
        alcProcessContext(controller.context)
        say("ended")
    }
}

guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: compat-openal-game STOP-FILE\n".utf8))
    exit(2)
}
let stopFile = CommandLine.arguments[1]

guard let controller = OpenALController() else {
    FileHandle.standardError.write(Data("compat-openal-game: no OpenAL device opens\n".utf8))
    exit(1)
}
var status = AudioSessionInitialize(nil, nil, interruptionListener, Unmanaged.passUnretained(controller).toOpaque())
var sessionCategory = UInt32(kAudioSessionCategory_AmbientSound)
if status == noErr {
    status = AudioSessionSetProperty(AudioSessionPropertyID(kAudioSessionProperty_AudioCategory), UInt32(MemoryLayout.size(ofValue: sessionCategory)), &sessionCategory)
}
if status == noErr { status = AudioSessionSetActive(true) }
guard status == noErr else {
    FileHandle.standardError.write(Data("compat-openal-game: the audio session failed: \(status)\n".utf8))
    exit(1)
}
say("playing")

while !FileManager.default.fileExists(atPath: stopFile) {
    usleep(10_000)
}
controller.tearDown()
say("done")
