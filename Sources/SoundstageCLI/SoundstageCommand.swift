import ArgumentParser
import Soundstage
import SoundstageProtocol

/// `soundstage`: the command-line face of the engine.
@main
struct SoundstageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "soundstage",
        abstract: "Positional audio for Linux games: inspect, convert and play sounds with OpenAL Soft.",
        discussion: """
            Without a sound card, commands that play audio render it to a WAV file instead and say where.
            `soundstage serve` runs the sound server; `sound play` goes through it when it runs.
            Exit status: 0 on success, 1 on an error (one line on stderr), 64 on a usage error.
            """,
        version: "0.2.0",
        subcommands: [InfoCommand.self, InspectCommand.self, PlayCommand.self, RecordCommand.self, ConvertCommand.self, RunCommand.self, RenderCommand.self, SoundCommand.self,
                      ServeCommand.self, TopCommand.self, ReverbPresetsCommand.self, AFInfoCommand.self, AFConvertCommand.self]
    )
}

/// Runs `body`, turning a ``SoundstageError`` into one line on stderr and exit status 1.
func reportingErrors(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch let error as SoundstageError {
        Terminal.say("\(error)")
        throw ExitCode.failure
    }
}

/// Runs `body`, turning a daemon's ``ServerError`` into one line on stderr and exit status 1.
func reportingServerErrors(_ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch let error as ServerError {
        Terminal.say("\(error)")
        throw ExitCode.failure
    }
}
