#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif
import Soundstage

/// Plays a ``SceneDescription`` on a device: loads every sound first (so nothing plays from a
/// half-valid scene), then, at each ``advance(to:)``, moves the listener and sources along
/// their paths (velocities follow from the motion unless given) and starts and stops sources at
/// their times.
///
/// Drive it offline with ``render(to:format:progress:)`` / ``renderAll()`` on a loopback device,
/// or in real time with ``playInRealTime()`` on an output device.
public final class SceneRunner {
    /// What is being played.
    public let description: SceneDescription
    /// Where it plays.
    public let device: Device
    /// One scene (OpenAL context) per context name (`world`, `ui`, ...).
    public let scenes: [String: Scene]
    /// The sources, by name.
    public let sources: [String: Source]
    /// The scene time reached by the last ``advance(to:)``, in seconds.
    public private(set) var time: Double = 0

    private var started: Set<String> = []
    private var stopped: Set<String> = []

    /// Called at each ``advance(to:)`` with the scene time, before sources start or stop: a hook
    /// for driving sessions (e.g. an interruption at a given time).
    public var onAdvance: ((Double) -> Void)?

    /// Prepares the scene on `device`: decodes or generates every sound and creates the contexts
    /// and sources. Nothing plays yet.
    ///
    /// - Throws: `.invalidScene` naming the source whose sound cannot be loaded (with the
    ///   underlying error), or the device's errors.
    /// - Parameter decodeBudget: the most bytes of decoded audio its buffers may take together;
    ///   past it, loading stops with `.tooLarge` (a server's per-client quota).
    public init(_ description: SceneDescription, device: Device, decodeBudget: Int = .max) throws {
        self.description = description
        self.device = device
        var sounds: [String: LoadedSound] = [:]
        var decoded = 0
        for (index, source) in description.sources.enumerated() {
            let sound = try Self.loadSound(source, index: index, description: description, device: device)
            if case let .buffer(buffer, _) = sound {
                decoded += buffer.frames * buffer.channels * MemoryLayout<Float>.size
                guard decoded <= decodeBudget else {
                    throw SoundstageError(.tooLarge, "its sounds decode to more than \(decodeBudget) bytes "
                                          + "(at sources[\(index)] '\(source.name)')", subject: description.file)
                }
            }
            sounds[source.name] = sound
        }
        var scenes: [String: Scene] = [:]
        let budget = max(16, description.sources.count)
        for name in description.contextNames {
            let scene = try device.makeScene(sourceBudget: budget)
            scene.distanceModel = description.distanceModel
            scene.dopplerFactor = description.dopplerFactor
            scene.speedOfSound = description.speedOfSound
            scenes[name] = scene
        }
        for zone in description.reverbZones {
            // A zone's context exists even when no source plays in it (its reverb is then silent).
            if scenes[zone.context] == nil {
                let scene = try device.makeScene(sourceBudget: budget)
                scene.distanceModel = description.distanceModel
                scenes[zone.context] = scene
            }
            do {
                try scenes[zone.context]!.makeReverbZone(zone.name, preset: zone.preset, region: zone.region, gain: zone.gain)
            } catch let error as SoundstageError {
                throw SoundstageError(.invalidScene, "reverb zone '\(zone.name)': \(error.message)", subject: description.file)
            }
        }
        if let world = scenes["world"] ?? scenes.values.first {
            world.listener.setOrientation(at: description.listener.at, up: description.listener.up)
            world.listener.gain = description.listener.gain
        }
        var sources: [String: Source] = [:]
        for (index, item) in description.sources.enumerated() {
            let source: Source
            var loops = item.loop
            switch sounds[item.name]! {
            case let .buffer(buffer, looped):
                source = scenes[item.context]!.makeSource(buffer: buffer)
                loops = loops || looped
            case let .stream(file):
                do {
                    source = try scenes[item.context]!.makeStreamingSource(opened: file)
                } catch let error as SoundstageError {
                    throw SoundstageError(.invalidScene, "sources[\(index)].sound: cannot stream '\(file.name)': \(error.message)",
                                          subject: description.file, cause: error.cause)
                }
            }
            source.gain = item.gain
            source.pitch = item.pitch
            source.isLooping = loops
            source.referenceDistance = item.referenceDistance
            source.rolloffFactor = item.rolloff
            source.maxDistance = item.maxDistance
            source.isHeadRelative = item.headRelative
            if let direction = item.direction { source.direction = direction }
            if let cone = item.cone { source.cone = cone }
            if item.occlusion != 0 { source.occlusion = item.occlusion }
            if item.obstruction != 0 { source.obstruction = item.obstruction }
            if item.airAbsorption != 0 { source.airAbsorption = item.airAbsorption }
            if item.reverbSend != 1 { source.reverbSend = item.reverbSend }
            sources[item.name] = source
        }
        self.scenes = scenes
        self.sources = sources
        apply(at: 0)
    }

