import ArgumentParser
import Soundstage

extension Vector3: ExpressibleByArgument {
    /// Parses `X,Y,Z`, e.g. `--position -2,0,1`; each coordinate finite and within ±1e9.
    public init?(argument: String) {
        let parts = argument.split(separator: ",", omittingEmptySubsequences: false).map { Float($0.trimmingPrefix(while: { $0 == " " })) }
        guard parts.count == 3, let x = parts[0], let y = parts[1], let z = parts[2] else { return nil }
        self.init(x, y, z)
        guard isUsablePosition else { return nil }
    }
}

extension OutputFormat: ExpressibleByArgument {
    /// Parses a format name such as `wav-pcm16` or `caf-ima4`.
    public init?(argument: String) { self.init(name: argument) }

    /// The names, for `--help`.
    public static var allValueStrings: [String] { named.map(\.name) }
}
