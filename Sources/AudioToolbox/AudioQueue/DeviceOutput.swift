import Dispatch
import NIOConcurrencyHelpers
import SoundFile
import Soundstage
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

// An output queue on the app's device (ApplicationAudio): from AudioQueueStart to the end of its
// sound, one run — a streaming source of the app's scene (an AudioPlayer, unpositioned) whose
// decoder thread is the queue's own thread. That thread pulls the enqueued packets through the
// queue's decoder into Float32 at the queue's rate, hands each used buffer back to the program's
// callback (on that thread for a NULL run loop, as on iOS) and waits while nothing is enqueued:
//
//   enqueued buffers → decoder (AudioConverter) → stream chunks → OpenAL queue → the mix
//
// Volume (ramped), pan and rate are the player's; the session's rules are the scene's: an
// interruption stops the queue (IsRunning 0) and AudioQueueStart after its end plays on.

/// What a device queue's stream holds ahead at the least: four chunks of 20 ms decoded, four in
/// OpenAL's queue (a program enqueueing 10 ms at a time).
package let queueStreamOptions: StreamOptions = {
    var options = StreamOptions()
    options.bufferDuration = 0.02
    options.bufferCount = 4
    return options
}()

/// What a device run's stream holds ahead: chunks as long as the program's first buffer (10 ms
/// to a Soundstage stream's 250 ms), at least 80 ms of them in OpenAL's queue (four, or more of
/// shorter ones), and one fewer decoded ahead: a buffer comes back to the program when its chunk
/// is made, a chunk before that is heard, and the program's enqueued buffers wait ahead too. So
/// a callback reaches the ear as soon as a stream's hand-over of ``queueStreamOptions`` does.
/// Each chunk costs the engine a refill and, a few at a time, the queue's thread a wake-up: a
/// program enqueueing 170 ms at a time needs no 20 ms chunks (32 such queues woke 1,600 times a
/// second), one enqueueing 10 ms at a time gets 10 ms ones (docs/benchmarks.md).
func queueStreamOptions(firstBufferFrames: Int?, rate: Double) -> StreamOptions {
    var options = queueStreamOptions
    if let frames = firstBufferFrames, frames > 0, rate > 0 {
        options.bufferDuration = min(0.25, max(0.01, Double(frames) / rate))
        let inOpenAL = Double(queueStreamOptions.bufferCount) * queueStreamOptions.bufferDuration
        options.bufferCount = max(queueStreamOptions.bufferCount, Int((inOpenAL / options.bufferDuration).rounded(.up)))
    }
    options.decodedAhead = options.bufferCount - 1
    return options
}

/// The frames of one run, made on the stream's decoder thread from what the program enqueues.
final class QueueProducer: FrameProducer, @unchecked Sendable {
    // @unchecked: the queue and the end are touched only under `state`'s lock.
    private struct State {
        var queue: AudioQueueObject?
        var ended = false
    }
    private let state: NIOLockedValueBox<State>

    /// When the queue's thread began waiting with nothing enqueued (CLOCK_MONOTONIC ns), 0 while it does not.
    private let waitingSince = Atomic<UInt64>(0)

    /// A queue of more than two channels: how they fold into the device's two, and where they are
    /// decoded first (touched by the run's thread only, under the queue's lock).
    let downmix: StereoDownmix?
    private var scratch: UnsafeMutablePointer<Float>?
    private var scratchCapacity = 0

    init(queue: AudioQueueObject, downmix: StereoDownmix?) {
        state = NIOLockedValueBox(State(queue: queue))
        self.downmix = downmix
    }

    deinit { scratch?.deallocate() }

    /// Room for `count` samples of the queue's own channels (the run's thread).
    func scratch(_ count: Int) -> UnsafeMutablePointer<Float> {
        if let scratch, scratchCapacity >= count { return scratch }
        scratch?.deallocate()
        let made = UnsafeMutablePointer<Float>.allocate(capacity: count)
        scratch = made
        scratchCapacity = count
        return made
    }

    /// Starved: the queue's thread has waited more than 0.1 s with nothing enqueued. (Not at
    /// once: a callback on a run loop refills a moment after its buffer comes back, and a
    /// render on a loopback device waits for that rather than play a gap.)
    var isStarved: Bool {
        let since = waitingSince.load(ordering: .relaxed)
        return since != 0 && hostTimeNow() &- since > 100_000_000
    }

    /// Notes that the queue's thread waits for something to be enqueued, or no longer does.
    func noteWaiting(_ waiting: Bool) {
        if !waiting { waitingSince.store(0, ordering: .relaxed) } else if waitingSince.load(ordering: .relaxed) == 0 {
            waitingSince.store(hostTimeNow(), ordering: .relaxed)
        }
    }

    /// Cancelled (the run let go): the queue is no longer reachable from here.
    var isCancelled: Bool { state.withLockedValue { $0.queue == nil } }

