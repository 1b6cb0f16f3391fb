// On iOS, `import AVFoundation` and `import AudioToolbox` bring Foundation with them (`NSObject`,
// `URL`, `Data`, `TimeInterval`, `DispatchQueue`, `Bundle`, `UserDefaults`, `NotificationCenter`):
// `import SoundstageCompat` does too, so a file that imported only those compiles unchanged but
// for its import.
@_exported import Foundation
