// System Sound Services as Swift code writes it: IDs made from bundle URLs, a completion given
// as a closure literal with a nil run loop, and the alert with a completion block. Only the
// import changed (`import AudioToolbox` → `import SoundstageCompat`).
import SoundstageCompat

final class SystemSoundEffects {
    private(set) var soundIDs: [String: SystemSoundID] = [:]
    private let lock = NSLock()
    private var finished: [SystemSoundID] = []
    private(set) var alertsDone = 0

    var completedSounds: [SystemSoundID] { lock.lock(); defer { lock.unlock() }; return finished }

    func register(_ name: String, url: URL) -> OSStatus {
        var soundID: SystemSoundID = 0
        let status = AudioServicesCreateSystemSoundID(url as CFURL, &soundID)
        guard status == kAudioServicesNoError else { return status }
        soundIDs[name] = soundID
        let context = Unmanaged.passUnretained(self).toOpaque()
        AudioServicesAddSystemSoundCompletion(soundID, nil, nil, { soundID, clientData in
            guard let clientData = clientData else { return }
            let effects = Unmanaged<SystemSoundEffects>.fromOpaque(clientData).takeUnretainedValue()
            effects.soundFinished(soundID)
        }, context)
        return status
    }

    private func soundFinished(_ soundID: SystemSoundID) {
        lock.lock()
        finished.append(soundID)
        lock.unlock()
    }

    func play(_ name: String) {
        guard let soundID = soundIDs[name] else { return }
        AudioServicesPlaySystemSound(soundID)
    }

    func playAlert(_ name: String, completion: @escaping () -> Void) {
        guard let soundID = soundIDs[name] else { return }
        AudioServicesPlayAlertSoundWithCompletion(soundID) {
            completion()
        }
    }

    func playWithCompletion(_ name: String, completion: @escaping () -> Void) {
        guard let soundID = soundIDs[name] else { return }
        AudioServicesPlaySystemSoundWithCompletion(soundID, completion)
    }

    func dispose() {
        for soundID in soundIDs.values {
            AudioServicesRemoveSystemSoundCompletion(soundID)
            AudioServicesDisposeSystemSoundID(soundID)
        }
        soundIDs.removeAll()
    }
}
