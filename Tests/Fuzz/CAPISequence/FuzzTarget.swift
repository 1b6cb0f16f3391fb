import CSoundstage
import FuzzSupport
import SoundstageC
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

// The C API as call sequences: Soundstage's own (ss_*, soundstage.h) and Core Audio's by Apple's
// names (AudioToolbox/*.h and CoreFoundation/*.h, issue 46), each called through its C declaration.
// The input is a program: each step is an opcode byte and its arguments (handles picked from what
// the program holds — live, destroyed, of another kind, forged, garbage or NULL — and any float
// bits). Opcodes 0x00–0x7F are the ss_ calls (the byte modulo 32, as before Core Audio's came, so
// the older seeds mean what they meant): creates and destroys of every kind, setters, plays,
// renders, completion callbacks that call back in (render their own device, destroy their own
// source, scene or device, make a new source), and a second thread that replays part of the
// program against the same handles. After each call it checks the header's rules:
//
// - the result is one of the header's codes;
// - a call given a destroyed, forged, garbage or wrong-kind handle does not succeed;
// - a create that fails leaves its out-pointer untouched;
// - ss_live_handles() equals the handles the program holds (when no second thread runs);
// - every render is finite, and a callback's render of its own device is SS_ERROR_INVALID_STATE;
// - every ss_sound_play* callback runs at most once, and exactly once by the end;
// - at the end, with every device destroyed, nothing is live: handles and OpenAL objects.
//
// Opcodes 0x80–0xFF are Core Audio's functions (AppleCalls.swift): Audio File Services (files
// created on disk in a private folder, in memory through callbacks that fail when told, opened
// again, read by packets and bytes, their properties got and set), Audio File Stream Services (the
// files written, and the corpus's, parsed in pieces; callbacks that close their stream), Audio
// Converter Services (an input procedure that gives the input's bytes, lies about its packets and
// descriptions, calls back in and disposes its converter), Extended Audio File Services (client
// formats, reads, writes, asynchronous writes, seeks, the file's own converter and AudioFileID
// taken and misused), Audio Format Services, and CFURL, CFString, CFDictionary, CFRetain and
// CFRelease. Formats are presets or hostile ones (NaN, infinite, zero and huge rates, odd depths,
// any flags, zero or huge packet sizes and channel counts); sizes and counts are anything over
// buffers that are what they say; the second thread reads, writes, converts and closes the same
// handles. The rules besides the ss_ ones:
//
// - every result is one of the headers' codes (or the code a callback returned);
// - a closed, forged, garbage, NULL or wrong-kind handle never succeeds; a closed handle stays
//   closed (a second close is kAudioFileNotOpenError or kAudio_ParamError); none closes twice;
// - a failed open or create leaves NULL in its out-pointer, a successful one a new handle;
// - no size returned exceeds the room given (properties, packets, bytes, frames, buffer lists), and
//   packet descriptions lie inside the bytes returned;
// - float samples converted or read from integer, G.711 or IMA4 sources are finite;
// - a file written with a preset format and closed reopens with the packets and format it stated;
//   an ext file written so reads back exactly the frames written;
// - disposing an ext file closes its converter and the AudioFileID it opened, not one it wraps;
// - a stream's callbacks run in order (packets after ReadyToProducePackets, inside the bytes given,
//   none after the stream closed itself), and a parse from inside one is refused;
// - every CF object the program owns is released exactly once.

@main struct FuzzCAPISequence {
    static func main() { Fuzzing.main(testOneInput) }
}

/// The handle kinds, as the library's handle bits spell them (bits 56–63).
enum Kind: UInt8, CaseIterable {
    case device = 1, scene, buffer, source, group, reverbZone, voiceLimit, session, soundRegistry
}

/// A handle the program holds, and the handle it was made under (destroyed with it).
struct Held {
    var bits: UInt
    var kind: Kind
    var parent: UInt
}

/// What callbacks did, on whatever thread they ran, for the program to apply to its model.
struct CallbackRecord {
    var destroyed: [UInt] = []
    var created: [Held] = []
    var nestedRenderResults: [Int32] = []
    var soundCalls: [Int: Int] = [:]
    var soundPlays = 0
    /// Per completion token: action, the source's device and scene.
    var completions: [Int: (action: UInt8, device: UInt, scene: UInt)] = [:]
    var nextToken = 1
    /// Every handle a destroy returned SS_OK for, on any thread: none may be destroyed twice.
    var destroyedOK: Set<UInt> = []
    /// Apple handles the second thread (or a callback) closed or disposed, for the program to forget.
    var appleClosed: [UInt] = []
    /// Every Apple handle a close or dispose returned noErr for: none may be closed twice so.
    var appleClosedOK: Set<UInt> = []
}

