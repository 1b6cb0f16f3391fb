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
        requestSinkPortsLocked()     // the new sink's ports: what its later changes are compared with
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
        guard let stream, let context,
              type.rawValue & PA_SUBSCRIPTION_EVENT_TYPE_MASK.rawValue == PA_SUBSCRIPTION_EVENT_CHANGE.rawValue else { return }
        let facility = type.rawValue & PA_SUBSCRIPTION_EVENT_FACILITY_MASK.rawValue
        if facility == PA_SUBSCRIPTION_EVENT_SINK.rawValue {
            // The stream's sink changed (its port, its volume, its state...): read its ports.
            if index == sinkIndex, sinkIndex != UInt32.max { requestSinkPortsLocked() }
            return
        }
        guard index == pa_stream_get_index(stream), facility == PA_SUBSCRIPTION_EVENT_SINK_INPUT.rawValue else { return }
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

// The ports of the stream's sink (main loop thread, lock held).
extension PulseConnection {
    /// Asks the server for the stream's sink's info; the answer goes to ``sinkInfoArrived(_:)``.
    func requestSinkPortsLocked() {
        guard let context, sinkIndex != UInt32.max else { return }
        let userdata = Unmanaged.passUnretained(self).toOpaque()
        if let operation = pa_context_get_sink_info_by_index(context, sinkIndex, { _, info, _, userdata in
            guard let info else { return }
            let connection = PulseConnection.from(userdata)
            connection.sinkInfoAnswers += 1
            if connection.sinkInfoFromTest { return }
            connection.sinkInfoArrived(PulseConnection.portSnapshot(info.pointee))
        }, userdata) { pa_operation_unref(operation) }
    }

    /// What `pa_sink_info` says of the sink's ports.
    static func portSnapshot(_ info: pa_sink_info) -> SinkPortSnapshot {
        var ports: [SinkPortSnapshot.Port] = []
        if let list = info.ports {
            for index in 0..<Int(info.n_ports) {
                guard let port = list[index]?.pointee else { continue }
                let availability: SinkPortSnapshot.Port.Availability =
                    port.available == Int32(PA_PORT_AVAILABLE_NO.rawValue) ? .no
                    : port.available == Int32(PA_PORT_AVAILABLE_YES.rawValue) ? .yes : .unknown
                let name = port.name.map { String(cString: $0) } ?? ""
                ports.append(.init(name: name, description: port.description.map { String(cString: $0) } ?? name,
                                   availability: availability, type: port.type))
            }
        }
        return SinkPortSnapshot(sink: info.name.map { String(cString: $0) } ?? "",
                                activePort: info.active_port?.pointee.name.map { String(cString: $0) }, ports: ports)
    }

    /// The sink's info, as libpulse delivered it after the stream opened or moved, or after a
    /// change of the sink: a change of its active port (or of that port's jack) becomes
    /// ``Event/portChanged(_:)``. Info about another sink than the stream's (an answer that
    /// arrives after a move) is ignored.
    func sinkInfoArrived(_ snapshot: SinkPortSnapshot) {
        guard snapshot.sink == sinkName, let change = portTracker.observe(snapshot) else { return }
        events.append(.portChanged(change))
        signal()
    }
}
