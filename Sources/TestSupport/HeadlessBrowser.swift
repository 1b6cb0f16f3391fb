import Foundation
import NIOConcurrencyHelpers

/// A real headless Chromium, driven through the DevTools protocol over a pipe
/// (`--remote-debugging-pipe`: commands in on its descriptor 3, answers out on 4, each a JSON
/// message ended by a NUL byte) — no WebSocket client and no port needed.
public final class HeadlessBrowser: @unchecked Sendable {
    // @unchecked: `answers` and `failure` are guarded by `lock`; `nextID` by `sendLock`.

    /// Why the browser could not do something.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        public let description: String
    }

    /// Chromium's path, if Debian's `chromium` is installed.
    public static var executable: String? {
        ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Whether a browser is installed.
    public static var isInstalled: Bool { executable != nil }

    private let process: ChildProcess
    private let commands: Int32
    private let profile: String
    private let lock = NIOLock()
    private let arrived = NSCondition()
    private var answers: [Int: [String: Any]] = [:]
    private var failure: String?
    private let sendLock = NIOLock()
    private var nextID = 0

    /// Starts Chromium headless with a throw-away profile, `width` × `height` pixels.
    public init(width: Int = 1400, height: Int = 900) throws {
        guard let executable = Self.executable else { throw Failure(description: "chromium is not installed") }
        var toBrowser: [Int32] = [0, 0], fromBrowser: [Int32] = [0, 0]
        guard ChildProcess.makePipe(&toBrowser), ChildProcess.makePipe(&fromBrowser) else { throw Failure(description: "pipe failed") }
        profile = FileManager.default.temporaryDirectory.appendingPathComponent("chromium-\(UUID())").path
        let arguments = ["--headless=new", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe", "--no-first-run",
                         "--disable-extensions", "--disable-background-networking", "--mute-audio",
                         "--user-data-dir=\(profile)", "--window-size=\(width),\(height)", "about:blank"]
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = profile
        do {
            process = try ChildProcess(executable, arguments, environment: environment, descriptors: [3: toBrowser[0], 4: fromBrowser[1]])
        } catch {
            [toBrowser[0], toBrowser[1], fromBrowser[0], fromBrowser[1]].forEach { close($0) }
            throw error
        }
        close(toBrowser[0])
        close(fromBrowser[1])
        commands = toBrowser[1]
        let answers = fromBrowser[0]
        Thread.detachNewThread { [weak self] in self?.read(from: answers) }
    }

    deinit { quit() }

    /// Ends the browser and removes its profile.
    public func quit() {
        guard process.isRunning else { return }
        _ = try? call("Browser.close", [:], timeout: 5)
        close(commands)
        for _ in 0..<50 where process.isRunning { usleep(100_000) }
        process.send(SIGKILL)
        process.wait()
        try? FileManager.default.removeItem(atPath: profile)
    }

    /// Opens `url` in a new tab and returns it.
    public func open(_ url: String) throws -> Tab {
        let target = try call("Target.createTarget", ["url": url])
        guard let id = target["targetId"] as? String else { throw Failure(description: "no target for \(url): \(target)") }
        let attached = try call("Target.attachToTarget", ["targetId": id, "flatten": true])
        guard let session = attached["sessionId"] as? String else { throw Failure(description: "cannot attach to \(url)") }
        return Tab(browser: self, session: session)
    }

    /// A tab: evaluates scripts in its page and takes screenshots.
    public struct Tab: Sendable {
        let browser: HeadlessBrowser
        let session: String

        /// The value of `expression` in the page (JSON-compatible values: numbers, strings, arrays,
        /// objects; promises awaited). Throws what the page threw.
        public func evaluate(_ expression: String, timeout: Double = 10) throws -> Any? {
            let result = try browser.call("Runtime.evaluate", ["expression": expression, "returnByValue": true, "awaitPromise": true],
                                          session: session, timeout: timeout)
            if let exception = result["exceptionDetails"] as? [String: Any] {
                throw Failure(description: "the page threw: \(exception["text"] ?? "") \((exception["exception"] as? [String: Any])?["description"] ?? "")")
            }
            return (result["result"] as? [String: Any])?["value"]
        }

        /// Waits (up to `timeout` seconds) until `condition`, a script, is true in the page.
        public func wait(until condition: String, timeout: Double = 20) throws {
            let deadline = Date().addingTimeInterval(timeout)
            while true {
                if (try? evaluate("Boolean(\(condition))")) as? Bool == true { return }
                guard Date() < deadline else { throw Failure(description: "timed out waiting for \(condition)") }
                usleep(50_000)
            }
        }

        /// A PNG of the page as it is drawn.
        public func screenshot() throws -> Data {
            let result = try browser.call("Page.captureScreenshot", ["format": "png"], session: session, timeout: 20)
            guard let text = result["data"] as? String, let data = Data(base64Encoded: text) else {
                throw Failure(description: "no screenshot")
            }
            return data
        }
    }

    /// Sends one DevTools command and waits for its answer.
    @discardableResult
    func call(_ method: String, _ params: [String: Any], session: String? = nil, timeout: Double = 20) throws -> [String: Any] {
        let id = sendLock.withLock { () -> Int in
            nextID += 1
            return nextID
        }
        var message: [String: Any] = ["id": id, "method": method, "params": params]
        if let session { message["sessionId"] = session }
        var bytes = [UInt8](try JSONSerialization.data(withJSONObject: message))
        bytes.append(0)
        try sendLock.withLock {
            var sent = 0
            while sent < bytes.count {
                let count = bytes[sent...].withUnsafeBytes { write(commands, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { throw Failure(description: "the browser stopped reading (\(method))") }
                sent += count
            }
        }
        let deadline = Date().addingTimeInterval(timeout)
        arrived.lock()
        defer { arrived.unlock() }
        while true {
            if let answer = lock.withLock({ answers.removeValue(forKey: id) }) {
                if let error = answer["error"] as? [String: Any] {
                    throw Failure(description: "\(method): \(error["message"] ?? error)")
                }
                return answer["result"] as? [String: Any] ?? [:]
            }
            if let failure = lock.withLock({ failure }) { throw Failure(description: "\(method): \(failure)") }
            guard arrived.wait(until: deadline) || Date() < deadline else { throw Failure(description: "\(method): no answer in \(timeout) s") }
        }
    }

    private func read(from descriptor: Int32) {
        var pending = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = read(descriptor, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            pending += chunk[0..<count]
            while let end = pending.firstIndex(of: 0) {
                let message = Array(pending[..<end])
                pending.removeSubrange(...end)
                guard let object = try? JSONSerialization.jsonObject(with: Data(message)) as? [String: Any],
                      let id = object["id"] as? Int else { continue }     // events are not needed here
                lock.withLock { answers[id] = object }
                arrived.lock()
                arrived.broadcast()
                arrived.unlock()
            }
        }
        close(descriptor)
        lock.withLock { failure = "the browser closed its pipe" }
        arrived.lock()
        arrived.broadcast()
        arrived.unlock()
    }

    private func read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        Glibc.read(fd, buffer, count)
    }
}