/// Notes that destroying `bits` returned SS_OK (on any thread) and checks it had not before.
func noteDestroyed(_ bits: UInt, byCallbackOrThread: Bool) {
    let twice = record.withLock { record in
        if byCallbackOrThread { record.destroyed.append(bits) }
        return !record.destroyedOK.insert(bits).inserted
    }
    Fuzzing.require(!twice, "a handle was destroyed twice with SS_OK")
}

let record = RecordLock(CallbackRecord())

/// The callback record behind a pthread mutex: ThreadSanitizer reports Synchronization's `Mutex`
/// as an access race when two threads contend for it on Linux (the queue calls' second thread made
/// that happen in the replay under it); a pthread mutex it understands.
final class RecordLock: @unchecked Sendable {
    // @unchecked: `value` is touched only with `mutex` held.
    private var value: CallbackRecord
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)   // lives as long as the process

    init(_ value: CallbackRecord) {
        self.value = value
        pthread_mutex_init(mutex, nil)
    }

    func withLock<R>(_ body: (inout CallbackRecord) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}

/// The header's result codes.
let validResults: Set<Int32> = Set([0, -99] + Array(-10...(-1)) + Array(-42...(-20)))

/// What the program holds, and what it checks.
final class Program {
    var input: FuzzInput
    var live: [Held] = []
    var dead: [UInt] = []
    var threadRunning = false
    /// The Apple handles, CF objects and memory of the program's Core Audio calls (AppleCalls.swift).
    let apple = AppleState()
    /// The Audio Units and graphs (UnitCalls.swift).
    let units = UnitState()
    /// FUZZ_TRACE=1 prints every call and its result (for reading what a finding did).
    static let tracing = getenv("FUZZ_TRACE") != nil

    init(_ input: FuzzInput) { self.input = input }

    // MARK: The model

    func add(_ bits: UInt, _ kind: Kind, parent: UInt) {
        live.append(Held(bits: bits, kind: kind, parent: parent))
    }

    /// Forgets `bits` and everything made under it.
    func remove(_ bits: UInt) {
        var gone: Set<UInt> = [bits]
        var changed = true
        while changed {
            changed = false
            for held in live where !gone.contains(held.bits) && gone.contains(held.parent) {
                gone.insert(held.bits)
                changed = true
            }
        }
        live.removeAll { held in
            guard gone.contains(held.bits) else { return false }
            dead.append(held.bits)
            return true
        }
    }

    /// Applies what callbacks did since the last call.
    func applyCallbacks() {
        let (destroyed, created, appleClosed) = record.withLock { record in
            defer { record.destroyed = []; record.created = []; record.appleClosed = [] }
            return (record.destroyed, record.created, record.appleClosed)
        }
        for bits in appleClosed { appleRemove(bits) }
        for bits in destroyed { remove(bits) }
        for held in created where live.contains(where: { $0.bits == held.parent }) { live.append(held) }
        for held in created where !live.contains(where: { $0.bits == held.bits }) { dead.append(held.bits) }
    }

    // MARK: Picking arguments

    enum Pick { case live, null, dead, wrongKind, forged, garbage }

