import Foundation
import Soundstage

/// A value handed to another thread untouched (a caller's non-`Sendable` completion, called once there).
struct HandedOver<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

extension AVAudioSession {
    /// Whether the app may record, with iOS's raw values.
    ///
    /// Linux has no per-app microphone permission: the answer is whether recording can work.
    /// `.granted` when the desktop server the app plays on has an input that is not a monitor of
    /// an output; `.denied` when it answers but has no such input; `.undetermined` when no
    /// desktop server answers (Soundstage records through one, and cannot tell).
    public enum RecordPermission: UInt, Sendable {
        case undetermined = 0x756E_6474   // 'undt'
        case denied = 0x6465_6E79         // 'deny'
        case granted = 0x6772_6E74        // 'grnt'
    }

    /// Whether the app may record (see ``RecordPermission`` for how Linux answers). Asks the
    /// desktop server: a round trip.
    public var recordPermission: RecordPermission {
        let server = (try? current())?.device.desktopOptions?.server
        guard let inputs = try? AudioRecorder.availableInputs(server: server) else { return .undetermined }
        return inputs.contains { !$0.isMonitor } ? .granted : .denied
    }

    /// Asks for permission to record: nothing is shown on Linux; `response` is called once, on
    /// another thread (as on iOS), with whether ``recordPermission`` is `.granted`.
    public func requestRecordPermission(_ response: @escaping (Bool) -> Void) {
        let handed = HandedOver(response)
        DispatchQueue.global().async { [self] in handed.value(recordPermission == .granted) }
    }
}

/// `AVAudioApplication` (iOS 17), where the record permission moved: the same answers as
/// ``AVAudioSession/recordPermission``.
public final class AVAudioApplication: NSObject, @unchecked Sendable {
    /// Whether the app may record, with iOS's raw values (see ``AVAudioSession/RecordPermission``
    /// for how Linux answers).
    public enum recordPermission: Int, Sendable {   // lower case: iOS spells it so
        case undetermined = 0x756E_6474
        case denied = 0x6465_6E79
        case granted = 0x6772_6E74
    }

    /// The app's one instance.
    public static let shared = AVAudioApplication()

    private override init() { super.init() }

    /// Whether the app may record.
    public var recordPermission: AVAudioApplication.recordPermission {
        switch AVAudioSession.sharedInstance().recordPermission {
        case .granted: .granted
        case .denied: .denied
        case .undetermined: .undetermined
        }
    }

    /// Asks for permission to record; `response` is called once, on another thread, with whether
    /// it is granted.
    public static func requestRecordPermission(completionHandler response: @escaping (Bool) -> Void) {
        AVAudioSession.sharedInstance().requestRecordPermission(response)
    }

    /// Asks for permission to record, and returns whether it is granted.
    public static func requestRecordPermission() async -> Bool {
        await withCheckedContinuation { continuation in
            AVAudioSession.sharedInstance().requestRecordPermission { continuation.resume(returning: $0) }
        }
    }
}