    /// Bytes of decoded audio its buffers hold (each buffer once; streamed files count nothing).
    public var decodedBytes: Int {
        var seen = Set<ObjectIdentifier>()
        return sources.values.reduce(0) { total, source in
            guard let buffer = source.buffer, seen.insert(ObjectIdentifier(buffer)).inserted else { return total }
            return total + buffer.frames * buffer.channels * MemoryLayout<Float>.size
        }
    }

    /// Moves everything to scene time `t` and starts or stops the sources whose times have come.
    ///
    /// A source due while its scene's audio session does not sound starts once it does.
    public func advance(to t: Double) throws {
        time = t
        onAdvance?(t)
        apply(at: t)
        for item in description.sources {
            guard let source = sources[item.name] else { continue }
            if !started.contains(item.name) && item.start <= t && (item.stop ?? .infinity) > t {
                do {
                    try source.play()
                    started.insert(item.name)
                } catch let error as SoundstageError where error.code == .sessionNotActive {
                    // Try again at the next update.
                }
            }
            if let stop = item.stop, !stopped.contains(item.name), stop <= t {
                stopped.insert(item.name)
                source.stop()
            }
        }
    }

    /// Renders the whole scene into memory (loopback devices), advancing every update.
    public func renderAll() throws -> AudioBuffer {
        var samples: [Float] = []
        try renderChunks { samples += $0.samples }
        return AudioBuffer(samples: samples, channels: device.layout.channelCount, sampleRate: device.sampleRate)
    }

    /// Renders the whole scene to a file (loopback devices), faster than real time.
    ///
    /// Checks first that `format` can hold the scene's length (a `.tooLarge` error names formats
    /// that can). Memory stays one chunk whatever the length.
    /// - Parameters:
    ///   - progress: called with the fraction done (0...1) after each chunk.
    ///   - isCancelled: asked after each chunk; when it says true the render stops there and the
    ///     file is completed with what was rendered (a valid, playable file).
    /// - Returns: the seconds rendered.
    @discardableResult
    public func render(to path: String, format: OutputFormat = .wavFloat32, progress: ((Double) -> Void)? = nil,
                       isCancelled: (() -> Bool)? = nil) throws -> Double {
        try format.checkCapacity(seconds: description.duration, sampleRate: device.sampleRate,
                                 channels: device.layout.channelCount, path: path)
        let writer = try SoundFileWriter(path: path, format: format, sampleRate: device.sampleRate,
                                         channels: device.layout.channelCount)
        try renderChunks(progress: progress, isCancelled: isCancelled) { try writer.write($0) }
        try writer.finish()
        return Double(writer.framesWritten) / Double(device.sampleRate)
    }

    /// Plays the scene on a real-time output device, advancing every 10 ms, and returns at its end.
    /// On a device the engine renders (the desktop output), scene time is the device's mix time,
    /// so the scene waits with the audio while the desktop server is away, and every source starts
    /// on exactly its start's sample: it is scheduled (``Scene/play(_:at:)``) up to
    /// ``startLookahead`` ahead, so neither the 10 ms loop nor the output's first fill (which mixes
    /// its whole latency at once) makes it late. `isCancelled`, asked every 10 ms, ends it early
    /// (every source stops).
    public func playInRealTime(isCancelled: (() -> Bool)? = nil) throws {
        let start = Date()
        let onMixClock = device.kind == .desktop
        // On the desktop output, scene time 0 is one output latency (and an update) past the mix
        // clock now: the output's first fill mixes up to its latency at once, and could pass an
        // early start before the loop schedules it.
        let lead = onMixClock ? (device.outputStatus.targetLatency ?? 0.1) + 0.01 : 0
        let mixStart = device.mixTime + lead
        while true {
            let t = onMixClock ? device.mixTime - mixStart : Date().timeIntervalSince(start)
            if onMixClock { scheduleStarts(after: t, mixStart: mixStart) }
            if t >= 0 { try advance(to: min(t, description.duration)) }
            if t >= description.duration || isCancelled?() == true { break }
            usleep(10_000)
        }
        stop()
    }