    /// A handle argument for a parameter of `kind`: usually a live one, sometimes a bad one.
    func pick(_ kind: Kind) -> (pointer: OpaquePointer?, pick: Pick) {
        let selector = input.byte()
        let ofKind = live.filter { $0.kind == kind }
        switch selector % 16 {
        case 0:
            return (nil, .null)
        case 1 where !dead.isEmpty:
            return (OpaquePointer(bitPattern: dead[Int(selector / 16) % dead.count]), .dead)
        case 2:
            let others = live.filter { $0.kind != kind }
            guard !others.isEmpty else { break }
            return (OpaquePointer(bitPattern: others[Int(selector / 16) % others.count].bits), .wrongKind)
        case 3:
            // Another kind's live handle with this kind's byte: its index and generation are real.
            let others = live.filter { $0.kind != kind }
            guard !others.isEmpty else { break }
            let bits = others[Int(selector / 16) % others.count].bits & ~(UInt(0xFF) << 56) | UInt(kind.rawValue) << 56
            return (OpaquePointer(bitPattern: bits), .forged)
        case 4:
            let bits = UInt(input.u64())
            return (bits == 0 ? nil : OpaquePointer(bitPattern: bits), bits == 0 ? .null : .garbage)
        default:
            break
        }
        guard !ofKind.isEmpty else { return (nil, .null) }
        let chosen = ofKind[Int(input.byte()) % ofKind.count]
        if Program.tracing { Fuzzing.printError("    \(kind) #\(chosen.bits & 0xFFFF_FFFF) (parent #\(chosen.parent & 0xFFFF_FFFF))") }
        return (OpaquePointer(bitPattern: chosen.bits), .live)
    }

    // MARK: Rules

    /// Checks a call's result: a code of the header, never SS_OK for a bad handle.
    func check(_ result: ss_result, _ what: String, _ picks: [Pick] = []) {
        if Program.tracing { Fuzzing.printError("  \(what) \(picks) -> \(result.rawValue)") }
        Fuzzing.require(validResults.contains(result.rawValue), "\(what) returned \(result.rawValue), not a code of the header")
        let bad = picks.first { $0 == .dead || $0 == .wrongKind || $0 == .forged || $0 == .garbage }
        Fuzzing.require(bad == nil || result != SS_OK, "\(what) succeeded with a \(bad.map { "\($0)" } ?? "") handle")
        applyCallbacks()
        if !threadRunning {
            Fuzzing.require(ss_live_handles() == live.count,
                            "after \(what): ss_live_handles() = \(ss_live_handles()), the program holds \(live.count)")
        }
    }

    /// Runs a create: checks it and, when it succeeded, holds its handle.
    func create(_ kind: Kind, parent: UInt, _ what: String, _ picks: [Pick],
                _ call: (UnsafeMutablePointer<OpaquePointer?>) -> ss_result) {
        let sentinel = OpaquePointer(bitPattern: 0x5EED)
        var out: OpaquePointer? = sentinel
        let result = call(&out)
        if result == SS_OK {
            Fuzzing.require(out != nil && out != sentinel, "\(what) succeeded without a handle")
            add(UInt(bitPattern: Int(bitPattern: out.map(UnsafeRawPointer.init))), kind, parent: parent)
        } else {
            Fuzzing.require(out == sentinel, "\(what) failed (\(result.rawValue)) but wrote its out-pointer")
        }
        check(result, what, picks)
    }

    func bits(_ pointer: OpaquePointer?) -> UInt { UInt(bitPattern: Int(bitPattern: pointer.map(UnsafeRawPointer.init))) }

    // MARK: Steps

    /// Runs the program (at most 96 steps).
    func run() {
        var steps = 0
        while !input.isAtEnd && steps < 96 {
            step(input.byte())
            steps += 1
        }
        finish()
    }

    func step(_ opcode: UInt8) {
        // 0x80 and up: Core Audio's C functions (AppleCalls.swift). Below, the ss_ calls, their
        // opcode the byte modulo 32 as it always was (so the older seeds mean what they meant).
        guard opcode < 0x80 else { return appleStep(opcode - 0x80) }
        if Program.tracing { Fuzzing.printError("step \(opcode % 32)") }
        switch opcode % 32 {
        case 0, 1: openDevice()
        case 2: destroy(.device) { ss_device_destroy($0) }
        case 3, 4: createScene()
        case 5: destroy(.scene) { ss_scene_destroy($0) }
        case 6, 7: createBuffer()
        case 8: destroy(.buffer) { ss_buffer_destroy($0) }
        case 9, 10: createSource()
        case 11: destroy(.source) { ss_source_destroy($0) }
        case 12, 13: setSource()
        case 14, 15: playback()
        case 16: createGroup()
        case 17: destroy(.group) { ss_group_destroy($0) }
        case 18: setGroup()
        case 19: createZone()
        case 20: destroy(.reverbZone) { ss_reverb_zone_destroy($0) }
        case 21: zoneSend()
        case 22, 23: render()
        case 24: setCompletion()
        case 25: setScene()
        case 26: voiceLimit()
        case 27: session()
        case 28: sounds()
        case 29: startThread()
        case 30: joinThread()
        default: ducking()
        }
    }

