import Foundation
import NIOConcurrencyHelpers

/// A throw-away desktop audio server for tests and benchmarks: PulseAudio, or PipeWire with
/// pipewire-pulse and WirePlumber, in a private runtime directory, with two 48 kHz stereo null
/// sinks `A` (the default) and `B`, and a fixed default source so recorders of a monitor stay put.
/// Nothing is faked: clients connect to it with libpulse, and ``record(sink:)`` records a sink's
/// monitor with `parec`, as a user would.
public final class AudioServerFixture: @unchecked Sendable {
    // @unchecked: `processes` is guarded by `lock`; everything else is set once in init.

    /// Which server.
    public enum Kind: String, Sendable, CaseIterable, CustomStringConvertible {
        /// PulseAudio (`pulseaudio -n -F SCRIPT`).
        case pulseaudio
        /// PipeWire with pipewire-pulse, WirePlumber and a private session bus.
        case pipewire

        /// The name, for test output.
        public var description: String { rawValue }

        /// Whether the programs it needs are installed.
        public var isInstalled: Bool {
            let programs = self == .pulseaudio ? ["pulseaudio", "pactl", "parec"]
                                               : ["pipewire", "pipewire-pulse", "wireplumber", "dbus-daemon", "pactl", "parec"]
            return programs.allSatisfy { AudioServerFixture.which($0) != nil }
        }
    }

    /// Why a fixture could not start.
    public struct Unavailable: Error, CustomStringConvertible {
        /// What went wrong.
        public let description: String
        /// Creates one.
        public init(description: String) { self.description = description }
    }

    /// Which server runs.
    public let kind: Kind
    /// The private directory (runtime directory, home, logs).
    public let directory: String
    /// The server's address in libpulse syntax, for `DesktopOutputOptions.server` / `PULSE_SERVER`.
    public let server: String
    private let lock = NIOLock()
    private var processes: [ChildProcess] = []

