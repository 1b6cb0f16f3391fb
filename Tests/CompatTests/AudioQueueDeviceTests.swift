import AudioToolbox
@testable import CompatPrograms
import Foundation
import SoundFile
import Soundstage
@testable import SoundstageCompat
import Testing
import TestSupport

extension CompatPrograms {
    /// Output queues on a device (a loopback device the tests render, as the iOS names' other
    /// programs here): a queue's callbacks run on its own thread (a NULL run loop, as on iOS) and
    /// refill from a tone; what the mix holds is heard — onset, length, level, frequency, side —
    /// and IsRunning and its listener follow the transport, a deferred stop, an interruption.
    @Suite(.serialized) struct AudioQueueDeviceTests {
        static let rate = 44_100

        /// A tone fed to a queue from its callback, 16-bit mono, and what the queue told.
        final class TonePlayer: @unchecked Sendable {
            let lock = NSLock()
            var queue: AudioQueueRef?
            let samples: [Int16]
            var position = 0
            var ended = false
            var runningChanges: [UInt32] = []
            var callbacks = 0
            var disposeInCallback = false
            /// Whether the end of the tone stops the queue (deferred); if not, the queue starves.
            var stopsAtEnd = true
            /// Each callback takes this long (a program doing work in it), and when the last ended.
            var callbackSeconds = 0.0
            var lastCallbackEnd = 0.0
            /// The channels of `samples` (interleaved).
            var channels = 1

            /// The bytes of each of the three buffers.
            var bufferBytes: UInt32 = 4_096

            /// `seconds` of a sine at `frequency`, starting at its peak (a sharp onset), after
            /// `silence` seconds of nothing.
            init(frequency: Double = 440, seconds: Double, amplitude: Double = 0.5, silence: Double = 0) {
                samples = [Int16](repeating: 0, count: Int(silence * Double(rate))) + (0..<Int(seconds * Double(rate))).map {
                    Int16(amplitude * 32_767 * cos(2 * Double.pi * frequency * Double($0) / Double(rate)))
                }
            }

            /// `seconds` of one sine a channel, at `frequencies` (one a channel), interleaved.
            init(frequencies: [Double], seconds: Double, amplitude: Double) {
                let frames = Int(seconds * Double(rate))
                samples = (0..<frames).flatMap { frame in
                    frequencies.map { Int16(amplitude * 32_767 * sin(2 * Double.pi * $0 * Double(frame) / Double(rate))) }
                }
                channels = frequencies.count
            }

            /// Fills `buffer` with what is left and enqueues it; stops (deferred) at the end.
            func fill(_ buffer: AudioQueueBufferRef) {
                lock.withLock {
                    defer { lastCallbackEnd = MonitorRecording.now() }
                    if callbackSeconds > 0 { usleep(UInt32(callbackSeconds * 1e6)) }
                    callbacks += 1
                    guard let queue else { return }
                    if disposeInCallback {
                        AudioQueueDispose(queue, true)
                        self.queue = nil
                        return
                    }
                    var count = min(Int(buffer.pointee.mAudioDataBytesCapacity) / 2, samples.count - position)
                    count -= count % channels
                    guard count > 0 else {
                        if !ended && stopsAtEnd { AudioQueueStop(queue, false) }
                        ended = true
                        return
                    }
                    samples.withUnsafeBytes { bytes in
                        buffer.pointee.mAudioData.copyMemory(from: bytes.baseAddress! + position * 2, byteCount: count * 2)
                    }
                    buffer.pointee.mAudioDataByteSize = UInt32(count * 2)
                    position += count
                    AudioQueueEnqueueBuffer(queue, buffer, 0, nil)
                }
            }

