/// The listener of a scene: where the ears are, how they move and face, and the scene's master
/// gain. Setters apply at once (`alListener*`) and need no `await`, so a game loop can call them
/// every frame.
public final class Listener: @unchecked Sendable {
    // @unchecked: `properties` is only touched with `context`'s lock (the scene's lock) held.

    /// The listener's settable properties.
    struct Properties: Equatable {
        var position = Vector3.zero
        var velocity = Vector3.zero
        var at = Vector3(0, 0, -1)
        var up = Vector3(0, 1, 0)
        var gain: Float = 1
        /// Ducking applied by the audio session (1 = none); OpenAL gets `gain × duck`.
        var duck: Float = 1
    }

    private let context: ContextHandle
    private let refusals: RefusalLog
    private var properties = Properties() { didSet { version &+= 1 } }
    /// Counts changes of the properties (so meters know when a cached gain is stale).
    private var version: UInt32 = 0

    init(context: ContextHandle, refusals: RefusalLog) {
        self.context = context
        self.refusals = refusals
    }

    /// The properties, read with the scene's lock already held (by a source of the same scene).
    var propertiesLocked: Properties { properties }

    /// How many times the properties changed, read with the scene's lock held.
    var versionLocked: UInt32 { version }

    /// Position (`AL_POSITION`).
    public var position: Vector3 {
        get { read { $0.position } }
        set {
            guard refusals.admits(newValue.isUsablePosition, "Listener.position", newValue, Vector3.positionRule) else { return }
            set({ $0.position = newValue }, .position)
        }
    }

    /// Velocity in units per second (`AL_VELOCITY`), used only for Doppler.
    public var velocity: Vector3 {
        get { read { $0.velocity } }
        set {
            guard refusals.admits(newValue.isUsablePosition, "Listener.velocity", newValue, Vector3.positionRule) else { return }
            set({ $0.velocity = newValue }, .velocity)
        }
    }

    /// The direction the listener faces; default (0, 0, −1).
    public var at: Vector3 { read { $0.at } }
    /// The listener's up direction; default (0, 1, 0).
    public var up: Vector3 { read { $0.up } }

    /// Sets where the listener faces (`at`) and which way is up (`AL_ORIENTATION`).
    public func setOrientation(at: Vector3, up: Vector3) {
        guard refusals.admits(at.isUsablePosition && up.isUsablePosition && at.length > 0 && up.length > 0
                              && (at * (1 / at.length)).cross(up * (1 / up.length)).length > 1e-6,
                              "Listener.orientation", "at \(at), up \(up)", "finite, non-zero and not parallel") else { return }
        set({ $0.at = at; $0.up = up }, .orientation)
    }

    /// Master gain of the scene (`AL_GAIN` on the listener); ≥ 0, default 1.
    public var gain: Float {
        get { read { $0.gain } }
        set {
            guard refusals.admits(newValue.isFinite && newValue >= 0, "Listener.gain", newValue, "finite and >= 0") else { return }
            set({ $0.gain = newValue }, .gain)
        }
    }

    /// Sets the session's ducking factor (0...1); the game's ``gain`` is untouched.
    func setDuck(_ factor: Float) {
        set({ $0.duck = factor }, .gain)
    }

    /// The gain OpenAL gets: the game's gain times the ducking factor.
    public var effectiveGain: Float { read { $0.gain * $0.duck } }

    /// Applies every property to a new context (migration; the scene's lock is held).
    func reapplyLocked(_ al: borrowing ALCalls) {
        for parameter in ListenerParameter.all { parameter.write(properties, al) }
    }

    /// A copy of every property, for tests and migration.
    var snapshot: Properties { read { $0 } }

    private func read<T>(_ get: (Properties) -> T) -> T {
        context.withLock { _ in get(properties) }
    }

    /// Changes a property and writes its ``ListenerParameter`` to the context.
    @inline(__always)
    private func set(_ change: (inout Properties) -> Void, _ parameter: ListenerParameter) {
        context.withLock { lock in
            change(&properties)
            lock.ifOpen { al in parameter.write(properties, al) }
        }
    }
}
