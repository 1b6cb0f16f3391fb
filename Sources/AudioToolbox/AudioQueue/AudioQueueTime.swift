import NIOConcurrencyHelpers
import Soundstage
#if canImport(Glibc)
import Glibc
#endif

// Audio Queue Services' clocks (AudioToolbox/AudioQueue.h): the device's (the app's output: its
// sample time is Device.mixTime in frames, its host time CLOCK_MONOTONIC in nanoseconds where iOS
// counts mach ticks), a queue's own (frames of the queue's rate played since its start), and the
// timelines that report a discontinuity in it.

/// Now on CLOCK_MONOTONIC, in nanoseconds: the host time of Soundstage's time stamps.
func hostTimeNow() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec)
}

/// The app's device, made on first use as AudioQueueStart makes it.
private func applicationDevice() throws(QueueStatus) -> Device {
    do {
        return try ApplicationAudio.shared().device
    } catch {
        throw QueueStatus(status: kAudioQueueErr_InvalidDevice)
    }
}

/// The device's clock now, as a time stamp with a sample time and a host time.
private func deviceNow(_ device: Device) -> AudioTimeStamp {
    var stamp = AudioTimeStamp()
    stamp.mSampleTime = (device.mixTime * Double(device.sampleRate)).rounded()
    stamp.mHostTime = hostTimeNow()
    stamp.mRateScalar = 1
    stamp.mFlags = [.sampleTimeValid, .hostTimeValid, .rateScalarValid]
    return stamp
}

/// `stamp` on the device's clock in seconds (its sample time, else its host time); nil when it
/// holds neither or they are not finite.
func deviceSeconds(_ stamp: AudioTimeStamp) -> Double? {
    guard let device = ApplicationAudio.current?.device else { return nil }
    if stamp.mFlags.contains(.sampleTimeValid) {
        guard stamp.mSampleTime.isFinite else { return nil }
        return stamp.mSampleTime / Double(device.sampleRate)
    }
    if stamp.mFlags.contains(.hostTimeValid) {
        let now = hostTimeNow()
        let ahead = stamp.mHostTime >= now ? Double(stamp.mHostTime - now) : -Double(now - stamp.mHostTime)
        return device.mixTime + ahead / 1e9
    }
    return nil
}

/// A timeline of a queue (AudioQueueTimelineRef): whether the queue's clock jumped since it was last read.
final class QueueTimeline {
    var discontinuity = false
}

/// Runs `body` on the queue behind `handle` with its lock held.
private func withQueueClock(_ handle: AudioQueueRef?, _ body: (AudioQueueObject) throws(QueueStatus) -> Void) -> OSStatus {
    guard let handle, let queue = AudioQueueTable.table.object(handle) else { return kAudio_ParamError }
    return queue.lock.withLock { osStatus { () throws(QueueStatus) in try body(queue) } }
}

@c @implementation
public func AudioQueueCreateTimeline(_ inAQ: AudioQueueRef?, _ outTimeline: UnsafeMutablePointer<AudioQueueTimelineRef?>?) -> OSStatus {
    withQueueClock(inAQ) { queue throws(QueueStatus) in
        guard let outTimeline else { throw .parameter }
        guard queue.timeline == nil else { throw .parameter }   // one a queue, as on iOS
        let timeline = QueueTimeline()
        queue.timeline = timeline
        outTimeline.pointee = OpaquePointer(Unmanaged.passUnretained(timeline).toOpaque())
    }
}

@c @implementation
public func AudioQueueDisposeTimeline(_ inAQ: AudioQueueRef?, _ inTimeline: AudioQueueTimelineRef?) -> OSStatus {
    withQueueClock(inAQ) { queue throws(QueueStatus) in
        guard let timeline = queue.timeline, let inTimeline,
              UnsafeMutableRawPointer(inTimeline) == Unmanaged.passUnretained(timeline).toOpaque() else { throw .parameter }
        queue.timeline = nil
    }
}

