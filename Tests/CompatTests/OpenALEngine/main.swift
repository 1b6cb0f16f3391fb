// An OpenAL sound engine in the style of the SoundEngine that shipped in Apple's sample games, as
// a Swift game ports it, unchanged from iOS (`import AudioToolbox`, `import Foundation`,
// `import OpenAL`): the Audio Session initialized with an interruption listener called on the
// main thread's run loop (CFRunLoopGetCurrent()), the ambient category; the mixer's rate set with
// alcMacOSXMixerOutputRate before the device opens; an effect loaded with alBufferDataStatic (the
// game keeps the samples) and looped; music streamed through a source's buffer queue (four buffers
// of 0.1 s, each processed one unqueued, refilled and queued again, the source started again if it
// ran dry); every extension fetched with alcGetProcAddress and cast to its ProcPtr type. When the
// interruption begins the listener makes no context current (and the main loop leaves OpenAL
// alone); when it ends the listener makes the session active and its context current again, and
// both sounds go on. Tests/C/openal_engine.c is the same engine in C.
//
//   compat-openal-engine STOP-FILE
//
// It plays on OpenAL's default device until STOP-FILE exists: the music a 440 Hz tone at 0.25, the
// effect 880 Hz at 0.125. It prints "mixer rate R", "playing", "began", "ended", "done" as they
// happen (CProgramsOnTheDesktop.OpenALEngineDesktopTests corks it with a phone call on PulseAudio),
// and exits 1 when a call fails.
import AudioToolbox
import Foundation
import OpenAL

let kRate = 44_100, kStreamBuffers = 4, kStreamFrames = 4_410

/// Apple's extension functions, fetched by name as the SoundEngine fetches them.
func alcMacOSXMixerOutputRateProc(_ value: ALdouble) {
    guard let address = alcGetProcAddress(nil, "alcMacOSXMixerOutputRate") else { return }
    unsafeBitCast(address, to: alcMacOSXMixerOutputRateProcPtr.self)(value)
}

func alcMacOSXGetMixerOutputRateProc() -> ALdouble {
    guard let address = alcGetProcAddress(nil, "alcMacOSXGetMixerOutputRate") else { return 0 }
    return unsafeBitCast(address, to: alcMacOSXGetMixerOutputRateProcPtr.self)()
}

func alBufferDataStaticProc(_ bid: ALint, _ format: ALenum, _ data: UnsafeRawPointer, _ size: ALsizei, _ freq: ALsizei) {
    guard let address = alcGetProcAddress(nil, "alBufferDataStatic") else { return }
    unsafeBitCast(address, to: alBufferDataStaticProcPtr.self)(bid, format, data, size, freq)
}

func say(_ what: String) {
    print(what)
    fflush(stdout)
}

/// The engine: its context, the effect's static samples (kept while the buffer lives), the
/// music's stream. The listener and the main loop both run on the main thread.
final class Engine {
    var device: OpaquePointer?
    var context: OpaquePointer?
    let effectSamples = UnsafeMutablePointer<Int16>.allocate(capacity: kRate)
    var effectBuffer: ALuint = 0, effectSource: ALuint = 0
    var streamBuffers = [ALuint](repeating: 0, count: kStreamBuffers), streamSource: ALuint = 0
    var streamPosition = 0
    var interrupted = false

    /// The next 0.1 s of the music into `buffer`.
    func fillStream(_ buffer: ALuint) {
        let samples = (0..<kStreamFrames).map { Int16(8_192 * sin(2 * Double.pi * 440 * Double(streamPosition + $0) / Double(kRate))) }
        streamPosition += kStreamFrames
        samples.withUnsafeBytes { alBufferData(buffer, AL_FORMAT_MONO16, $0.baseAddress, ALsizei($0.count), ALsizei(kRate)) }
    }

    /// The SoundEngine's update: processed buffers refilled, the source started again if it ran dry.
    func updateStream() {
        var processed: ALint = 0, state: ALint = 0
        alGetSourcei(streamSource, AL_BUFFERS_PROCESSED, &processed)
        while processed > 0 {
            processed -= 1
            var buffer: ALuint = 0
            alSourceUnqueueBuffers(streamSource, 1, &buffer)
            fillStream(buffer)
            alSourceQueueBuffers(streamSource, 1, &buffer)
        }
        alGetSourcei(streamSource, AL_SOURCE_STATE, &state)
        if state != AL_PLAYING { alSourcePlay(streamSource) }
    }

