import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif
import SoundFile

// Rendering: the engine update, render(frames:), render to a file.
extension Device {
    // MARK: Rendering

    /// Renders `frames` frames of the mix of every scene (loopback devices only), running the
    /// engine's update (completion events) every ``updateFrames`` frames.
    public func render(frames: Int) throws -> AudioBuffer {
        try render(frames: frames, inRealTime: false)
    }

    /// ``render(frames:)``, mixing in short slices when a real-time renderer's thread calls it.
    func render(frames: Int, inRealTime: Bool) throws -> AudioBuffer {
        guard frames >= 0 else { throw SoundstageError(.invalidArgument, "cannot render \(frames) frames") }
        guard kind == .loopback else {
            throw SoundstageError(.invalidArgument, "render needs a loopback device; this one plays in real time")
        }
        var samples = [Float](repeating: 0, count: frames * layout.channelCount)
        try samples.withUnsafeMutableBufferPointer { try renderForOutput(into: $0, inRealTime: inRealTime) }
        return AudioBuffer(samples: samples, channels: layout.channelCount, sampleRate: sampleRate)
    }

    /// Renders into caller-owned memory (interleaved floats, a whole number of frames): the
    /// allocation-free form of ``render(frames:)`` for render loops.
    public func render(into output: UnsafeMutableBufferPointer<Float>) throws {
        guard kind == .loopback else {
            throw SoundstageError(.invalidArgument, "render needs a loopback device; this one plays in real time")
        }
        try renderForOutput(into: output, inRealTime: false)
    }

    /// Renders the mix (a loopback `ALCdevice`): for ``render(into:)`` and the real-time renderers'
    /// threads. `inRealTime` mixes in slices of at most ``renderSliceFrames`` so game threads
    /// never wait long for OpenAL's device lock; an offline render mixes whole updates (cheaper).
    func renderForOutput(into output: UnsafeMutableBufferPointer<Float>, inRealTime: Bool = true) throws {
        let channels = layout.channelCount
        guard output.count % channels == 0 else {
            throw SoundstageError(.invalidArgument, "the output holds \(output.count) samples, not a whole number of \(channels)-channel frames")
        }
        let frames = output.count / channels
        // A completion handler (it runs inside the render, on the render's thread) that renders
        // the same device would wait forever on the lock its own render holds: refuse it.
        guard renderingThread.load(ordering: .relaxed) != pthread_self() else {
            throw SoundstageError(.invalidState, "the device is rendering on this thread already: a completion handler "
                                  + "cannot render its own device (render again after the render returns)")
        }
        // Once the process exits, OpenAL Soft may be torn down under the render (ProcessExit).
        let mixed: Void? = try ProcessExit.gated { () throws(SoundstageError) in
            try mix(into: output, frames: frames, channels: channels, inRealTime: inRealTime)
            checkRoute()    // it may ask OpenAL whether the device is still connected
        }
        guard mixed != nil else { throw SoundstageError(.released, "the process is exiting") }
    }

