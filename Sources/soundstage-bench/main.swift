// soundstage-bench: CPU cost of the engine against the same OpenAL calls made directly.
//
//   swift run -c release soundstage-bench [seconds] [sources]
//
// Renders `seconds` (default 10) of a scene of `sources` (default 256) looping mono sources on
// a loopback device, moving every source every 10 ms, through Soundstage and through raw
// OpenAL, alternating seven rounds and printing medians. Prints CPU times and the ratio
// engine / direct (goal <= 1.06) twice: with the engine's default four reverb-zone sends and
// raw OpenAL asking for the same context attributes, and with two (OpenAL's default; the
// engine opened with `reverbZones: 2`). It also prints what the two extra sends cost raw OpenAL.
//
//   swift run -c release soundstage-bench live-view
//
// measures what the live view costs a game: the render's CPU without a view, with one no browser
// watches, and with a headless Chromium watching (LiveViewBench.swift).
//
//   swift run -c release soundstage-bench system-sounds
//
// measures instead the time from SystemSoundRegistry.play to the sound playing (p50/p99 over
// 10,000 plays), with raw alSourcePlay on a prepared source as the baseline.
//
//   swift run -c release soundstage-bench daemon
//
// measures request → source playing for `playSound` over the daemon's Unix socket and through
// the in-process API, p50/p99 over 10,000 requests each, in one run (DaemonLatency.swift).
//
//   swift run -c release soundstage-bench ear [--pipewire] [--plays N]
//
// measures time to the ear — request → first sample at the sink — on a throw-away PulseAudio
// (or PipeWire) server: source.play(), SystemSoundRegistry.play, a warm daemon, a cold CLI and
// libcanberra beside them (EarLatency.swift).
//
//   swift run -c release soundstage-bench idle [--pulseaudio | --pipewire] [--seconds N] [--plays N]
//
// measures what a silent game costs and how fast it speaks again, on each installed throw-away
// server: the process's CPU over N s (default 10) after a sound, with the output that never
// rests and with the one that rests; time to the ear, warm and after a rest, for a game sound
// and a UI sound, and libcanberra's, warm and after 3 s of silence (IdleBench.swift).
//
//   swift run -c release soundstage-bench stretch
//
// measures what an AudioPlayer's rate costs when it keeps the pitch (SoundTouch) against the rate
// as OpenAL's pitch, and the pitch error at rates 0.5…2 (StretchBench.swift).
//
//   swift run -c release soundstage-bench voices
//
// measures voice management: 10,000 sources on 256 voices, listener moving every 16 ms, against
// the 256 nearest played directly (VoiceBench.swift).
//
//   swift run -c release soundstage-bench streaming
//
// measures streaming: CPU per second of streamed audio, and peak memory for a 10- and a
// 60-minute file (StreamingBench.swift).
//
//   swift run -c release soundstage-bench daemon-clients [clients] [plays]
//
// measures many clients on one daemon: 200 clients × 100 plays of a UI sound — throughput,
// p50/p99, and the process's peak resident memory and threads (DaemonClients.swift).
//
//   swift run -c release soundstage-bench meters
//
// measures what metering costs: the render's CPU with every meter on against off (MeterBench.swift).
// `meters --only all|sources|buses|output|none` renders one kind forty times, to profile it.
//
//   swift run -c release soundstage-bench json
//
// measures one JSON parse of a request line and of a scene file: the own parser against
// JSONSerialization and JSONDecoder (JSONBench.swift).
//
//   swift run -c release soundstage-bench profile engine|direct [updates]
//
// runs one side of the default pair alone (6,000 updates moving 256 sources, 4 sends) and prints
// its CPU per update: a workload for `perf record`, whose profile then holds nothing else.
//
//   swift run -c release soundstage-bench additions [rounds]
//
// shows where the engine's update costs more than raw OpenAL's, each part alone: the property
// path (setters and the write pass against raw alSource3f) and every fixed addition of the render
// (exit gate, locks, scene list, engine update, non-finite check, …), as ns per update and a share
// of a raw OpenAL update measured in the same run (AdditionsBench.swift).
//
//   swift run -c release soundstage-bench capi
//
// measures what the C API adds: `ss_source_set_position` against `source.position =` per call,
// and each against raw OpenAL, taking turns in one process (CAPIBench.swift).
//
//   swift run -c release soundstage-bench frame [seconds]
//
// measures what a game's frame loop waits for: p50/p99/p99.9 of `source.position =` and
// `play()` from a game thread, quiet and while 32 Ogg streams refill and seek (FrameBench.swift).
//
//   swift run -c release soundstage-bench audio-converter
//   swift run -c release soundstage-bench ext-audio-file
//
// measure Core Audio's C interfaces on a 120 s stereo AAC file against SoundFile's decode of it in
// the same run: AudioFileReadPacketData and AudioConverterFillComplexBuffer to Float32
// (ConverterBench.swift), and an OpenAL loader's one ExtAudioFileRead of the whole file into 16-bit
// PCM (ExtAudioFileBench.swift). Goal: within 1.1× each.
//
//   swift run -c release soundstage-bench ilbc
//
// measures Soundstage's iLBC encoder: CPU per second of speech (espeak-ng, or a synthetic sung
// vowel without it), 20 and 30 ms frames, against FFmpeg's AAC-LC encoder on the same 8 kHz mono
// input in the same run (ILBCBench.swift).
//
// The default mode also prints the cost of one update that moves all sources (on the game's
// thread: the engine's setters only note changes, which the render thread writes to OpenAL just
// before it mixes) and the rest of an update. A third variant, raw OpenAL with alGetError after
// every call, shows what error checking alone costs. One more pair, raw OpenAL and the engine
// at 4 sends, sets each source's velocity as well as its position; another moves nothing after
// the first update, which leaves an update's fixed cost (the engine's bookkeeping against none).
import COpenAL
import Foundation
import Soundstage

