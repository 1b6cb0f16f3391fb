#if canImport(Glibc)
import Glibc
#endif

/// What a fuzz target runs for each input.
public typealias FuzzTestOneInput = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

#if FUZZING
@_silgen_name("LLVMFuzzerRunDriver")
private func runFuzzerDriver(_ argc: UnsafeMutablePointer<CInt>,
                             _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                             _ callback: FuzzTestOneInput) -> CInt
#endif

/// The entry point every fuzz target shares. Built with `-DFUZZING -sanitize=fuzzer,...`
/// (scripts/fuzz.sh), it is libFuzzer's driver: its arguments are libFuzzer's. Built plainly, it
/// replays the files and folders named on its command line through the same code, once each —
/// the corpus and the regressions as ordinary tests — and ends with "N passed, 0 failed".
public enum Fuzzing {
    /// Runs the target: the fuzzer in a fuzzing build, a replay otherwise.
    public static func main(_ testOneInput: FuzzTestOneInput) -> Never {
        #if FUZZING
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(runFuzzerDriver(&argc, &argv, testOneInput))
        #else
        var files: [String] = []
        for argument in CommandLine.arguments.dropFirst() { files += Self.files(at: argument) }
        guard !files.isEmpty else {
            printError("usage: \(CommandLine.arguments[0]) FILE-OR-FOLDER...  (replays each input once)")
            exit(64)
        }
        for file in files {
            guard let bytes = Self.read(file) else {
                printError("cannot read \(file)")
                exit(1)
            }
            currentInput = file
            _ = bytes.withUnsafeBufferPointer { testOneInput($0.baseAddress, $0.count) }
        }
        print("\(files.count) passed, 0 failed")
        exit(0)
        #endif
    }

    /// The input being replayed (named when a rule breaks).
    nonisolated(unsafe) static var currentInput = "<fuzzer input>"

    /// Stops the process with `message` when `condition` is false: a broken rule is a finding, as
    /// a crash is (libFuzzer saves the input).
    public static func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
        guard !condition() else { return }
        printError("FUZZ RULE BROKEN (\(currentInput)): \(message())")
        abort()
    }

    /// The regular files at `path` (itself, or those in it, sorted).
    private static func files(at path: String) -> [String] {
        var info = stat()
        guard stat(path, &info) == 0 else { return [path] }
        guard info.st_mode & S_IFMT == S_IFDIR else { return [path] }
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if !name.hasPrefix(".") { names.append(path + "/" + name) }
        }
        return names.sorted()
    }

    private static func read(_ path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            if count == 0 { break }
            bytes += chunk[0..<count]
        }
        return bytes
    }

    /// Writes `message` and a newline to standard error.
    public static func printError(_ message: String) {
        var line = message + "\n"
        line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    }

    /// The input as an array.
    public static func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
        guard let data, size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }
}
