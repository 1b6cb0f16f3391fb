import CPulse
#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif
import SoundFile

// libpulse's callbacks (main loop thread, lock held).
extension PulseConnection {
    // MARK: Callbacks (main loop thread, lock held)

    static func from(_ userdata: UnsafeMutableRawPointer?) -> PulseConnection {
        Unmanaged<PulseConnection>.fromOpaque(userdata!).takeUnretainedValue()
    }

    static func errorText(_ context: OpaquePointer?) -> String {
        guard let context else { return "no context" }
        return String(cString: pa_strerror(pa_context_errno(context)))
    }

    func fail(_ why: String) {
        guard failure == nil else { return }
        failure = why
        events.append(.failed(why))
    }

    func streamMoved(_ stream: OpaquePointer?) {
        guard let stream else { return }
        let oldName = sinkName
        let oldIndex = sinkIndex
        sinkIndex = pa_stream_get_device_index(stream)
        sinkName = pa_stream_get_device_name(stream).map { String(cString: $0) }
        let newName = sinkName
        // Ask whether the old sink still exists: the server moved us because it vanished, or
        // because the default (or the user's choice) changed.
        let box = Unmanaged.passRetained(MoveQuery(connection: self, from: oldName, to: newName)).toOpaque()
        guard let context, oldIndex != UInt32.max,
              let operation = pa_context_get_sink_info_by_index(context, oldIndex, { _, info, eol, userdata in
                  let query = Unmanaged<MoveQuery>.fromOpaque(userdata!)
                  if info != nil { query.takeUnretainedValue().found = true; return }
                  let move = query.takeRetainedValue()
                  _ = eol
                  move.connection.events.append(.moved(from: move.from, to: move.to, vanished: !move.found))
                  move.connection.signal()
              }, box) else {
            Unmanaged<MoveQuery>.fromOpaque(box).release()
            events.append(.moved(from: oldName, to: newName, vanished: false))
            signal()
            return
        }
        pa_operation_unref(operation)
    }

    func subscriptionEvent(_ type: pa_subscription_event_type_t, index: UInt32) {
        guard let stream, let context, index == pa_stream_get_index(stream),
              type.rawValue & PA_SUBSCRIPTION_EVENT_FACILITY_MASK.rawValue == PA_SUBSCRIPTION_EVENT_SINK_INPUT.rawValue,
              type.rawValue & PA_SUBSCRIPTION_EVENT_TYPE_MASK.rawValue == PA_SUBSCRIPTION_EVENT_CHANGE.rawValue else { return }
        let userdata = Unmanaged.passUnretained(self).toOpaque()
        if let operation = pa_context_get_sink_input_info(context, index, { _, info, _, userdata in
            guard let info else { return }
            let connection = PulseConnection.from(userdata)
            var volume = info.pointee.volume
            let linear = Float(pa_sw_volume_to_linear(pa_cvolume_avg(&volume)))
            let muted = info.pointee.mute != 0
            if let last = connection.lastVolume, last.0 == linear, last.1 == muted { return }
            let first = connection.lastVolume == nil
            connection.lastVolume = (linear, muted)
            if first && linear == 1 && !muted { return }
            connection.events.append(.volume(linear, muted: muted))
            connection.signal()
        }, userdata) { pa_operation_unref(operation) }
    }
}
