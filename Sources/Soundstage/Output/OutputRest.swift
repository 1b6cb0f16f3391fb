#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif
import Dispatch
import NIOConcurrencyHelpers
import Synchronization

/// A desktop output's rest (``DesktopOutputOptions/idleTimeout``): while nothing plays, its
/// stream is corked and its render thread sleeps, but the device's clock keeps counting, so
/// offsets and `play(_:at:)` times stay on the same timeline as if it had mixed silence all along.
///
/// The clock is the frames rendered plus, while resting, the frames the wall clock has passed
/// since the rest began. Ending a rest adds those frames to the rendered count and clears the
/// rest under one lock, so no reader sees them counted twice or not at all.
final class OutputRest: Sendable {
    private let resting = Atomic<Bool>(false)
    private let state = NIOLockedValueBox(State())
    /// Bumped by everything that may make sound (a play, a scheduled play, a mix recording): the
    /// render thread compares it before and after deciding to rest, so a play that races the
    /// decision wakes it at once (see ``DesktopOutput``).
    private let activity = Atomic<Int>(0)

    struct State {
        var resting = false
        var since: UInt64 = 0
        var rests = 0
    }

    /// Whether the output rests now.
    var isResting: Bool { resting.load(ordering: .sequentiallyConsistent) }

    /// How many times it has rested (the current rest included).
    var rests: Int { state.withLockedValue { $0.rests } }

    /// `device`'s clock in frames: those rendered plus what passed while resting.
    func clock(of device: Device) -> Int {
        guard resting.load(ordering: .acquiring) else { return device.renderedFrames.load(ordering: .relaxed) }
        return state.withLockedValue { state in
            device.renderedFrames.load(ordering: .relaxed) + (state.resting ? Self.frames(since: state.since, sampleRate: device.sampleRate) : 0)
        }
    }

    /// Begins a rest at the current frame (the render thread), its clock counting from `delay`
    /// seconds on: when the frames still queued, corked unheard, would have played out.
    func begin(after delay: Double = 0) {
        state.withLockedValue { state in
            state.resting = true
            state.since = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, delay) * 1e9)
            state.rests += 1
            // Sequentially consistent with `noteActivity` and `activityCount`: a play either sees
            // the rest begun (and pokes) or is counted before the render thread reads the count.
            resting.store(true, ordering: .sequentiallyConsistent)
        }
    }

    /// Ends the rest, if one runs: the frames it lasted join `device`'s rendered frames.
    func end(of device: Device) {
        state.withLockedValue { state in
            guard state.resting else { return }
            device.renderedFrames.add(Self.frames(since: state.since, sampleRate: device.sampleRate), ordering: .relaxed)
            state.resting = false
            resting.store(false, ordering: .releasing)
        }
    }

    /// Notes something that may sound.
    func noteActivity() { activity.add(1, ordering: .sequentiallyConsistent) }

    /// The count of ``noteActivity()`` calls so far.
    var activityCount: Int { activity.load(ordering: .sequentiallyConsistent) }

    private static func frames(since: UInt64, sampleRate: Int) -> Int {
        let now = DispatchTime.now().uptimeNanoseconds
        guard now > since else { return 0 }
        return Int(Double(now - since) * Double(sampleRate) / 1e9)
    }
}

extension Device {
    /// Notes that something may sound (a play, a scheduled play, a mix recording): a resting
    /// desktop output wakes. Cheap: one atomic add, and a poke only while it rests.
    func noteActivity() {
        rest.noteActivity()
        if rest.isResting {
            desktop?.wake()
            poller?.wake()
        } else if desktop?.wantsActivity == true {
            desktop?.wake()     // its queue is silence: the sound skips it
        }
    }

    /// The longest decay of the reverb zones of the device's scenes (seconds; 0 without zones):
    /// how long an OpenAL output, whose mix the engine cannot hear, waits past the last sound
    /// for tails before it rests.
    var longestReverbTail: Double {
        let scenes = liveScenes()
        return scenes.map { scene in
            scene.withState { state, _ in Double(state.effects.zones.compactMap { $0?.state.preset.decayTime }.max() ?? 0) }
        }.max() ?? 0
    }

    /// Whether nothing can sound before device frame `frame`: no source plays (a paused one is
    /// silent), none waits in a batch, no scheduled play comes before `frame`, no virtual voice
    /// plays, no recording of the mix runs and no mix input is added (``addMixInput(_:)``). Tails are the caller's to check, in the mix itself.
    func isQuiet(before frame: Int) -> Bool {
        guard !isRecordingMix.load(ordering: .acquiring), !hasMixInputs.load(ordering: .acquiring) else { return false }
        let scenes = liveScenes()
        return scenes.allSatisfy { $0.isQuiet(before: frame) }
    }

    /// The earliest frame a play is scheduled at, if any.
    var nextScheduledFrame: Int? { scheduledFrames.withLockedValue { $0.first } }
}

extension Scene {
    /// See ``Device/isQuiet(before:)``.
    func isQuiet(before frame: Int) -> Bool {
        withState { state, _ in
            guard state.pendingPlays.isEmpty, !state.scheduledPlays.contains(where: { $0.frame < frame }),
                  state.voices?.virtual.isEmpty ?? true else { return false }
            let scheduled = Set(state.scheduledPlays.map(\.name))
            return !state.active.values.contains { source in
                source.isPlayingLocked && !(source.nameLocked.map(scheduled.contains) ?? false)
            }
        }
    }
}