    func produce(into destination: UnsafeMutablePointer<Float>, frames: Int) throws -> Int {
        guard let queue = state.withLockedValue({ $0.ended ? nil : $0.queue }) else { return 0 }
        let made = queue.produce(into: destination, frames: frames, for: self)
        if made == 0 { state.withLockedValue { $0.ended = true } }
        return made
    }

    func cancel() {
        let queue = state.withLockedValue { state -> AudioQueueObject? in
            defer { state.queue = nil }
            return state.queue
        }
        // The queue's thread waits untimed, and checks the cancel under the queue's lock: the
        // wake must come under that lock too, or it could fall between the check and the wait.
        // Not from here: this may run under Soundstage's locks (a stream let go), which the
        // queue's lock is taken outside of.
        guard let queue else { return }
        DispatchQueue.global().async { queue.lock.withLock { queue.lock.wake() } }
    }
}

/// One run of a queue on the device.
final class QueuePlayback: @unchecked Sendable {
    // @unchecked: lets of thread-safe objects.
    let player: AudioPlayer
    let producer: QueueProducer
    let audio: ApplicationAudio

    init(player: AudioPlayer, producer: QueueProducer, audio: ApplicationAudio) {
        self.player = player
        self.producer = producer
        self.audio = audio
    }

    /// Ends the run: the stream stops and the queue's thread lets go.
    func end() {
        player.eventHandler = nil
        producer.cancel()
        player.stop()
    }
}

extension AudioQueueObject {
    /// The channels a device run plays: the queue's own, mono or stereo; more fold into stereo
    /// (``StereoDownmix``).
    var deviceChannels: Int { min(2, Int(format.mChannelsPerFrame)) }

    /// Up to `frames` frames of what is enqueued, waiting while nothing is (the run's thread);
    /// 0 once a deferred stop has played everything, or the run was let go.
    func produce(into destination: UnsafeMutablePointer<Float>, frames: Int, for producer: QueueProducer) -> Int {
        lock.lock()
        while true {
            if producer.isCancelled || disposed || playback?.producer !== producer {
                let done = takeFinished()
                lock.unlock()
                handBack(done, now: false)
                return 0
            }
            // Decoded in the queue's own channels (metered there, as iOS meters each, and read
            // when heard), folded into stereo when there are more than two.
            let channels = Int(format.mChannelsPerFrame)
            let decoded = producer.downmix == nil ? destination : producer.scratch(frames * channels)
            let made = pull(frames: frames, channels: channels, into: decoded, clock: producedFrames, ratio: 1)
            producedFrames += Int64(made)
            if made > 0, metering {
                heardLevels.add(decoded, frames: made, channels: channels, from: producedFrames - Int64(made))
            }
            producer.downmix?.fold(decoded, frames: made, into: destination)
            var ended = false
            if made == 0, queued.isEmpty, stopping || flushing {
                // Everything enqueued has been decoded: the decoder starts afresh for what comes next.
                if let decoder { _ = AudioConverterReset(decoder) }
                flushing = false
                ended = stopping
                stopping = false
            }
            let done = takeFinished()
            if made > 0 || ended { producer.noteWaiting(false) }
            if made > 0 || ended || !done.isEmpty {
                lock.unlock()
                handBack(done, now: false)
                if made > 0 || ended { return made }
                lock.lock()
                continue
            }
            producer.noteWaiting(true)
            lock.wait()
        }
    }

    /// Up to `frames` frames of interleaved linear PCM read straight from the enqueued buffers as
    /// Float32 (no converter: the device's stream takes the queue's own rate); the lock is held.
    func readPCM(_ layout: PCMLayout, frames: Int, into destination: UnsafeMutablePointer<Float>) -> Int {
        let channels = layout.channels, bytesPerFrame = layout.bytesPerFrame
        var produced = 0
        let native = layout.isNativeInt16
        var scratch = native ? [] : [Double](repeating: 0, count: min(frames, 4_096))
        while produced < frames, let front = queued.first, !front.waitsForStart(taken: frontPacketsTaken) {
            let start = frontPacketsTaken * bytesPerFrame
            let count = min(frames - produced, (front.bytes - start) / bytesPerFrame, native ? Int.max : scratch.count)
            if count > 0 && native {
                // The common case (16-bit interleaved, as games and the books write): straight in.
                let data = UnsafeRawPointer(front.buffer.pointee.mAudioData) + start
                let out = destination + produced * channels
                for index in 0..<(count * channels) {
                    out[index] = Float(data.loadUnaligned(fromByteOffset: 2 * index, as: Int16.self)) / 32_768
                }
                frontPacketsTaken += count
                produced += count
            } else if count > 0 {
                let data = UnsafeRawPointer(front.buffer.pointee.mAudioData) + start
                scratch.withUnsafeMutableBufferPointer { values in
                    for channel in 0..<channels {
                        layout.read(channel: channel, from: data, frames: count, into: values.baseAddress!)
                        var out = destination + produced * channels + channel
                        for frame in 0..<count {
                            out.pointee = Float(values[frame])
                            out += channels
                        }
                    }
                }
                frontPacketsTaken += count
                produced += count
            }
            if (frontPacketsTaken + 1) * bytesPerFrame > front.bytes {
                finished.append(queued.removeFirst().buffer)
                frontPacketsTaken = 0
            }
        }
        return produced
    }

