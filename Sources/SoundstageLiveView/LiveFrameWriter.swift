#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif
import Soundstage

/// Writes a live-view frame as JSON straight into bytes: the frame's schema is fixed, so a
/// writer that knows it costs a fraction of `JSONEncoder` (which the view spent most of its time
/// in). Numbers are written with the precision the page shows (positions to the millimetre,
/// levels to a tenth of a dB); NaN and infinities as the strings `"NaN"`, `"Infinity"`,
/// `"-Infinity"`.
///
/// A *full* frame has everything; the others leave out what changes rarely (each source's
/// file, group, distance parameters and why it is virtual; reverb zones; voice events;
/// sessions; the log) — the page keeps those from the latest full frame.
struct LiveFrameWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    // MARK: The frame

    mutating func frame(_ snapshot: MixSnapshot, full: Bool, renderLoad: Double?, newUnderruns: Int,
                        sessions: [LiveSession], log: [LiveLogLine], view: LiveFrame.View) {
        raw("{\"full\":"); bool(full)
        raw(",\"renderLoad\":"); if let renderLoad { number(renderLoad, 5) } else { raw("null") }
        raw(",\"newUnderruns\":"); int(newUnderruns)
        raw(",\"view\":{\"browsers\":"); int(view.browsers)
        raw(",\"sent\":"); int(view.sent)
        raw(",\"dropped\":"); int(view.dropped)
        raw(",\"busySeconds\":"); number(view.busySeconds, 4)
        raw(",\"framesPerSecond\":"); int(view.framesPerSecond)
        raw("}")
        if full {
            raw(",\"sessions\":["); list(sessions) { w, s in w.session(s) }
            raw("],\"log\":["); list(log) { w, l in w.raw("{\"time\":"); w.number(l.time, 3); w.raw(",\"text\":"); w.string(l.text); w.raw("}") }
            raw("]")
        }
        raw(",\"snapshot\":{\"time\":"); number(snapshot.time, 4)
        raw(",\"sampleRate\":"); int(snapshot.sampleRate)
        raw(",\"output\":"); output(snapshot.output)
        raw(",\"outputLevels\":"); levels(snapshot.outputLevels)
        raw(",\"scenes\":["); list(snapshot.scenes) { w, s in w.scene(s, full: full) }
        raw("]}}")
    }

    private mutating func session(_ s: LiveSession) {
        raw("{\"name\":"); string(s.name)
        raw(",\"category\":"); string(s.category)
        raw(",\"active\":"); bool(s.active)
        raw(",\"interrupted\":"); bool(s.interrupted)
        raw(",\"ducked\":"); bool(s.ducked)
        raw("}")
    }

    private mutating func output(_ o: OutputStatus) {
        raw("{\"backend\":"); string(o.backend)
        raw(",\"server\":"); string(o.server)
        raw(",\"sink\":"); if let sink = o.sink { string(sink) } else { raw("null") }
        raw(",\"underruns\":"); int(o.underruns)
        raw(",\"volume\":"); number(Double(o.volume), 3)
        raw(",\"muted\":"); bool(o.muted)
        raw(",\"paused\":"); bool(o.paused)
        raw(",\"connected\":"); bool(o.connected)
        raw(",\"resting\":"); bool(o.resting)
        raw("}")
    }

    private mutating func levels(_ l: MixSnapshot.Levels?) {
        guard let l else { return raw("null") }
        raw("{\"average\":["); list(l.average) { w, v in w.number(Double(v), 1) }
        raw("],\"peak\":["); list(l.peak) { w, v in w.number(Double(v), 1) }
        raw("]}")
    }

    private mutating func scene(_ s: SceneSnapshot, full: Bool) {
        raw("{\"id\":"); int(s.id)
        raw(",\"listener\":{\"position\":"); vector(s.listener.position)
        raw(",\"at\":"); vector(s.listener.at)
        raw(",\"up\":"); vector(s.listener.up)
        raw(",\"gain\":"); number(Double(s.listener.gain), 3)
        raw("},\"distanceModel\":"); string(s.distanceModel)
        raw(",\"sourceBudget\":"); int(s.sourceBudget)
        raw(",\"virtualizesVoices\":"); bool(s.virtualizesVoices)
        raw(",\"realVoices\":"); int(s.realVoices)
        raw(",\"virtualVoices\":"); int(s.virtualVoices)
        raw(",\"steals\":"); int(s.steals)
        raw(",\"levels\":"); levels(s.levels)
        raw(",\"groups\":["); list(s.groups) { w, g in w.group(g) }
        raw("],\"sources\":["); list(s.sources) { w, source in w.source(source, full: full) }
        raw("]")
        if full {
            raw(",\"zones\":["); list(s.zones) { w, z in w.zone(z) }
            raw("],\"recentVoiceEvents\":["); list(s.recentVoiceEvents) { w, e in
                w.raw("{\"kind\":"); w.string(e.kind)
                w.raw(",\"source\":"); w.int(e.source)
                w.raw(",\"file\":"); if let file = e.file { w.string(file) } else { w.raw("null") }
                w.raw(",\"time\":"); w.number(e.time, 3)
                w.raw("}")
            }
            raw("]")
        }
        raw("}")
    }

    private mutating func group(_ g: GroupSnapshot) {
        raw("{\"name\":"); string(g.name)
        raw(",\"parent\":"); if let parent = g.parent { string(parent) } else { raw("null") }
        raw(",\"gain\":"); number(Double(g.gain), 3)
        raw(",\"effectiveGain\":"); number(Double(g.effectiveGain), 3)
        raw(",\"muted\":"); bool(g.muted)
        raw(",\"paused\":"); bool(g.paused)
        raw(",\"levels\":"); levels(g.levels)
        raw("}")
    }

    private mutating func zone(_ z: ZoneSnapshot) {
        raw("{\"name\":"); string(z.name)
        raw(",\"preset\":"); string(z.preset)
        raw(",\"shape\":"); string(z.shape)
        raw(",\"center\":"); if let c = z.center { vector(c) } else { raw("null") }
        raw(",\"radius\":"); if let r = z.radius { number(Double(r), 3) } else { raw("null") }
        raw(",\"upper\":"); if let u = z.upper { vector(u) } else { raw("null") }
        raw(",\"fade\":"); number(Double(z.fade), 3)
        raw(",\"weight\":"); number(Double(z.weight), 3)
        raw("}")
    }

    private mutating func source(_ s: SourceSnapshot, full: Bool) {
        raw("{\"id\":"); int(s.id)
        raw(",\"state\":"); raw(s.state == "paused" ? "\"paused\"" : "\"playing\"")
        raw(",\"isVirtual\":"); bool(s.isVirtual)
        raw(",\"position\":"); vector(s.position)
        raw(",\"level\":"); number(Double(s.level), 1)
        if full {
            raw(",\"file\":"); if let file = s.file { string(file) } else { raw("null") }
            raw(",\"virtualReason\":"); if let reason = s.virtualReason { string(reason) } else { raw("null") }
            raw(",\"group\":"); if let group = s.group { string(group) } else { raw("null") }
            raw(",\"velocity\":"); vector(s.velocity)
            raw(",\"gain\":"); number(Double(s.gain), 3)
            raw(",\"pitch\":"); number(Double(s.pitch), 3)
            raw(",\"looping\":"); bool(s.looping)
            raw(",\"headRelative\":"); bool(s.headRelative)
            raw(",\"spatialized\":"); bool(s.spatialized)
            raw(",\"streaming\":"); bool(s.streaming)
            raw(",\"referenceDistance\":"); number(Double(s.referenceDistance), 3)
            raw(",\"maxDistance\":"); number(Double(s.maxDistance), 3)
            raw(",\"rolloffFactor\":"); number(Double(s.rolloffFactor), 3)
            raw(",\"priority\":"); int(s.priority)
        }
        raw("}")
    }

    // MARK: Values

    private mutating func vector(_ v: Vector3) {
        raw("{\"x\":"); number(Double(v.x), 3)
        raw(",\"y\":"); number(Double(v.y), 3)
        raw(",\"z\":"); number(Double(v.z), 3)
        raw("}")
    }

    private mutating func list<T>(_ items: [T], _ write: (inout LiveFrameWriter, T) -> Void) {
        for (index, item) in items.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            write(&self, item)
        }
    }

    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    private mutating func bool(_ value: Bool) { raw(value ? "true" : "false") }

    mutating func int(_ value: Int) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        digits(value.magnitude)
    }

    private mutating func digits(_ value: UInt) {
        var scratch: (UInt64, UInt64, UInt64) = (0, 0, 0)     // 24 bytes: UInt.max has 20 digits
        withUnsafeMutableBytes(of: &scratch) { buffer in
            var at = buffer.count, rest = value
            repeat {
                at -= 1
                buffer[at] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            bytes.append(contentsOf: buffer[at...])
        }
    }

    /// `value` with at most `decimals` decimals (trailing zeros dropped).
    mutating func number(_ value: Double, _ decimals: Int) {
        guard value.isFinite else {
            return raw(value.isNaN ? "\"NaN\"" : value > 0 ? "\"Infinity\"" : "\"-Infinity\"")
        }
        let scale = Self.powersOfTen[decimals]
        guard abs(value) * scale < 9e15 else {
            // Beyond what an integer holds exactly (a max distance of 3.4e38): the shortest form.
            return bytes.append(contentsOf: Array("\(value)".utf8))
        }
        var scaled = Int((value * scale).rounded())
        if scaled < 0 {
            bytes.append(UInt8(ascii: "-"))
            scaled = -scaled
        }
        let whole = scaled / Int(scale)
        var fraction = scaled % Int(scale)
        digits(UInt(whole))
        guard fraction > 0 else { return }
        var places = decimals
        while fraction % 10 == 0 {
            fraction /= 10
            places -= 1
        }
        bytes.append(UInt8(ascii: "."))
        var divisor = Int(Self.powersOfTen[places - 1])
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(fraction / divisor % 10))
            divisor /= 10
        }
    }

    private static let powersOfTen: [Double] = [1, 10, 100, 1_000, 10_000, 100_000]
    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): raw("\\\"")
            case UInt8(ascii: "\\"): raw("\\\\")
            case UInt8(ascii: "\n"): raw("\\n")
            case UInt8(ascii: "\r"): raw("\\r")
            case UInt8(ascii: "\t"): raw("\\t")
            case 0..<0x20:
                raw("\\u00")
                bytes.append(Self.hexDigits[Int(byte >> 4)])
                bytes.append(Self.hexDigits[Int(byte & 0xF)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
