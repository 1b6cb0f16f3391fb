import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif
import Synchronization

/// Runs ``Device/update()`` every 10 ms on a thread of its own, for real-time OpenAL outputs, and
/// rests the output when nothing plays (``DesktopOutputOptions/idleTimeout``): once no source has
/// played for the timeout plus the longest reverb tail of its zones, OpenAL Soft's device is
/// paused (`alcDevicePauseSOFT`: its mixer thread stops, its server stream corks) and this thread
/// sleeps until something may sound (``Device/noteActivity()``).
final class Poller: Sendable {
    let running = Atomic<Bool>(false)
    private let wakeups = DispatchSemaphore(value: 0)

    func start(_ device: Device, idleTimeout: Double) {
        running.store(true, ordering: .relaxed)
        DetachedThread.start(name: "ss-update") { [weak device, self] in
            // No context may stay current on a thread that ends (OpenAL Soft warns, and keeps it).
            defer { Soundstage.detachCurrentThread() }
            var quietSince: UInt64?
            while self.running.load(ordering: .relaxed) {
                // Once the process exits, OpenAL Soft may be torn down: the thread stops (ProcessExit).
                guard let device, ProcessExit.gated({ () -> Void in
                    device.update()
                    device.checkRoute()
                }) != nil else { return }
                if idleTimeout > 0 {
                    let seen = device.rest.activityCount
                    if device.isQuiet(before: .max) {
                        let now = DispatchTime.now().uptimeNanoseconds
                        let since = quietSince ?? now
                        quietSince = since
                        if Double(now - since) / 1e9 >= idleTimeout + device.longestReverbTail {
                            rest(device, seen: seen)
                            quietSince = nil
                        }
                    } else {
                        quietSince = nil
                    }
                }
                usleep(10_000)
            }
        }
    }

    /// Pauses the device until its activity count moves past `seen` (or the poller stops).
    private func rest(_ device: Device, seen: Int) {
        device.rest.begin()
        device.setRestPaused(true)
        while running.load(ordering: .relaxed) && device.rest.activityCount == seen {
            _ = wakeups.wait(timeout: .now() + .seconds(10))
        }
        device.setRestPaused(false)
        device.rest.end(of: device)
    }

    /// Wakes a resting poller.
    func wake() { wakeups.signal() }

    func stop() {
        running.store(false, ordering: .relaxed)
        wakeups.signal()
    }
}
