import Foundation
import NIOConcurrencyHelpers
import Soundstage
import SoundstageLiveView
import SoundstageScenes
import Testing
import TestSupport

/// A device mixing in real time on a thread of its own (a loopback device, rendered 10 ms at a
/// time at the pace of the clock), with a hook run before each slice.
final class RealTimeLoopback: @unchecked Sendable {
    // @unchecked: `running` is an atomic box; `beforeSlice` is set before `start()`.
    let device: Device
    private let running = NIOLockedValueBox(true)
    private let done = DispatchSemaphore(value: 0)
    var beforeSlice: ((Double) -> Void)?

    init(_ device: Device) { self.device = device }

    func start() {
        Thread.detachNewThread { [self] in
            let start = Date()
            while running.withLockedValue({ $0 }) {
                beforeSlice?(device.mixTime)
                _ = try? device.render(frames: 480)
                let ahead = device.mixTime - Date().timeIntervalSince(start)
                if ahead > 0 { usleep(useconds_t(ahead * 1e6)) }
            }
            done.signal()
        }
    }

    func stop() {
        running.withLockedValue { $0 = false }
        done.wait()
    }
}

@Suite struct LiveViewTests {
    static let root: URL = {
        var dir = URL(fileURLWithPath: #filePath)
        while !FileManager.default.fileExists(atPath: dir.appendingPathComponent("Package.swift").path) { dir.deleteLastPathComponent() }
        return dir
    }()

    /// Every request needs the token: the page, the state and the WebSocket answer 403 without
    /// it or with a wrong one; with it, the page and a frame of JSON.
    @Test func requestsWithoutTheTokenAreRefused() throws {
        let device = try Device.loopback()
        let view = try device.startLiveView()
        defer { view.stop(); device.close() }
        #expect(view.url.hasPrefix("http://127.0.0.1:\(view.port)/?token="))
        #expect(view.token.count == 64)
        #expect(try PlainHTTP.get(port: view.port, path: "/").status == 403)
        #expect(try PlainHTTP.get(port: view.port, path: "/?token=" + String(view.token.reversed())).status == 403)
        #expect(try PlainHTTP.get(port: view.port, path: "/state").status == 403)
        let upgrade = ["Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version": "13"]
        let noToken = try PlainHTTP.get(port: view.port, path: "/ws", headers: upgrade)
        #expect(noToken.status == 403, "\(noToken.headers)")
        #expect(try PlainHTTP.get(port: view.port, path: "/ws?token=x" + view.token, headers: upgrade).status == 403)
        let page = try PlainHTTP.get(port: view.port, path: "/?token=\(view.token)")
        #expect(page.status == 200 && page.body.contains("<title>Soundstage live view</title>"))
        #expect(!page.body.contains(" src=") && !page.body.contains("<link") && !page.body.contains("import("),
                "the page loads nothing from elsewhere")
        #expect(try PlainHTTP.get(port: view.port, path: "/nothing?token=\(view.token)").status == 404)
        let state = try PlainHTTP.get(port: view.port, path: "/state?token=\(view.token)")
        #expect(state.status == 200)
        let json = try JSONSerialization.jsonObject(with: Data(state.body.utf8)) as? [String: Any]
        #expect((json?["snapshot"] as? [String: Any])?["sampleRate"] as? Int == 48_000)
        let accepted = try PlainHTTP.get(port: view.port, path: "/ws?token=\(view.token)", headers: upgrade)
        #expect(accepted.status == 101, "\(accepted.headers)")
    }

    /// Binding anything but loopback needs `allowRemote`; a port out of range is refused.
    @Test func itStaysOnLoopbackUnlessToldAndRefusesBadPorts() throws {
        let device = try Device.loopback()
        defer { device.close() }
        #expect(throws: SoundstageError.self) { try device.startLiveView(host: "0.0.0.0") }
        #expect(throws: SoundstageError.self) { try device.startLiveView(port: 70_000) }
        #expect(throws: SoundstageError.self) { try device.startLiveView(port: -1) }
        let view = try device.startLiveView()
        defer { view.stop() }
        #expect(throws: SoundstageError.self) { try device.startLiveView(port: view.port) }
    }

    /// With no browser connected the view takes no snapshot and turns on no meter.
    @Test func withoutABrowserItDoesNothing() throws {
        let device = try Device.loopback()
        let view = try device.startLiveView()
        defer { view.stop(); device.close() }
        _ = try device.render(frames: 4_800)
        usleep(300_000)
        #expect(view.frameCounts.sent == 0 && view.frameCounts.dropped == 0)
        #expect(view.busySeconds == 0)
        #expect(!device.metersForSnapshots && !device.isOutputMeteringEnabled)
    }

