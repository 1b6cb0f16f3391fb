import Foundation
import Soundstage

extension AVAudioSession {
    /// A port type, by its iOS name and raw value.
    public struct Port: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        /// A built-in microphone: an input whose server says `internal` or `microphone`, or says nothing.
        public static let builtInMic = Port(rawValue: "MicrophoneBuiltIn")
        /// A headset's microphone (form factor `headset`, or a headset port).
        public static let headsetMic = Port(rawValue: "MicrophoneWired")
        /// A line input (a `line` port).
        public static let lineIn = Port(rawValue: "LineIn")
        /// The receiver at the ear: never on a desktop.
        public static let builtInReceiver = Port(rawValue: "Receiver")
        /// Speakers: form factor `speaker`, `internal`, `computer` or `portable`, or a speaker port.
        public static let builtInSpeaker = Port(rawValue: "Speaker")
        /// Headphones: form factor `headphones` or `headset`, or a headphones port.
        public static let headphones = Port(rawValue: "Headphones")
        /// Any other output (a virtual sink, a line out): what the server does not describe.
        public static let lineOut = Port(rawValue: "LineOut")
        /// A Bluetooth output in its music profile.
        public static let bluetoothA2DP = Port(rawValue: "BluetoothA2DPOutput")
        /// A Bluetooth headset in its call profile, as input or output.
        public static let bluetoothHFP = Port(rawValue: "BluetoothHFP")
        /// Bluetooth Low Energy: never reported on Linux (the server names no such bus).
        public static let bluetoothLE = Port(rawValue: "BluetoothLE")
        /// A USB audio device (bus `usb`).
        public static let usbAudio = Port(rawValue: "USBAudio")
        /// HDMI (form factor `tv`, or an `hdmi` port).
        public static let HDMI = Port(rawValue: "HDMIOutput")
        /// AirPlay: never on Linux.
        public static let airPlay = Port(rawValue: "AirPlay")
        /// A car's audio (form factor `car`).
        public static let carAudio = Port(rawValue: "CarAudio")
        /// DisplayPort (a `displayport` port).
        public static let displayPort = Port(rawValue: "DisplayPort")
        /// A virtual device: never reported (virtual sinks are `lineOut`).
        public static let virtual = Port(rawValue: "Virtual")
        /// PCI: never reported (a PCI card's ports are described by what they are).
        public static let PCI = Port(rawValue: "PCI")
        /// FireWire (bus `firewire`).
        public static let fireWire = Port(rawValue: "Firewire")
        /// Thunderbolt: never reported.
        public static let thunderbolt = Port(rawValue: "Thunderbolt")
        /// AVB: never reported.
        public static let AVB = Port(rawValue: "AVB")
    }

    /// What ``overrideOutputAudioPort(_:)`` takes, with iOS's raw values.
    public enum PortOverride: UInt, Sendable {
        /// No override: the category's own route.
        case none = 0
        /// The speaker, in place of the receiver at the ear.
        case speaker = 0x7370_6B72   // 'spkr'
    }

    /// Overrides the output for `.playAndRecord`, as voice-chat code does to play on the
    /// speaker rather than the receiver. A desktop has no receiver at the ear: its output already
    /// is what the user chose on the desktop, so the sound stays where it is. The override is
    /// kept (``currentOutputOverride``) and, when it changes, a route change with reason
    /// `.override` is posted, as on iOS.
    /// - Throws: an `NSError` of code `ErrorCode.badParam` unless the category is `.playAndRecord`
    ///   (iOS refuses the override in other categories too).
    public func overrideOutputAudioPort(_ portOverride: PortOverride) throws {
        guard category == .playAndRecord else {
            throw SoundstageError(.invalidArgument, "overrideOutputAudioPort needs the playAndRecord category (it is "
                                  + "\(category.rawValue)), as on iOS").nsError
        }
        let engine = try throwingNSError { try current() }
        let before = currentRoute
        let changed = lock.withLock { () -> Bool in
            defer { outputOverride = portOverride }
            return outputOverride != portOverride
        }
        if changed && engine.session.isActive { post(routeChange: .override, previous: before) }
    }

    /// The override last set with ``overrideOutputAudioPort(_:)`` (a Linux addition: iOS does not say).
    public var currentOutputOverride: PortOverride { lock.withLock { outputOverride } }

    /// The inputs to record from: the desktop server's sources that are not monitors of its
    /// outputs, each with a port type from what the server says of it. Nil when no desktop
    /// server answers (Soundstage records through one).
    public var availableInputs: [AVAudioSessionPortDescription]? {
        let server = (try? current())?.device.desktopOptions?.server
        guard let inputs = try? AudioRecorder.availableInputs(server: server) else { return nil }
        return inputs.filter { !$0.isMonitor }.map(AVAudioSessionPortDescription.init(input:))
    }

    /// Chooses the input recorders record from (by its ``AVAudioSessionPortDescription/uid``,
    /// the server's name for it); nil goes back to the server's default input.
    /// - Throws: an `NSError` of code `ErrorCode.resourceNotAvailable` for a port the server does
    ///   not offer (or when no server answers).
    public func setPreferredInput(_ inPort: AVAudioSessionPortDescription?) throws {
        try throwingNSError { try checkInput(inPort) }
        lock.withLock { preferredInputPort = inPort }
    }

    private func checkInput(_ inPort: AVAudioSessionPortDescription?) throws {
        if let inPort {
            let server = try current().device.desktopOptions?.server
            let inputs = try AudioRecorder.availableInputs(server: server)
            guard inputs.contains(where: { $0.name == inPort.uid && !$0.isMonitor }) else {
                throw SoundstageError(.noInputDevice, "the desktop server offers no input '\(inPort.uid)'; it has "
                                      + inputs.filter { !$0.isMonitor }.map(\.name).joined(separator: ", "), subject: inPort.uid)
            }
        }
    }

    /// The input chosen with ``setPreferredInput(_:)`` (nil: the server's default).
    public var preferredInput: AVAudioSessionPortDescription? { lock.withLock { preferredInputPort } }
}

