// The interruption handling of the seeds' listings, both spellings: AVAudioSession's
// notification (pauses the music, resumes it when told it should), and the older C API's
// listener. Only the imports changed.
import Foundation
import SoundstageCompat

/// Pauses the music when an interruption begins and resumes it when it ends with shouldResume.
/// The notification comes on a thread of the audio system, so the counts are behind a lock.
final class InterruptionObserver: @unchecked Sendable {  // (Swift 6 asks this on iOS too: the observer closure is @Sendable)
    let music: AVAudioPlayer
    private let lock = NSLock()
    private var counts = (began: 0, resumed: 0)
    private var token: NSObjectProtocol?

    var began: Int { lock.withLock { counts.began } }
    var resumed: Int { lock.withLock { counts.resumed } }

    init(music: AVAudioPlayer) {
        self.music = music
        token = NotificationCenter.default.addObserver(forName: AVAudioSession.interruptionNotification,
                                                       object: AVAudioSession.sharedInstance(), queue: nil) { [weak self] note in
            self?.handle(note)
        }
    }

    deinit { if let token { NotificationCenter.default.removeObserver(token) } }

    private func handle(_ notification: Notification) {
        guard let info = notification.userInfo,
              let typeValue = info[AVAudioSessionInterruptionTypeKey] as? UInt,
              let type = AVAudioSession.InterruptionType(rawValue: typeValue) else { return }
        switch type {
        case .began:
            lock.withLock { counts.began += 1 }
            music.pause()
        case .ended:
            guard let optionsValue = info[AVAudioSessionInterruptionOptionKey] as? UInt else { return }
            if AVAudioSession.InterruptionOptions(rawValue: optionsValue).contains(.shouldResume) {
                lock.withLock { counts.resumed += 1 }
                music.play()
            }
        }
    }
}

/// The older C Audio Session API: initialize with an interruption listener, set the category.
/// One per app, for its lifetime, as `AudioSessionInitialize` may be called only once.
final class LegacySession: @unchecked Sendable {  // (one per app; Swift 6 asks for this on iOS too)
    static let shared = LegacySession()
    private let lock = NSLock()
    private var seen: [UInt32] = []

    /// The interruption states the listener was called with (on the audio system's thread).
    var states: [UInt32] { lock.withLock { seen } }
    func forget() { lock.withLock { seen.removeAll() } }
    fileprivate func note(_ state: UInt32) { lock.withLock { seen.append(state) } }

    func start() -> OSStatus {
        let me = Unmanaged.passUnretained(self).toOpaque()
        var status = AudioSessionInitialize(nil, nil, { clientData, state in
            guard let clientData else { return }
            Unmanaged<LegacySession>.fromOpaque(clientData).takeUnretainedValue().note(state)
        }, me)
        guard status == noErr || status == OSStatus(kAudioSessionAlreadyInitialized) else { return status }
        var category = UInt32(kAudioSessionCategory_AmbientSound)
        status = AudioSessionSetProperty(AudioSessionPropertyID(kAudioSessionProperty_AudioCategory), UInt32(MemoryLayout.size(ofValue: category)), &category)
        guard status == noErr else { return status }
        return AudioSessionSetActive(true)
    }

    func otherAudioIsPlaying() -> Bool {
        var playing: UInt32 = 0
        var size = UInt32(MemoryLayout.size(ofValue: playing))
        _ = AudioSessionGetProperty(AudioSessionPropertyID(kAudioSessionProperty_OtherAudioIsPlaying), &size, &playing)
        return playing != 0
    }
}
