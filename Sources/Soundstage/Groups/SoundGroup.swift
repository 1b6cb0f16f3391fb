/// A named group of sources — a bus such as music, effects, dialogue or UI — with a gain, mute,
/// pitch and pause that apply to every source in it and in its child groups, multiplying down
/// the tree, plus fades and ducking. Create with ``Scene/makeGroup(_:parent:)``; put a source in
/// with ``Source/group``.
///
/// What OpenAL gets for a source: `source.gain × Π(group gain × duck, 0 if muted)` and
/// `source.pitch × Π(group pitch)` over the source's group and its ancestors.
///
/// Fades and ducking advance with the engine's update on the device's ``Device/mixTime`` (each
/// rendered update on a loopback device, every 10 ms on a real output), in straight lines.
public final class SoundGroup: @unchecked Sendable {
    // @unchecked: `state` is only touched with the scene's lock held.

    /// The group's name, for people.
    public let name: String
    /// The group it belongs to, if any.
    public let parent: SoundGroup?
    /// The scene whose sources it groups.
    public let scene: Scene

    struct Fade {
        var from: Float
        var to: Float
        var start: Double?
        var duration: Double
        var stopAtEnd: Bool
        var completion: (@Sendable () -> Void)?
    }

    struct GroupState {
        var gain: Float = 1
        var muted = false
        var pitch: Float = 1
        var paused = false
        /// The ducking factor now (1 = not ducked), moved by the scene's ducking rules.
        var duck: Float = 1
        var fade: Fade?
        /// Sources this group's ``pause()`` paused, resumed by ``resume()``.
        var pausedSources: [ObjectIdentifier: Source] = [:]
    }

    var state = GroupState()
    /// Its place among the metered groups during a meter update (scene lock held); nil when
    /// not metered.
    var meterSlot: Int?
    /// The power of its sources (and its child groups'), when metered.
    let meter = LevelAccumulator()

    /// Whether the group is metered: the summed power of the sources in it and its child groups,
    /// as they reach the mix (one channel; the peak is its loudest source's). Off by default.
    public var isMeteringEnabled: Bool {
        get { meter.isEnabled }
        set { meter.setEnabled(newValue, countingIn: scene.meteringUsers) }
    }

    /// The group's level over what its sources played since the previous call (nil when off).
    public func meterLevels() -> LevelMeter? { meter.read() }

    init(name: String, parent: SoundGroup?, scene: Scene) {
        self.name = name
        self.parent = parent
        self.scene = scene
    }

    /// The group's own gain, linear ≥ 0 (default 1). A fade in progress moves it.
    public var gain: Float {
        get { scene.withState { _, _ in state.gain } }
        set {
            guard scene.refusals.admits(newValue.isFinite && newValue >= 0, "SoundGroup.gain", newValue, "finite and >= 0") else { return }
            scene.changeGroup(self) { $0.gain = newValue; $0.fade = nil }
        }
    }

    /// Whether the group (and everything under it) is silent. Sources keep playing.
    public var isMuted: Bool {
        get { scene.withState { _, _ in state.muted } }
        set { scene.changeGroup(self) { $0.muted = newValue } }
    }

    /// The group's pitch multiplier, > 0 (default 1): 2 plays everything in it an octave up.
    public var pitch: Float {
        get { scene.withState { _, _ in state.pitch } }
        set {
            guard scene.refusals.admits(newValue.isFinite && newValue > 0, "SoundGroup.pitch", newValue, "finite and > 0") else { return }
            scene.changeGroup(self) { $0.pitch = newValue }
        }
    }

    /// Whether ``pause()`` is in effect (on this group; an ancestor's pause also holds its sources).
    public var isPaused: Bool { scene.withState { _, _ in state.paused } }

    /// The ducking factor now (1 when no ducking rule lowers the group).
    public var duckFactor: Float { scene.withState { _, _ in state.duck } }

    /// The gain the group's sources get from it and its ancestors now.
    public var effectiveGain: Float { scene.withState { _, _ in effectiveGainLocked } }

    /// Pauses every playing source in the group and its child groups, remembering exactly which;
    /// sources started while paused wait too. ``resume()`` plays those on.
    public func pause() { scene.pauseGroup(self) }

    /// Plays on exactly the sources ``pause()`` paused (those still paused).
    public func resume() { scene.resumeGroup(self) }

    /// Moves the group's ``gain`` to `target` in a straight line over `seconds` of mix time,
    /// starting at the next engine update. With `stopAtEnd`, every source in the group and its
    /// children stops when the fade ends (a fade-out). `completion` runs once when it ends, outside
    /// Soundstage's locks. A new fade, or setting ``gain``, replaces one in progress.
    public func fade(to target: Float, over seconds: Double, stopAtEnd: Bool = false,
                     completion: (@Sendable () -> Void)? = nil) {
        guard scene.refusals.admits(target.isFinite && target >= 0, "SoundGroup.fade(to:)", target, "finite and >= 0"),
              scene.refusals.admits(seconds.isFinite && seconds >= 0, "SoundGroup.fade(over:)", seconds, "finite and >= 0") else { return }
        scene.changeGroup(self) { state in
            state.fade = Fade(from: state.gain, to: target, start: nil, duration: seconds, stopAtEnd: stopAtEnd,
                              completion: completion)
        }
    }

    // MARK: Internals (scene lock held)

    var effectiveGainLocked: Float {
        (state.muted ? 0 : state.gain * state.duck) * (parent?.effectiveGainLocked ?? 1)
    }

    var effectivePitchLocked: Float { state.pitch * (parent?.effectivePitchLocked ?? 1) }

    /// The nearest group up the chain whose ``pause()`` is in effect.
    var pausingGroupLocked: SoundGroup? { state.paused ? self : parent?.pausingGroupLocked }

    /// Whether `self` is `group` or lies under it.
    func isWithin(_ group: SoundGroup) -> Bool {
        var current: SoundGroup? = self
        while let candidate = current {
            if candidate === group { return true }
            current = candidate.parent
        }
        return false
    }
}

/// A ducking rule: while `trigger` sounds, `target` ramps down to `gain` (see
/// ``Scene/addDucking(of:whileSounding:to:attack:release:)``). Weak, so rules never keep groups alive.
struct Ducking {
    weak var target: SoundGroup?
    weak var trigger: SoundGroup?
    let gain: Float
    let attack: Double
    let release: Double
    /// The factor the rule applies now.
    var level: Float = 1
}
