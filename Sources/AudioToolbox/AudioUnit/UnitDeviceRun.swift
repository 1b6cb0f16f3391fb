import Dispatch
import NIOConcurrencyHelpers
import Soundstage
#if canImport(Glibc)
import Glibc
#endif

// A device I/O unit (RemoteIO and its kin) from AudioOutputUnitStart to its stop: a mix input of
// the app's device (ApplicationAudio), so the engine's render thread calls the program's render
// callback in step with the mix, one I/O buffer at a time, and what it makes is heard as soon as
// a source's play would be. The session's rules hold: an interruption stops the unit (its
// IsRunning listeners are told) and the program starts it again after the end, as on iOS.

/// One run of a device unit on the app's device.
final class UnitDeviceRun: MixInput, @unchecked Sendable {
    // @unchecked: `fifo`, `held` and `list` belong to the device's render thread (one render at a
    // time, under the device's render lock); the rest is immutable.
    private weak var unit: AudioUnitObject?
    let device: Device
    private let audio: ApplicationAudio
    private let session: AudioSession
    private var observer: Int?
    /// Frames the program's callback makes at a time (the I/O buffer), at the device's rate.
    private let slice: Int
    private let list: OwnedBufferList
    /// Frames rendered and not yet mixed: one plane a channel of the output format.
    private let fifo: PlaneBuffer
    private var held = 0
    private var heldChannels = 0

    init(unit: AudioUnitObject, audio: ApplicationAudio, slice: Int) {
        self.unit = unit
        self.audio = audio
        device = audio.device
        session = audio.session
        self.slice = slice
        list = OwnedBufferList(format: UnitFormat(canonicalRate: Double(audio.device.sampleRate), channels: audio.device.layout.channelCount),
                               frames: slice)
        fifo = PlaneBuffer(channels: audio.device.layout.channelCount, capacity: 2 * slice + 4_096)
    }

    /// Starts mixing; the session's interruptions stop the unit from now on: before the app's
    /// listeners (``ApplicationAudio/interruptionBegins()``), and here for a program without any.
    func start() throws(UnitStatus) {
        audio.noteRunningUnit(self) { [weak self] in _ = self?.unit?.stopOnDevice() }
        observer = session.addObserver { [weak self] event in
            guard case .interruptionBegan = event.kind, let unit = self?.unit else { return }
            _ = unit.stopOnDevice()
        }
        do {
            try device.addMixInput(self)
        } catch {
            end()
            throw .failedInitialization
        }
    }

    /// Stops mixing and watching the session.
    func end() {
        audio.forgetRunningUnit(self)
        device.removeMixInput(self)
        if let observer { session.removeObserver(observer) }
        observer = nil
    }

    /// The render thread: adds `frames` frames of the unit's output to `mix`, rendering I/O
    /// buffers as they are needed.
    func add(into mix: UnsafeMutablePointer<Float>, frames: Int, channels: Int) {
        guard let unit else { return }
        while held < frames {
            guard let format = unit.renderForDevice(frames: slice, list: list) else { return }
            fifo.reserve(channels: format.channels, frames: held + slice)
            heldChannels = format.channels
            format.read(list.list, frames: slice, into: fifo, at: held)
            held += slice
        }
        let shared = min(channels, heldChannels)
        for channel in 0..<shared {
            let plane = fifo.plane(channel)
            for frame in 0..<frames { mix[frame * channels + channel] += plane[frame] }
        }
        if heldChannels == 1 && channels > 1 {
            let plane = fifo.plane(0)
            for frame in 0..<frames { mix[frame * channels + 1] += plane[frame] }
        }
        held -= frames
        for channel in 0..<heldChannels {
            let plane = fifo.plane(channel)
            plane.update(from: plane + frames, count: held)
        }
    }

    /// The recorded input for AudioUnitRender on element 1 (not offered yet: silence).
    func takeInput(into planes: PlaneBuffer, channels: Int, frames: Int) {
        planes.clear(channels: channels, frames: frames)
    }
}

extension AudioUnitObject {
    /// AudioOutputUnitStart on a device unit: a run on the app's device, at the hardware's rate.
    func startOnDevice() throws(UnitStatus) {
        // The unit's own refusals come before the device is opened.
        try lock.withTypedLock { () throws(UnitStatus) in
            guard !disposed else { throw .parameter }
            guard initialized else { throw .uninitialized }
        }
        let audio: ApplicationAudio
        do {
            audio = try ApplicationAudio.shared()
        } catch {
            throw .failedInitialization
        }
        let (run, told) = try lock.withTypedLock { () throws(UnitStatus) -> (UnitDeviceRun?, [UnitCallback<AudioUnitPropertyListenerProc>]) in
            guard !disposed else { throw .parameter }
            guard initialized else { throw .uninitialized }
            guard !isRunning else { return (nil, []) }
            // The hardware side is the device's.
            let hardware = UnitFormat(canonicalRate: Double(audio.device.sampleRate), channels: audio.device.layout.channelCount)
            outputs[0].format = hardware
            let duration = Double(AudioSessionServices.shared.preferredIOBufferDuration)
            let frames = duration > 0 ? Int((duration * hardware.rate).rounded()) : 1_024
            let run = UnitDeviceRun(unit: self, audio: audio, slice: max(16, min(frames, Int(maximumFramesPerSlice))))
            deviceRun = run
            isRunning = true
            return (run, listeners(for: kAudioOutputUnitProperty_IsRunning))
        }
        guard let run else { return }
        do {
            try run.start()
        } catch {
            lock.withLock {
                isRunning = false
                deviceRun = nil
            }
            throw error
        }
        announce(told, kAudioOutputUnitProperty_IsRunning, kAudioUnitScope_Global, 0)
    }

    /// AudioOutputUnitStop (and an interruption, a disposal): ends the run; once it returns, no
    /// render callback of the unit runs (unless called from one). Whether it was running.
    @discardableResult
    func stopOnDevice() -> Bool {
        let (wasRunning, run, told) = lock.withLock {
            () -> (Bool, UnitDeviceRun?, [UnitCallback<AudioUnitPropertyListenerProc>]) in
            guard isRunning else { return (false, nil, []) }
            isRunning = false
            defer { deviceRun = nil }
            return (true, deviceRun, listeners(for: kAudioOutputUnitProperty_IsRunning))
        }
        guard wasRunning else { return false }
        run?.end()
        // Wait for a render in progress on another thread (on this one, the gate is ours already).
        renderGate.withLock {}
        announce(told, kAudioOutputUnitProperty_IsRunning, kAudioUnitScope_Global, 0)
        return true
    }
}