    func start() -> Bool {
        var category = UInt32(kAudioSessionCategory_AmbientSound)
        guard AudioSessionInitialize(CFRunLoopGetCurrent(), CFRunLoopMode.defaultMode.rawValue, interruptionListener,
                                     Unmanaged.passUnretained(self).toOpaque()) == noErr,
              AudioSessionSetProperty(AudioSessionPropertyID(kAudioSessionProperty_AudioCategory), UInt32(MemoryLayout<UInt32>.size),
                                      &category) == noErr,
              AudioSessionSetActive(true) == noErr else {
            FileHandle.standardError.write(Data("openal_engine: the audio session failed\n".utf8))
            return false
        }
        alcMacOSXMixerOutputRateProc(ALdouble(kRate))
        guard let device = alcOpenDevice(nil) else {
            FileHandle.standardError.write(Data("openal_engine: no OpenAL device opens\n".utf8))
            return false
        }
        self.device = device
        guard let context = alcCreateContext(device, nil), alcMakeContextCurrent(context) != 0 else {
            FileHandle.standardError.write(Data("openal_engine: no context\n".utf8))
            return false
        }
        self.context = context
        say(String(format: "mixer rate %.0f", alcMacOSXGetMixerOutputRateProc()))

        for i in 0..<kRate { effectSamples[i] = Int16(4_096 * sin(2 * Double.pi * 880 * Double(i) / Double(kRate))) }
        alGenBuffers(1, &effectBuffer)
        alBufferDataStaticProc(ALint(effectBuffer), AL_FORMAT_MONO16, effectSamples, ALsizei(kRate * 2), ALsizei(kRate))
        alGenSources(1, &effectSource)
        alSourcei(effectSource, AL_BUFFER, ALint(effectBuffer))
        alSourcei(effectSource, AL_LOOPING, AL_TRUE)

        alGenBuffers(ALsizei(kStreamBuffers), &streamBuffers)
        alGenSources(1, &streamSource)
        streamPosition = 0
        for buffer in streamBuffers { fillStream(buffer) }
        alSourceQueueBuffers(streamSource, ALsizei(kStreamBuffers), streamBuffers)
        alSourcePlay(streamSource)
        alSourcePlay(effectSource)
        guard alGetError() == AL_NO_ERROR else {
            FileHandle.standardError.write(Data("openal_engine: OpenAL refused the sounds\n".utf8))
            return false
        }
        say("playing")
        return true
    }

    func stop() {
        alSourceStop(streamSource)
        alSourceStop(effectSource)
        alDeleteSources(1, &streamSource)
        alDeleteSources(1, &effectSource)
        alDeleteBuffers(ALsizei(kStreamBuffers), &streamBuffers)
        alDeleteBuffers(1, &effectBuffer)
        alcMakeContextCurrent(nil)
        alcDestroyContext(context)
        alcCloseDevice(device)
        AudioSessionSetActive(false)
    }
}

func interruptionListener(_ inClientData: UnsafeMutableRawPointer?, _ inInterruptionState: UInt32) {
    guard let inClientData else { return }
    let engine = Unmanaged<Engine>.fromOpaque(inClientData).takeUnretainedValue()
    if inInterruptionState == UInt32(kAudioSessionBeginInterruption) {
        engine.interrupted = true
        alcMakeContextCurrent(nil)
        say("began")
    } else if inInterruptionState == UInt32(kAudioSessionEndInterruption) {
        var category = UInt32(kAudioSessionCategory_AmbientSound)
        AudioSessionSetProperty(AudioSessionPropertyID(kAudioSessionProperty_AudioCategory), UInt32(MemoryLayout<UInt32>.size), &category)
        AudioSessionSetActive(true)
        alcMakeContextCurrent(engine.context)
        engine.interrupted = false
        say("ended")
    }
}

guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: compat-openal-engine STOP-FILE\n".utf8))
    exit(2)
}
let stopFile = CommandLine.arguments[1]
let engine = Engine()
guard engine.start() else { exit(1) }
// The game's loop: its run loop delivers the session's listener, then the stream is fed.
while access(stopFile, F_OK) != 0 {
    CFRunLoopRunInMode(.defaultMode, 0.01, true)
    if !engine.interrupted { engine.updateStream() }
}
engine.stop()
say("done")
