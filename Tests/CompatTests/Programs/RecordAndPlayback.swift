// Record, then play it back: the record button of a hundred tutorials, a recording to a
// Documents-style folder, played back with AVAudioPlayer(contentsOf: recorder.url) and
// deleted. Only the import changed.
import SoundstageCompat

class RecordAndPlayback: NSObject, AVAudioRecorderDelegate, AVAudioPlayerDelegate {
    var audioRecorder: AVAudioRecorder!
    var audioPlayer: AVAudioPlayer?
    private(set) var recordingFinished = false
    private(set) var playbackFinished = false
    let directory: URL

    init(directory: URL) {
        self.directory = directory
    }

    func getFileURL() -> URL {
        return directory.appendingPathComponent("recording.caf")
    }

    func startRecording() -> Bool {
        let session = AVAudioSession.sharedInstance()
        do {
            try session.setCategory(.playAndRecord, mode: .default)
            try session.setActive(true)
            let settings = [
                AVFormatIDKey: Int(kAudioFormatLinearPCM),
                AVSampleRateKey: 48000.0,
                AVNumberOfChannelsKey: 1,
                AVLinearPCMBitDepthKey: 16,
                AVLinearPCMIsFloatKey: false
            ] as [String: Any]
            audioRecorder = try AVAudioRecorder(url: getFileURL(), settings: settings)
            audioRecorder.delegate = self
            return audioRecorder.record()
        } catch {
            return false
        }
    }

    func stopRecording() {
        audioRecorder.stop()
    }

    func playRecording() -> Bool {
        do {
            audioPlayer = try AVAudioPlayer(contentsOf: audioRecorder.url)
            audioPlayer?.delegate = self
            return audioPlayer?.play() ?? false
        } catch {
            print("RecordAndPlayback: \(error)")
            return false
        }
    }

    func deleteRecording() -> Bool {
        return audioRecorder.deleteRecording()
    }

    func audioRecorderDidFinishRecording(_ recorder: AVAudioRecorder, successfully flag: Bool) {
        recordingFinished = flag
    }

    func audioPlayerDidFinishPlaying(_ player: AVAudioPlayer, successfully flag: Bool) {
        playbackFinished = flag
    }
}