    /// The body of ``renderForOutput(into:inRealTime:)``: mixes `frames` frames under the render lock.
    private func mix(into output: UnsafeMutableBufferPointer<Float>, frames: Int, channels: Int,
                     inRealTime: Bool) throws(SoundstageError) {
        let began = DispatchTime.now().uptimeNanoseconds
        defer { renderBusyNanoseconds.add(Int(DispatchTime.now().uptimeNanoseconds - began), ordering: .relaxed) }
        try renderLock.withTypedLock { () throws(SoundstageError) in
            guard !isClosed else { throw SoundstageError(.released, "the device is closed") }
            renderingThread.store(pthread_self(), ordering: .relaxed)
            defer { renderingThread.store(0, ordering: .relaxed) }
            defer { renderScratch.scenes.removeAll(keepingCapacity: true) }
            var done = 0
            while done < frames {
                let count = min(updateFrames, frames - done)
                // One list of the scenes for the update's refill, writes and engine update, in
                // storage the render keeps (refilled here, emptied when the call ends), so an
                // update allocates none.
                renderScratch.takeScenes(from: self)
                let scenes = renderScratch.scenes
                if kind == .loopback { refillStreamsForOfflineRender(scenes) }
                hasUnwrittenProperties.store(false, ordering: .relaxed)
                for scene in scenes { scene.prepareMix() }
                // In slices of at most 128 frames: OpenAL Soft holds the device's lock for a whole
                // call, and alSourcePlay/Stop from a game thread wait for it.
                var sliced = 0
                while sliced < count {
                    // What a game set during the previous slice is heard in this one. (A change
                    // noted after its scene was written here sets the flag again: never lost.)
                    if sliced > 0, hasUnwrittenProperties.exchange(false, ordering: .relaxed) {
                        for scene in scenes { scene.writeUnwrittenProperties() }
                    }
                    // A scheduled start splits the slice: the sources start on exactly their frame.
                    let now = renderedFrames.load(ordering: .relaxed) + sliced
                    var slice = inRealTime ? min(Self.renderSliceFrames, count - sliced) : count - sliced
                    if let next = scheduledFrames.withLockedValue({ $0.first }) {
                        if next <= now {
                            startScheduled(upTo: now)
                            continue
                        }
                        slice = min(slice, next - now)
                    }
                    try renderAligned(into: output.baseAddress! + (done + sliced) * channels, frames: slice)
                    sliced += slice
                }
                let mixed = UnsafeMutableBufferPointer(rebasing: output[(done * channels)..<((done + count) * channels)])
                addMixInputs(into: mixed, channels: channels)
                if !PlayableSamples.allFinite(UnsafeBufferPointer(mixed)) { silenceNonFiniteMix(mixed, scenes) }
                recordMix(UnsafeBufferPointer(mixed))
                done += count
                renderedFrames.add(count, ordering: .relaxed)
                update(scenes)
            }
            // The output's meter takes the whole call's mix at once (not chunk by chunk: fewer
            // readings of the clock and of its lock, longer vector runs).
            if outputMeter.isEnabled {
                let metering = DispatchTime.now().uptimeNanoseconds
                outputMeter.add(UnsafeBufferPointer(output), channels: channels)
                meteringBusyNanoseconds.add(Int(DispatchTime.now().uptimeNanoseconds - metering), ordering: .relaxed)
            }
        }
    }

    /// Mixes `frames` frames into `output` (`alcRenderSamplesSOFT`). Once the device has a reverb
    /// zone, OpenAL Soft 1.19.1 is only asked for multiples of 4 frames: its reverb crashes on
    /// calls of fewer than 128 frames that are not, during its 128-frame cross-fade (found by the
    /// capi fuzzer; Tests/Fuzz/regressions/capi/openal-reverb-odd-render-size, docs/testing.md).
    /// The 1–3 frames a call needs beyond a multiple of 4 come from a 4-frame mix whose rest is kept for the
    /// next call, so the mixer runs up to 3 frames (62 µs at 48 kHz) ahead of the output, and a
    /// change or scheduled start lands up to 3 frames late on such a device.
    func renderAligned(into output: UnsafeMutablePointer<Float>, frames: Int) throws(SoundstageError) {
        let channels = layout.channelCount
        var output = output
        var frames = frames
        let carried = renderCarry.take(into: output, frames: frames, channels: channels)
        output += carried * channels
        frames -= carried
        guard frames > 0 else { return }
        guard usesReverb.load(ordering: .relaxed) else {
            try handle.render(into: output, frames: frames)
            return
        }
        let whole = frames & ~3
        if whole > 0 { try handle.render(into: output, frames: whole) }
        let rest = frames - whole
        guard rest > 0 else { return }
        try renderCarry.fill(channels: channels) { scratch throws(SoundstageError) in try handle.render(into: scratch, frames: 4) }
        _ = renderCarry.take(into: output + whole * channels, frames: rest, channels: channels)
    }

    /// A mixed chunk held NaN or an infinity: it never leaves the engine (the sink, a file and the
    /// mix recording get silence instead), it is counted (``nonFiniteMixCount``), and every
    /// scene's reverb gets a fresh state, so the poison does not outlive its cause.
    private func silenceNonFiniteMix(_ mixed: UnsafeMutableBufferPointer<Float>, _ scenes: [Scene]) {
        mixed.update(repeating: 0)
        nonFiniteMixes.add(1, ordering: .relaxed)
        for scene in scenes { scene.resetEffectStates() }
    }

    /// How many mixed chunks (of at most ``updateFrames`` frames) held NaN or an infinity and were
    /// replaced with silence before reaching the output, a file or a recording. 0 in a healthy
    /// engine: every input is checked, so a count here means a path that was not (please report it).
    public var nonFiniteMixCount: Int { nonFiniteMixes.load(ordering: .relaxed) }

    /// Starts every scheduled play whose frame has come, in every scene, before the next sample.
    func startScheduled(upTo frame: Int) {
        scheduledFrames.withLockedValue { $0.removeAll { $0 <= frame } }
        for scene in liveScenes() { scene.startScheduledPlays(upTo: frame) }
    }

