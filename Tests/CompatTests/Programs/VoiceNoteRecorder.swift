// A voice-note recorder as iOS apps write one: ask for the microphone, an AAC settings
// dictionary, a recording started on the device clock for a fixed duration, meters polled
// while it records, and the delegate with its encode-error method. Only the import changed.
import SoundstageCompat

protocol VoiceNoteRecorderDelegate: AnyObject {
    func voiceNoteRecorder(_ recorder: VoiceNoteRecorder, didFinishWith url: URL?, error: Error?)
}

class VoiceNoteRecorder: NSObject, AVAudioRecorderDelegate {
    weak var delegate: VoiceNoteRecorderDelegate?
    private(set) var audioRecorder: AVAudioRecorder?
    private(set) var permissionGranted = false
    private(set) var peakLevels: [Float] = []

    func requestPermission(completion: @escaping (Bool) -> Void) {
        switch AVAudioSession.sharedInstance().recordPermission {
        case .granted:
            permissionGranted = true
            completion(true)
        case .denied:
            completion(false)
        case .undetermined:
            AVAudioSession.sharedInstance().requestRecordPermission { [weak self] granted in
                self?.permissionGranted = granted
                completion(granted)
            }
        @unknown default:
            completion(false)
        }
    }

    func startRecording(to url: URL, after delay: TimeInterval, duration: TimeInterval) -> Bool {
        let session = AVAudioSession.sharedInstance()
        do {
            try session.setCategory(.playAndRecord, mode: .default, options: [.defaultToSpeaker])
            try session.setActive(true)
        } catch {
            print("VoiceNoteRecorder: session error \(error)")
            return false
        }
        let settings: [String: Any] = [
            AVFormatIDKey: Int(kAudioFormatMPEG4AAC),
            AVSampleRateKey: 44100,
            AVNumberOfChannelsKey: 1,
            AVEncoderAudioQualityKey: AVAudioQuality.high.rawValue
        ]
        do {
            let recorder = try AVAudioRecorder(url: url, settings: settings)
            recorder.delegate = self
            recorder.isMeteringEnabled = true
            recorder.prepareToRecord()
            audioRecorder = recorder
            return recorder.record(atTime: recorder.deviceCurrentTime + delay, forDuration: duration)
        } catch {
            print("VoiceNoteRecorder: could not create the recorder: \(error)")
            return false
        }
    }

    /// Called by the UI's timer.
    func updateMeter() {
        guard let recorder = audioRecorder, recorder.isRecording else { return }
        recorder.updateMeters()
        peakLevels.append(recorder.peakPower(forChannel: 0))
    }

    func audioRecorderDidFinishRecording(_ recorder: AVAudioRecorder, successfully flag: Bool) {
        delegate?.voiceNoteRecorder(self, didFinishWith: flag ? recorder.url : nil, error: nil)
    }

    func audioRecorderEncodeErrorDidOccur(_ recorder: AVAudioRecorder, error: Error?) {
        delegate?.voiceNoteRecorder(self, didFinishWith: nil, error: error)
    }
}