            /// A new output queue with three buffers primed, callbacks on the queue's thread.
            func makeQueue() throws -> AudioQueueRef {
                var format = AudioStreamBasicDescription(mSampleRate: Float64(rate), mFormatID: kAudioFormatLinearPCM,
                                                         mFormatFlags: kLinearPCMFormatFlagIsSignedInteger | kLinearPCMFormatFlagIsPacked,
                                                         mBytesPerPacket: UInt32(2 * channels), mFramesPerPacket: 1,
                                                         mBytesPerFrame: UInt32(2 * channels), mChannelsPerFrame: UInt32(channels),
                                                         mBitsPerChannel: 16, mReserved: 0)
                var made: AudioQueueRef?
                let status = AudioQueueNewOutput(&format, { userData, _, buffer in
                    Unmanaged<TonePlayer>.fromOpaque(userData!).takeUnretainedValue().fill(buffer)
                }, Unmanaged.passUnretained(self).toOpaque(), nil, nil, 0, &made)
                #expect(status == noErr)
                let queue = try #require(made)
                lock.withLock { self.queue = queue }
                #expect(AudioQueueAddPropertyListener(queue, kAudioQueueProperty_IsRunning, { userData, queue, _ in
                    var running: UInt32 = 9
                    var size = UInt32(4)
                    AudioQueueGetProperty(queue, kAudioQueueProperty_IsRunning, &running, &size)
                    let player = Unmanaged<TonePlayer>.fromOpaque(userData!).takeUnretainedValue()
                    player.lock.withLock { player.runningChanges.append(running) }
                }, Unmanaged.passUnretained(self).toOpaque()) == noErr)
                for _ in 0..<3 {
                    var buffer: AudioQueueBufferRef?
                    #expect(AudioQueueAllocateBuffer(queue, bufferBytes, &buffer) == noErr)
                    if let buffer { fill(buffer) }
                }
                return queue
            }

            var isRunning: UInt32 {
                guard let queue = lock.withLock({ queue }) else { return 0 }
                var running: UInt32 = 9
                var size = UInt32(4)
                AudioQueueGetProperty(queue, kAudioQueueProperty_IsRunning, &running, &size)
                return running
            }
        }

        /// A loopback device the Apple names play on.
        final class Rig {
            let device: Device
            init() throws {
                device = try Device.loopback()
                try CompatOutput.use(device: device)
            }
            /// `seconds` of the device's mix, rendered in slices as a real output would pull it.
            func render(_ seconds: Double) throws -> SoundBuffer {
                var samples: [Float] = []
                var left = Int((seconds * 48_000).rounded())
                while left > 0 {
                    let slice = try device.render(frames: min(left, 960))
                    samples += slice.samples
                    left -= slice.frames
                }
                return SoundBuffer(samples: samples, channels: 2, sampleRate: 48_000)
            }
        }

        static func onset(_ samples: [Float], threshold: Float = 0.05) -> Int? { samples.firstIndex { abs($0) > threshold } }

        @Test func aQueuePlaysItsToneOnTheDeviceAndStopsWhenItHasPlayedEverything() throws {
            let rig = try Rig()
            let player = TonePlayer(seconds: 0.6)
            let queue = try player.makeQueue()
            defer { AudioQueueDispose(queue, true) }
            #expect(AudioQueueStart(queue, nil) == noErr)
            #expect(player.isRunning == 1)
            let mix = try rig.render(1.2)
            let left = mix.channel(0)
            let start = try #require(Self.onset(left), "the queue was heard")
            let sounding = Double(Signals.soundingFrames(mix.samples)) / 48_000
            // 0.6 s of the tone, at its level (centred, iOS's balance: full level each side), at 440 Hz.
            #expect(abs(sounding - 0.6) < 0.02, "\(sounding) s sounded from \(start): \(Signals.separateSounds(mix.samples, rate: 48_000))")
            let body = Array(left[(start + 2_400)..<(start + 26_400)])
            #expect(abs(Signals.rms(body) - 0.5 / 2.squareRoot()) < 0.02, "\(Signals.rms(body))")
            #expect(abs(Signals.frequency(body, rate: 48_000) - 440) < 2)
            #expect(Signals.rms(mix.channel(1)[(start + 2_400)..<(start + 26_400)]) > 0.3, "both sides")
            // It stopped by itself once everything had played; the listener heard the start and the end.
            #expect(player.isRunning == 0)
            #expect(player.lock.withLock { player.runningChanges } == [1, 0])
            var time = AudioTimeStamp()
            #expect(AudioQueueGetCurrentTime(queue, nil, &time, nil) == noErr)
            #expect(time.mSampleTime == 0, "a stopped queue's clock is back at 0")
        }

        /// A started queue with nothing enqueued (its program fell silent) does not poll: its
        /// thread sleeps until something is enqueued or the queue stops (at most a few wake-ups a
        /// second; it woke 20 times a second on a 50 ms timer), and a deferred stop then still
        /// ends it (IsRunning 0). A loopback device's render does not wait for it.
        @Test func aStarvedQueuesThreadSleeps() throws {
            let rig = try Rig()
            let player = TonePlayer(seconds: 0.05)
            player.stopsAtEnd = false
            let queue = try player.makeQueue()
            defer { AudioQueueDispose(queue, true) }
            let before = ThreadActivity.threadIDs(named: "ss-audio-queue")
            #expect(AudioQueueStart(queue, nil) == noErr)
            // A render on a loopback device does not wait for a starved queue (it waited 2 s a
            // refill for the program to enqueue: 110 s for these 0.3 s).
            let rendered = MonitorRecording.now()
            _ = try rig.render(0.3)
            #expect(MonitorRecording.now() - rendered < 2, "0.3 s rendered in \(MonitorRecording.now() - rendered) s")
            var id: Int32?
            #expect(waitFor(5) { id = ThreadActivity.threadIDs(named: "ss-audio-queue").subtracting(before).first; return id != nil })
            let thread = try #require(id.flatMap { ThreadActivity(thread: $0) }, "no queue thread")
            usleep(100_000)
            let start = thread.sample()
            usleep(1_000_000)
            let end = thread.sample()
            #expect(end.switches - start.switches <= 3, "the starved queue's thread woke \(end.switches - start.switches) times in 1 s")
            #expect(player.isRunning == 1)
            #expect(AudioQueueStop(queue, false) == noErr)
            // The loopback device moves only as it is rendered: render until the end is heard.
            #expect(waitFor(5) { _ = try? rig.render(0.05); return player.isRunning == 0 }, "a deferred stop ends the starved queue")
        }

        /// The device properties answer the app's device (a loopback device at 48 kHz, stereo here):
        /// its rate and channels, an input queue's its own until it captures; they are read-only,
        /// and a short size is Apple's error. CurrentDevice is its UID; setting another device is
        /// refused (a queue follows the app's device).
        @Test func theDevicePropertiesAnswerTheAppsDevice() throws {
            _ = try Rig()
            let player = TonePlayer(seconds: 0.05), recorder = Recorder()
            let output = try player.makeQueue()
            defer { AudioQueueDispose(output, true) }
            var rate: Float64 = 0
            var size = UInt32(8)
            #expect(AudioQueueGetProperty(output, kAudioQueueDeviceProperty_SampleRate, &rate, &size) == noErr)
            #expect(rate == 48_000 && size == 8)
            var channels: UInt32 = 0
            size = 4
            #expect(AudioQueueGetProperty(output, kAudioQueueDeviceProperty_NumberChannels, &channels, &size) == noErr)
            #expect(channels == 2)
            size = 4
            #expect(AudioQueueGetProperty(output, kAudioQueueDeviceProperty_SampleRate, &rate, &size) == kAudioQueueErr_InvalidPropertySize)
            #expect(AudioQueueSetProperty(output, kAudioQueueDeviceProperty_SampleRate, &rate, 8) == kAudioQueueErr_InvalidProperty)
            #expect(AudioQueueGetPropertySize(output, kAudioQueueDeviceProperty_NumberChannels, &size) == noErr && size == 4)
            let input = try recorder.makeQueue(Self.pcm16Mono, bufferBytes: 4_410)
            defer { AudioQueueDispose(input, true) }
            size = 4
            #expect(AudioQueueGetProperty(input, kAudioQueueDeviceProperty_NumberChannels, &channels, &size) == noErr)
            #expect(channels == 1, "an input queue not yet started: its own channels")
            // The device's UID, as iOS Swift code reads and sets it.
            var uid: CFString? = nil
            size = UInt32(MemoryLayout<CFString?>.size)
            #expect(AudioQueueGetProperty(output, kAudioQueueProperty_CurrentDevice, &uid, &size) == noErr)
            #expect(uid == "loopback")
            var same: CFString = "loopback", other: CFString = "desktop:A"
            #expect(AudioQueueSetProperty(output, kAudioQueueProperty_CurrentDevice, &same, UInt32(MemoryLayout<CFString>.size)) == noErr)
            #expect(AudioQueueSetProperty(output, kAudioQueueProperty_CurrentDevice, &other, UInt32(MemoryLayout<CFString>.size))
                    == kAudioQueueErr_InvalidDevice)
        }

        @Test func twoQueuesStartedForOneDeviceTimeSoundOnTheSameSample() throws {
            let rig = try Rig()
            let first = TonePlayer(frequency: 440, seconds: 0.3)
            let second = TonePlayer(frequency: 660, seconds: 0.3)
            let a = try first.makeQueue(), b = try second.makeQueue()
            defer {
                AudioQueueDispose(a, true)
                AudioQueueDispose(b, true)
            }
            AudioQueueSetParameter(a, kAudioQueueParam_Pan, -1)
            AudioQueueSetParameter(b, kAudioQueueParam_Pan, 1)
            _ = try rig.render(0.1)
            var now = AudioTimeStamp()
            #expect(AudioQueueDeviceGetCurrentTime(a, &now) == noErr)
            #expect(now.mFlags.contains(.sampleTimeValid))
            #expect(now.mSampleTime == 4_800, "the device's clock counts its frames")
            var start = AudioTimeStamp()
            start.mSampleTime = now.mSampleTime + 4_801
            start.mFlags = .sampleTimeValid
            #expect(AudioQueueStart(a, &start) == noErr)
            _ = try rig.render(0.01)   // the second is started a slice later, for the same time
            #expect(AudioQueueStart(b, &start) == noErr)
            let mix = try rig.render(0.5)
            let left = try #require(Self.onset(mix.channel(0))), right = try #require(Self.onset(mix.channel(1)))
            #expect(left == right, "left \(left), right \(right)")
            #expect(left == 4_801 - 480, "on the sample asked: \(left)")
            #expect(abs(Signals.frequency(Array(mix.channel(0)[(left + 1_000)..<(left + 10_000)]), rate: 48_000) - 440) < 2)
            #expect(abs(Signals.frequency(Array(mix.channel(1)[(right + 1_000)..<(right + 10_000)]), rate: 48_000) - 660) < 3)
        }

        @Test func volumePauseAndResumeAreHeard() throws {
            let rig = try Rig()
            let player = TonePlayer(seconds: 2)
            let queue = try player.makeQueue()
            defer { AudioQueueDispose(queue, true) }
            #expect(AudioQueueSetParameter(queue, kAudioQueueParam_Volume, 0.5) == noErr)
            #expect(AudioQueueStart(queue, nil) == noErr)
            let loud = try rig.render(0.4)
            let start = try #require(Self.onset(loud.channel(0), threshold: 0.02))
            #expect(abs(Signals.rms(loud.channel(0)[(start + 1_000)..<(start + 8_000)]) - 0.25 / 2.squareRoot()) < 0.01)
            #expect(AudioQueuePause(queue) == noErr)
            _ = try rig.render(0.1)
            let paused = try rig.render(0.3)
            #expect(Signals.peak(paused) < 0.001, "silent while paused")
            #expect(player.isRunning == 1, "a paused queue is still running")
            var before = AudioTimeStamp()
            AudioQueueGetCurrentTime(queue, nil, &before, nil)
            #expect(AudioQueueStart(queue, nil) == noErr)
            let resumed = try rig.render(0.3)
            #expect(Signals.rms(resumed.channel(0)[4_800...]) > 0.15, "it plays on")
            var after = AudioTimeStamp()
            AudioQueueGetCurrentTime(queue, nil, &after, nil)
            #expect(after.mSampleTime > before.mSampleTime + 8_000, "its clock moved on: \(before.mSampleTime) → \(after.mSampleTime)")
            #expect(AudioQueueStop(queue, true) == noErr)
            #expect(player.isRunning == 0)
            _ = try rig.render(0.05)
            #expect(Signals.peak(try rig.render(0.2)) < 0.001, "silent after an immediate stop")
        }

        @Test func anInterruptionStopsTheQueueAndAStartAfterItPlaysOn() throws {
            let rig = try Rig()
            let player = TonePlayer(seconds: 3)
            let queue = try player.makeQueue()
            defer { AudioQueueDispose(queue, true) }
            var timeline: AudioQueueTimelineRef?
            #expect(AudioQueueCreateTimeline(queue, &timeline) == noErr)
            #expect(AudioQueueStart(queue, nil) == noErr)
            #expect(Signals.rms(try rig.render(0.3).channel(0)) > 0.2)
            let session = try CompatOutput.session()
            session.beginInterruption()
            _ = try rig.render(0.05)
            #expect(player.isRunning == 0, "an interruption stops the queue, as iOS does")
            #expect(Signals.peak(try rig.render(0.2)) < 0.001)
            session.endInterruption(shouldResume: false)
            #expect(AudioQueueStart(queue, nil) == noErr)
            #expect(player.isRunning == 1)
            #expect(Signals.rms(try rig.render(0.3).channel(0)[4_800...]) > 0.2, "played on after the start")
            #expect(player.lock.withLock { player.runningChanges } == [1, 0, 1])
            var time = AudioTimeStamp()
            var jumped = false
            #expect(AudioQueueGetCurrentTime(queue, timeline, &time, &jumped) == noErr)
            #expect(AudioQueueDisposeTimeline(queue, timeline) == noErr)
        }

        /// The time-pitch unit, as iOS has it: PlayRate keeps the pitch (time domain, spectral),
        /// moves it with the speed (varispeed), and Pitch moves it alone (spectral); without
        /// EnableTimePitch the rate is kept but not heard.
        @Test(arguments: [
            (enable: false, algorithm: kAudioQueueTimePitchAlgorithm_TimeDomain, rate: Float(2), cents: Float(0), seconds: 0.8, frequency: 440.0),
            (enable: true, algorithm: kAudioQueueTimePitchAlgorithm_TimeDomain, rate: 2, cents: 0, seconds: 0.4, frequency: 440),
            (enable: true, algorithm: kAudioQueueTimePitchAlgorithm_Varispeed, rate: 2, cents: 0, seconds: 0.4, frequency: 880),
            (enable: true, algorithm: kAudioQueueTimePitchAlgorithm_Spectral, rate: 1, cents: 1200, seconds: 0.8, frequency: 880),
            (enable: true, algorithm: kAudioQueueTimePitchAlgorithm_Spectral, rate: 0.5, cents: -1200, seconds: 1.6, frequency: 220),
        ])
        func playRateAndPitchAreHeardThroughTheTimePitchUnit(_ setting: (enable: Bool, algorithm: UInt32, rate: Float, cents: Float,
                                                                          seconds: Double, frequency: Double)) throws {
            #expect(TimeStretch.isAvailable, "SoundTouch is missing")
            let rig = try Rig()
            let player = TonePlayer(seconds: 0.8)
            let queue = try player.makeQueue()
            defer { AudioQueueDispose(queue, true) }
            var enable: UInt32 = setting.enable ? 1 : 0, algorithm = setting.algorithm
            #expect(AudioQueueSetProperty(queue, kAudioQueueProperty_EnableTimePitch, &enable, 4) == noErr)
            #expect(AudioQueueSetProperty(queue, kAudioQueueProperty_TimePitchAlgorithm, &algorithm, 4) == noErr)
            #expect(AudioQueueSetParameter(queue, kAudioQueueParam_PlayRate, setting.rate) == noErr)
            #expect(AudioQueueSetParameter(queue, kAudioQueueParam_Pitch, setting.cents) == noErr)
            var rate: Float = 0
            #expect(AudioQueueGetParameter(queue, kAudioQueueParam_PlayRate, &rate) == noErr && rate == setting.rate)
            #expect(AudioQueueStart(queue, nil) == noErr)
            #expect(AudioQueueSetProperty(queue, kAudioQueueProperty_EnableTimePitch, &enable, 4) == kAudioQueueErr_InvalidRunState,
                    "the unit goes in before the start")
            let mix = try rig.render(2.2)
            let sounding = Double(Signals.soundingFrames(mix.samples)) / 48_000
            #expect(abs(sounding - setting.seconds) < 0.05, "\(sounding) s")
            let start = try #require(Self.onset(mix.channel(0), threshold: 0.02))
            let middle = Array(mix.channel(0)[(start + 2_400)..<(start + 2_400 + Int(setting.seconds * 24_000))])
            #expect(abs(Signals.medianFrequency(middle, rate: 48_000) / setting.frequency - 1) < 0.01,
                    "\(Signals.medianFrequency(middle, rate: 48_000)) Hz")
            #expect(player.isRunning == 0)
        }

        /// A 5.1 queue on the stereo device, as iOS plays one: each channel a tone, the fronts on
        /// their side, the centre and the surrounds 3 dB down on theirs, the LFE left out; by WAVE's
        /// order (L R C LFE Ls Rs) without a layout, by the layout's labels with one (AAC's C L R Ls
        /// Rs LFE here). Its meters read the queue's six channels.
        @Test(arguments: [false, true])
        func aSixChannelQueueIsFoldedIntoStereo(_ aacLayout: Bool) throws {
            let rig = try Rig()
            let frequencies = [300.0, 500, 700, 100, 900, 1_100]
            let player = TonePlayer(frequencies: frequencies, seconds: 0.5, amplitude: 0.2)
            let queue = try player.makeQueue()
            defer { AudioQueueDispose(queue, true) }
            if aacLayout {
                var layout = AudioChannelLayout()
                layout.mChannelLayoutTag = kAudioChannelLayoutTag_AAC_5_1
                #expect(AudioQueueSetProperty(queue, kAudioQueueProperty_ChannelLayout, &layout, UInt32(MemoryLayout<AudioChannelLayout>.size)) == noErr)
            }
            var on: UInt32 = 1
            #expect(AudioQueueSetProperty(queue, kAudioQueueProperty_EnableLevelMetering, &on, 4) == noErr)
            #expect(AudioQueueStart(queue, nil) == noErr, "more than two channels play on the device")
            let mix = try rig.render(0.4)
            let middle = 4_800..<14_400
            let left = mix.channel(0)[middle], right = mix.channel(1)[middle]
            // Each tone's gain on each side (the tones are 0.2).
            let gains = frequencies.map { (Signals.toneLevel(left, frequency: $0, rate: 48_000) / 0.2,
                                           Signals.toneLevel(right, frequency: $0, rate: 48_000) / 0.2) }
            // WAVE: L R C LFE Ls Rs; AAC: C L R Ls Rs LFE.
            let half = 0.7071
            let expected: [(Double, Double)] = aacLayout ? [(half, half), (1, 0), (0, 1), (half, 0), (0, half), (0, 0)]
                                                         : [(1, 0), (0, 1), (half, half), (0, 0), (half, 0), (0, half)]
            for (index, (gain, wanted)) in zip(gains, expected).enumerated() {
                #expect(abs(gain.0 - wanted.0) < 0.03 && abs(gain.1 - wanted.1) < 0.03,
                        "channel \(index) (\(frequencies[index]) Hz): \(gain), not \(wanted)")
            }
            var meters = [AudioQueueLevelMeterState](repeating: AudioQueueLevelMeterState(), count: 8)
            var size = UInt32(MemoryLayout<AudioQueueLevelMeterState>.stride * 8)
            #expect(AudioQueueGetProperty(queue, kAudioQueueProperty_CurrentLevelMeter, &meters, &size) == noErr)
            #expect(Int(size) == 6 * MemoryLayout<AudioQueueLevelMeterState>.stride, "a meter for each of the queue's channels: \(size) bytes")
            #expect(meters.prefix(6).allSatisfy { $0.mPeakPower > 0.15 && $0.mPeakPower < 0.25 }, "\(meters.prefix(6).map(\.mPeakPower))")
        }

        /// The meters read what is heard, not what was decoded last: a program's 0.25 s buffers
        /// are decoded up to 1.75 s ahead of the ear, and its tone after 0.75 s of silence reads
        /// silence until it is heard (it read the tone's level from the first render).
        @Test func theMetersReadWhatIsHeardNotWhatIsDecoded() throws {
            let rig = try Rig()
            let player = TonePlayer(seconds: 1, amplitude: 0.5, silence: 0.75)
            player.bufferBytes = UInt32(Self.rate / 4 * 2)
            let queue = try player.makeQueue()
            defer { AudioQueueDispose(queue, true) }
            var on: UInt32 = 1
            #expect(AudioQueueSetProperty(queue, kAudioQueueProperty_EnableLevelMetering, &on, 4) == noErr)
            #expect(AudioQueueStart(queue, nil) == noErr)
            func meter() -> AudioQueueLevelMeterState {
                var state = AudioQueueLevelMeterState(mAveragePower: -1, mPeakPower: -1)
                var size = UInt32(MemoryLayout<AudioQueueLevelMeterState>.stride)
                #expect(AudioQueueGetProperty(queue, kAudioQueueProperty_CurrentLevelMeter, &state, &size) == noErr)
                return state
            }
            _ = try rig.render(0.5)
            // Every buffer handed to the queue: the first of the tone was decoded and came back
            // (seven 0.25 s chunks are decoded ahead), so a meter read at decode would read it.
            #expect(waitFor(5) { player.lock.withLock { player.position == player.samples.count } }, "decoded past the silence")
            let silent = meter()
            #expect(silent.mAveragePower == 0 && silent.mPeakPower == 0, "0.5 s in, the silence is heard: \(silent)")
            _ = try rig.render(0.6)
            let tone = meter()
            #expect(abs(tone.mAveragePower - Float(0.5 / 2.squareRoot())) < 0.02 && abs(tone.mPeakPower - 0.5) < 0.02,
                    "1.1 s in, the tone is heard: \(tone)")
        }

        @Test func aCallbackThatDisposesItsQueueEndsItQuietly() throws {
            let rig = try Rig()
            let player = TonePlayer(seconds: 2)
            let queue = try player.makeQueue()
            player.lock.withLock { player.disposeInCallback = true }
            #expect(AudioQueueStart(queue, nil) == noErr)
            let mix = try rig.render(0.5)
            #expect(player.lock.withLock { player.queue } == nil, "the callback disposed of it")
            #expect(mix.samples.allSatisfy { $0.isFinite })
            #expect(AudioQueueStart(queue, nil) == kAudio_ParamError, "a disposed queue answers Apple's error")
            _ = try rig.render(0.2)
        }

        /// An input queue as the Core Audio books' recorder writes it: buffers enqueued empty,
        /// each filled one written out (bytes and packet descriptions) and enqueued again.
        final class Recorder: @unchecked Sendable {
            let lock = NSLock()
            var queue: AudioQueueRef?
            var bytes: [UInt8] = []
            var packets: [AudioStreamPacketDescription] = []
            var times: [Double] = []
            /// Each filled buffer's host time (CLOCK_MONOTONIC ns) and sample time.
            var hostTimes: [(host: UInt64, sample: Double)] = []
            var filled = 0

            func take(_ queue: AudioQueueRef, _ buffer: AudioQueueBufferRef, _ time: UnsafePointer<AudioTimeStamp>, _ count: UInt32,
                      _ descriptions: UnsafePointer<AudioStreamPacketDescription>?) {
                lock.withLock {
                    let size = Int(buffer.pointee.mAudioDataByteSize)
                    if let descriptions {
                        for index in 0..<Int(count) {
                            var packet = descriptions[index]
                            packet.mStartOffset += Int64(bytes.count)
                            packets.append(packet)
                        }
                    }
                    bytes += UnsafeRawBufferPointer(start: buffer.pointee.mAudioData, count: size)
                    times.append(time.pointee.mSampleTime)
                    hostTimes.append((time.pointee.mHostTime, time.pointee.mSampleTime))
                    filled += 1
                }
                var running: UInt32 = 0
                var size = UInt32(4)
                AudioQueueGetProperty(queue, kAudioQueueProperty_IsRunning, &running, &size)
                if running != 0 { AudioQueueEnqueueBuffer(queue, buffer, 0, nil) }
            }

            /// A new input queue of `format` with three buffers of `bytes` enqueued.
            func makeQueue(_ format: AudioStreamBasicDescription, bufferBytes: UInt32) throws -> AudioQueueRef {
                var format = format
                var made: AudioQueueRef?
                let status = AudioQueueNewInput(&format, { userData, queue, buffer, time, count, descriptions in
                    Unmanaged<Recorder>.fromOpaque(userData!).takeUnretainedValue().take(queue, buffer, time, count, descriptions)
                }, Unmanaged.passUnretained(self).toOpaque(), nil, nil, 0, &made)
                #expect(status == noErr)
                let queue = try #require(made)
                self.queue = queue
                for _ in 0..<3 {
                    var buffer: AudioQueueBufferRef?
                    #expect(AudioQueueAllocateBuffer(queue, bufferBytes, &buffer) == noErr)
                    if let buffer { #expect(AudioQueueEnqueueBuffer(queue, buffer, 0, nil) == noErr) }
                }
                return queue
            }
        }

        static let pcm16Mono = AudioStreamBasicDescription(mSampleRate: 44_100, mFormatID: kAudioFormatLinearPCM,
                                                           mFormatFlags: kLinearPCMFormatFlagIsSignedInteger | kLinearPCMFormatFlagIsPacked,
                                                           mBytesPerPacket: 2, mFramesPerPacket: 1, mBytesPerFrame: 2, mChannelsPerFrame: 1,
                                                           mBitsPerChannel: 16, mReserved: 0)

        /// An input queue on a loopback device records what the device plays (its "input" is its
        /// own mix): an output queue's tone comes back at its frequency, level and length, in
        /// buffers whose start times follow one another; a session that only plays cannot record.
        @Test func anInputQueueRecordsWhatTheLoopbackDevicePlays() throws {
            let rig = try Rig()
            let session = try CompatOutput.session()
            let recorder = Recorder()
            let input = try recorder.makeQueue(Self.pcm16Mono, bufferBytes: 8_820)   // 100 ms
            defer { AudioQueueDispose(input, true) }
            #expect(AudioQueueStart(input, nil) == kAudioQueueErr_CannotStart, "solo ambient does not record")
            session.setCategory(.playAndRecord)
            defer { session.setCategory(.soloAmbient) }
            let player = TonePlayer(seconds: 0.5)
            let output = try player.makeQueue()
            defer { AudioQueueDispose(output, true) }
            #expect(AudioQueueStart(input, nil) == noErr)
            _ = try rig.render(0.2)
            #expect(AudioQueueStart(output, nil) == noErr)
            _ = try rig.render(1.0)
            #expect(AudioQueueStop(input, true) == noErr)
            let (bytes, times, filled) = recorder.lock.withLock { (recorder.bytes, recorder.times, recorder.filled) }
            let samples = stride(from: 0, to: bytes.count - 1, by: 2).map { Float(Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8)) / 32_768 }
            // 1.2 s recorded at 44.1 kHz (the last buffer partly), in buffers of 4410 frames.
            #expect(abs(samples.count - 52_920) <= 4_410, "\(samples.count) frames")
            #expect(filled >= 12)
            // Full buffers follow one another; the stop hands back the three enqueued (one partly filled).
            let full = times.dropLast(3)
            #expect(zip(full, full.dropFirst()).allSatisfy { $1 - $0 == 4_410 }, "\(times)")
            let start = try #require(Self.onset(samples, threshold: 0.05), "the tone was recorded")
            #expect(abs(start - 8_820) < 1_500, "the tone starts 0.2 s in: \(start)")
            let tone = Array(samples[(start + 2_000)..<(start + 18_000)])
            #expect(abs(Signals.frequency(tone, rate: 44_100) - 440) < 2)
            #expect(abs(Signals.rms(tone) - 0.5 / 2.squareRoot()) < 0.02, "\(Signals.rms(tone))")
            #expect(abs(Double(Signals.soundingFrames(samples.flatMap { [$0, $0] })) / 44_100 - 0.5) < 0.02)
        }

        /// AAC from an input queue, as an iOS recorder asks for it: packets with descriptions and the
        /// encoder's magic cookie, which a converter decodes back to the tone.
        @Test func anInputQueueRecordsAAC() throws {
            let rig = try Rig()
            let session = try CompatOutput.session()
            session.setCategory(.playAndRecord)
            defer { session.setCategory(.soloAmbient) }
            var aac = AudioStreamBasicDescription()
            aac.mFormatID = kAudioFormatMPEG4AAC
            aac.mSampleRate = 44_100
            aac.mChannelsPerFrame = 1
            var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
            #expect(AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, 0, nil, &size, &aac) == noErr)
            let recorder = Recorder()
            let input = try recorder.makeQueue(aac, bufferBytes: 8_192)
            defer { AudioQueueDispose(input, true) }
            var cookieSize: UInt32 = 0
            #expect(AudioQueueGetPropertySize(input, kAudioQueueProperty_MagicCookie, &cookieSize) == noErr)
            var cookie = [UInt8](repeating: 0, count: Int(cookieSize))
            #expect(cookieSize >= 2 && AudioQueueGetProperty(input, kAudioQueueProperty_MagicCookie, &cookie, &cookieSize) == noErr)
            let player = TonePlayer(frequency: 1_000, seconds: 0.6)
            let output = try player.makeQueue()
            defer { AudioQueueDispose(output, true) }
            #expect(AudioQueueStart(output, nil) == noErr)
            #expect(AudioQueueStart(input, nil) == noErr)
            _ = try rig.render(1.0)
            #expect(AudioQueueStop(input, false) == noErr)
            let (bytes, packets) = recorder.lock.withLock { (recorder.bytes, recorder.packets) }
            #expect(packets.count > 30, "\(packets.count) AAC packets")
            #expect(packets.allSatisfy { $0.mDataByteSize > 0 && $0.mStartOffset + Int64($0.mDataByteSize) <= Int64(bytes.count) })
            // Written as the books' recorder writes it (Audio File Services: the cookie, then the
            // packets with their descriptions), then decoded by SoundFile: the 1 kHz tone.
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("input-queue-\(UUID()).caf")
            defer { try? FileManager.default.removeItem(at: url) }
            var file: AudioFileID?
            #expect(AudioFileCreateWithURL(url as CFURL, kAudioFileCAFType, &aac, .eraseFile, &file) == noErr)
            let audioFile = try #require(file)
            #expect(AudioFileSetProperty(audioFile, kAudioFilePropertyMagicCookieData, cookieSize, cookie) == noErr)
            var count = UInt32(packets.count)
            #expect(AudioFileWritePackets(audioFile, false, UInt32(bytes.count), packets, 0, &count, bytes) == noErr)
            #expect(AudioFileClose(audioFile) == noErr)
            let decoded = try SoundFile(path: url.path).readAll().samples
            let start = try #require(Self.onset(decoded, threshold: 0.05), "the tone is in the AAC")
            let tone = Array(decoded[(start + 4_000)..<min(decoded.count, start + 20_000)])
            #expect(abs(Signals.frequency(tone, rate: 44_100) - 1_000) < 5)
            #expect(abs(Signals.rms(tone) - 0.5 / 2.squareRoot()) < 0.05, "\(Signals.rms(tone))")
        }

        /// The dispatch-queue forms, as Swift code on iOS writes them: closures run on the queue
        /// named (the output's refills heard as the tone, the input's buffers recorded).
        @Test func theDispatchQueueFormsRunTheirBlocksOnTheQueueGiven() throws {
            let rig = try Rig()
            let session = try CompatOutput.session()
            session.setCategory(.playAndRecord)
            defer { session.setCategory(.soloAmbient) }
            let key = DispatchSpecificKey<String>()
            let callbacks = DispatchQueue(label: "org.soundstage.tests.queue-callbacks")
            callbacks.setSpecific(key: key, value: "callbacks")
            let tone = (0..<22_050).map { Int16(16_384 * sin(2 * Double.pi * 440 * Double($0) / 44_100)) }
            final class State: @unchecked Sendable {
                var position = 0, elsewhere = 0, recorded = 0, outputCalls = 0, inputCalls = 0
            }
            let state = State()   // touched only on `callbacks` and after the queues are disposed
            var format = Self.pcm16Mono
            var output: AudioQueueRef?
            #expect(AudioQueueNewOutputWithDispatchQueue(&output, &format, 0, callbacks) { queue, buffer in
                if DispatchQueue.getSpecific(key: key) != "callbacks" { state.elsewhere += 1 }
                state.outputCalls += 1
                let count = min(Int(buffer.pointee.mAudioDataBytesCapacity) / 2, tone.count - state.position)
                guard count > 0 else {
                    AudioQueueStop(queue, false)
                    return
                }
                tone.withUnsafeBytes { buffer.pointee.mAudioData.copyMemory(from: $0.baseAddress! + state.position * 2, byteCount: count * 2) }
                buffer.pointee.mAudioDataByteSize = UInt32(count * 2)
                state.position += count
                AudioQueueEnqueueBuffer(queue, buffer, 0, nil)
            } == noErr)
            let out = try #require(output)
            var input: AudioQueueRef?
            #expect(AudioQueueNewInputWithDispatchQueue(&input, &format, 0, callbacks) { queue, buffer, _, _, _ in
                if DispatchQueue.getSpecific(key: key) != "callbacks" { state.elsewhere += 1 }
                state.inputCalls += 1
                state.recorded += Int(buffer.pointee.mAudioDataByteSize) / 2
                AudioQueueEnqueueBuffer(queue, buffer, 0, nil)
            } == noErr)
            let inQueue = try #require(input)
            defer {
                AudioQueueDispose(out, true)
                AudioQueueDispose(inQueue, true)
            }
            var buffers: [AudioQueueBufferRef?] = [nil, nil, nil, nil]
            for index in 0..<2 { AudioQueueAllocateBuffer(out, 4_096, &buffers[index]) }
            for index in 2..<4 {
                AudioQueueAllocateBuffer(inQueue, 4_410, &buffers[index])
                AudioQueueEnqueueBuffer(inQueue, buffers[index], 0, nil)
            }
            // The program primes on its own queue, as it would on iOS.
            callbacks.sync {
                for index in 0..<2 {
                    let count = 2_048
                    tone.withUnsafeBytes { buffers[index]!.pointee.mAudioData.copyMemory(from: $0.baseAddress! + state.position * 2, byteCount: count * 2) }
                    buffers[index]!.pointee.mAudioDataByteSize = UInt32(count * 2)
                    state.position += count
                    AudioQueueEnqueueBuffer(out, buffers[index], 0, nil)
                }
            }
            #expect(AudioQueueStart(inQueue, nil) == noErr)
            #expect(AudioQueueStart(out, nil) == noErr)
            var mix: [Float] = []
            for _ in 0..<20 {
                mix += try rig.render(0.05).samples
                usleep(5_000)   // the callback queue's turn
            }
            callbacks.sync {}
            #expect(AudioQueueStop(inQueue, true) == noErr)
            callbacks.sync {}
            let left = stride(from: 0, to: mix.count, by: 2).map { mix[$0] }
            let start = try #require(Self.onset(left, threshold: 0.05), "the block-fed queue was heard")
            #expect(abs(Signals.frequency(Array(left[(start + 1_000)..<(start + 12_000)]), rate: 48_000) - 440) < 2)
            callbacks.sync {
                #expect(state.elsewhere == 0, "every block ran on the queue given")
                #expect(state.outputCalls > 3 && state.inputCalls > 5, "\(state.outputCalls) output, \(state.inputCalls) input calls")
                #expect(state.recorded > 30_000, "\(state.recorded) frames recorded")
            }
        }

        /// AudioQueueEnqueueBufferWithParameters on the device: a buffer given a start time on the
        /// queue's clock plays after silence, on its sample relative to the first; trims are heard.
        @Test func aBufferWithAStartTimePlaysOnItsSampleOfTheQueuesClock() throws {
            let rig = try Rig()
            var format = Self.pcm16Mono
            var made: AudioQueueRef?
            #expect(AudioQueueNewOutput(&format, { _, _, _ in }, nil, nil, nil, 0, &made) == noErr)
            let queue = try #require(made)
            defer { AudioQueueDispose(queue, true) }
            let tone = (0..<4_410).map { Int16(16_384 * cos(2 * Double.pi * 440 * Double($0) / 44_100)) }
            var buffers: [AudioQueueBufferRef?] = [nil, nil]
            for index in 0..<2 {
                AudioQueueAllocateBuffer(queue, UInt32(tone.count * 2), &buffers[index])
                tone.withUnsafeBytes { buffers[index]!.pointee.mAudioData.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
                buffers[index]!.pointee.mAudioDataByteSize = UInt32(tone.count * 2)
            }
            // 100 ms from 0, then 50 ms (the last 50 ms trimmed) from 0.3 s on the queue's clock.
            #expect(AudioQueueEnqueueBuffer(queue, buffers[0], 0, nil) == noErr)
            var start = AudioTimeStamp()
            start.mSampleTime = 13_230
            start.mFlags = .sampleTimeValid
            var actual = AudioTimeStamp()
            #expect(AudioQueueEnqueueBufferWithParameters(queue, buffers[1], 0, nil, 0, 2_205, 0, nil, &start, &actual) == noErr)
            #expect(actual.mSampleTime == 13_230)
            AudioQueueStop(queue, false)
            #expect(AudioQueueStart(queue, nil) == noErr)
            let mix = try rig.render(0.8)
            let sounds = Signals.separateSounds(mix.samples, gap: 0.05, threshold: 0.02, rate: 48_000)
            #expect(sounds.count == 2, "\(sounds)")
            if sounds.count == 2 {
                #expect(abs(sounds[1].0 - sounds[0].0 - 14_400) <= 2, "0.3 s apart: \(sounds)")
                #expect(abs(sounds[0].1 - sounds[0].0 - 4_800) < 60, "100 ms")
                #expect(abs(sounds[1].1 - sounds[1].0 - 2_400) < 60, "50 ms: the trim heard")
            }
        }

        /// As on iOS, no callback runs once AudioQueueDispose has returned (a program frees what its
        /// callback uses right after): a dispose on another thread waits for the callback running.
        @Test func noCallbackRunsAfterDisposeReturns() throws {
            let rig = try Rig()
            let player = TonePlayer(seconds: 5)
            player.lock.withLock { player.callbackSeconds = 0.02 }
            let queue = try player.makeQueue()
            #expect(AudioQueueStart(queue, nil) == noErr)
            for _ in 0..<5 {
                _ = try rig.render(0.03)
                usleep(7_000)
            }
            AudioQueueDispose(queue, true)
            let disposed = MonitorRecording.now()
            let (count, lastEnd) = player.lock.withLock { (player.callbacks, player.lastCallbackEnd) }
            #expect(count > 3, "callbacks ran while it played")
            #expect(lastEnd <= disposed, "a callback ended \((lastEnd - disposed) * 1_000) ms after AudioQueueDispose returned")
            _ = try rig.render(0.2)
            usleep(100_000)
            #expect(player.lock.withLock { player.callbacks } == count, "no callback after the dispose")
        }

        @Test func whatTheDeviceCannotPlayIsRefusedAtTheStart() throws {
            _ = try Rig()
            var format = AudioStreamBasicDescription(mSampleRate: 44_100, mFormatID: kAudioFormatLinearPCM,
                                                     mFormatFlags: kLinearPCMFormatFlagIsSignedInteger | kLinearPCMFormatFlagIsPacked,
                                                     mBytesPerPacket: 6, mFramesPerPacket: 1, mBytesPerFrame: 6, mChannelsPerFrame: 3,
                                                     mBitsPerChannel: 16, mReserved: 0)
            var made: AudioQueueRef?
            #expect(AudioQueueNewOutput(&format, { _, _, _ in }, nil, nil, nil, 0, &made) == noErr)
            let queue = try #require(made)
            defer { AudioQueueDispose(queue, true) }
            // Three channels fold into stereo (aSixChannelQueueIsFoldedIntoStereo hears how): it starts.
            #expect(AudioQueueStart(queue, nil) == noErr, "three channels play")
            #expect(AudioQueueStop(queue, true) == noErr)
            let session = try CompatOutput.session()
            session.setCategory(.record)
            defer { session.setCategory(.soloAmbient) }
            let player = TonePlayer(seconds: 0.2)
            let tone = try player.makeQueue()
            defer { AudioQueueDispose(tone, true) }
            #expect(AudioQueueStart(tone, nil) == kAudioQueueErr_CannotStart, "a recording session cannot play")
            var now = AudioTimeStamp()
            #expect(AudioQueueDeviceGetCurrentTime(nil, &now) == kAudio_ParamError)
            #expect(AudioQueueDeviceGetCurrentTime(tone, nil) == kAudio_ParamError)
        }
    }
}