    /// A browser that stops reading loses frames; the view queues nothing behind it, and the
    /// frames of the others go on. (400 sources make frames of about 150 KB, so a stalled
    /// socket backs up within a second.)
    @Test func aStalledBrowserLosesFramesInsteadOfQueueingThem() throws {
        let device = try Device.loopback()
        let scene = try device.makeScene(sourceBudget: 32)
        scene.virtualizesVoices = true
        let buffer = try device.makeBuffer(Signals.sine(440, seconds: 0.5))
        var sources: [Source] = []
        for index in 0..<400 {
            let source = scene.makeSource(buffer: buffer)
            source.position = Vector3(Float(index % 20) - 10, 0, Float(index / 20) - 10)
            source.isLooping = true
            try source.play()
            sources.append(source)
        }
        let mixer = RealTimeLoopback(device)
        mixer.start()
        let view = try device.startLiveView()
        defer { view.stop(); mixer.stop(); device.close() }
        let stalled = try PlainHTTP.stalledWebSocket(port: view.port, path: "/ws?token=\(view.token)")
        defer { close(stalled) }
        let deadline = Date().addingTimeInterval(20)
        while view.frameCounts.dropped < 5 && Date() < deadline { usleep(50_000) }
        let counts = view.frameCounts
        #expect(counts.dropped >= 5, "sent \(counts.sent), dropped \(counts.dropped)")
        #expect(view.connectedBrowsers == 1)
        // Still there after dropping, and what it sent is bounded by what the socket took.
        let sentBefore = view.frameCounts.sent
        usleep(500_000)
        #expect(view.frameCounts.sent - sentBefore <= 2, "no frame is written while the browser reads nothing")
        withExtendedLifetime(sources) {}
    }

    /// A snapshot holds what plays where, and why a voice is virtual.
    @Test func aSnapshotShowsSourcesVoicesAndZones() throws {
        let device = try Device.loopback()
        defer { device.close() }
        let scene = try device.makeScene(sourceBudget: 1)
        scene.virtualizesVoices = true
        let buffer = try device.makeBuffer(Signals.sine(440, seconds: 1))
        let group = scene.makeGroup("ambience")
        let near = scene.makeSource(buffer: buffer), far = scene.makeSource(buffer: buffer)
        near.position = Vector3(1, 0, -1)
        far.position = Vector3(-30, 0, 5)
        far.group = group
        near.isLooping = true
        far.isLooping = true
        try far.play()
        try near.play()     // louder: it takes the one voice, and the far one goes virtual
        _ = try scene.makeReverbZone("cave", preset: .cave, region: .sphere(center: Vector3(0, 0, -10), radius: 4, fade: 2))
        _ = try device.render(frames: 4_800)
        let snapshot = device.mixSnapshot()
        let sceneSnapshot = try #require(snapshot.scenes.first)
        #expect(sceneSnapshot.realVoices == 1 && sceneSnapshot.virtualVoices == 1 && sceneSnapshot.sourceBudget == 1)
        let virtual = try #require(sceneSnapshot.sources.first { $0.isVirtual })
        #expect(virtual.position == Vector3(-30, 0, 5) && virtual.group == "ambience")
        #expect(virtual.virtualReason?.hasPrefix("outranked") == true, "\(virtual.virtualReason ?? "")")
        let real = try #require(sceneSnapshot.sources.first { !$0.isVirtual })
        #expect(real.level > virtual.level)
        #expect(sceneSnapshot.recentVoiceEvents.contains { $0.kind == "virtualized" && $0.source == virtual.id })
        #expect(sceneSnapshot.zones.first?.shape == "sphere" && sceneSnapshot.zones.first?.radius == 4)
        #expect(sceneSnapshot.groups.map(\.name) == ["ambience"])
    }

    /// A desktop output that rests says so in the browser ("(resting)" on the output line), and
    /// stops saying so when a sound wakes it.
    @Test(.enabled(if: HeadlessBrowser.isInstalled && AudioServerFixture.Kind.pulseaudio.isInstalled))
    func theLiveViewShowsTheOutputResting() throws {
        let fixture = try AudioServerFixture(.pulseaudio)
        let device = try Device.openDesktop(DesktopOutputOptions(applicationName: "live-view-tests", server: fixture.server, idleTimeout: 0.3))
        let scene = try device.makeScene()
        let source = scene.makeSource(buffer: try device.makeBuffer(Signals.sine(440, seconds: 1)))
        let view = try device.startLiveView()
        let browser = try HeadlessBrowser()
        defer { browser.quit(); view.stop(); device.close() }
        let tab = try browser.open(view.url)
        try tab.wait(until: "document.getElementById('output').textContent.includes('(resting)')")
        #expect(device.outputStatus.resting)
        try source.play()
        try tab.wait(until: "document.getElementById('output').textContent.startsWith('desktop') && !document.getElementById('output').textContent.includes('(resting)')")
    }