    func destroy(_ kind: Kind, _ call: (OpaquePointer?) -> ss_result) {
        let (handle, pick) = pick(kind)
        let result = call(handle)
        if result == SS_OK {
            noteDestroyed(bits(handle), byCallbackOrThread: false)
            remove(bits(handle))
        }
        if pick == .live && !threadRunning {
            // A live handle of the right kind is destroyed: exactly SS_OK.
            Fuzzing.require(result == SS_OK, "destroying a live \(kind) gave \(result.rawValue)")
        }
        check(result, "destroy \(kind)", [pick])
    }

    func openDevice() {
        guard live.filter({ $0.kind == .device }).count < 3 else { return }
        let rate = Int32(input.choice([8_000, 22_050, 44_100, 48_000, 96_000, 0, -1, 192_001]))
        let layout = ss_channel_layout(rawValue: numericCast(input.choice([1, 2, 4, 6, 7, 8, 3, 0])))
        let zones = Int32(input.choice([-1, 0, 1, 4, 5]))
        create(.device, parent: 0, "ss_device_open_loopback(\(rate), \(layout.rawValue), zones \(zones))", []) { ss_device_open_loopback(rate, layout, SS_OFF, zones, $0) }
    }

    func createScene() {
        let (device, pick) = pick(.device)
        let budget = Int32(input.choice([0, 1, 16, 256, -3, 70_000]))
        create(.scene, parent: bits(device), "ss_scene_create", [pick]) { ss_scene_create(device, budget, $0) }
    }

    func createBuffer() {
        let (device, pick) = pick(.device)
        let channels = Int32(input.choice([1, 1, 2, 3, 6, 0]))
        let frames = Int(input.byte() % 64) + (input.byte() % 4 == 0 ? 0 : 1)
        var samples = [Float](repeating: 0, count: max(1, frames * Int(max(channels, 1))))
        let kind = input.byte() % 4
        for index in samples.indices {
            samples[index] = kind == 0 ? input.float() : Float(sin(Double(index) * 0.3)) * 0.5
        }
        let rate = Int32(input.choice([48_000, 22_050, 8_000, 0, 768_001]))
        create(.buffer, parent: bits(device), "ss_buffer_create_pcm(frames \(frames), channels \(channels), rate \(rate))", [pick]) {
            ss_buffer_create_pcm(device, samples, frames, channels, rate, $0)
        }
    }

    func createSource() {
        let (scene, scenePick) = pick(.scene)
        let useBuffer = input.byte() % 4 != 0
        let (buffer, bufferPick) = useBuffer ? pick(.buffer) : (nil, .null)
        create(.source, parent: bits(scene), "ss_source_create", [scenePick, bufferPick]) { ss_source_create(scene, buffer, $0) }
    }

    func setSource() {
        let (source, pick) = pick(.source)
        switch input.byte() % 6 {
        case 0:
            let property = ss_source_float(rawValue: numericCast(input.byte() % 16))
            let value = input.float()
            check(ss_source_set_float(source, property, value), "ss_source_set_float(\(property.rawValue), \(value))", [pick])
            var read: Float = 12345
            let result = ss_source_get_float(source, property, &read)
            if result == SS_OK { Fuzzing.require(read.isFinite, "a source float property reads \(read)") }
            check(result, "ss_source_get_float", [pick])
        case 1:
            let property = ss_source_vec3(rawValue: numericCast(input.byte() % 4))
            let value = ss_vec3(x: input.float(), y: input.float(), z: input.float())
            check(ss_source_set_vec3(source, property, value), "ss_source_set_vec3", [pick])
        case 2:
            check(ss_source_set_position(source, input.float(), input.float(), input.float()), "ss_source_set_position", [pick])
        case 3:
            check(ss_source_set_looping(source, Int32(input.byte() % 3)), "ss_source_set_looping", [pick])
            check(ss_source_set_repeat_count(source, Int32(Int8(bitPattern: input.byte()))), "ss_source_set_repeat_count", [pick])
        case 4:
            let (buffer, bufferPick) = self.pick(.buffer)
            check(ss_source_set_buffer(source, buffer), "ss_source_set_buffer", [pick, bufferPick])
        default:
            check(ss_source_fade(source, input.float(), input.double(), Int32(input.byte() % 2)), "ss_source_fade", [pick])
        }
    }

