#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOWebSocket
import Soundstage

/// The browsers connected to a live view, and the frames they get: while at least one is
/// connected, 25 times a second, a snapshot of the mix is taken, encoded once, and written to
/// every browser that has taken the previous frame (the others lose this one).
///
/// `@unchecked Sendable`: `clients`, `timer`, `previous` and the counters are touched only on
/// `loop` (the view's one event loop thread); what other threads touch is behind `lock`.
final class LiveFeed: @unchecked Sendable {
    let device: Device
    let logger: Logger
    private var loop: EventLoop?
    private var clients: [ObjectIdentifier: Channel] = [:]
    private var timer: RepeatedTask?
    private var previous: (busy: Double, audio: Double)?
    private var previousUnderruns: Int?
    private let lock = NIOLock()
    private var lines: [LiveLogLine] = []
    private var provider: (@Sendable () -> [LiveSession])?
    private var counts = (clients: 0, sent: 0, dropped: 0)
    private var busyNanoseconds: UInt64 = 0
    private var observers: (route: Int, output: Int)?
    private var stopped = false
    static let logLimit = 40

    init(device: Device, logger: Logger) {
        self.device = device
        self.logger = logger
    }

    /// Starts logging the device's route changes and output events.
    func start(on loop: EventLoop) {
        self.loop = loop
        let route = device.addRouteObserver { [weak self] change in
            self?.log("route change: \(change.reason.rawValue)\(change.output.map { " → \($0)" } ?? "")")
        }
        let output = device.addOutputObserver { [weak self] event in
            switch event {
            case .pauseRequested: self?.log("the server asked the output to pause (an interruption)")
            case .resumeRequested: self?.log("the server let the output play again")
            case .serverLost(let reason): self?.log("the audio server was lost: \(reason)")
            case .serverReconnected: self?.log("the audio server answers again")
            case .volumeChanged, .underrun: break     // shown in the output panel
            }
        }
        lock.withLock { observers = (route, output) }
    }

    func stop() {
        let taken = lock.withLock { () -> (route: Int, output: Int)? in
            stopped = true
            defer { observers = nil }
            return observers
        }
        if let taken {
            device.removeRouteObserver(taken.route)
            device.removeOutputObserver(taken.output)
        }
        if let loop {
            try? loop.submit { [self] in
                timer?.cancel()
                timer = nil
                for channel in clients.values { channel.close(promise: nil) }
                clients.removeAll()
                if device.metersForSnapshots { device.metersForSnapshots = false }
            }.wait()
        }
    }

    var sessionProvider: (@Sendable () -> [LiveSession])? {
        get { lock.withLock { provider } }
        set { lock.withLock { provider = newValue } }
    }

    func log(_ line: String) {
        let time = Date().timeIntervalSince1970
        lock.withLock {
            lines.append(LiveLogLine(time: time, text: line))
            if lines.count > Self.logLimit { lines.removeFirst(lines.count - Self.logLimit) }
        }
    }

    var clientCount: Int { lock.withLock { counts.clients } }
    var frameCounts: (sent: Int, dropped: Int) { lock.withLock { (counts.sent, counts.dropped) } }
    var busySeconds: Double { lock.withLock { Double(busyNanoseconds) / 1e9 } }

    // MARK: On the event loop

    /// A browser connected (on the loop).
    func add(_ channel: Channel) {
        guard !lock.withLock({ stopped }) else {
            channel.close(promise: nil)
            return
        }
        clients[ObjectIdentifier(channel)] = channel
        sinceFull = Int.max          // the newcomer gets everything in its first frame
        lock.withLock { counts.clients = clients.count }
        logger.info("live view: a browser connected (\(clients.count) now)")
        guard timer == nil else { return }
        device.metersForSnapshots = true
        previous = nil
        let period = TimeAmount.nanoseconds(1_000_000_000 / Int64(LiveView.framesPerSecond))
        timer = channel.eventLoop.scheduleRepeatedTask(initialDelay: .zero, delay: period) { [weak self] _ in self?.frame() }
    }