    /// The environment a child process needs to reach this server (and only this one).
    public var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["PULSE_SERVER"] = server
        environment["XDG_RUNTIME_DIR"] = "\(directory)/runtime"
        environment["PULSE_RUNTIME_PATH"] = "\(directory)/runtime/pulse"
        environment["HOME"] = "\(directory)/home"
        // WirePlumber and PipeWire keep state (remembered defaults and stream targets) and read
        // configuration there: a machine that sets these must not share them between servers.
        environment["XDG_STATE_HOME"] = "\(directory)/home/.local/state"
        environment["XDG_CONFIG_HOME"] = "\(directory)/home/.config"
        environment.removeValue(forKey: "DBUS_SESSION_BUS_ADDRESS")
        return environment
    }

    /// Starts a server and waits until it answers, with sinks A (default) and B.
    public init(_ kind: Kind) throws {
        guard kind.isInstalled else { throw Unavailable(description: "\(kind) is not installed") }
        self.kind = kind
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("soundstage-\(kind)-\(UUID().uuidString.prefix(8))").path
        directory = base
        server = "unix:\(base)/runtime/pulse/native"
        for sub in ["runtime/pulse", "home"] {
            try FileManager.default.createDirectory(atPath: "\(base)/\(sub)", withIntermediateDirectories: true)
        }
        chmod("\(base)/runtime", 0o700)
        do {
            try startServer()
        } catch {
            stop()
            throw error
        }
    }

    deinit { stop() }

    private func startServer() throws {
        switch kind {
        case .pulseaudio:
            let script = """
                load-module module-native-protocol-unix auth-anonymous=1
                load-module module-null-sink sink_name=A rate=48000 channels=2
                load-module module-null-sink sink_name=B rate=48000 channels=2
                load-module module-null-source source_name=Z
                set-default-source Z
                load-module module-always-sink
                set-default-sink A

                """
            try script.write(toFile: "\(directory)/pa.pa", atomically: true, encoding: .utf8)
            try launch("pulseaudio", ["-n", "-F", "\(directory)/pa.pa", "--daemonize=no", "--exit-idle-time=-1",
                                      "--use-pid-file=no", "--log-target=stderr"], log: "pulseaudio.log")
            try waitUntilAnswering()
            raisePriority()
        case .pipewire:
            let bus = "unix:path=\(directory)/bus"
            try launch("dbus-daemon", ["--session", "--nofork", "--address=\(bus)"], log: "dbus.log", extra: [:])
            var extra = ["DBUS_SESSION_BUS_ADDRESS": bus]
            for _ in 0..<100 where !FileManager.default.fileExists(atPath: "\(directory)/bus") { usleep(10_000) }
            try launch("pipewire", [], log: "pipewire.log", extra: extra)
            usleep(50_000)
            try launch("pipewire-pulse", [], log: "pipewire-pulse.log", extra: extra)
            extra["WIREPLUMBER_DEBUG"] = "1"
            try launch("wireplumber", [], log: "wireplumber.log", extra: extra)
            try waitUntilAnswering()
            raisePriority()
            for sink in ["A", "B"] {
                try retrying { try pactl(["load-module", "module-null-sink", "sink_name=\(sink)", "rate=48000", "channels=2"]) }
            }
            try pactl(["load-module", "module-null-sink", "sink_name=Z", "media.class=Audio/Source/Virtual", "rate=48000", "channels=2"])
            try retrying { try pactl(["set-default-sink", "A"]) }
            _ = try? pactl(["set-default-source", "Z"])
            // WirePlumber applies the default asynchronously.
            for _ in 0..<100 {
                if (try? pactl(["get-default-sink"]))?.trimmingCharacters(in: .whitespacesAndNewlines) == "A" { break }
                usleep(20_000)
            }
        }
    }

    /// Gives every thread of the server's processes the highest ordinary priority (nice -20).
    /// A desktop runs its audio server's threads in real time (rtkit, or Debian's `limits.d`
    /// entry for the `pipewire` group), ahead of whatever else the machine does. This machine
    /// refuses real-time scheduling even to root (`chrt -f` fails: no real-time time in its
    /// cgroup, and `RLIMIT_RTPRIO` cannot be raised), so PipeWire's `module-rt` and PulseAudio
    /// fall back to nice -11, and beside `stress-ng --cpu 2` PipeWire's graph lost whole quanta
    /// (256 frames) of what it played. Nice -20 is the nearest this machine allows. Where it is
    /// not allowed (not root), the servers keep the priority they chose.
    private func raisePriority() {
        let pids = lock.withLock { processes.map(\.pid) }
        for pid in pids {
            guard let threads = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") else { continue }
            for thread in threads.compactMap({ id_t($0) }) {
                _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), thread, -20)
            }
        }
    }

    private func waitUntilAnswering() throws {
        for _ in 0..<200 {
            if (try? pactl(["info"])) != nil { return }
            usleep(25_000)
        }
        throw Unavailable(description: "\(kind) did not answer within 5 s; see \(directory)/*.log")
    }

    private func retrying(_ body: () throws -> Void) throws {
        var last: Error?
        for _ in 0..<50 {
            do { return try body() } catch { last = error; usleep(100_000) }
        }
        throw last!
    }

    private func launch(_ program: String, _ arguments: [String], log: String, extra: [String: String] = [:]) throws {
        guard let path = Self.which(program) else { throw Unavailable(description: "\(program) is not installed") }
        var environment = self.environment
        environment.removeValue(forKey: "PULSE_SERVER")
        for (key, value) in extra { environment[key] = value }
        let logFile = open("\(directory)/\(log)", O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        defer { if logFile >= 0 { close(logFile) } }
        let process = try ChildProcess(path, arguments, environment: environment,
                                       stdout: logFile >= 0 ? logFile : nil, stderr: logFile >= 0 ? logFile : nil)
        lock.withLock { processes.append(process) }
    }

    /// Runs `pactl` against this server and returns what it printed.
    @discardableResult
    public func pactl(_ arguments: [String]) throws -> String {
        try run("pactl", arguments)
    }

    /// Runs a PulseAudio client program (`pactl`, `paplay`, ...) against this server.
    @discardableResult
    public func run(_ program: String, _ arguments: [String]) throws -> String {
        guard let path = Self.which(program) else { throw Unavailable(description: "\(program) is not installed") }
        let (status, text) = try ChildProcess.run(path, arguments, environment: environment)
        guard status == 0 else {
            throw Unavailable(description: "\(program) \(arguments.joined(separator: " ")) failed: \(text)")
        }
        return text
    }

    /// Starts a PulseAudio client program in the background (e.g. a `paplay` with a role).
    public func spawn(_ program: String, _ arguments: [String]) throws -> ChildProcess {
        guard let path = Self.which(program) else { throw Unavailable(description: "\(program) is not installed") }
        return try ChildProcess(path, arguments, environment: environment)
    }

    /// Removes sink `name` the way a pulled USB headset goes: its module is unloaded.
    public func unloadSink(_ name: String) throws {
        let modules = try pactl(["list", "short", "modules"])
        guard let line = modules.split(separator: "\n").first(where: { $0.contains("module-null-sink") && $0.contains("sink_name=\(name)") }),
              let id = line.split(separator: "\t").first else {
            throw Unavailable(description: "no module for sink \(name) in:\n\(modules)")
        }
        try pactl(["unload-module", String(id)])
    }

    /// Makes `name` the default sink.
    public func setDefaultSink(_ name: String) throws {
        try pactl(["set-default-sink", name])
    }

    /// The server's default sink, as `pactl get-default-sink` prints it.
    public func defaultSink() throws -> String {
        try pactl(["get-default-sink"]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The sink inputs (playback streams) as `pactl list sink-inputs` prints them.
    public func sinkInputs() throws -> String { try pactl(["list", "sink-inputs"]) }

    /// Starts recording the monitor of sink `name` (float32, 48 kHz stereo), with small fragments
    /// so arrival times date the samples to a few milliseconds.
    public func record(sink name: String) throws -> MonitorRecording {
        guard let path = Self.which("parec") else { throw Unavailable(description: "parec is not installed") }
        return try MonitorRecording(parec: path, device: "\(name).monitor", environment: environment)
    }

    /// Kills the server (SIGKILL), as a crash would; the directory stays so a new server can start.
    public func kill() {
        let running = lock.withLock { () -> [ChildProcess] in
            defer { processes.removeAll() }
            return processes
        }
        for process in running.reversed() {
            process.send(SIGKILL)
            process.wait()
        }
        try? FileManager.default.removeItem(atPath: "\(directory)/runtime/pulse/native")
    }

    /// Starts the same kind of server again in the same directory (after ``kill()``).
    public func restart() throws {
        try startServer()
    }

    /// Stops the server and removes its directory.
    public func stop() {
        kill()
        try? FileManager.default.removeItem(atPath: directory)
    }

    static func which(_ program: String) -> String? {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(directory)/\(program)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }
}

/// A recording of a sink's monitor by `parec`, with the arrival time of every chunk, so each
/// sample can be dated (to the fragment size, 2 ms, plus the pipe's delay).
public final class MonitorRecording: @unchecked Sendable {
    // @unchecked: `samples` and `chunks` are guarded by `lock`; the reader thread appends.
    private let process: ChildProcess
    private let lock = NIOLock()
    private var samples: [Float] = []
    private var chunks: [(endFrame: Int, time: Double)] = []
    /// What ``secondsHeard(threshold:)`` has counted so far, so each call scans only the frames
    /// that arrived since the last one.
    private var heard = (threshold: Float(0), scannedFrames: 0, frames: 0)
    private let done = ConditionLock(value: false)
    /// Frames per second of the recording.
    public let sampleRate = 48_000
    /// Channels of the recording.
    public let channels = 2

    init(parec: String, device: String, environment: [String: String]) throws {
        var fds: [Int32] = [0, 0]
        guard ChildProcess.makePipe(&fds) else { throw AudioServerFixture.Unavailable(description: "pipe failed") }
        do {
            process = try ChildProcess(parec, ["-d", device, "--format=float32le", "--rate=48000", "--channels=2", "--raw",
                                               "--latency-msec=2",
                                               // PipeWire: stay on this monitor (never follow a move or a new default).
                                               "--property=node.dont-reconnect=true"], environment: environment, stdout: fds[1])
        } catch {
            close(fds[0]); close(fds[1])
            throw error
        }
        close(fds[1])
        let reader = fds[0]
        let thread = Thread { [self] in
            var carry: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = read(reader, &buffer, buffer.count)
                let now = Self.now()
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                carry += buffer[0..<count]
                let whole = carry.count / 4
                guard whole > 0 else { continue }
                let floats = carry.withUnsafeBytes { raw in
                    (0..<whole).map { raw.loadUnaligned(fromByteOffset: $0 * 4, as: Float.self) }
                }
                carry.removeFirst(whole * 4)
                lock.withLock {
                    samples += floats
                    chunks.append((samples.count / channels, now))
                }
            }
            close(reader)
            done.lock()
            done.unlock(withValue: true)
        }
        thread.start()
        // parec connects asynchronously: wait for its first samples so nothing played later is
        // missed. A monitor that delivers nothing is a failure that says so, not a test that goes
        // on deaf (a loaded CI machine once gave a case whose recording of A heard nothing).
        let deadline = Date().addingTimeInterval(runningUnderSanitizer ? 30 : 15)
        while lock.withLock({ samples.isEmpty }), Date() < deadline { usleep(2_000) }
        if lock.withLock({ samples.isEmpty }) {
            _ = stop()
            throw RecordingFailed(description: "parec on \(device) delivered no samples within \(runningUnderSanitizer ? 30 : 15) s")
        }
    }

    /// A monitor recording that never started.
    public struct RecordingFailed: Error, CustomStringConvertible {
        /// What went wrong.
        public let description: String
    }

    /// Seconds on the monotonic clock (the same one ``MonitorRecording/time(ofFrame:)`` uses).
    public static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    /// Frames recorded so far.
    public var frameCount: Int { lock.withLock { samples.count / channels } }

    /// The frame the sink is playing now, in this recording's frames, dated by the clock from the
    /// recording's first chunk: unlike ``frameCount`` it does not fall behind with the recorder
    /// (beside `stress-ng`, parec lagged the sink by tenths of a second, ``lag``, and a window
    /// marked by the frames received then started before what it meant to measure). 0 before
    /// the first chunk.
    public var frameNow: Int {
        lock.withLock {
            guard let first = chunks.first else { return 0 }
            let firstFrameAt = first.time - Double(first.endFrame) / Double(sampleRate)
            return max(0, Int((Self.now() - firstFrameAt) * Double(sampleRate)))
        }
    }

    /// Stops recording and returns the interleaved stereo samples.
    ///
    /// parec quits at SIGTERM without reading what the server still holds for it, and on a
    /// loaded machine (a sanitizer run) it can fall a second or more behind: that would be the
    /// end of the recording, lost. So it first waits (at most 3 s, 10 s under a sanitizer) until
    /// the recording has caught up with the clock, or has ended by itself (its sink is gone).
    @discardableResult
    public func stop() -> [Float] {
        let deadline = Self.now() + (runningUnderSanitizer ? 10 : 3)
        while !caughtUp(), !done.value, Self.now() < deadline { usleep(5_000) }
        process.send(SIGTERM)
        done.lock(whenValue: true)
        done.unlock()
        process.wait()
        return lock.withLock { samples }
    }

    /// Whether the frames recorded reach to within 0.1 s of now, counting from when the first
    /// one was dated: parec is not behind.
    private func caughtUp() -> Bool { lag <= 0.1 }

    /// How far the recording is behind the clock (seconds): the time since its first frame was
    /// dated, less the length recorded. A sink plays in real time, so a growing lag is the
    /// recorder (parec, or this process's reader) falling behind, not the sink.
    public var lag: Double {
        lock.withLock {
            guard let first = chunks.first else { return 0 }
            let firstFrameAt = first.time - Double(first.endFrame) / Double(sampleRate)
            let recorded = Double(samples.count / channels) / Double(sampleRate)
            return Self.now() - (firstFrameAt + recorded)
        }
    }

    /// The samples so far (interleaved stereo). A copy: the next chunk the reader appends then
    /// copies the whole recording, so poll ``secondsHeard(threshold:)`` or ``frameCount`` instead.
    public var snapshot: [Float] { lock.withLock { samples } }

    /// Seconds of sound (any channel above `threshold`) recorded so far.
    ///
    /// Counted incrementally, in place: polling it must not copy the recording. (It used to scan
    /// a ``snapshot``, and every append after a snapshot then copied the whole recording on the
    /// reader's thread, a cost that grows with the recording. That was not all of it: beside the
    /// sanitized suite PipeWire recordings still fall seconds behind, see ``lag``.)
    public func secondsHeard(threshold: Float = 0.02) -> Double {
        lock.withLock {
            if heard.threshold != threshold { heard = (threshold, 0, 0) }
            var frame = heard.scannedFrames
            while (frame + 1) * channels <= samples.count {
                if abs(samples[frame * channels]) > threshold || abs(samples[frame * channels + 1]) > threshold { heard.frames += 1 }
                frame += 1
            }
            heard.scannedFrames = frame
            return Double(heard.frames) / Double(sampleRate)
        }
    }

    /// When frame `frame` reached the sink, estimated from the arrival time of its chunk.
    public func time(ofFrame frame: Int) -> Double? {
        lock.withLock {
            guard let chunk = chunks.first(where: { $0.endFrame > frame }) else { return nil }
            return chunk.time - Double(chunk.endFrame - frame) / Double(sampleRate)
        }
    }

    /// The first frame at or after `from` whose absolute sample value passes `threshold`.
    public func firstFrame(above threshold: Float, from start: Int = 0) -> Int? {
        lock.withLock {
            var frame = start
            while (frame + 1) * channels <= samples.count {
                for channel in 0..<channels where abs(samples[frame * channels + channel]) > threshold { return frame }
                frame += 1
            }
            return nil
        }
    }
}

/// Whether this process runs under ThreadSanitizer (its runtime is linked in): timing bounds in
/// tests against a real server are widened then, as the sanitizer slows every thread severalfold.
public let runningUnderSanitizer: Bool = dlsym(nil, "__tsan_init") != nil