let systemSoundsMode = CommandLine.arguments.dropFirst().first == "system-sounds"
let daemonMode = CommandLine.arguments.dropFirst().first == "daemon"
let mode = CommandLine.arguments.dropFirst().first ?? ""
let seconds = Double(mode) ?? 10
// The default mode's second argument; other modes use their own (`additions 3` is three rounds).
let sourceCount = Double(mode) != nil && CommandLine.arguments.count > 2 ? Int(CommandLine.arguments[2]) ?? 256 : 256
let rate = 48_000
let updateFrames = rate / 100   // 10 ms
let updates = Int(seconds * 100)

if systemSoundsMode {
    try systemSoundLatency()
    exit(0)
}
if daemonMode {
    try await daemonLatency()
    exit(0)
}
if mode == "ear" {
    try earLatency(arguments: Array(CommandLine.arguments.dropFirst(2)))
    exit(0)
}
if mode == "idle" {
    try idleBench(arguments: Array(CommandLine.arguments.dropFirst(2)))
    exit(0)
}
if mode == "voices" {
    try voiceBench()
    exit(0)
}
if mode == "json" {
    try jsonBench()
    exit(0)
}
if mode == "meters" {
    try meterBench()
    exit(0)
}
if mode == "daemon-clients" {
    try daemonClients(arguments: Array(CommandLine.arguments.dropFirst(2)))
    exit(0)
}
if mode == "frame" {
    try frameBench(arguments: Array(CommandLine.arguments.dropFirst(2)))
    exit(0)
}
if mode == "additions" {
    try additionsBench(arguments: Array(CommandLine.arguments.dropFirst(2)))
    exit(0)
}
if mode == "capi" {
    try capiBench()
    exit(0)
}
if mode == "live-view" {
    try liveViewBench()
    exit(0)
}
if mode == "stretch" {
    try stretchBench()
    exit(0)
}
if mode == "remote-io-ear" {
    try remoteIOEarLatency(arguments: Array(CommandLine.arguments.dropFirst(2)))
    exit(0)
}
if mode == "audio-queue-ear" {
    try audioQueueEarLatency(arguments: Array(CommandLine.arguments.dropFirst(2)))
    exit(0)
}
if mode == "audio-queues" {
    try audioQueueBench(arguments: Array(CommandLine.arguments.dropFirst(2)))
    exit(0)
}
if mode == "players" {
    try playerBench()
    exit(0)
}
if mode == "decode" {
    try decodeBench()
    exit(0)
}
if mode == "ilbc" {
    try ilbcBench()
    exit(0)
}
if mode == "audio-converter" {
    try converterBench()
    exit(0)
}
if mode == "ext-audio-file" {
    try extAudioFileBench()
    exit(0)
}
if mode == "aac-streams", CommandLine.arguments.count > 2 {
    try aacStreamsMemory(CommandLine.arguments[2], label: CommandLine.arguments.count > 3 ? CommandLine.arguments[3] : "AAC")
    exit(0)
}
if mode == "streaming" {
    try streamingBench()
    exit(0)
}
if mode == "profile" {
    let side = CommandLine.arguments.count > 2 ? CommandLine.arguments[2] : ""
    guard side == "engine" || side == "direct" else {
        FileHandle.standardError.write(Data("usage: soundstage-bench profile engine|direct [updates]\n".utf8))
        exit(64)
    }
    let rig: any Rig = side == "engine" ? try EngineRig(reverbZones: 4) : DirectRig(checked: false, sends: 4)
    let steps = CommandLine.arguments.count > 3 ? Int(CommandLine.arguments[3]) ?? 6_000 : 6_000
    let start = cpuSeconds()
    for step in 0..<steps { _ = try rig.step(step) }
    print(String(format: "%@ alone: %.1f µs CPU per update (%d updates moving %d sources)",
                 side, (cpuSeconds() - start) / Double(steps) * 1e6, steps, sourceCount))
    exit(0)
}
if mode == "stream-memory", CommandLine.arguments.count > 2 {
    try streamMemory(CommandLine.arguments[2])
    exit(0)
}

func cpuSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

func sine(_ frequency: Double) -> [Float] {
    (0..<rate).map { Float(0.2 * sin(2 * Double.pi * frequency * Double($0) / Double(rate))) }
}

/// Source `i`'s angle at update `step` on its circle: it turns 0.01 rad an update (1 rad/s).
@inline(__always)
func angle(_ i: Int, _ step: Int) -> Float { Float(i) * 0.0245 + Float(step) * 0.01 }

/// Where source `i` is at update `step`: on a circle of radius 5 around the listener.
@inline(__always)
func position(_ i: Int, _ step: Int) -> (Float, Float, Float) {
    let a = angle(i, step)
    return (5 * cosf(a), 0, 5 * sinf(a))
}

/// The velocity of `position(i, step)` in units per second (a game sets it for Doppler).
@inline(__always)
func velocity(_ i: Int, _ step: Int) -> (Float, Float, Float) {
    let a = angle(i, step)
    return (-5 * sinf(a), 0, 5 * cosf(a))
}

struct Measurement {
    var render: Double
    var moveSeconds: Double
}

/// One update of a render loop that moves every source and mixes 10 ms: through Soundstage or
/// through raw OpenAL. Rigs step in turns, so each side of a ratio sees the machine at the same moment.
protocol Rig: AnyObject {
    /// Moves every source to where it is at `step` and mixes 10 ms; returns the seconds moving took.
    func step(_ step: Int) throws -> Double
}

/// Soundstage: a loopback device opened with `reverbZones`, one scene of looping sources; each
/// update sets every source's position, and its velocity too with `withVelocity` (with `still`,
/// only the first update does: what is left is the cost of an update that changes nothing).
final class EngineRig: Rig {
    let device: Device
    let sources: [Source]
    let withVelocity: Bool
    let still: Bool
    var output = [Float](repeating: 0, count: updateFrames * 2)

    init(reverbZones: Int, withVelocity: Bool = false, still: Bool = false) throws {
        self.withVelocity = withVelocity
        self.still = still
        device = try Device.loopback(sampleRate: rate, updateFrames: updateFrames, reverbZones: reverbZones)
        let scene = try device.makeScene(sourceBudget: sourceCount)
        let buffer = try device.makeBuffer(AudioBuffer(samples: sine(440), channels: 1, sampleRate: rate))
        sources = try (0..<sourceCount).map { _ in
            let source = scene.makeSource(buffer: buffer)
            source.isLooping = true
            try source.play()
            return source
        }
    }

    deinit { device.close() }

    func step(_ step: Int) throws -> Double {
        let t0 = cpuSeconds()
        for (i, source) in sources.enumerated() where !still || step == 0 {
            let (x, y, z) = position(i, step)
            source.position = Vector3(x, y, z)
            if withVelocity {
                let (vx, vy, vz) = velocity(i, step)
                source.velocity = Vector3(vx, vy, vz)
            }
        }
        let moved = cpuSeconds() - t0
        try output.withUnsafeMutableBufferPointer { try device.render(into: $0) }
        return moved
    }
}