    /// A browser went away (on the loop).
    func remove(_ channel: Channel) {
        guard clients.removeValue(forKey: ObjectIdentifier(channel)) != nil else { return }
        lock.withLock { counts.clients = clients.count }
        logger.info("live view: a browser left (\(clients.count) now)")
        guard clients.isEmpty else { return }
        timer?.cancel()
        timer = nil
        device.metersForSnapshots = false
    }

    /// One frame: a snapshot, encoded once, to every browser ready for it (on the loop).
    /// CPU time of the calling thread, in nanoseconds (what the view's work costs, not how long
    /// the thread waited for a core).
    private static func threadCPUNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    private func frame() {
        let started = Self.threadCPUNanoseconds()
        let data = encodedFrame(pushed: true)
        var sent = 0, dropped = 0
        for channel in clients.values {
            guard channel.isWritable else {
                dropped += 1
                continue
            }
            let buffer = channel.allocator.buffer(bytes: data)
            channel.writeAndFlush(WebSocketFrame(fin: true, opcode: .text, data: buffer), promise: nil)
            sent += 1
        }
        let spent = Self.threadCPUNanoseconds() - started
        lock.withLock {
            counts.sent += sent
            counts.dropped += dropped
            busyNanoseconds += spent
        }
    }

    /// Frames since the last full one, and whether a browser that just came needs one now.
    private var sinceFull = Int.max
    private var lastSize = 4_096
    /// One frame in ten carries everything; the others only what changes every frame.
    static let fullEvery = 10

    /// The JSON of one frame. The browsers' frames (`pushed`) move the load, underrun and
    /// full-frame counters on; a frame asked for apart (`GET /state`, ``LiveView/frame(full:)``)
    /// leaves them as they are, so a script polling the view takes nothing from the page.
    func encodedFrame(full forced: Bool = false, fast: Bool = false, pushed: Bool = false) -> [UInt8] {
        let full = forced || (!fast && sinceFull >= Self.fullEvery - 1)
        if pushed { sinceFull = full ? 0 : sinceFull + 1 }
        let snapshot = device.mixSnapshot(meters: true, details: full)
        var load: Double?
        if let previous, snapshot.audioSeconds > previous.audio {
            load = max(0, snapshot.busySeconds - previous.busy) / (snapshot.audioSeconds - previous.audio)
        }
        let underrunsNow = snapshot.output.underruns
        let newUnderruns = previousUnderruns.map { max(0, underrunsNow - $0) } ?? 0
        if pushed {
            previous = (snapshot.busySeconds, snapshot.audioSeconds)
            previousUnderruns = underrunsNow
        }
        let (provider, log, counts, busy) = lock.withLock { (self.provider, lines, self.counts, busyNanoseconds) }
        var writer = LiveFrameWriter(capacity: lastSize + lastSize / 4)
        writer.frame(snapshot, full: full, renderLoad: load, newUnderruns: newUnderruns, sessions: full ? provider?() ?? [] : [],
                     log: full ? log : [], view: .init(browsers: counts.clients, sent: counts.sent, dropped: counts.dropped,
                                                       busySeconds: Double(busy) / 1e9, framesPerSecond: LiveView.framesPerSecond))
        if full { lastSize = writer.bytes.count }
        return writer.bytes
    }
}

/// One line of the page's event log.
struct LiveLogLine: Codable, Sendable {
    /// Seconds since 1970.
    var time: Double
    var text: String
}

/// What the page gets 25 times a second (written by ``LiveFrameWriter``): the snapshot, the
/// render's share of a core since the previous frame, underruns since then, the sessions and the
/// log (in full frames), and the view's own counters.
enum LiveFrame {
    /// The view's own counters.
    struct View {
        var browsers: Int
        var sent: Int
        var dropped: Int
        var busySeconds: Double
        var framesPerSecond: Int
    }
}