    /// How far ahead of the mix ``playInRealTime(isCancelled:)`` schedules starts on a desktop
    /// output, in seconds: more than the loop's period and an output's first fill.
    public static let startLookahead = 0.25

    /// Schedules, on their exact frames, the starts due after scene time `t` and within
    /// ``startLookahead`` of it (scene time 0 is device time `mixStart`). A start the mix has
    /// passed meanwhile, or one refused (an inactive session), is left to ``advance(to:)``, which
    /// starts it at once or retries.
    private func scheduleStarts(after t: Double, mixStart: Double) {
        for item in description.sources where item.start > t && item.start <= t + Self.startLookahead {
            guard !started.contains(item.name), (item.stop ?? .infinity) > item.start,
                  let source = sources[item.name] else { continue }
            if (try? source.scene.play([source], at: mixStart + item.start)) != nil { started.insert(item.name) }
        }
    }

    /// Stops every source and rewinds to scene time 0: the next ``advance(to:)`` plays the scene
    /// again from its start.
    public func stop() {
        for source in sources.values { source.stop() }
        started.removeAll()
        stopped.removeAll()
        time = 0
        apply(at: 0)
    }

    /// Stops every source and closes the scenes (the device stays open).
    public func close() {
        for scene in scenes.values { scene.close() }
    }

    private func renderChunks(progress: ((Double) -> Void)? = nil, isCancelled: (() -> Bool)? = nil,
                              _ consume: (AudioBuffer) throws -> Void) throws {
        let rate = device.sampleRate
        let total = Int((description.duration * Double(rate)).rounded())
        let step = device.updateFrames
        var frame = 0
        var lastReport = 0
        while frame < total, !(isCancelled?() ?? false) {
            try advance(to: Double(frame) / Double(rate))
            let count = min(step, total - frame)
            try consume(try device.render(frames: count))
            frame += count
            if let progress, frame - lastReport >= rate / 4 || frame == total {
                lastReport = frame
                progress(Double(frame) / Double(total))
            }
        }
    }

    /// Positions and velocities at time `t`.
    private func apply(at t: Double) {
        let listener = description.listener
        if let world = scenes["world"] ?? scenes.values.first {
            if let path = listener.path {
                world.listener.position = path.position(at: t)
                world.listener.velocity = listener.velocity ?? path.velocity(at: t)
            } else {
                world.listener.position = listener.position
                world.listener.velocity = listener.velocity ?? .zero
            }
        }
        for item in description.sources {
            guard let source = sources[item.name] else { continue }
            if let path = item.path {
                source.position = path.position(at: t)
                source.velocity = item.velocity ?? path.velocity(at: t)
            } else {
                source.position = item.position
                source.velocity = item.velocity ?? .zero
            }
        }
    }

    /// What a source of the scene plays: a buffer (`looped` when a long tone was made a loop), or
    /// a file it streams.
    enum LoadedSound {
        case buffer(Buffer, looped: Bool)
        case stream(SoundFile)
    }

    private static func loadSound(_ source: SourceDescription, index: Int, description: SceneDescription,
                                  device: Device) throws -> LoadedSound {
        switch source.sound {
        case let .file(file):
            let path = file.hasPrefix("/") ? file : URL(fileURLWithPath: description.baseDirectory).appendingPathComponent(file).path
            do {
                // Long files stream unless the source says otherwise: memory stays a few chunks.
                // The file is opened once and streamed from that descriptor.
                let file = try SoundFile(path: path)
                let streams = source.stream ?? (file.format.duration > SceneDescription.streamingThreshold)
                return streams ? .stream(file) : .buffer(try device.buffer(file: path), looped: false)
            } catch let error as SoundstageError {
                throw SoundstageError(.invalidScene, "sources[\(index)].sound: cannot load '\(file)': \(error.message)",
                                      subject: description.file, cause: error.cause)
            }
        case let .tone(tone):
            let end = source.stop ?? description.duration
            let seconds = max(0.01, (end - source.start) * Double(source.pitch))
            // A looping tone, or one longer than the streaming threshold, is one seamless period
            // played in a loop (a long one loses its 5 ms fades; memory stays one period).
            if source.loop || seconds > SceneDescription.streamingThreshold {
                return .buffer(try device.makeBuffer(tone.render(seconds: tone.loopLength, sampleRate: device.sampleRate, fades: false),
                                                     name: source.name), looped: true)
            }
            return .buffer(try device.makeBuffer(tone.render(seconds: seconds, sampleRate: device.sampleRate), name: source.name),
                           looped: false)
        }
    }
}
