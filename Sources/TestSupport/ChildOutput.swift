import Foundation

/// A child's standard output and error kept in two files of a directory, read back while it runs:
/// what a test hands to ``ChildProcess`` (`stdout: output.outputDescriptor, stderr:
/// output.errorDescriptor`) to wait for a line the child prints and to quote all it said.
public final class ChildOutput: @unchecked Sendable {
    // @unchecked: every stored property is set once in init; the files are read, not shared state.

    /// The descriptors the child writes to (closed when this is let go).
    public let outputDescriptor: Int32, errorDescriptor: Int32
    private let outputPath: String, errorPath: String

    /// Two new files in `directory`, named `name.out` and `name.err`.
    public init(in directory: String, name: String = "child") {
        outputPath = "\(directory)/\(name).out"
        errorPath = "\(directory)/\(name).err"
        outputDescriptor = open(outputPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        errorDescriptor = open(errorPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    }

    deinit {
        close(outputDescriptor)
        close(errorDescriptor)
    }

    /// Every line printed so far: the output's, then the error's prefixed "stderr: ".
    public func lines() -> [String] {
        Self.lines(of: outputPath) + Self.lines(of: errorPath).map { "stderr: \($0)" }
    }

    /// Whether a line printed so far begins with `prefix`.
    public func said(_ prefix: String) -> Bool { lines().contains { $0.hasPrefix(prefix) } }

    private static func lines(of path: String) -> [String] {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }
}
