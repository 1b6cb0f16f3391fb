import Foundation
import Soundstage
import SoundstageLiveView
import TestSupport

/// `soundstage-bench live-view`: what the live view costs a game. A scene of 64 looping sources
/// moving every 10 ms plays in real time on a loopback device (its own render thread), three
/// ways in turn: without a live view, with one that no browser watches, and with a real headless
/// Chromium watching it (25 frames a second). For each, the render's CPU (`Device.renderLoad`),
/// the view's own CPU (taking, encoding and sending frames: `LiveView.busySeconds`), the meters'
/// share of the render, and the process's CPU (getrusage; the browser is another process).
/// Medians of 3 rounds of 6 s. Goal: the view, with a browser, ≤ 1 % of the render's CPU.
func liveViewBench() throws {
    guard HeadlessBrowser.isInstalled else {
        print("soundstage-bench live-view: needs chromium (apt-get install chromium)")
        return
    }
    let browser = try HeadlessBrowser()
    defer { browser.quit() }
    for hrtf in [false, true] { try liveViewBench(hrtf: hrtf, browser: browser) }
}

/// One configuration of ``liveViewBench()``: a plain stereo render, or a binaural (HRTF) one,
/// which costs a game about eighteen times more.
private func liveViewBench(hrtf: Bool, browser: HeadlessBrowser) throws {
    let seconds = 6.0, count = 64
    enum Mode: String, CaseIterable { case none = "no live view", idle = "live view, no browser", watched = "live view, a browser watching" }
    struct Round { var render: Double; var metering: Double; var view: Double; var process: Double; var frames: Int; var dropped: Int }

    var parts = (snapshot: [Double](), fast: [Double](), full: [Double](), bytes: (0, 0))
    func round(_ mode: Mode, browser: HeadlessBrowser?) throws -> Round {
        let device = try Device.loopback(sampleRate: rate, hrtf: hrtf)
        defer { device.close() }
        let scene = try device.makeScene(sourceBudget: 32)
        scene.virtualizesVoices = true
        let buffer = try device.makeBuffer(AudioBuffer(samples: (0..<rate).map { Float(sin(2 * Double.pi * 440 * Double($0) / Double(rate)) * 0.2) },
                                                       channels: 1, sampleRate: rate))
        let group = scene.makeGroup("world")
        let sources = (0..<count).map { index -> Source in
            let source = scene.makeSource(buffer: buffer)
            source.isLooping = true
            source.group = group
            source.position = Vector3(Float(index % 8) - 4, 0, Float(index / 8) - 4)
            return source
        }
        for source in sources { try source.play() }
        let renderer = try RealTimeRenderer(device: device)
        renderer.start()
        var view: LiveView?
        var tab: HeadlessBrowser.Tab?
        if mode != .none { view = try device.startLiveView() }
        if mode == .watched, let view, let browser {
            tab = try browser.open(view.url)
            try tab?.wait(until: "window.liveView && window.liveView.frames > 2")
        }
        usleep(300_000)
        let loadBefore = device.renderLoad, viewBefore = view?.busySeconds ?? 0
        let framesBefore: (sent: Int, dropped: Int) = view?.frameCounts ?? (0, 0)
        let cpuBefore = cpuSeconds(), start = Date()
        var step = 0
        while Date().timeIntervalSince(start) < seconds {
            step += 1
            let angle = Float(step) * 0.01
            for (index, source) in sources.enumerated() {
                let radius = 2 + Float(index % 16)
                source.position = Vector3(radius * cos(angle + Float(index)), 0, radius * sin(angle + Float(index)))
            }
            usleep(10_000)
        }
        let load = device.renderLoad, cpu = cpuSeconds() - cpuBefore
        let frames: (sent: Int, dropped: Int) = view?.frameCounts ?? (0, 0)
        let result = Round(render: load.busySeconds - loadBefore.busySeconds, metering: load.meteringSeconds - loadBefore.meteringSeconds,
                           view: (view?.busySeconds ?? 0) - viewBefore, process: cpu, frames: frames.sent - framesBefore.sent,
                           dropped: frames.dropped - framesBefore.dropped)
        if mode == .watched, let view {
            // The parts of a frame, on this scene: the snapshot alone, and whole frames.
            func perCall(_ body: () throws -> Void) rethrows -> Double {
                let start = DispatchTime.now().uptimeNanoseconds
                for _ in 0..<500 { try body() }
                return Double(DispatchTime.now().uptimeNanoseconds - start) / 500 / 1_000
            }
            parts.snapshot.append(perCall { _ = device.mixSnapshot(meters: false, details: false) })
            parts.fast.append(try perCall { _ = try view.frame(full: false) })
            parts.full.append(try perCall { _ = try view.frame(full: true) })
            parts.bytes = try (view.frame(full: false).count, view.frame(full: true).count)
        }
        if tab != nil { _ = try? tab?.evaluate("window.close()") }
        view?.stop()
        try renderer.stop()
        return result
    }

    var rounds: [Mode: [Round]] = [:]
    for _ in 0..<3 {
        for mode in Mode.allCases { rounds[mode, default: []].append(try round(mode, browser: browser)) }
    }
    print("soundstage-bench live-view, \(hrtf ? "binaural (HRTF)" : "plain stereo") render: \(count) moving sources (32 real voices), "
          + "\(Int(seconds)) s in real time per round, medians of 3")
    let base = median(rounds[.none]!.map(\.render))
    for mode in Mode.allCases {
        let r = rounds[mode]!
        let render = median(r.map(\.render)), metering = median(r.map(\.metering)), view = median(r.map(\.view))
        let process = median(r.map(\.process))
        print(String(format: "  %-30@ render %.3f s CPU (%.2f %% of a core; ×%.3f), meters in it %.4f s, view %.4f s, process %.3f s, frames %d (dropped %d)",
                     mode.rawValue as NSString, render, render / seconds * 100, render / base, metering, view, process,
                     median(r.map { Double($0.frames) }).isNaN ? 0 : Int(median(r.map { Double($0.frames) })),
                     Int(median(r.map { Double($0.dropped) }))))
        if mode == .watched {
            print(String(format: "  the view's cost with a browser: %.2f %% of the render's CPU (its own thread %.2f %%, meters %.2f %%); %.3f %% of a core",
                         (view + metering) / render * 100, view / render * 100, metering / render * 100, (view + metering) / seconds * 100))
        }
        if mode == .watched {
            print(String(format: "  one frame on the view's thread: snapshot %.1f µs; a frame %.1f µs (%d bytes), a full one %.1f µs (%d bytes; one in %d)",
                         median(parts.snapshot), median(parts.fast), parts.bytes.0, median(parts.full), parts.bytes.1, 10))
        }
        if mode == .idle {
            print(String(format: "  without a browser: view %.4f s, frames %d: nothing to measure beyond the render's noise (×%.3f)",
                         view, Int(median(r.map { Double($0.frames) })), render / base))
        }
    }
}