@c @implementation
public func AudioQueueGetCurrentTime(_ inAQ: AudioQueueRef?, _ inTimeline: AudioQueueTimelineRef?,
                                     _ outTimeStamp: UnsafeMutablePointer<AudioTimeStamp>?,
                                     _ outTimelineDiscontinuity: UnsafeMutablePointer<Bool>?) -> OSStatus {
    withQueueClock(inAQ) { queue throws(QueueStatus) in
        if let inTimeline {
            guard let timeline = queue.timeline,
                  UnsafeMutableRawPointer(inTimeline) == Unmanaged.passUnretained(timeline).toOpaque() else { throw .parameter }
            outTimelineDiscontinuity?.pointee = timeline.discontinuity
            timeline.discontinuity = false
        } else {
            outTimelineDiscontinuity?.pointee = false
        }
        guard let outTimeStamp else { return }
        var stamp = AudioTimeStamp()
        stamp.mSampleTime = queue.offlineFormat != nil ? Double(queue.renderedFrames) : queue.deviceSampleTime
        stamp.mHostTime = hostTimeNow()
        stamp.mRateScalar = 1
        stamp.mFlags = [.sampleTimeValid, .hostTimeValid, .rateScalarValid]
        outTimeStamp.pointee = stamp
    }
}

@c @implementation
public func AudioQueueDeviceGetCurrentTime(_ inAQ: AudioQueueRef?, _ outTimeStamp: UnsafeMutablePointer<AudioTimeStamp>?) -> OSStatus {
    guard let inAQ, AudioQueueTable.table.object(inAQ) != nil else { return kAudio_ParamError }
    return osStatus { () throws(QueueStatus) in
        guard let outTimeStamp else { throw .parameter }
        outTimeStamp.pointee = deviceNow(try applicationDevice())
    }
}

@c @implementation
public func AudioQueueDeviceTranslateTime(_ inAQ: AudioQueueRef?, _ inTime: UnsafePointer<AudioTimeStamp>?,
                                         _ outTime: UnsafeMutablePointer<AudioTimeStamp>?) -> OSStatus {
    guard let inAQ, AudioQueueTable.table.object(inAQ) != nil else { return kAudio_ParamError }
    return osStatus { () throws(QueueStatus) in
        guard let inTime, let outTime else { throw .parameter }
        let device = try applicationDevice()
        guard let seconds = deviceSeconds(inTime.pointee) else { throw .parameter }
        let now = deviceNow(device)
        let ahead = seconds - device.mixTime
        guard ahead.isFinite, abs(ahead) < 1e9 else { throw .parameter }
        var stamp = now
        stamp.mSampleTime = (seconds * Double(device.sampleRate)).rounded()
        let offset = Int64((ahead * 1e9).rounded())
        stamp.mHostTime = offset >= 0 ? now.mHostTime &+ UInt64(offset) : now.mHostTime &- UInt64(-offset)
        outTime.pointee = stamp
    }
}

@c @implementation
public func AudioQueueDeviceGetNearestStartTime(_ inAQ: AudioQueueRef?, _ ioRequestedStartTime: UnsafeMutablePointer<AudioTimeStamp>?,
                                                _ inFlags: UInt32) -> OSStatus {
    guard let inAQ, AudioQueueTable.table.object(inAQ) != nil else { return kAudio_ParamError }
    return osStatus { () throws(QueueStatus) in
        guard let ioRequestedStartTime, inFlags == 0 else { throw .parameter }
        let device = try applicationDevice()
        // Any sample after the one being mixed: the engine starts a source between two samples.
        let earliest = (device.mixTime * Double(device.sampleRate)).rounded() + 1
        let requested = deviceSeconds(ioRequestedStartTime.pointee).map { ($0 * Double(device.sampleRate)).rounded() } ?? earliest
        let sample = max(earliest, requested)
        var stamp = deviceNow(device)
        let offset = Int64(((sample - stamp.mSampleTime) / Double(device.sampleRate) * 1e9).rounded())
        stamp.mSampleTime = sample
        stamp.mHostTime = offset >= 0 ? stamp.mHostTime &+ UInt64(offset) : stamp.mHostTime &- UInt64(-offset)
        ioRequestedStartTime.pointee = stamp
    }
}
