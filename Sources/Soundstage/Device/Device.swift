import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif
import NIOConcurrencyHelpers
import Synchronization

/// An OpenAL output device: the default sound card, a named device, or an offline loopback
/// renderer that mixes into memory (``loopback(sampleRate:layout:hrtf:)``).
///
/// A device owns its scenes (contexts) and buffers. ``close()`` frees all of them; dropping the
/// last reference does the same. The same engine code runs on every kind of device.
public final class Device: Sendable {
    /// What kind of device this is.
    public enum Kind: Sendable, Equatable {
        /// A real output (sound card, PulseAudio, ...), mixing in real time.
        case output
        /// An offline renderer: audio is produced only by ``Device/render(frames:)``.
        case loopback
        /// Soundstage's own stream on the desktop audio server (PulseAudio, or PipeWire through
        /// pipewire-pulse): the engine renders the mix itself and writes it there, in real time.
        case desktop
    }

    /// Whether this is a real output or a loopback renderer.
    public let kind: Kind
    /// The output's frame rate (Hz).
    public let sampleRate: Int
    /// The output's channel layout.
    public let layout: ChannelLayout
    /// Whether HRTF was requested when the device was opened (see ``info`` for the actual state).
    public let hrtfRequested: Bool?
    /// How many reverb zones each scene may hold: the auxiliary sends asked of OpenAL.
    public let reverbZones: Int
    /// Frames mixed between two engine updates (completion checks) on a loopback or desktop device.
    public let updateFrames: Int
    /// The desktop server's stream, for ``Kind/desktop`` devices.
    let desktop: DesktopOutput?

    let handleBox: NIOLockedValueBox<DeviceHandle>
    /// The `ALCdevice` now in use (a migration replaces it).
    var handle: DeviceHandle { handleBox.withLockedValue { $0 } }
    /// The device's own context, current whenever buffers are created or deleted. The first
    /// scene made uses it as its own (OpenAL Soft 1.19 gives every context 9.3 MB of voices, so a
    /// device with one scene needs only one context); see ``makeScene(sourceBudget:)``.
    let resourceContext: ContextHandle
    let state: NIOLockedValueBox<DeviceState>
    /// Held while rendering, migrating, closing and creating contexts (a plain lock: it guards
    /// OpenAL calls, no Swift value).
    let renderLock = NIOLock()
    /// The thread inside ``render(into:)`` now (`pthread_self()`, 0 when none), so work that must
    /// not overlap a render runs directly when a render's own update asks for it.
    let renderingThread = Atomic<UInt>(0)
    /// Route watching: hooks, disconnect state, observers (see DeviceMigration.swift).
    let route = NIOLockedValueBox(RouteState())
    let poller: Poller?
    /// Frames mixed by ``render(into:)`` (loopback devices): their clock.
    let renderedFrames = Atomic<Int>(0)
    /// A desktop output's rest while nothing plays, which the clock counts through (an OpenAL
    /// output's too: its clock is the wall clock).
    let rest = OutputRest()
    /// Why an OpenAL output is paused (``setOutputPaused(_:)``, ``setRestPaused(_:)``): it mixes
    /// only when neither holds.
    let openALPauses = NIOLockedValueBox((session: false, rest: false))
    /// Wall-clock nanoseconds spent in ``renderForOutput(into:inRealTime:)`` (``renderLoad``).
    let renderBusyNanoseconds = Atomic<Int>(0)
    /// Mixed chunks that held NaN or an infinity and were silenced (``nonFiniteMixCount``).
    let nonFiniteMixes = Atomic<Int>(0)
    /// Whether a scene of this device has had a reverb zone: from then on the mixer is only ever
    /// asked for multiples of 4 frames (see ``RenderCarry``).
    let usesReverb = Atomic<Bool>(false)
    /// Frames mixed ahead of the output for that alignment (render thread, under `renderLock`).
    let renderCarry = RenderCarry()
    /// The scenes one update works on (render thread, under `renderLock`).
    let renderScratch = RenderScratch()
    /// Of those, the nanoseconds spent metering (the output's meter and the scenes' meter updates).
    let meteringBusyNanoseconds = Atomic<Int>(0)
    /// Levels of the mix, when metered (``isOutputMeteringEnabled``).
    let outputMeter = LevelAccumulator()
    /// The recording of the mix, if one runs (``recordOutput(to:format:)``), and whether one does
    /// (read by the render thread without the lock).
    let mixRecorder = NIOLockedValueBox<MixRecorder?>(nil)
    let isRecordingMix = Atomic<Bool>(false)
    /// What ``addMixTap(_:)`` added (they also set `isRecordingMix`, so the render hands them its chunks).
    let mixTaps = NIOLockedValueBox(MixTaps())
    /// What ``addMixInput(_:)`` added, and whether there is any (read by the render thread first).
    let mixInputs = NIOLockedValueBox(MixInputs())
    let hasMixInputs = Atomic<Bool>(false)
    /// Whether some scene has source properties waiting for the next mix (see
    /// ``Source/unwrittenParameters``): the render thread then writes them before its next slice.
    let hasUnwrittenProperties = Atomic<Bool>(false)
    /// The frames scheduled plays wait for (``Scene/play(_:at:)``), earliest first.
    let scheduledFrames = NIOLockedValueBox<[Int]>([])
    /// When a real output was opened, on the monotonic clock (seconds).
    let openedAt = Double(DispatchTime.now().uptimeNanoseconds) / 1e9
    /// The meters ``metersForSnapshots`` turned on, to turn off again.
    let snapshotMetering = NIOLockedValueBox(SnapshotMetering())