    /// Plays, pauses, stops, seeks and schedules sources.
    func playback() {
        let (source, pick) = pick(.source)
        switch input.byte() % 6 {
        case 0: check(ss_source_play(source), "ss_source_play", [pick])
        case 1: check(ss_source_pause(source), "ss_source_pause", [pick])
        case 2: check(ss_source_stop(source), "ss_source_stop", [pick])
        case 3: check(ss_source_rewind(source), "ss_source_rewind", [pick])
        case 4: check(ss_source_seek(source, input.double()), "ss_source_seek", [pick])
        default:
            let (scene, scenePick) = self.pick(.scene)
            var sources = [source]
            check(ss_scene_play_at(scene, &sources, 1, input.double()), "ss_scene_play_at", [scenePick, pick])
        }
    }

    func createGroup() {
        let (scene, scenePick) = pick(.scene)
        let (parent, parentPick) = input.byte() % 2 == 0 ? pick(.group) : (nil, .null)
        create(.group, parent: bits(scene), "ss_group_create", [scenePick, parentPick]) { ss_group_create(scene, "g", parent, $0) }
        if let last = live.last, last.kind == .group, input.byte() % 2 == 0 {
            let (source, sourcePick) = pick(.source)
            check(ss_source_set_group(source, OpaquePointer(bitPattern: last.bits)), "ss_source_set_group", [sourcePick])
        }
    }

    func setGroup() {
        let (group, pick) = pick(.group)
        switch input.byte() % 4 {
        case 0: check(ss_group_set_gain(group, input.float()), "ss_group_set_gain", [pick])
        case 1: check(ss_group_set_pitch(group, input.float()), "ss_group_set_pitch", [pick])
        case 2: check(input.byte() % 2 == 0 ? ss_group_pause(group) : ss_group_resume(group), "ss_group_pause/resume", [pick])
        default:
            check(ss_group_fade(group, input.float(), input.double(), Int32(input.byte() % 2), nil, nil), "ss_group_fade", [pick])
        }
    }

    func createZone() {
        let (scene, pick) = pick(.scene)
        let count = ss_reverb_preset_count()
        let preset = ss_reverb_preset_name(Int32(input.byte()) % max(count, 1)) ?? ss_reverb_preset_name(0)
        var region = ss_reverb_region()
        region.kind = ss_region_kind(rawValue: numericCast(input.byte() % 4))
        region.center = ss_vec3(x: input.float(), y: input.float(), z: input.float())
        region.radius = input.float()
        region.min = ss_vec3(x: -1, y: -1, z: -1)
        region.max = ss_vec3(x: input.float(), y: 1, z: 1)
        region.fade = input.float()
        let withRegion = input.byte() % 2 == 0
        let gain = input.float()
        let described = Program.tracing ? "ss_reverb_zone_create(\(String(cString: preset!)), region \(withRegion ? "\(region)" : "nil"), gain \(gain))" : ""
        create(.reverbZone, parent: bits(scene), described, [pick]) { out in
            withRegion ? ss_reverb_zone_create(scene, "z", preset, &region, gain, out) : ss_reverb_zone_create(scene, "z", preset, nil, gain, out)
        }
    }

    func zoneSend() {
        let (source, sourcePick) = pick(.source)
        let (zone, zonePick) = pick(.reverbZone)
        switch input.byte() % 3 {
        case 0: check(ss_source_set_zone_send(source, zone, input.float()), "ss_source_set_zone_send", [sourcePick, zonePick])
        case 1: check(ss_reverb_zone_set_gain(zone, input.float()), "ss_reverb_zone_set_gain", [zonePick])
        default:
            let setting = input.choice(["decayTime", "density", "gain", "nonsense", ""])
            check(ss_reverb_zone_set_value(zone, setting, input.float()), "ss_reverb_zone_set_value", [zonePick])
        }
    }

    func render() {
        let (device, pick) = pick(.device)
        let frames = Int(input.u16() % 2_400)
        var samples = [Float](repeating: 0, count: max(1, frames * 8))
        let result = ss_device_render(device, &samples, frames)
        if result == SS_OK {
            Fuzzing.require(samples.allSatisfy { $0.isFinite }, "a render was not finite")
        }
        check(result, "ss_device_render(\(frames))", [pick])
    }

