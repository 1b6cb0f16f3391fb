// UI clicks through System Sound Services, as iOS code calls the C functions from Swift; only
// the import changed (`import AudioToolbox` → `import SoundstageCompat`).
import Foundation
import SoundstageCompat

/// Button clicks: registered once, played by ID; a completion counts the clicks heard.
final class ClickSounds {
    private(set) var clickID: SystemSoundID = 0
    private let lock = NSLock()
    private var heard = 0
    /// Clicks heard to their end (the completion runs on the audio system's thread).
    var completions: Int { lock.withLock { heard } }
    fileprivate func clickEnded() { lock.withLock { heard += 1 } }

    func load(_ url: URL) -> OSStatus {
        AudioServicesCreateSystemSoundID(url as CFURL, &clickID)
    }

    func listen() -> OSStatus {
        let me = Unmanaged.passUnretained(self).toOpaque()
        return AudioServicesAddSystemSoundCompletion(clickID, nil, nil, { _, clientData in
            guard let clientData else { return }
            Unmanaged<ClickSounds>.fromOpaque(clientData).takeUnretainedValue().clickEnded()
        }, me)
    }

    func click() {
        AudioServicesPlaySystemSound(clickID)
    }

    func buzz() {
        AudioServicesPlaySystemSound(kSystemSoundID_Vibrate)
    }

    func unload() -> OSStatus {
        AudioServicesRemoveSystemSoundCompletion(clickID)
        return AudioServicesDisposeSystemSoundID(clickID)
    }
}