    struct DeviceState {
        var closed = false
        var scenes: [WeakScene] = []
        /// Live buffers, with the OpenAL name each has on the current output.
        var buffers: [ObjectIdentifier: BufferRecord] = [:]
        var cache: [String: Buffer] = [:]
        var maxDecodedBytes = Device.defaultMaxDecodedBytes
        var largestBudget = 256
        var hrtfID: Int?
        /// Whether a scene uses ``resourceContext``'s OpenAL context as its own (see makeScene).
        var resourceContextLent = false
        /// Whether a scene that borrowed it has closed since it was made (it is replaced before
        /// it is lent again).
        var resourceContextUsed = false
    }

    /// A scene, held weakly, and its identity: entries are removed by identity, never by
    /// loading the reference under the lock — a load makes a strong reference, and if it is the
    /// last one (another thread just let the scene go), its release would run the scene's deinit,
    /// which closes it and takes this lock again (a crash the ThreadSanitizer suite caught).
    struct WeakScene {
        weak var scene: Scene?
        let id: ObjectIdentifier
    }

    struct BufferRecord {
        weak var buffer: Buffer?
        var id: ALName
    }

    init(handle: DeviceHandle, kind: Kind, sampleRate: Int, layout: ChannelLayout, hrtf: Bool?,
                 hrtfID: Int?, updateFrames: Int, reverbZones: Int, desktop: DesktopOutput? = nil, idleTimeout: Double = 0) throws {
        self.handleBox = NIOLockedValueBox(handle)
        self.kind = kind
        self.desktop = desktop
        self.layout = layout
        self.hrtfRequested = hrtf
        self.updateFrames = updateFrames
        self.reverbZones = reverbZones
        var deviceState = DeviceState()
        deviceState.hrtfID = hrtfID
        let attributes = Self.attributes(kind: kind, sampleRate: sampleRate, layout: layout, hrtf: hrtf,
                                         hrtfID: hrtfID, budget: deviceState.largestBudget, sends: reverbZones)
        let context = try handle.makeFirstContext(attributes, for: "an OpenAL context on the device")
        resourceContext = ContextHandle(raw: context)
        let rate = handle.frequency
        self.sampleRate = rate > 0 ? rate : sampleRate
        state = NIOLockedValueBox(deviceState)
        LiveObjects.devices.add(1, ordering: .relaxed)
        LiveObjects.contexts.add(1, ordering: .relaxed)
        ProcessExit.install()
        poller = kind == .output ? Poller() : nil
        poller?.start(self, idleTimeout: idleTimeout)
    }

    deinit {
        close()
    }

    /// Whether the engine renders this device's mix itself (a loopback `ALCdevice`, offline or
    /// written to the desktop server) rather than OpenAL Soft's own mixer thread.
    var rendersInEngine: Bool { kind != .output }
}
