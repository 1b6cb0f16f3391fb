import NIOConcurrencyHelpers
import CSoundstage
import Foundation
import Synchronization
import Testing

// The C API called from several threads at once, from Swift (so that the suite's
// ThreadSanitizer pass checks the handle table and the callbacks): handles moved, destroyed
// and recreated while a render thread mixes them, and a completion callback that destroys its
// own source. The C tests (Tests/C, scripts/test-c.sh) cover the same ground from C.

/// Runs `body` on `count` threads at once and waits for them.
private func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        Thread.detachNewThread {
            body(index)
            ss_thread_detach()
            group.leave()
        }
    }
    group.wait()
}

/// Handles as plain bits, so threads can share them.
private struct Handles: Sendable {
    let bits: [UInt]
    func handle(_ index: Int) -> OpaquePointer? { OpaquePointer(bitPattern: bits[index]) }
}

private func bits(_ handle: OpaquePointer?) -> UInt { UInt(bitPattern: Int(bitPattern: handle.map(UnsafeRawPointer.init))) }

@Suite struct CAPIConcurrencyTests {
    /// A loopback device with a scene and a looping mono tone.
    private func world() throws -> (device: OpaquePointer?, scene: OpaquePointer?, buffer: OpaquePointer?) {
        var device: OpaquePointer?
        var scene: OpaquePointer?
        var buffer: OpaquePointer?
        #expect(ss_device_open_loopback(48_000, SS_LAYOUT_STEREO, SS_OFF, -1, &device) == SS_OK)
        #expect(ss_scene_create(device, 64, &scene) == SS_OK)
        let tone = (0..<4_800).map { Float(sin(Double($0) * 2 * .pi * 440 / 48_000)) * 0.1 }
        #expect(ss_buffer_create_pcm(device, tone, 4_800, 1, 48_000, &buffer) == SS_OK)
        return (device, scene, buffer)
    }

    private func playingSource(_ scene: OpaquePointer?, _ buffer: OpaquePointer?) -> OpaquePointer? {
        var source: OpaquePointer?
        guard ss_source_create(scene, buffer, &source) == SS_OK else { return nil }
        ss_source_set_looping(source, 1)
        ss_source_play(source)
        return source
    }

    @Test func handlesMovedDestroyedAndRecreatedWhileMixing() throws {
        let (device, scene, buffer) = try world()
        defer { ss_device_destroy(device) }
        // Slots of sources: one thread replaces them while others move whatever is there.
        let slots = SlotBox((0..<16).map { _ in bits(playingSource(scene, buffer)) })
        let unexpected = Synchronization.Atomic<Int>(0)
        let stop = Synchronization.Atomic<Bool>(false)
        let scenes = Handles(bits: [bits(scene), bits(buffer), bits(device)])
        let render = Thread {
            var samples = [Float](repeating: 0, count: 2 * 480)
            for _ in 0..<100 where ss_device_render(scenes.handle(2), &samples, 480) != SS_OK {
                unexpected.add(1, ordering: .relaxed)
            }
            stop.store(true, ordering: .releasing)
            ss_thread_detach()
        }
        render.start()
        onThreads(3) { thread in
            var round = 0
            while !stop.load(ordering: .acquiring) {
                let index = round % 16
                let source = OpaquePointer(bitPattern: slots.bits.withLockedValue { $0[index] })
                if thread == 0 {
                    // The churner: destroy and replace.
                    if ss_source_destroy(source) != SS_OK { unexpected.add(1, ordering: .relaxed) }
                    var fresh: OpaquePointer?
                    if ss_source_create(scenes.handle(0), scenes.handle(1), &fresh) != SS_OK { unexpected.add(1, ordering: .relaxed) }
                    ss_source_play(fresh)
                    slots.bits.withLockedValue { $0[index] = bits(fresh) }
                } else {
                    let result = ss_source_set_position(source, Float(round % 7), 0, -2)
                    if result != SS_OK && result != SS_ERROR_STALE_HANDLE { unexpected.add(1, ordering: .relaxed) }
                }
                round += 1
            }
        }
        while !stop.load(ordering: .acquiring) { usleep(1_000) }
        #expect(unexpected.load(ordering: .relaxed) == 0)
    }