    /// The orbit scene in a real browser: the bee's dot moves around the listener between two
    /// reads, each read where the scene's path puts it at the frame's time, drawn at that place
    /// on the map; the output meter moves. And the page from a URL without the token is refused.
    @Test(.enabled(if: HeadlessBrowser.isInstalled)) func theOrbitBeeMovesOnTheMapInARealBrowser() throws {
        let description = try SceneDescription.load(path: Self.root.appendingPathComponent("Examples/scenes/orbit.json").path)
        let bee = try #require(description.sources.first { $0.name == "bee" }?.path)
        let device = try Device.loopback()
        let runner = try SceneRunner(description, device: device)
        let mixer = RealTimeLoopback(device)
        mixer.beforeSlice = { time in try? runner.advance(to: time.truncatingRemainder(dividingBy: description.duration)) }
        mixer.start()
        let view = try device.startLiveView()
        let browser = try HeadlessBrowser()
        defer { browser.quit(); view.stop(); mixer.stop(); runner.close(); device.close() }

        let tab = try browser.open(view.url)
        try tab.wait(until: "window.liveView && window.liveView.frames > 5 && document.querySelector('#map circle.source')")
        let read = """
            (() => { const c = document.querySelector('#map circle.source'), m = document.getElementById('map');
                     const meters = [...document.querySelectorAll('#meterList [data-key=output] .meter')].map(m => Number(m.dataset.db));
                     return [Number(m.dataset.time), Number(c.dataset.x), Number(c.dataset.z), Number(c.getAttribute('cx')),
                             Number(c.getAttribute('cy')), Number(m.dataset.scale), c.getAttribute('class'), Math.max(...meters),
                             window.liveView.frames]; })()
            """
        let first = try #require(try tab.evaluate(read) as? [Any])
        usleep(700_000)
        let second = try #require(try tab.evaluate(read) as? [Any])
        for reading in [first, second] {
            let time = reading[0] as! Double, x = reading[1] as! Double, z = reading[2] as! Double
            let expected = bee.position(at: time.truncatingRemainder(dividingBy: description.duration))
            #expect(abs(Double(expected.x) - x) < 0.15 && abs(Double(expected.z) - z) < 0.15,
                    "at \(time) s the map shows the bee at (\(x), \(z)), its path has (\(expected.x), \(expected.z))")
            let scale = reading[5] as! Double
            #expect(abs(reading[3] as! Double - x * scale) < 1 && abs(reading[4] as! Double - z * scale) < 1, "drawn where it is: \(reading)")
            #expect(reading[6] as? String == "source", "a real, playing voice: \(reading[6])")
            #expect((reading[7] as! Double) > -40, "the output meter shows the bee (in its louder ear): \(reading[7]) dB")
        }
        let moved = hypot((first[1] as! Double) - (second[1] as! Double), (first[2] as! Double) - (second[2] as! Double))
        #expect(moved > 0.3, "the bee moved \(moved) m on the map in 0.7 s")
        #expect(first[7] as! Double != second[7] as! Double, "the meter moves: \(first[7]) dB, then \(second[7]) dB")
        // 25 a second, so about 17 in 0.7 s; fewer when the machine is loaded (a sanitizer, the
        // tests beside it), but they keep coming.
        #expect((second[8] as! Double) - (first[8] as! Double) >= 3, "frames keep coming: \(first[8]) then \(second[8])")
        if let directory = ProcessInfo.processInfo.environment["SOUNDSTAGE_SCREENSHOTS"] {
            try tab.screenshot().write(to: URL(fileURLWithPath: directory).appendingPathComponent("live-view-orbit.png"))
        }