    func setCompletion() {
        let (source, pick) = pick(.source)
        guard let held = live.first(where: { $0.bits == bits(source) }), let scene = live.first(where: { $0.bits == held.parent }) else {
            check(ss_source_set_completion_callback(source, nil, nil), "ss_source_set_completion_callback", [pick])
            return
        }
        let action = input.byte() % 7
        let token = record.withLock { record in
            defer { record.nextToken += 1 }
            record.completions[record.nextToken] = (action, scene.parent, scene.bits)
            return record.nextToken
        }
        let result = ss_source_set_completion_callback(source, { source, userData in
            completionCallback(source, Int(bitPattern: userData))
        }, UnsafeMutableRawPointer(bitPattern: token))
        check(result, "ss_source_set_completion_callback", [pick])
    }

    func setScene() {
        let (scene, pick) = pick(.scene)
        switch input.byte() % 6 {
        case 0: check(ss_listener_set_position(scene, ss_vec3(x: input.float(), y: input.float(), z: input.float())), "ss_listener_set_position", [pick])
        case 1:
            check(ss_listener_set_orientation(scene, ss_vec3(x: input.float(), y: 0, z: -1), ss_vec3(x: 0, y: input.float(), z: 0)),
                  "ss_listener_set_orientation", [pick])
        case 2: check(ss_listener_set_gain(scene, input.float()), "ss_listener_set_gain", [pick])
        case 3: check(ss_scene_set_doppler_factor(scene, input.float()), "ss_scene_set_doppler_factor", [pick])
        case 4: check(input.byte() % 2 == 0 ? ss_scene_begin_batch(scene) : ss_scene_end_batch(scene), "ss_scene_batch", [pick])
        default:
            let model = ss_distance_model(rawValue: numericCast(input.byte() % 8))
            check(ss_scene_set_distance_model(scene, model), "ss_scene_set_distance_model", [pick])
        }
    }

    func voiceLimit() {
        if input.byte() % 2 == 0 {
            let (scene, pick) = pick(.scene)
            let voices = Int32(Int8(bitPattern: input.byte()))
            let policy = ss_steal_policy(rawValue: numericCast(input.byte() % 5))
            create(.voiceLimit, parent: bits(scene), "ss_voice_limit_create", [pick]) { ss_voice_limit_create(scene, "l", voices, policy, $0) }
        } else if input.byte() % 2 == 0 {
            destroy(.voiceLimit) { ss_voice_limit_destroy($0) }
        } else {
            let (source, sourcePick) = pick(.source)
            let (limit, limitPick) = pick(.voiceLimit)
            check(ss_source_set_voice_limit(source, limit), "ss_source_set_voice_limit", [sourcePick, limitPick])
        }
    }

    func session() {
        switch input.byte() % 4 {
        case 0:
            let (device, pick) = pick(.device)
            let category = ss_session_category(rawValue: numericCast(input.byte() % 7))
            create(.session, parent: bits(device), "ss_session_create", [pick]) { ss_session_create(device, category, Int32(input.byte() % 8), $0) }
        case 1: destroy(.session) { ss_session_destroy($0) }
        case 2:
            let (session, pick) = pick(.session)
            check(ss_session_set_active(session, Int32(input.byte() % 2)), "ss_session_set_active", [pick])
        default:
            let (session, pick) = pick(.session)
            let (scene, scenePick) = self.pick(.scene)
            check(ss_session_attach_scene(session, scene), "ss_session_attach_scene", [pick, scenePick])
            check(input.byte() % 2 == 0 ? ss_session_begin_interruption(session) : ss_session_end_interruption(session, 1),
                  "ss_session_interruption", [pick])
        }
    }