    /// Notes that a play is scheduled at `frame` (so the render splits there).
    func noteScheduledFrame(_ frame: Int) {
        scheduledFrames.withLockedValue { frames in
            frames.insert(frame, at: frames.firstIndex { $0 > frame } ?? frames.endIndex)
        }
    }

    /// The device's scenes that are still alive, strongly held (a copy of the list, made under its lock).
    func liveScenes() -> [Scene] {
        state.withLock { $0.scenes.compactMap(\.scene) }
    }

    /// Appends the device's live scenes to `scenes` (whose storage is kept: no allocation once it
    /// has grown to the scene count).
    func appendLiveScenes(to scenes: inout [Scene]) {
        state.withLock { state in
            for weak in state.scenes { if let scene = weak.scene { scenes.append(scene) } }
        }
    }

    /// The frame the render thread mixes next (the device's clock in frames).
    var renderedFrameCount: Int { rest.clock(of: self) }

    /// The most frames one `alcRenderSamplesSOFT` call mixes (see ``renderForOutput(into:)``).
    static let renderSliceFrames = 128

    /// Before each chunk of an offline render: every playing stream's free buffers are filled,
    /// waiting for the decoder thread if it is behind, so a render does not depend on its timing
    /// (a real-time output never waits: a late decoder is an underrun there).
    func refillStreamsForOfflineRender(_ scenes: [Scene]) {
        for scene in scenes {
            for completion in scene.serviceStreams(waitForDecoder: true) { completion() }
        }
    }

    /// Runs `body` while no other thread renders this loopback device (on the render's own thread
    /// — an update's completion handler — directly). Output devices mix on OpenAL's own thread,
    /// which OpenAL Soft stops and restarts itself around such calls.
    func excludingRender<R>(_ body: () -> R) -> R {
        guard rendersInEngine, renderingThread.load(ordering: .relaxed) != pthread_self() else { return body() }
        return renderLock.withTypedLock { body() }
    }

    /// Renders `seconds` of the mix into a file, in chunks (loopback devices only), after checking
    /// that `format` can hold that much (a `.tooLarge` error names formats that can).
    ///
    /// - Parameters:
    ///   - progress: called after each chunk with the fraction done (0...1).
    ///   - isCancelled: asked after each chunk; true stops the render and completes the file with
    ///     what was rendered.
    /// - Returns: the seconds rendered.
    @discardableResult
    public func render(seconds: Double, to path: String, format: OutputFormat = .wavFloat32,
                       progress: ((Double) -> Void)? = nil, isCancelled: (() -> Bool)? = nil) throws -> Double {
        guard seconds.isFinite, seconds >= 0, let total = Int(exactly: (seconds * Double(sampleRate)).rounded()) else {
            throw SoundstageError(.invalidArgument, "cannot render \(seconds) seconds")
        }
        try format.checkCapacity(seconds: seconds, sampleRate: sampleRate, channels: layout.channelCount, path: path)
        let writer = try SoundFileWriter(path: path, format: format, sampleRate: sampleRate, channels: layout.channelCount)
        var done = 0
        let chunk = max(updateFrames, sampleRate / 2)
        while done < total, !(isCancelled?() ?? false) {
            let count = min(chunk, total - done)
            try writer.write(try render(frames: count))
            done += count
            progress?(Double(done) / Double(max(total, 1)))
        }
        try writer.finish()
        return Double(done) / Double(sampleRate)
    }

    /// Runs one engine update: advances group fades and ducking to ``mixTime``, finds sources
    /// that reached their end and reports their completion. Loopback devices update during
    /// ``render(frames:)``; real outputs on a background thread every 10 ms.
    public func update() {
        update(liveScenes())
    }

    /// ``update()`` of `scenes` (the render's list of the device's scenes).
    func update(_ scenes: [Scene]) {
        let now = mixTime
        for scene in scenes { scene.update(at: now) }
    }

    /// The device's clock in seconds: audio rendered so far on a loopback or desktop device (so
    /// fades are sample-exact, and the clock stops while the desktop server is gone; it goes on
    /// counting while the output rests, as if it mixed silence), time since opening on an OpenAL
    /// output.
    public var mixTime: Double {
        rendersInEngine ? Double(renderedFrameCount) / Double(sampleRate)
                          : Double(DispatchTime.now().uptimeNanoseconds) / 1e9 - openedAt
    }
}
