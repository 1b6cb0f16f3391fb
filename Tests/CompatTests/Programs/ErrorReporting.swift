// iOS audio code's commonest error handling: every throwing call in `do { … } catch let error as
// NSError { … }` with no other clause, the error's domain, code and description logged. On iOS
// every error is an NSError, so the clause catches everything. Only the import changed.
import SoundstageCompat

class AudioErrorLog {
    struct Entry {
        let call: String
        let domain: String
        let code: Int
        let message: String
    }

    private(set) var entries = [Entry]()
    private(set) var players = [String: AVAudioPlayer]()

    private func log(_ call: String, _ error: NSError) {
        print("\(call) failed: \(error.localizedDescription) (\(error.domain) \(error.code))")
        entries.append(Entry(call: call, domain: error.domain, code: error.code, message: error.localizedDescription))
    }

    /// Preloads a sound bank; the sounds that fail are logged and skipped.
    func preload(_ sounds: [String: URL]) {
        for (name, url) in sounds.sorted(by: { $0.key < $1.key }) {
            do {
                let player = try AVAudioPlayer(contentsOf: url)
                player.prepareToPlay()
                players[name] = player
            } catch let error as NSError {
                log("AVAudioPlayer(contentsOf: \(name))", error)
            }
        }
    }

    func load(data: Data, hint: String?) {
        do {
            let player = try AVAudioPlayer(data: data, fileTypeHint: hint)
            players["data"] = player
        } catch let error as NSError {
            log("AVAudioPlayer(data:)", error)
        }
    }

    func record(to url: URL, settings: [String: Any]) -> AVAudioRecorder? {
        do {
            return try AVAudioRecorder(url: url, settings: settings)
        } catch let error as NSError {
            log("AVAudioRecorder(url:settings:)", error)
            return nil
        }
    }

    func configure(_ category: AVAudioSession.Category, preferredRate: Double, bufferDuration: Double) {
        let session = AVAudioSession.sharedInstance()
        do {
            try session.setCategory(category, mode: .default, options: [])
        } catch let error as NSError {
            log("setCategory", error)
        }
        do {
            try session.setPreferredSampleRate(preferredRate)
        } catch let error as NSError {
            log("setPreferredSampleRate", error)
        }
        do {
            try session.setPreferredIOBufferDuration(bufferDuration)
        } catch let error as NSError {
            log("setPreferredIOBufferDuration", error)
        }
    }

    func activate() -> Bool {
        do {
            try AVAudioSession.sharedInstance().setActive(true)
            return true
        } catch let error as NSError {
            log("setActive", error)
            return false
        }
    }

    func routeToSpeaker() {
        do {
            try AVAudioSession.sharedInstance().overrideOutputAudioPort(.speaker)
        } catch let error as NSError {
            log("overrideOutputAudioPort", error)
        }
    }
}
