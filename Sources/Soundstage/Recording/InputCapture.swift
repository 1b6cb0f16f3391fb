#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif
import NIOConcurrencyHelpers

/// Audio from a device's input as it arrives, handed to a closure as interleaved Float32: for
/// Apple's input audio queues. On the desktop, the server's default input (a microphone, or a
/// sink's monitor) through a record stream of its own, read on a thread of its own; on a loopback
/// device, the device's own mix as it is rendered (what a loopback device "hears" is what it
/// plays), on the rendering thread. An OpenAL output has no input.
package final class InputCapture: @unchecked Sendable {
    // @unchecked: the connection is used under its own lock; the state under `state`'s.
    /// Frames per second and channels of what the closure gets.
    package let sampleRate: Int
    package let channels: Int
    private let connection: PulseConnection?
    private let device: Device?
    private let consumer: @Sendable (UnsafeBufferPointer<Float>) -> Void
    private struct State {
        var running = false
        var stopped = false
        var tap: Int?
    }
    private let state = NIOLockedValueBox(State())

    /// Captures `device`'s input. `sampleRate` and `channels`: what to ask a desktop server for
    /// (nil: the input's own); a loopback device gives its mix's.
    /// - Throws: `.noInputDevice` for an OpenAL output, or when the desktop server has no input.
    package init(device: Device, sampleRate: Int?, channels: Int?, applicationName: String,
                 consumer: @escaping @Sendable (UnsafeBufferPointer<Float>) -> Void) throws(SoundstageError) {
        self.consumer = consumer
        switch device.kind {
        case .loopback:
            self.device = device
            connection = nil
            self.sampleRate = device.sampleRate
            self.channels = device.layout.channelCount
        case .desktop:
            let options = DesktopOutputOptions(applicationName: applicationName, streamName: "\(applicationName) input",
                                               role: MediaRole(rawValue: "production"), server: device.desktop?.options.server)
            let opened: PulseConnection
            do throws(SoundstageError) {
                opened = try PulseConnection(options: options, stream: .record(source: nil, sampleRate: sampleRate, channels: channels))
            } catch {
                throw SoundstageError(.noInputDevice, "the desktop server gives no input: \(error.message)", cause: error.cause)
            }
            let shape = opened.withLock { (opened.sampleRate, opened.channels) }
            connection = opened
            self.device = nil
            self.sampleRate = shape.0
            self.channels = shape.1
        case .output:
            throw SoundstageError(.noInputDevice, "OpenAL's output has no input: capture needs the desktop server (PulseAudio or "
                                  + "PipeWire) or a loopback device")
        }
        if let connection { startReading(connection) }
    }

    deinit { stop() }

    /// Starts (or resumes) handing audio to the closure.
    package func start() {
        let tapNeeded = state.withLockedValue { state -> Bool in
            guard !state.stopped, !state.running else { return false }
            state.running = true
            return state.tap == nil && device != nil
        }
        connection?.poke()
        if tapNeeded, let device {
            let token = device.addMixTap { [weak self] samples in self?.deliver(samples) }
            state.withLockedValue { $0.tap = token }
        }
    }

    /// Stops handing audio over until ``start()`` (what arrives meanwhile is dropped).
    package func pause() {
        state.withLockedValue { $0.running = false }
        connection?.poke()
    }

    /// Ends the capture for good.
    package func stop() {
        let tap = state.withLockedValue { state -> Int? in
            state.running = false
            state.stopped = true
            defer { state.tap = nil }
            return state.tap
        }
        if let tap, let device { device.removeMixTap(tap) }
        connection?.poke()
    }

    private func deliver(_ samples: UnsafeBufferPointer<Float>) {
        guard state.withLockedValue({ $0.running }) else { return }
        consumer(samples)
    }

    /// The desktop's reading thread: corked while not running (asleep until ``start()`` or
    /// ``stop()`` pokes it: no timer), ends with ``stop()``.
    private func startReading(_ connection: PulseConnection) {
        DetachedThread.start(name: "ss-input") { [weak self] in
            var corked = true
            var chunk: [Float] = []
            // The capture is held only for a moment each turn, never across a wait, so dropping
            // it (its deinit stops it and pokes) ends the thread.
            func wanted() -> (running: Bool, stopped: Bool) {
                self?.state.withLockedValue { ($0.running, $0.stopped) } ?? (false, true)
            }
            while true {
                let (running, stopped) = wanted()
                if stopped { break }
                if running == corked {
                    connection.withLock { _ = connection.corkLocked(!running) }
                    corked = !running
                }
                if !running {
                    connection.withLock { if wanted() == (false, false) { connection.waitLocked() } }
                    continue
                }
                chunk.removeAll(keepingCapacity: true)
                let failed: Bool = connection.withLock {
                    do throws(SoundstageError) {
                        if try connection.readLocked({ chunk.append(contentsOf: $0) }) == 0 {
                            connection.waitLocked(until: Date().addingTimeInterval(0.05))
                            _ = try connection.readLocked { chunk.append(contentsOf: $0) }
                        }
                        return false
                    } catch {
                        return true
                    }
                }
                if !chunk.isEmpty { chunk.withUnsafeBufferPointer { self?.deliver($0) } }
                if failed { break }
            }
            connection.withLock { _ = connection.corkLocked(true, timeout: 0.5) }
        }
    }
}

extension Device {
    /// Calls `tap` with each chunk of the mix as it is rendered (interleaved, the device's rate
    /// and layout), on the rendering thread, until ``removeMixTap(_:)``. A device Soundstage
    /// renders (desktop, loopback) only. Returns a token.
    package func addMixTap(_ tap: @escaping @Sendable (UnsafeBufferPointer<Float>) -> Void) -> Int {
        let token = mixTaps.withLockedValue { taps -> Int in
            taps.next += 1
            taps.handlers[taps.next] = tap
            return taps.next
        }
        isRecordingMix.store(true, ordering: .releasing)
        return token
    }

    /// Stops calling a tap ``addMixTap(_:)`` added.
    package func removeMixTap(_ token: Int) {
        let none = mixTaps.withLockedValue { taps -> Bool in
            taps.handlers[token] = nil
            return taps.handlers.isEmpty
        }
        if none && mixRecorder.withLockedValue({ $0 == nil }) { isRecordingMix.store(false, ordering: .releasing) }
    }
}

/// The mix taps of a device (``Device/addMixTap(_:)``).
struct MixTaps {
    var next = 0
    var handlers: [Int: @Sendable (UnsafeBufferPointer<Float>) -> Void] = [:]
}