    /// Starts (or resumes) the queue on the app's device, at `time` on the device's clock (nil:
    /// at once). The lock is held.
    func startOnDevice(at time: Double?) throws(QueueStatus) {
        let audio: ApplicationAudio
        do {
            audio = try ApplicationAudio.shared()
        } catch {
            throw QueueStatus(status: kAudioQueueErr_InvalidDevice)
        }
        guard audio.session.category.playsAudio else { throw .cannotStart }
        if let playback, playback.audio !== audio {
            // Apple's names moved to another device: this run ends, a new one starts there.
            playback.end()
            self.playback = nil
        }
        if playback == nil {
            try makeRenderConverters(Self.float32(rate: format.mSampleRate, channels: format.mChannelsPerFrame))
            let channels = Int(format.mChannelsPerFrame)
            let producer = QueueProducer(queue: self, downmix: channels > 2 ? StereoDownmix(layout: channelLayout, channels: channels) : nil)
            let player: AudioPlayer
            do {
                player = try AudioPlayer(producer: producer, sampleRate: Int(format.mSampleRate.rounded()), channels: deviceChannels,
                                         name: "<audio queue>", scene: audio.scene, session: audio.session,
                                         options: queueStreamOptions(firstBufferFrames: ledger.first?.frames, rate: format.mSampleRate))
            } catch {
                throw .cannotStart
            }
            player.panLaw = .balance
            let run = QueuePlayback(player: player, producer: producer, audio: audio)
            player.eventHandler = { [weak self] _, event in self?.playbackEvent(event, of: run) }
            playback = run
            producedFrames = 0
            heardLevels.removeAll()
            applyDeviceParameters()
            applyDeviceSpeed()
        }
        guard let playback else { return }
        do {
            // A start time is met on the sample where Soundstage renders the mix (the desktop, a
            // loopback device); OpenAL's own output mixes on its thread and starts at once.
            if let time, time > playback.player.deviceCurrentTime, audio.device.kind != .output {
                try playback.player.play(atTime: time)
            } else {
                try playback.player.play()
            }
        } catch let error as SoundstageError where error.code == .sessionNotActive {
            throw QueueStatus(status: OSStatus(kAudioSessionNotActiveError))
        } catch {
            throw .cannotStart
        }
    }

    /// The volume, its ramp and the pan on the run's player (the lock is held).
    func applyDeviceParameters(ramp: Double = 0) {
        guard let player = playback?.player else { return }
        player.setVolume(volumeTarget, fadeDuration: ramp)
        player.pan = pan
    }

    /// The speed and pitch the time-pitch unit gives (1, 1 without it or bypassed): the PlayRate
    /// with the pitch kept (spectral, time domain) or moved with it (varispeed), and Pitch (cents)
    /// under the spectral algorithm.
    var deviceSpeed: (speed: Float, pitch: Float) {
        guard timePitch.enabled, !timePitch.bypass else { return (1, 1) }
        switch timePitch.algorithm {
        case kAudioQueueTimePitchAlgorithm_Varispeed: return (playRate, playRate)
        case kAudioQueueTimePitchAlgorithm_Spectral: return (playRate, Float(pow(2, Double(pitchCents) / 1200)))
        default: return (playRate, 1)
        }
    }

    /// The time-pitch unit's speed and pitch on the run's player (the lock is held).
    func applyDeviceSpeed() {
        guard let player = playback?.player else { return }
        let (speed, pitch) = deviceSpeed
        player.setSpeed(speed, pitch: pitch)
    }

    /// Ends the run on the device, if any (the lock is held).
    func endDeviceRun() {
        playback?.end()
        playback = nil
        lock.wake()
    }

    /// What the run's player reports (the engine's update, no lock held).
    private func playbackEvent(_ event: AudioPlayer.Event, of run: QueuePlayback) {
        let told = lock.withLock { () -> [CCallback<AudioQueuePropertyListenerProc>] in
            guard playback === run else { return [] }
            switch event {
            case .finished:
                // A deferred stop played everything: the run is over.
                playback = nil
                stopping = false
            case .interruptionBegan:
                // iOS stops the app's queues for an interruption; AudioQueueStart after its end plays on.
                run.player.pause()
            case .interruptionEnded:
                // The session plays its sources on; a queue waits for AudioQueueStart, as on iOS.
                if !isRunning { run.player.pause() }
                return []
            case .decodeError:
                return []
            }
            guard isRunning else { return [] }
            isRunning = false
            return listeners
        }
        if case .finished = event { run.end() }
        announceRunning(told, now: false)
    }

    /// Where the run has played to, in frames of the queue's rate since its start.
    var deviceSampleTime: Double {
        guard let player = playback?.player else { return 0 }
        return (player.currentTime * format.mSampleRate).rounded()
    }
}
