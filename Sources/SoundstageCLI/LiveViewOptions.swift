import ArgumentParser
import Logging
import Soundstage
import SoundstageLiveView

/// `--live-view PORT` (with `--live-view-host` and `--live-view-allow-remote`): the mix in a
/// browser, shared by `serve` and `run`.
struct LiveViewOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Show the mix live in a browser: serve the live view on this TCP port (0: any free one) and print its URL.",
                                            valueName: "port"))
    var liveView: Int?

    @Option(name: .long, help: "The address the live view binds (default 127.0.0.1; another needs --live-view-allow-remote).")
    var liveViewHost = "127.0.0.1"

    @Flag(name: .long, help: "Let the live view bind an address other machines reach (anyone with its URL then sees the mix).")
    var liveViewAllowRemote = false

    func validate() throws {
        if let liveView, !(0...65_535).contains(liveView) { throw ValidationError("--live-view must be a port, 0...65535") }
        if liveView == nil && (liveViewHost != "127.0.0.1" || liveViewAllowRemote) {
            throw ValidationError("--live-view-host and --live-view-allow-remote go with --live-view PORT")
        }
    }

    /// Starts the live view on `device` if asked, and says its URL on stderr.
    func start(on device: Device, logger: Logger) throws -> LiveView? {
        guard let liveView else { return nil }
        let view = try device.startLiveView(port: liveView, host: liveViewHost, allowRemote: liveViewAllowRemote, logger: logger)
        if liveViewAllowRemote && !["127.0.0.1", "::1", "localhost"].contains(liveViewHost) {
            Terminal.say("warning: the live view listens on \(liveViewHost): anyone who has its URL sees the mix")
        }
        Terminal.say("live view: \(view.url)")
        return view
    }
}
