// UI clicks through System Sound Services, as iOS code calls the C functions from Swift; only
// the import changed (`import AudioToolbox` → `import SoundstageCompat`).
import Foundation
import SoundstageCompat

/// Button clicks: registered once, played by ID; a completion counts the clicks heard.
final class ClickSounds {
    private(set) var clickID: SystemSoundID = 0
    private(set) var completions = 0

    func load(_ url: URL) -> OSStatus {
        AudioServicesCreateSystemSoundID(url as CFURL, &clickID)
    }

    func listen() -> OSStatus {
        let me = Unmanaged.passUnretained(self).toOpaque()
        return AudioServicesAddSystemSoundCompletion(clickID, nil, nil, { _, clientData in
            guard let clientData else { return }
            Unmanaged<ClickSounds>.fromOpaque(clientData).takeUnretainedValue().completions += 1
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
