import ArgumentParser
import Logging

/// `--verbose`: how much a command logs, through swift-log, to stderr (where journald collects
/// `serve`'s lines under its systemd unit).
struct LoggingOptions: ParsableArguments {
    @Flag(name: [.customShort("v"), .long],
          help: "Log debug detail to stderr: every request (serve), the output opened and what happens to it (playing commands).")
    var verbose = false

    /// A logger to stderr at `debug` with `--verbose`, else at `level`.
    func logger(_ label: String, level: Logger.Level) -> Logger {
        var logger = Logger(label: label, factory: { StreamLogHandler.standardError(label: $0) })
        logger.logLevel = verbose ? .debug : level
        return logger
    }
}