/// Raw OpenAL with the engine's context attributes (`sends` auxiliary sends: 2 is OpenAL's
/// default), optionally reading `alGetError` after every call, optionally setting velocities too,
/// optionally `still` (moving the sources at the first update only).
final class DirectRig: Rig {
    let device: OpaquePointer
    let context: OpaquePointer
    var buffer: ALuint = 0
    var sources: [ALuint]
    let checked: Bool
    let withVelocity: Bool
    let still: Bool
    var output = [Float](repeating: 0, count: updateFrames * 2)

    init(checked: Bool, sends: ALCint, withVelocity: Bool = false, still: Bool = false) {
        self.checked = checked
        self.withVelocity = withVelocity
        self.still = still
        device = alcLoopbackOpenDeviceSOFT(nil)!
        let attributes: [ALCint] = [ALC_MONO_SOURCES, ALCint(sourceCount), ALC_STEREO_SOURCES, 0, ALC_MAX_AUXILIARY_SENDS, sends,
                                    ALC_FORMAT_CHANNELS_SOFT, ALC_STEREO_SOFT, ALC_FORMAT_TYPE_SOFT, ALC_FLOAT_SOFT,
                                    ALC_FREQUENCY, ALCint(rate), ALC_OUTPUT_LIMITER_SOFT, ALC_FALSE, ALC_HRTF_SOFT, ALC_FALSE, 0]
        context = alcCreateContext(device, attributes)!
        alcSetThreadContext(context)
        var name: ALuint = 0
        alGenBuffers(1, &name)
        sine(440).withUnsafeBytes { alBufferData(name, AL_FORMAT_MONO_FLOAT32, $0.baseAddress, ALsizei($0.count), ALsizei(rate)) }
        buffer = name
        var names = [ALuint](repeating: 0, count: sourceCount)
        alGenSources(ALsizei(sourceCount), &names)
        sources = names
        for source in names {
            alSourcei(source, AL_BUFFER, ALint(name))
            alSourcei(source, AL_LOOPING, AL_TRUE)
            alSourcePlay(source)
        }
        precondition(alGetError() == AL_NO_ERROR, "direct OpenAL setup failed")
    }

    deinit {
        alcSetThreadContext(context)
        alDeleteSources(ALsizei(sourceCount), &sources)
        alDeleteBuffers(1, &buffer)
        alcSetThreadContext(nil)
        alcDestroyContext(context)
        alcCloseDevice(device)
    }

    func step(_ step: Int) -> Double {
        // The engine makes its scene's context current on the thread, when it is not already;
        // with rigs taking turns, this one must too (a game with one context does it once).
        alcSetThreadContext(context)
        let t0 = cpuSeconds()
        for (i, source) in sources.enumerated() where !still || step == 0 {
            let (x, y, z) = position(i, step)
            alSource3f(source, AL_POSITION, x, y, z)
            if checked && alGetError() != AL_NO_ERROR { fatalError("alSource3f failed") }
            if withVelocity {
                let (vx, vy, vz) = velocity(i, step)
                alSource3f(source, AL_VELOCITY, vx, vy, vz)
                if checked && alGetError() != AL_NO_ERROR { fatalError("alSource3f failed") }
            }
        }
        let moved = cpuSeconds() - t0
        output.withUnsafeMutableBufferPointer { alcRenderSamplesSOFT(device, $0.baseAddress, ALCsizei(updateFrames)) }
        return moved
    }
}

/// Steps `rigs` in turns, update by update; returns each one's CPU seconds and moving seconds.
func interleave(_ rigs: [any Rig]) throws -> [Measurement] {
    var results = [Measurement](repeating: Measurement(render: 0, moveSeconds: 0), count: rigs.count)
    for step in 0..<updates {
        for (index, rig) in rigs.enumerated() {
            let start = cpuSeconds()
            let moved = try rig.step(step)
            results[index].render += cpuSeconds() - start
            results[index].moveSeconds += moved
        }
    }
    return results
}

