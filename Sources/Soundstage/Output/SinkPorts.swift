/// What the desktop server says of one sink's ports (`pa_sink_info`: `active_port` and `ports`),
/// as ``SinkPortTracker`` reads it. A laptop's sound card is one sink with a port per jack or
/// speaker (`analog-output-speaker`, `analog-output-headphones`); pulling the headphones switches
/// the active port, and the stream on that sink does not move.
struct SinkPortSnapshot: Sendable, Equatable {
    /// One port (`pa_sink_port_info`).
    struct Port: Sendable, Equatable {
        /// Whether something is plugged into it (`pa_port_available_t`).
        enum Availability: Sendable, Equatable {
            /// `PA_PORT_AVAILABLE_UNKNOWN`: the server cannot tell (no jack detection).
            case unknown
            /// `PA_PORT_AVAILABLE_NO`: nothing plugged in.
            case no
            /// `PA_PORT_AVAILABLE_YES`: plugged in.
            case yes
        }

        /// The server's name for it (`analog-output-headphones`).
        var name: String
        /// Its human description (`Headphones`).
        var description: String
        /// Whether it is plugged in.
        var availability: Availability
        /// `pa_sink_port_info.type` (libpulse 14+; `PA_DEVICE_PORT_TYPE_UNKNOWN`, 0, when the server
        /// does not say): 3 headphones, 6 headset, 8 earpiece, 2 speaker, ...
        var type: UInt32 = 0
    }

    /// The sink's name.
    var sink: String
    /// The active port's name; nil for a sink without ports (a null or virtual sink).
    var activePort: String?
    /// Every port of the sink.
    var ports: [Port]

    /// The active port's entry.
    var active: Port? { activePort.flatMap { name in ports.first { $0.name == name } } }
}

/// A change of the active port, or of its availability, on the sink the stream plays on.
struct PortChange: Sendable, Equatable {
    /// The sink (it did not change).
    var sink: String
    /// The port before, and after (the same port when only its availability changed).
    var previousPort: String?
    var port: String?
    /// The route change to post: `.oldDeviceUnavailable` or `.newDeviceAvailable`.
    var reason: RouteChange.Reason
}

/// Turns the sink information libpulse delivers — after each `PA_SUBSCRIPTION_EVENT_SINK |
/// PA_SUBSCRIPTION_EVENT_CHANGE` on the stream's sink, Soundstage asks for the sink's info — into
/// route changes, as iOS reports a jack:
///
/// - the active port changes and the previous one is no longer plugged in (`available: no`:
///   the headphones were pulled and the server switched to the speakers), or the previous one was
///   private listening (headphones, a headset, an earpiece) and the new one is not (the user chose
///   the speakers): `.oldDeviceUnavailable` — the sound now goes out loud;
/// - the active port changes otherwise (headphones plugged in, the user chose another port):
///   `.newDeviceAvailable`;
/// - the active port stays but becomes unplugged (a server that does not switch, or not yet):
///   `.oldDeviceUnavailable`; plugged in again: `.newDeviceAvailable`; a switch that follows,
///   away from the unplugged port, is no second change.
///
/// Anything else a sink change says (its volume, its state, a port that is not active being
/// plugged in) is no route change. The first snapshot of a sink (after the stream opened or
/// moved), and one with no active port or after one without, only sets what later ones are
/// compared with. Pure: the tests feed it what libpulse
/// delivers.
struct SinkPortTracker: Sendable {
    private var last: SinkPortSnapshot?

    /// Reads the sink's info; returns the route change it makes, if any.
    mutating func observe(_ snapshot: SinkPortSnapshot) -> PortChange? {
        defer { last = snapshot }
        // A sink without ports (a null sink) has no jack: its first or last ports are no change.
        guard let last, last.sink == snapshot.sink, last.activePort != nil, snapshot.activePort != nil else { return nil }
        let before = last.active, after = snapshot.active
        if last.activePort != snapshot.activePort {
            // Away from a port already reported unplugged (a server that switches after the jack
            // event, in a later change): iOS says nothing more, nor does Soundstage.
            if before?.availability == .no { return nil }
            // The previous port's availability as the server says it now (it may have changed
            // in the same event, as a pulled jack does).
            let previousNow = last.activePort.flatMap { name in snapshot.ports.first { $0.name == name } } ?? before
            let unplugged = previousNow?.availability == .no
            let leftPrivate = before.map(Self.isPrivate) == true && after.map(Self.isPrivate) != true
            return PortChange(sink: snapshot.sink, previousPort: last.activePort, port: snapshot.activePort,
                              reason: unplugged || leftPrivate ? .oldDeviceUnavailable : .newDeviceAvailable)
        }
        guard let before, let after, before.availability != after.availability else { return nil }
        if after.availability == .no {
            return PortChange(sink: snapshot.sink, previousPort: before.name, port: after.name, reason: .oldDeviceUnavailable)
        }
        if before.availability == .no {
            return PortChange(sink: snapshot.sink, previousPort: before.name, port: after.name, reason: .newDeviceAvailable)
        }
        return nil
    }

    /// Whether a port is listened to privately: headphones, a headset, an earpiece (by its type
    /// where the server gives one, else by its name, as ALSA's ports are named).
    static func isPrivate(_ port: SinkPortSnapshot.Port) -> Bool {
        switch port.type {
        case 3, 6, 8: return true       // PA_DEVICE_PORT_TYPE_HEADPHONES, _HEADSET, _EARPIECE
        case 0: break                   // PA_DEVICE_PORT_TYPE_UNKNOWN: read the name
        default: return false
        }
        let name = port.name.lowercased()
        return name.contains("headphone") || name.contains("headset") || name.contains("earpiece")
    }
}
