// Recording with AAC settings, as the seeds recommend for recorded audio, or with iLBC's, as a
// voice-chat app records speech. Only the import changed.
import Foundation
import SoundstageCompat

/// Records a voice memo to an .m4a file (AAC), or a .caf file (iLBC).
final class VoiceMemo: NSObject, AVAudioRecorderDelegate, @unchecked Sendable {
    static var aac: [String: Any] { [
        AVFormatIDKey: Int(kAudioFormatMPEG4AAC),
        AVSampleRateKey: 44_100,
        AVNumberOfChannelsKey: 2,
        AVEncoderAudioQualityKey: AVAudioQuality.high.rawValue,
    ] }
    static var iLBC: [String: Any] { [
        AVFormatIDKey: Int(kAudioFormatiLBC),
        AVSampleRateKey: 8_000.0,
        AVNumberOfChannelsKey: 1,
    ] }
    private(set) var recorder: AVAudioRecorder?
    private(set) var finished: Bool?
    private let done = NSCondition()

    func record(to url: URL, seconds: TimeInterval, settings: [String: Any] = VoiceMemo.aac) throws -> Bool {
        let session = AVAudioSession.sharedInstance()
        try session.setCategory(.playAndRecord, mode: .default, options: [.defaultToSpeaker])
        try session.setActive(true)
        let recorder = try AVAudioRecorder(url: url, settings: settings)
        recorder.delegate = self
        self.recorder = recorder
        return recorder.record(forDuration: seconds)
    }

    func audioRecorderDidFinishRecording(_ recorder: AVAudioRecorder, successfully flag: Bool) {
        done.lock()
        finished = flag
        done.broadcast()
        done.unlock()
    }

    /// Waits (up to `seconds`) for the delegate; returns what it said.
    func waitForEnd(_ seconds: Double) -> Bool? {
        done.lock()
        defer { done.unlock() }
        let deadline = Date().addingTimeInterval(seconds)
        while finished == nil && done.wait(until: deadline) {}
        return finished
    }
}