    func sounds() {
        switch input.byte() % 4 {
        case 0:
            let (device, pick) = pick(.device)
            create(.soundRegistry, parent: bits(device), "ss_sound_registry_create", [pick]) { ss_sound_registry_create(device, nil, $0) }
        case 1: destroy(.soundRegistry) { ss_sound_registry_destroy($0) }
        default:
            let (registry, pick) = pick(.soundRegistry)
            let token = record.withLock { record in
                record.soundPlays += 1
                defer { record.nextToken += 1 }
                record.soundCalls[record.nextToken] = 0
                return record.nextToken
            }
            let callback: ss_sound_callback = { _, _, _, userData in
                record.withLock { $0.soundCalls[Int(bitPattern: userData), default: 0] += 1 }
            }
            let user = UnsafeMutableRawPointer(bitPattern: token)
            let result: ss_result
            switch input.byte() % 3 {
            case 0: result = ss_sound_play(registry, UInt32(input.byte() % 4), callback, user)
            case 1: result = ss_sound_play_event(registry, input.choice(["bell", "message-new-instant", "no-such-event", ""]), 0, callback, user)
            default: result = ss_sound_play_file(registry, input.choice(["assets/sounds/click.wav", "/nonexistent.wav", "."]), 1, callback, user)
            }
            check(result, "ss_sound_play*", [pick])
            let calls = record.withLock { $0.soundCalls[token] ?? 0 }
            Fuzzing.require(calls <= 1, "a sound callback ran \(calls) times")
            if result != SS_OK { Fuzzing.require(calls == 1, "a failed play (\(result.rawValue)) did not call its callback") }
        }
    }

    func ducking() {
        let (scene, scenePick) = pick(.scene)
        let (target, targetPick) = pick(.group)
        let (trigger, triggerPick) = pick(.group)
        check(ss_scene_add_ducking(scene, target, trigger, input.float(), input.double(), input.double()), "ss_scene_add_ducking",
              [scenePick, targetPick, triggerPick])
    }

    // MARK: A second thread

    var thread: pthread_t?

    /// Starts a thread that replays the next bytes' setters, plays and renders on a snapshot of
    /// the handles held now, while this thread goes on.
    func startThread() {
        guard thread == nil else { return }
        let work = SecondThread(handles: live.map { ($0.bits, $0.kind) }, input: FuzzInput(input.bytes(Int(input.byte()))),
                                appleHandles: apple.live.map { ($0.bits, $0.kind) })
        // What the other thread writes is not counted: no file of now is read back against its count.
        for index in apple.live.indices { apple.live[index].sane = false }
        threadRunning = true
        var created = pthread_t()
        let box = Unmanaged.passRetained(work).toOpaque()
        guard pthread_create(&created, nil, { argument in
            let work = Unmanaged<SecondThread>.fromOpaque(argument!).takeRetainedValue()
            work.run()
            ss_thread_detach()
            return nil
        }, box) == 0 else {
            Unmanaged<SecondThread>.fromOpaque(box).release()
            threadRunning = false
            return
        }
        thread = created
    }

    func joinThread() {
        guard let thread else { return }
        pthread_join(thread, nil)
        self.thread = nil
        threadRunning = false
        check(SS_OK, "joining the second thread")
    }

    // MARK: The end

    func finish() {
        joinThread()
        applyCallbacks()
        finishApple()
        for held in live where held.kind == .device {
            let result = ss_device_destroy(OpaquePointer(bitPattern: held.bits))
            Fuzzing.require(result == SS_OK, "the final ss_device_destroy gave \(result.rawValue)")
            noteDestroyed(held.bits, byCallbackOrThread: false)
            remove(held.bits)
            check(result, "the final ss_device_destroy")
        }
        Fuzzing.require(live.isEmpty, "\(live.count) handles outlived their devices")
        Fuzzing.require(ss_live_handles() == 0, "ss_live_handles() = \(ss_live_handles()) with every device destroyed")
        var objects = ss_live_objects()
        _ = ss_get_live_objects(&objects)
        Fuzzing.require(objects.devices == 0 && objects.contexts == 0 && objects.sources == 0 && objects.buffers == 0
                        && objects.effect_slots == 0, "OpenAL objects outlived every device: \(objects)")
        let (plays, calls) = record.withLock { record in
            defer { record = CallbackRecord() }
            return (record.soundPlays, record.soundCalls)
        }
        let wrong = calls.filter { $0.value != 1 }
        Fuzzing.require(wrong.isEmpty, "of \(plays) sound plays, \(wrong.count) callbacks did not run exactly once: \(wrong.values.sorted())")
    }
}