print("soundstage-bench: \(sourceCount) looping sources moved every 10 ms, \(seconds) s rendered at \(rate) Hz (loopback, stereo, no HRTF)")
print("Each round runs, with 4 auxiliary sends (the engine's default) then 2 (OpenAL's): raw OpenAL; raw OpenAL with")
print("alGetError after every call (4 sends only); Soundstage opened with as many reverb zones — taking turns update by update.")
print("A third pair (4 sends) sets each source's velocity too, as a game with Doppler does; a fourth moves nothing after")
print("the first update (the cost of an update that changes nothing).")
struct Round {
    var direct: Measurement, checked: Measurement, engine: Measurement
    var direct2: Measurement, engine2: Measurement
    var directVelocity: Measurement, engineVelocity: Measurement
    var directStill: Measurement, engineStill: Measurement
}
let rounds = 7
var results: [Round] = []
for round in 1...rounds {
    // The rigs of a comparison take turns update by update: the machine's drift (its speed
    // wanders by 10-20 % between runs here) hits both sides of a ratio alike.
    let four = try interleave([DirectRig(checked: false, sends: 4), DirectRig(checked: true, sends: 4), EngineRig(reverbZones: 4)])
    let two = try interleave([DirectRig(checked: false, sends: 2), EngineRig(reverbZones: 2)])
    let moving = try interleave([DirectRig(checked: false, sends: 4, withVelocity: true), EngineRig(reverbZones: 4, withVelocity: true)])
    let still = try interleave([DirectRig(checked: false, sends: 4, still: true), EngineRig(reverbZones: 4, still: true)])
    let (direct, checked, engine, direct2, engine2) = (four[0], four[1], four[2], two[0], two[1])
    results.append(Round(direct: direct, checked: checked, engine: engine, direct2: direct2, engine2: engine2,
                         directVelocity: moving[0], engineVelocity: moving[1], directStill: still[0], engineStill: still[1]))
    print(String(format: "  round %d: 4 sends: direct %.3f s, direct+checks %.3f s, engine %.3f s (ratio %.3f); 2 sends: direct %.3f s, engine %.3f s (ratio %.3f); with velocities: %.3f; still: %.3f",
                 round, direct.render, checked.render, engine.render, engine.render / direct.render,
                 direct2.render, engine2.render, engine2.render / direct2.render, moving[1].render / moving[0].render,
                 still[1].render / still[0].render))
}
func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
let direct = median(results.map(\.direct.render))
let checked = median(results.map(\.checked.render))
let engine = median(results.map(\.engine.render))
let ratio = median(results.map { $0.engine.render / $0.direct.render })
let ratio2 = median(results.map { $0.engine2.render / $0.direct2.render })
let checkedRatio = median(results.map { $0.engine.render / $0.checked.render })
let sendsCost = median(results.map { $0.direct.render / $0.direct2.render })
let perUpdateEngine = median(results.map(\.engine.moveSeconds)) / Double(updates) * 1e6
let perUpdateDirect = median(results.map(\.direct.moveSeconds)) / Double(updates) * 1e6
let perUpdateChecked = median(results.map(\.checked.moveSeconds)) / Double(updates) * 1e6
print("medians over \(rounds) rounds:")
print(String(format: "  direct OpenAL:           %.3f s CPU (%.1f× faster than real time)", direct, seconds / direct))
print(String(format: "  direct, errors checked:  %.3f s CPU", checked))
print(String(format: "  Soundstage:              %.3f s CPU (%.1f× faster than real time)", engine, seconds / engine))
print(String(format: "  ratio engine / direct, 4 sends (same attributes):   %.3f (goal <= 1.06)", ratio))
print(String(format: "  ratio engine / direct, 2 sends (OpenAL's default):  %.3f (goal <= 1.06)", ratio2))
print(String(format: "  ratio engine / direct, 4 sends, velocities set too: %.3f",
             median(results.map { $0.engineVelocity.render / $0.directVelocity.render })))
print(String(format: "  ratio engine / direct, 4 sends, nothing moved:      %.3f (an update's fixed cost: µs %.1f / %.1f)",
             median(results.map { $0.engineStill.render / $0.directStill.render }),
             median(results.map(\.engineStill.render)) / Double(updates) * 1e6, median(results.map(\.directStill.render)) / Double(updates) * 1e6))
print(String(format: "  ratio engine / direct with error checks: %.3f", checkedRatio))
print(String(format: "  raw OpenAL, 4 sends / 2 sends: %.3f (what two more reverb-zone sends cost the mix)", sendsCost))
print(String(format: "  moving %d sources once:  engine %.1f µs (%.3f µs per source); direct %.1f µs (%.3f); direct+checks %.1f µs (%.3f)",
             sourceCount, perUpdateEngine, perUpdateEngine / Double(sourceCount), perUpdateDirect,
             perUpdateDirect / Double(sourceCount), perUpdateChecked, perUpdateChecked / Double(sourceCount)))
