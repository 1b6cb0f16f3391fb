import Foundation
import NIOConcurrencyHelpers
import Testing
import Soundstage
import TestSupport

/// The public API used from many threads at once: no crash, no race (run under
/// `swift test --sanitize=thread`), nothing leaked.
@Suite struct ConcurrencyTests {
    /// The daemon's case: clients make and drop scenes while its real-time renderer renders.
    /// OpenAL Soft 1.19 re-initializes a loopback device in alcCreateContext without the render
    /// lock; before Soundstage kept the two apart, this crashed in alcRenderSamplesSOFT.
    @Test func scenesComeAndGoWhileAnotherThreadRenders() async throws {
        let device = try Device.loopback()
        let buffer = try device.makeBuffer(Signals.sine(440, seconds: 0.05))
        let done = ManagedFlag()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                var heard = 0.0
                while !done.isSet { heard = max(heard, Signals.rms(try device.render(frames: 480).samples)) }
                #expect(heard > 0.01, "the scenes were heard")
            }
            group.addTask {
                defer { done.set() }
                for round in 0..<300 {
                    // Changing budgets make OpenAL Soft re-plan the device's sources each time.
                    let scene = try device.makeScene(sourceBudget: 1 + (round * 37) % 512)
                    let source = scene.makeSource(buffer: buffer)
                    try source.play()
                    if round % 3 == 0 { scene.close() }
                }
            }
            try await group.waitForAll()
        }
        _ = try device.render(frames: 4_800)
        #expect(device.liveObjects.sources == 0, "every scene closed or dropped: \(device.liveObjects)")
        device.close()
        #expect(device.liveObjects.isZero)
    }

    /// `Device.info` asks ALC for strings and numbers. OpenAL Soft 1.19 frees and re-reads the
    /// device's HRTF list when asked its length, so two readers at once read names from a freed
    /// or shorter list; the `ALC_INVALID_VALUE` that left on the device (ALC's errors are the
    /// device's, not the thread's) was read by a render running beside them as the render's own,
    /// and the render failed (2 runs in 3 before the fix). Read by two threads 300 times each
    /// beside a render, it never fails a render and says the same each time.
    @Test func deviceInfoIsSafeBesideARender() throws {
        let device = try Device.loopback()
        defer { device.close() }
        let scene = try device.makeScene()
        let source = scene.makeSource(buffer: try device.makeBuffer(Signals.sine(440, seconds: 1)))
        source.isLooping = true
        try source.play()
        let first = try device.info
        let done = ManagedFlag()
        let failures = NIOLockedValueBox<[String]>([])
        let running = DispatchGroup()
        func onThread(_ name: String, _ body: @escaping @Sendable () throws -> Void) {
            running.enter()
            let thread = Thread {
                defer { running.leave() }
                do { try body() } catch { failures.withLockedValue { $0.append("\(name): \(error)") } }
            }
            thread.start()
        }
        onThread("render") { while !done.isSet { _ = try device.render(frames: 128) } }
        let readers = DispatchGroup()
        for reader in 0..<2 {
            readers.enter()
            onThread("info \(reader)") {
                defer { readers.leave() }
                for _ in 0..<300 {
                    let info = try device.info
                    if info.version != first.version || info.extensions != first.extensions || info.hrtfNames != first.hrtfNames {
                        failures.withLockedValue { $0.append("info changed: \(info.hrtfNames)") }
                    }
                }
            }
        }
        readers.wait()
        done.set()
        running.wait()
        #expect(failures.withLockedValue { $0 }.isEmpty, "\(failures.withLockedValue { $0 })")
        #expect(Signals.rms(try device.render(frames: 4_800).samples) > 0.1, "still heard")
    }

    @Test func manyThreadsDriveScenesOnOneDeviceWhileItRenders() async throws {
        let device = try Device.loopback()
        let buffer = try device.makeBuffer(Signals.sine(440, seconds: 0.05))
        let scenes = try (0..<3).map { _ in try device.makeScene(sourceBudget: 16) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for _ in 0..<50 { _ = try device.render(frames: 480) }
            }
            for worker in 0..<6 {
                group.addTask {
                    let scene = scenes[worker % scenes.count]
                    let sources = (0..<4).map { _ in scene.makeSource(buffer: buffer) }
                    for step in 0..<200 {
                        let source = sources[step % sources.count]
                        source.position = Vector3(Float(step % 10), 0, -1)
                        source.gain = Float(step % 5) / 5
                        switch step % 7 {
                        case 0: try? source.play()   // may hit the budget: that is a typed error
                        case 3: source.pause()
                        case 5: source.stop()
                        default: _ = source.offset
                        }
                        scene.listener.position = Vector3(0, Float(step % 3), 0)
                    }
                    sources.forEach { $0.stop() }
                }
            }
            try await group.waitForAll()
        }
        _ = try device.render(frames: 4_800)
        for scene in scenes { #expect(scene.activeSourceCount == 0) }
        device.close()
        #expect(device.liveObjects.isZero)
    }

    @Test func independentDevicesRenderInParallel() async throws {
        let reference = try Self.renderOnce()
        try await withThrowingTaskGroup(of: [Float].self) { group in
            for _ in 0..<4 { group.addTask { try Self.renderOnce() } }
            for try await samples in group {
                #expect(Signals.difference(samples, reference) == nil, "renders are deterministic, whatever runs beside them")
            }
        }
    }

    @Test func completionHandlersRunWhileOtherThreadsPlay() async throws {
        let device = try Device.loopback()
        defer { device.close() }
        let scene = try device.makeScene(sourceBudget: 64)
        let buffer = try device.makeBuffer(Signals.sine(440, seconds: 0.01))
        let finished = Counter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<10 {
                        let source = scene.makeSource(buffer: buffer)
                        source.completionHandler = { _ in finished.increment() }
                        try source.play()
                    }
                }
            }
            try await group.waitForAll()
        }
        _ = try device.render(frames: 4_800)
        #expect(finished.value == 40)
        #expect(scene.activeSourceCount == 0)
    }

    @Test func systemSoundsFromManyThreads() async throws {
        let device = try Device.loopback()
        defer { device.close() }
        var options = SystemSoundRegistry.Options()
        options.maxConcurrent = 3
        let registry = try SystemSoundRegistry(device: device, options: options)
        defer { registry.close() }
        let data = try Self.wavBytes(Signals.sine(880, seconds: 0.02))
        let ids = try (0..<4).map { try registry.register(data: data, name: "s\($0).wav") }
        let completions = Counter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { for _ in 0..<40 { _ = try device.render(frames: 480) } }
            for worker in 0..<4 {
                group.addTask {
                    for step in 0..<100 {
                        try registry.play(ids[(worker + step) % ids.count]) { _ in completions.increment() }
                        if step % 25 == 0 { registry.volume = Float(step % 3) / 2 }
                    }
                }
            }
            try await group.waitForAll()
        }
        _ = try device.render(frames: 4_800)
        #expect(completions.value == 400, "every attempt completed exactly once")
        #expect(registry.playingCount == 0)
    }

    private static func wavBytes(_ audio: AudioBuffer) throws -> [UInt8] {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cc-\(UUID()).wav").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try SoundFileWriter.write(audio, to: path, format: .wavPCM16)
        return try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    }

    private static func renderOnce() throws -> [Float] {
        let rig = try Rig()
        _ = try rig.playing(at: Vector3(3, 0, -2))
        return try rig.render(0.2).samples
    }
}

import NIOConcurrencyHelpers

/// A thread-safe counter for callbacks.
final class Counter: Sendable {
    private let count = NIOLockedValueBox(0)
    func increment() { count.withLockedValue { $0 += 1 } }
    var value: Int { count.withLockedValue { $0 } }
}

/// A flag set once, read from other threads.
final class ManagedFlag: Sendable {
    private let value = NIOLockedValueBox(false)
    var isSet: Bool { value.withLockedValue { $0 } }
    func set() { value.withLockedValue { $0 = true } }
}