    /// Two threads destroying the same handle: exactly one gets SS_OK (both did, issue 35); and
    /// children made while another thread destroys their device never outlive it.
    @Test func racingDestroysAndOrphansUnderThreadSanitizer() throws {
        let (device, scene, buffer) = try world()
        for _ in 0..<50 {
            let source = bits(playingSource(scene, buffer))
            let results = NIOLockedValueBox<[ss_result]>([])
            onThreads(2) { _ in
                let result = ss_source_destroy(OpaquePointer(bitPattern: source))
                results.withLockedValue { $0.append(result) }
            }
            let seen = results.withLockedValue { $0 }
            #expect(seen.filter { $0 == SS_OK }.count == 1 && seen.filter { $0 == SS_ERROR_STALE_HANDLE }.count == 1, "\(seen)")
        }
        let handles = Handles(bits: [bits(scene), bits(device)])
        let made = Synchronization.Atomic<Int>(0)
        let last = Synchronization.Atomic<UInt>(0)
        onThreads(2) { thread in
            if thread == 0 {
                while made.load(ordering: .acquiring) < 20 { sched_yield() }
                #expect(ss_device_destroy(handles.handle(1)) == SS_OK)
            } else {
                var source: OpaquePointer?
                while ss_source_create(handles.handle(0), nil, &source) == SS_OK {
                    last.store(bits(source), ordering: .releasing)
                    made.add(1, ordering: .releasing)
                }
            }
        }
        // The last source made before the device went is gone with it (it stayed live, answering SS_OK).
        #expect(ss_source_set_gain(OpaquePointer(bitPattern: last.load(ordering: .acquiring)), 1) == SS_ERROR_STALE_HANDLE)
    }

    @Test func aDeviceDestroyedWhileAnotherThreadRendersIt() throws {
        let (device, scene, buffer) = try world()
        _ = playingSource(scene, buffer)
        let handle = Handles(bits: [bits(device)])
        let rendered = Synchronization.Atomic<Int>(0)
        let lastResult = Synchronization.Atomic<Int32>(0)
        let group = DispatchGroup()
        group.enter()
        Thread.detachNewThread {
            var samples = [Float](repeating: 0, count: 2 * 480)
            while true {
                let result = ss_device_render(handle.handle(0), &samples, 480)
                guard result == SS_OK else { lastResult.store(result.rawValue, ordering: .relaxed); break }
                rendered.add(1, ordering: .relaxed)
            }
            ss_thread_detach()
            group.leave()
        }
        while rendered.load(ordering: .relaxed) < 10 { usleep(500) }
        #expect(ss_device_destroy(device) == SS_OK)
        group.wait()
        #expect(lastResult.load(ordering: .relaxed) == SS_ERROR_STALE_HANDLE.rawValue)
        #expect(ss_source_play(nil) == SS_ERROR_NULL_ARGUMENT)
    }

    @Test func aCompletionCallbackDestroysItsOwnSourceInsideTheRender() throws {
        let (device, scene, _) = try world()
        defer { ss_device_destroy(device) }
        var buffer: OpaquePointer?
        let click = [Float](repeating: 0.2, count: 480)
        #expect(ss_buffer_create_pcm(device, click, 480, 1, 48_000, &buffer) == SS_OK)
        var source: OpaquePointer?
        #expect(ss_source_create(scene, buffer, &source) == SS_OK)
        let probe = Probe()
        let context = Unmanaged.passRetained(probe).toOpaque()
        defer { Unmanaged<Probe>.fromOpaque(context).release() }
        #expect(ss_source_set_completion_callback(source, { source, userData in
            let probe = Unmanaged<Probe>.fromOpaque(userData!).takeUnretainedValue()
            probe.results.withLockedValue { $0.append(ss_source_destroy(source).rawValue) }
        }, context) == SS_OK)
        #expect(ss_source_play(source) == SS_OK)
        var samples = [Float](repeating: 0, count: 2 * 4_800)
        #expect(ss_device_render(device, &samples, 4_800) == SS_OK)
        #expect(probe.results.withLockedValue { $0 } == [SS_OK.rawValue])
        #expect(ss_source_play(source) == SS_ERROR_STALE_HANDLE)
    }
}

/// What a callback saw.
private final class Probe: Sendable {
    let results = NIOLockedValueBox<[Int32]>([])
}

/// Handle slots shared by the threads of a test.
private final class SlotBox: Sendable {
    let bits: NIOLockedValueBox<[UInt]>
    init(_ bits: [UInt]) { self.bits = NIOLockedValueBox(bits) }
}
