#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif
import Synchronization

/// Runs ``Device/update()`` every 10 ms on a thread of its own, for real-time outputs.
final class Poller: Sendable {
    let running = Atomic<Bool>(false)

    func start(_ device: Device) {
        running.store(true, ordering: .relaxed)
        DetachedThread.start(name: "ss-update") { [weak device, self] in
            // No context may stay current on a thread that ends (OpenAL Soft warns, and keeps it).
            defer { Soundstage.detachCurrentThread() }
            while self.running.load(ordering: .relaxed) {
                guard let device else { return }
                device.update()
                device.checkRoute()
                usleep(10_000)
            }
        }
    }

    func stop() { running.store(false, ordering: .relaxed) }
}