        let refused = try browser.open("http://127.0.0.1:\(view.port)/")
        try refused.wait(until: "document.body && document.body.innerText.includes('403')")
        let socket = try tab.evaluate("""
            new Promise(done => { const ws = new WebSocket('ws://127.0.0.1:\(view.port)/ws');
                                  ws.onopen = () => done('opened'); ws.onerror = () => done('refused'); })
            """)
        #expect(socket as? String == "refused")
        #expect(view.frameCounts.sent > 0)
    }

    /// A game's scene in a real browser: a budget of two voices for three playing sources in two
    /// groups, a reverb zone, the game's session. The far source is drawn hollow (virtual), and
    /// clicking it says why; the near ones are drawn solid; the session and the log are shown.
    @Test(.enabled(if: HeadlessBrowser.isInstalled)) func aVirtualVoiceIsDrawnAsVirtual() throws {
        let device = try Device.loopback()
        let center = AudioSessionCenter(device: device)
        let session = center.makeSession(category: .soloAmbient)
        try session.setActive(true)
        let scene = try device.makeScene(sourceBudget: 2)
        session.attach(scene)
        scene.virtualizesVoices = true
        // A group name with quotes (the page must not build selectors from it unescaped).
        let npc = scene.makeGroup("npc"), ambience = scene.makeGroup("ambience \"far\"")
        _ = try scene.makeReverbZone("hall", preset: .hallway, region: .sphere(center: Vector3(0, 0, -6), radius: 3, fade: 2))
        let buffer = try device.makeBuffer(Signals.sine(440, seconds: 1))
        var sources: [Source] = []
        for (position, group) in [(Vector3(2, 0, 0), npc), (Vector3(0, 0, -5), npc), (Vector3(-20, 0, -20), ambience)] {
            let source = scene.makeSource(buffer: buffer)
            source.position = position
            source.group = group
            source.isLooping = true
            try source.play()
            sources.append(source)
        }
        let mixer = RealTimeLoopback(device)
        mixer.start()
        let view = try device.startLiveView()
        view.sessionProvider = { [LiveSession(name: "the game", session: session)] }
        view.log("level loaded")
        let browser = try HeadlessBrowser()
        defer { browser.quit(); view.stop(); mixer.stop(); device.close() }
        let tab = try browser.open(view.url)
        try tab.wait(until: "document.querySelectorAll('#map circle.source').length == 3 && document.querySelector('#meterList [data-key=output] .meter')")
        let drawn = try #require(try tab.evaluate("""
            [...document.querySelectorAll('#map circle.source')].map(c => [Number(c.dataset.x), c.getAttribute('class'),
                getComputedStyle(c).fill])
            """) as? [[Any]])
        let farDot = try #require(drawn.first { $0[0] as? Double == -20 })
        #expect(farDot[1] as? String == "source virtual" && farDot[2] as? String == "none", "hollow: \(farDot)")
        for dot in drawn where dot[0] as? Double != -20 {
            #expect(dot[1] as? String == "source" && dot[2] as? String != "none", "solid: \(dot)")
        }
        #expect(try tab.evaluate("document.getElementById('virtual0').textContent") as? String == "1")
        #expect(try tab.evaluate("document.getElementById('real0').textContent") as? String == "2")
        #expect((try tab.evaluate("document.getElementById('sessions').innerText") as? String)?.contains("the game") == true)
        #expect((try tab.evaluate("document.getElementById('log').innerText") as? String)?.contains("level loaded") == true)
        #expect(try tab.evaluate("document.querySelectorAll('#zones circle.zone').length") as? Int == 1)
        // The scene's and the groups' meters (updated ten times a second) hold between updates:
        // never blank in any of ten reads; the group that only holds the virtual source is silent.
        let meterScript = "['scene0', 'g0npc', 'g0ambience \"far\"'].map(k => Math.max(...[...document.querySelectorAll("
            + "`#meterList [data-key=\"${CSS.escape(k)}\"] .meter`)].map(m => Number(m.dataset.db))))"
        try tab.wait(until: "(\(meterScript))[0] > -160")
        for _ in 0..<10 {
            let meters = try #require(try tab.evaluate(meterScript) as? [Double])
            #expect(meters[0] > -40 && meters[1] > -40 && meters[2] < -100, "scene, npc, ambience: \(meters) dB")
            usleep(30_000)
        }
        // Click the virtual one: its details say why it is virtual.
        _ = try tab.evaluate("""
            [...document.querySelectorAll('#map circle.source')].find(c => c.dataset.x == '-20').dispatchEvent(new MouseEvent('click'))
            """)
        try tab.wait(until: "document.getElementById('details').innerText.includes('outranked')")
        if let directory = ProcessInfo.processInfo.environment["SOUNDSTAGE_SCREENSHOTS"] {
            usleep(1_500_000)   // trails and the load graph fill in
            try tab.screenshot().write(to: URL(fileURLWithPath: directory).appendingPathComponent("live-view.png"))
        }
        withExtendedLifetime(sources) {}
    }
}
