// On iOS, `import AVFoundation` and `import AudioToolbox` bring Foundation with them (`NSObject`,
// `URL`, `Data`, `TimeInterval`, `DispatchQueue`, `Bundle`, `UserDefaults`, `NotificationCenter`):
// `import SoundstageCompat` does too, so a file that imported only those compiles unchanged but
// for its import.
@_exported import Foundation
// And as on iOS, where `import AVFoundation` brings AudioToolbox and CoreAudioTypes, Core Audio's C
// interfaces come along: OSStatus, the format IDs, AudioStreamBasicDescription, Audio File
// Services, CFURL, CFRunLoop (docs/audiotoolbox.md).
@_exported import AudioToolbox