// The engine's setters only note a change; the render thread writes it to OpenAL before mixing.
print(String(format: "  the rest of an update (writes at the mix, engine update, mix): engine %.1f µs, direct %.1f µs",
             median(results.map { $0.engine.render - $0.engine.moveSeconds }) / Double(updates) * 1e6,
             median(results.map { $0.direct.render - $0.direct.moveSeconds }) / Double(updates) * 1e6))

/// Nanoseconds on the monotonic clock.
func nanoseconds() -> UInt64 {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
}

func percentile(_ sorted: [UInt64], _ p: Double) -> Double {
    Double(sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]) / 1_000
}

/// `p50 …, p99 …, max …` of sorted nanosecond samples, in microseconds.
func latencySummary(_ sorted: [UInt64]) -> String {
    String(format: "p50 %.1f µs, p99 %.1f µs, max %.1f µs", percentile(sorted, 0.5), percentile(sorted, 0.99), percentile(sorted, 1))
}

/// Nanoseconds from `play` to OpenAL reporting the source playing, for each of `plays` plays
/// (rendering an update every 100 plays, as a game's mixer would run meanwhile).
func playLatencies(_ registry: SystemSoundRegistry, _ id: SystemSoundID, plays: Int) throws -> [UInt64] {
    var latencies: [UInt64] = []
    latencies.reserveCapacity(plays)
    for i in 0..<plays {
        let start = nanoseconds()
        try registry.play(id)
        while !registry.isSounding(id) {}
        latencies.append(nanoseconds() - start)
        if i % 100 == 99 { _ = try registry.device.render(frames: updateFrames) }
    }
    return latencies
}

/// p50/p99 of play → playing through the registry, against raw alSourcePlay.
func systemSoundLatency() throws {
    let plays = 10_000
    let device = try Device.loopback(sampleRate: rate)
    defer { device.close() }
    var options = SystemSoundRegistry.Options()
    options.coalescingWindow = 0   // measure every play, none merged
    let registry = try SystemSoundRegistry(device: device, options: options)
    defer { registry.close() }
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("bench-click-\(getpid()).wav").path
    try SoundFileWriter.write(AudioBuffer(samples: Array(sine(1_000).prefix(4_800)), channels: 1, sampleRate: rate),
                              to: path, format: .wavPCM16)
    defer { unlink(path) }
    var engine = try playLatencies(registry, try registry.register(file: path), plays: plays)

    // Baseline: the OpenAL work alone, on one prepared source.
    let raw = alcLoopbackOpenDeviceSOFT(nil)!
    let attributes: [ALCint] = [ALC_FORMAT_CHANNELS_SOFT, ALC_STEREO_SOFT, ALC_FORMAT_TYPE_SOFT, ALC_FLOAT_SOFT,
                                ALC_FREQUENCY, ALCint(rate), 0]
    let context = alcCreateContext(raw, attributes)!
    alcMakeContextCurrent(context)
    var buffer: ALuint = 0, source: ALuint = 0
    alGenBuffers(1, &buffer)
    let click = Array(sine(1_000).prefix(4_800))
    click.withUnsafeBytes { alBufferData(buffer, AL_FORMAT_MONO_FLOAT32, $0.baseAddress, ALsizei($0.count), ALsizei(rate)) }
    alGenSources(1, &source)
    alSourcei(source, AL_BUFFER, ALint(buffer))
    var direct: [UInt64] = []
    direct.reserveCapacity(plays)
    var state: ALint = 0
    for _ in 0..<plays {
        let start = nanoseconds()
        alSourcePlay(source)
        repeat { alGetSourcei(source, AL_SOURCE_STATE, &state) } while state != AL_PLAYING
        direct.append(nanoseconds() - start)
        alSourceStop(source)
    }
    alDeleteSources(1, &source)
    alDeleteBuffers(1, &buffer)
    alcMakeContextCurrent(nil)
    alcDestroyContext(context)
    alcCloseDevice(raw)

    engine.sort()
    direct.sort()
    print("system sounds: play → playing, \(plays) plays of a registered 0.1 s click (loopback device)")
    print("  SystemSoundRegistry.play: \(latencySummary(engine))")
    print("  raw alSourcePlay:         \(latencySummary(direct))")
}
