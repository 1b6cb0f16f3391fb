#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import SoundFile

/// One thing the engine's render adds around OpenAL's own work (`alcRenderSamplesSOFT` and the
/// `alSource*` writes), runnable alone so `soundstage-bench additions` can time each one against
/// a raw OpenAL update measured in the same run. `run` does what one update of
/// ``Device/render(into:)`` does for it, through the same functions where the render calls one.
package struct RenderAddition: Sendable {
    /// What it is, as the benchmark prints it.
    package let name: String
    /// How many times one update of an offline render does it.
    package let perUpdate: Int
    /// Does it once.
    package let run: @Sendable () -> Void
}

extension Device {
    /// The render's additions, each alone (see ``RenderAddition``), on this loopback device with
    /// its scenes as they are: for a benchmark, not for games (a probe may not run during a
    /// render: the benchmark calls it between renders on the thread that renders).
    package func renderAdditions() -> [RenderAddition] {
        let mix = [Float](repeating: 0.25, count: updateFrames * layout.channelCount)
        let scenes = liveScenes()
        // The render's own scratch list belongs to the render lock's holder: the probe fills one of its own.
        let scratch = RenderScratch()
        return [
            RenderAddition(name: "exit gate (compare-and-swap in, subtract out)", perUpdate: 1) {
                _ = ProcessExit.gated { () in }
            },
            RenderAddition(name: "render-thread guard (pthread_self, a load, two stores)", perUpdate: 1) {
                if self.renderingThread.load(ordering: .relaxed) == pthread_self() { fatalError("rendering") }
                self.renderingThread.store(pthread_self(), ordering: .relaxed)
                self.renderingThread.store(0, ordering: .relaxed)
            },
            RenderAddition(name: "render lock and the closed check", perUpdate: 1) {
                self.renderLock.withTypedLock { if self.isClosed { fatalError("closed") } }
            },
            RenderAddition(name: "render-load clock (two clock reads, an atomic add)", perUpdate: 1) {
                let began = DispatchTime.now().uptimeNanoseconds
                self.renderBusyNanoseconds.add(Int(DispatchTime.now().uptimeNanoseconds - began), ordering: .relaxed)
            },
            RenderAddition(name: "the device's scene list (locked, into kept storage, once an update)", perUpdate: 1) {
                scratch.takeScenes(from: self)
                scratch.scenes.removeAll(keepingCapacity: true)
            },
            RenderAddition(name: "offline stream refill (no streams)", perUpdate: 1) {
                self.refillStreamsForOfflineRender(scenes)
            },
            RenderAddition(name: "properties before the mix, none waiting (prepareMix)", perUpdate: 1) {
                self.hasUnwrittenProperties.store(false, ordering: .relaxed)
                for scene in scenes { scene.prepareMix() }
            },
            RenderAddition(name: "scheduled-start check", perUpdate: 1) {
                _ = self.renderedFrames.load(ordering: .relaxed)
                _ = self.scheduledFrames.withLockedValue { $0.first }
            },
            RenderAddition(name: "aligned render's own part (carry, flags, device handle, alcGetError)", perUpdate: 1) {
                var none: Float = 0
                _ = self.renderCarry.take(into: &none, frames: 0, channels: self.layout.channelCount)
                _ = self.usesReverb.load(ordering: .relaxed)
                let raw = self.handle.raw
                _ = try? OpenAL.alc(raw, "alcRenderSamplesSOFT") {}
            },
            RenderAddition(name: "non-finite check (allFinite, one update's samples)", perUpdate: 1) {
                mix.withUnsafeBufferPointer { if !PlayableSamples.allFinite($0) { fatalError("non-finite") } }
            },
            RenderAddition(name: "mix recording check, clock, output meter check", perUpdate: 1) {
                mix.withUnsafeBufferPointer { self.recordMix($0) }
                self.renderedFrames.add(0, ordering: .relaxed)
                if self.outputMeter.isEnabled { fatalError("metered") }
            },
            RenderAddition(name: "engine update (streams, completions, groups, fades, voices, meters off)", perUpdate: 1) {
                self.update(scenes)
            },
            RenderAddition(name: "route check (loopback, no hooks)", perUpdate: 1) {
                self.checkRoute()
            },
        ]
    }

    /// Writes every scene's source properties set since the last mix (what the render does before
    /// it mixes), for a benchmark that times the write pass alone.
    package func writeUnwrittenPropertiesNow() {
        renderLock.withTypedLock {
            for scene in liveScenes() { scene.prepareMix() }
        }
    }
}
