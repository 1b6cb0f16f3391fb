import NIOConcurrencyHelpers
import Synchronization

/// Whether a meter is on: one atomic load to ask, stored in its owner (no object of its own to
/// reach first).
struct MeterSwitch: ~Copyable, Sendable {
    private let enabled = Synchronization.Atomic<Bool>(false)

    var isOn: Bool { enabled.load(ordering: .relaxed) }

    /// Turns it on or off; false if nothing changed.
    func set(_ on: Bool) -> Bool {
        enabled.exchange(on, ordering: .relaxed) != on
    }

    /// Turns a scene object's meter on or off, keeping the scene's count of meters in use (its
    /// update meters only while some are); false if nothing changed.
    func set(_ on: Bool, countingIn users: borrowing Synchronization.Atomic<Int>) -> Bool {
        guard set(on) else { return false }
        users.add(on ? 1 : -1, ordering: .relaxed)
        return true
    }
}

/// A meter's sums of what is metered, until read, behind a lock of its own (the output's, a
/// recorder's, a group's, a scene's). Off, it costs one atomic load per rendered chunk or meter
/// update.
final class LevelAccumulator: Sendable {
    private let enabled = MeterSwitch()
    private let sums = NIOLockedValueBox(LevelSums(channels: 0))

    var isEnabled: Bool {
        get { enabled.isOn }
        set {
            _ = enabled.set(newValue)
            sums.withLockedValue { $0.reset(channels: 0) }
        }
    }

    /// Turns a scene object's meter on or off, keeping the scene's count of meters in use (its
    /// update meters only while some are); false if nothing changed.
    @discardableResult
    func setEnabled(_ on: Bool, countingIn users: borrowing Synchronization.Atomic<Int>) -> Bool {
        guard enabled.set(on, countingIn: users) else { return false }
        sums.withLockedValue { $0.reset(channels: 0) }
        return true
    }

    /// Adds interleaved `samples` of `channels` channels (the output's mix, a recorder's input).
    func add(_ samples: UnsafeBufferPointer<Float>, channels: Int) {
        guard channels > 0, samples.count >= channels else { return }
        add(LevelSums.measuring(samples, channels: channels))
    }

    /// Adds sums made elsewhere (a meter update's), × `gain`; a different number of channels
    /// than before starts afresh.
    func add(_ other: LevelSums, gain: Float = 1) {
        sums.withLockedValue { sums in
            if sums.channels != other.channels { sums.reset(channels: other.channels) }
            sums.add(other, gain: gain)
        }
    }

    /// The levels since the last read (nil when nothing was metered), and a fresh start.
    func read() -> LevelMeter? {
        sums.withLockedValue { sums in
            defer { sums.reset(channels: 0) }
            return sums.meter
        }
    }
}