/// An audio route: its inputs and outputs.
public final class AVAudioSessionRouteDescription: NSObject, @unchecked Sendable {
    /// The inputs: the preferred input while the category records (empty otherwise, or when none
    /// was chosen: the server's default input is then used, and not named here).
    public let inputs: [AVAudioSessionPortDescription]
    /// The outputs: the device's output (a sink on the desktop server).
    public let outputs: [AVAudioSessionPortDescription]
    init(inputs: [AVAudioSessionPortDescription], outputs: [AVAudioSessionPortDescription]) {
        self.inputs = inputs
        self.outputs = outputs
    }
}

/// One port of a route, or an input to choose.
public final class AVAudioSessionPortDescription: NSObject, @unchecked Sendable {
    /// Its type, from what the desktop server says of the device (see ``AVAudioSession/Port``).
    public let portType: AVAudioSession.Port
    /// Its human name: the server's description of the sink or source (`Built-in Audio Analog
    /// Stereo`), or the OpenAL device's name.
    public let portName: String
    /// A stable identifier: the server's name for the sink or source.
    public let uid: String

    /// What the server said of the device (for ``onPort(_:)``).
    let bus: String?
    let formFactor: String?

    init(portType: AVAudioSession.Port, portName: String, uid: String, bus: String? = nil, formFactor: String? = nil) {
        self.portType = portType
        self.portName = portName
        self.uid = uid
        self.bus = bus
        self.formFactor = formFactor
    }

    /// An input as the desktop server lists it.
    convenience init(input: AudioInput) {
        self.init(portType: Self.inputType(bus: input.bus, formFactor: input.formFactor, port: input.activePort),
                  portName: input.description, uid: input.name)
    }

    /// The output `device` plays on: `sink` (a route change's new sink) or the device's sink now,
    /// described by the server when it is a desktop device; `port` (a route change's new port)
    /// in place of the port the server names.
    convenience init(output device: Device, sink: String?, port: String? = nil) {
        let name = sink ?? device.outputStatus.sink ?? (try? device.info.name) ?? "output"
        let described = device.desktopOptions.flatMap { options in
            (try? Device.availableOutputs(server: options.server))?.first { $0.name == name }
        }
        self.init(portType: Self.outputType(bus: described?.bus, formFactor: described?.formFactor, port: port ?? described?.activePort),
                  portName: described?.description ?? name, uid: name, bus: described?.bus, formFactor: described?.formFactor)
    }

    /// The same output on another port of its sink (the type follows the port).
    func onPort(_ port: String) -> AVAudioSessionPortDescription {
        AVAudioSessionPortDescription(portType: Self.outputType(bus: bus, formFactor: formFactor, port: port),
                                      portName: portName, uid: uid, bus: bus, formFactor: formFactor)
    }

    /// An output's type from its bus, form factor and active port (the port first: a laptop's
    /// one sink switches between its speakers and the headphone jack).
    static func outputType(bus: String?, formFactor: String?, port: String?) -> AVAudioSession.Port {
        let port = port?.lowercased() ?? ""
        if bus == "bluetooth" { return formFactor == "headset" || formFactor == "hands-free" ? .bluetoothHFP : .bluetoothA2DP }
        if port.contains("headphone") || port.contains("headset") { return .headphones }
        if port.contains("hdmi") { return .HDMI }
        if port.contains("displayport") { return .displayPort }
        if port.contains("speaker") { return .builtInSpeaker }
        switch formFactor {
        case "headphones", "headset": return .headphones
        case "speaker", "internal", "computer", "portable": return .builtInSpeaker
        case "tv": return .HDMI
        case "car": return .carAudio
        default: break
        }
        switch bus {
        case "usb": return .usbAudio
        case "firewire": return .fireWire
        default: return .lineOut
        }
    }

    /// An input's type from its bus, form factor and active port.
    static func inputType(bus: String?, formFactor: String?, port: String?) -> AVAudioSession.Port {
        let port = port?.lowercased() ?? ""
        if bus == "bluetooth" { return .bluetoothHFP }
        if port.contains("headset") || formFactor == "headset" { return .headsetMic }
        if port.contains("line") { return .lineIn }
        switch bus {
        case "usb": return .usbAudio
        case "firewire": return .fireWire
        default: return .builtInMic
        }
    }
}
