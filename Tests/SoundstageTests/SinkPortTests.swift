@testable import Soundstage
import Testing

/// The route changes a laptop's jack makes, from the sink information libpulse delivers after each
/// change of the stream's sink (`pa_sink_info`: `active_port` and each port's `available`). No
/// server the tests can start has a sink with ports (null and virtual sinks have none; ALSA's
/// need a sound card), so these are the sequences a real PulseAudio 16 sends, fed to the code
/// that reads them. `DesktopOutputTests` and `CompatDesktopTests` feed the same sequences to a
/// real desktop output and watch the route observers, the sessions and `AVAudioSession`.
@Suite struct SinkPortTests {
    typealias Port = SinkPortSnapshot.Port
    static let card = "alsa_output.pci-0000_00_1f.3.analog-stereo"

    static func snapshot(active: String?, headphones: Port.Availability, speakerType: UInt32 = 2,
                         headphonesType: UInt32 = 3, sink: String = card) -> SinkPortSnapshot {
        SinkPortSnapshot(sink: sink, activePort: active, ports: [
            Port(name: "analog-output-speaker", description: "Speakers", availability: .unknown, type: speakerType),
            Port(name: "analog-output-headphones", description: "Headphones", availability: headphones, type: headphonesType),
        ])
    }

    /// Pulled: the headphones' jack says `no` and the server (module-switch-on-port-available)
    /// has switched to the speakers by the time the info is read: `.oldDeviceUnavailable`, once.
    /// Plugged in again: `.newDeviceAvailable`.
    @Test func pullingAndPluggingTheHeadphones() {
        var tracker = SinkPortTracker()
        #expect(tracker.observe(Self.snapshot(active: "analog-output-headphones", headphones: .yes)) == nil)
        #expect(tracker.observe(Self.snapshot(active: "analog-output-speaker", headphones: .no))
                == PortChange(sink: Self.card, previousPort: "analog-output-headphones", port: "analog-output-speaker",
                              reason: .oldDeviceUnavailable))
        #expect(tracker.observe(Self.snapshot(active: "analog-output-speaker", headphones: .no)) == nil)
        #expect(tracker.observe(Self.snapshot(active: "analog-output-headphones", headphones: .yes))
                == PortChange(sink: Self.card, previousPort: "analog-output-speaker", port: "analog-output-headphones",
                              reason: .newDeviceAvailable))
    }

    /// The jack's event and the switch in two changes (a server or policy that switches later):
    /// one `.oldDeviceUnavailable`, when the jack empties; the switch after it is no second one.
    @Test func aSwitchAfterTheJackEventIsNoSecondChange() {
        var tracker = SinkPortTracker()
        _ = tracker.observe(Self.snapshot(active: "analog-output-headphones", headphones: .yes))
        #expect(tracker.observe(Self.snapshot(active: "analog-output-headphones", headphones: .no))
                == PortChange(sink: Self.card, previousPort: "analog-output-headphones", port: "analog-output-headphones",
                              reason: .oldDeviceUnavailable))
        #expect(tracker.observe(Self.snapshot(active: "analog-output-speaker", headphones: .no)) == nil)
    }

    /// The user chooses the speakers while the headphones stay plugged in (pavucontrol, `pactl
    /// set-sink-port`): the sound goes out loud, `.oldDeviceUnavailable` as for a pull; back to
    /// the headphones, `.newDeviceAvailable`. Without port types (older servers), by the names.
    @Test(arguments: [UInt32(3), 0])
    func choosingThePortIsARouteChange(_ headphonesType: UInt32) {
        var tracker = SinkPortTracker()
        let speakerType: UInt32 = headphonesType == 0 ? 0 : 2
        _ = tracker.observe(Self.snapshot(active: "analog-output-headphones", headphones: .yes, speakerType: speakerType,
                                          headphonesType: headphonesType))
        #expect(tracker.observe(Self.snapshot(active: "analog-output-speaker", headphones: .yes, speakerType: speakerType,
                                              headphonesType: headphonesType))?.reason == .oldDeviceUnavailable)
        #expect(tracker.observe(Self.snapshot(active: "analog-output-headphones", headphones: .yes, speakerType: speakerType,
                                              headphonesType: headphonesType))?.reason == .newDeviceAvailable)
    }

    /// What else a sink change says is no route change: its volume or state (the same ports), a
    /// port that is not the active one plugged in or out, the first info of a sink (after the
    /// stream opened or moved), and a sink without ports (a null sink).
    @Test func otherSinkChangesAreNoRouteChange() {
        var tracker = SinkPortTracker()
        #expect(tracker.observe(Self.snapshot(active: "analog-output-speaker", headphones: .no)) == nil)
        #expect(tracker.observe(Self.snapshot(active: "analog-output-speaker", headphones: .no)) == nil)
        #expect(tracker.observe(Self.snapshot(active: "analog-output-speaker", headphones: .yes)) == nil)
        #expect(tracker.observe(Self.snapshot(active: "analog-output-headphones", headphones: .yes, sink: "other")) == nil)
        #expect(tracker.observe(SinkPortSnapshot(sink: "A", activePort: nil, ports: [])) == nil)
        #expect(tracker.observe(SinkPortSnapshot(sink: "A", activePort: nil, ports: [])) == nil)
        #expect(tracker.observe(Self.snapshot(active: "analog-output-headphones", headphones: .yes, sink: "A")) == nil)
        #expect(tracker.observe(SinkPortSnapshot(sink: "A", activePort: nil, ports: [])) == nil)
    }

    /// A route change names the sink and both ports.
    @Test func aPortChangeDescribesItself() {
        let change = RouteChange(reason: .oldDeviceUnavailable, time: 1.5, previousOutput: "card", output: "card",
                                 previousPort: "analog-output-headphones", port: "analog-output-speaker")
        #expect(change.description == "oldDeviceUnavailable at 1.5 (card: analog-output-headphones -> analog-output-speaker)")
    }
}