/// Runs in a completion callback, on the rendering thread: what the token says.
func completionCallback(_ source: OpaquePointer?, _ token: Int) {
    guard let context = record.withLock({ $0.completions[token] }) else { return }
    let sourceBits = UInt(bitPattern: Int(bitPattern: source.map(UnsafeRawPointer.init)))
    switch context.action {
    case 1:
        if ss_source_destroy(source) == SS_OK { noteDestroyed(sourceBits, byCallbackOrThread: true) }
    case 2:
        var samples = [Float](repeating: 0, count: 8 * 64)
        let result = ss_device_render(OpaquePointer(bitPattern: context.device), &samples, 64)
        Fuzzing.require(result == SS_ERROR_INVALID_STATE || result == SS_ERROR_STALE_HANDLE,
                        "a completion callback's render of its own device gave \(result.rawValue), not SS_ERROR_INVALID_STATE")
    case 3:
        var made: OpaquePointer?
        if ss_source_create(OpaquePointer(bitPattern: context.scene), nil, &made) == SS_OK {
            let bits = UInt(bitPattern: Int(bitPattern: made.map(UnsafeRawPointer.init)))
            record.withLock { $0.created.append(Held(bits: bits, kind: .source, parent: context.scene)) }
        }
    case 4:
        if ss_scene_destroy(OpaquePointer(bitPattern: context.scene)) == SS_OK { noteDestroyed(context.scene, byCallbackOrThread: true) }
    case 5:
        if ss_device_destroy(OpaquePointer(bitPattern: context.device)) == SS_OK { noteDestroyed(context.device, byCallbackOrThread: true) }
    case 6:
        _ = ss_source_play(source)
    default:
        break
    }
}

/// Plays, sets and renders on handles another thread may destroy at any moment.
final class SecondThread: @unchecked Sendable {
    // @unchecked: handed whole to the new thread, which alone uses it.
    let handles: [(bits: UInt, kind: Kind)]
    let appleHandles: [(bits: UInt, kind: AppleKind)]
    var input: FuzzInput

    init(handles: [(UInt, Kind)], input: FuzzInput, appleHandles: [(UInt, AppleKind)] = []) {
        self.handles = handles.map { (bits: $0.0, kind: $0.1) }
        self.appleHandles = appleHandles.map { (bits: $0.0, kind: $0.1) }
        self.input = input
    }

    func handle(_ kind: Kind) -> OpaquePointer? {
        let ofKind = handles.filter { $0.kind == kind }
        guard !ofKind.isEmpty else { return nil }
        return OpaquePointer(bitPattern: ofKind[Int(input.byte()) % ofKind.count].bits)
    }

    func run() {
        while !input.isAtEnd {
            let result: ss_result
            let opcode = input.byte()
            // With Apple handles in hand, 0x80 and up are Core Audio calls (AppleCalls.swift).
            if opcode >= 0x80 && !appleHandles.isEmpty {
                appleCall(opcode - 0x80)
                continue
            }
            switch opcode % 9 {
            case 0: result = ss_source_play(handle(.source))
            case 1: result = ss_source_stop(handle(.source))
            case 2: result = ss_source_set_position(handle(.source), input.float(), input.float(), input.float())
            case 3: result = ss_listener_set_position(handle(.scene), ss_vec3(x: input.float(), y: 0, z: 0))
            case 4: result = ss_group_set_gain(handle(.group), input.float())
            case 5: result = ss_source_seek(handle(.source), input.double())
            case 6:
                // Destroys race the other thread's calls and destroys (the same handle too).
                let kind = input.choice([Kind.source, .source, .group, .scene, .device])
                let target = handle(kind)
                let bits = UInt(bitPattern: Int(bitPattern: target.map(UnsafeRawPointer.init)))
                switch kind {
                case .source: result = ss_source_destroy(target)
                case .group: result = ss_group_destroy(target)
                case .scene: result = ss_scene_destroy(target)
                default: result = ss_device_destroy(target)
                }
                if result == SS_OK { noteDestroyed(bits, byCallbackOrThread: true) }
            default:
                var samples = [Float](repeating: 0, count: 8 * 256)
                result = ss_device_render(handle(.device), &samples, 256)
                if result == SS_OK { Fuzzing.require(samples.allSatisfy { $0.isFinite }, "a render on the second thread was not finite") }
            }
            Fuzzing.require(validResults.contains(result.rawValue), "a call on the second thread returned \(result.rawValue)")
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    Program(FuzzInput(Fuzzing.bytes(data, size))).run()
    return 0
}
