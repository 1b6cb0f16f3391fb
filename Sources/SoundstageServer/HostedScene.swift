import NIOCore
import Soundstage
import SoundstageScenes
import SoundstageProtocol

/// A scene a client loaded: the runner (contexts, sources, motion) and, while it runs, the
/// repeated task that advances it in real time on the client's event loop.
final class HostedScene {
    let name: String
    let runner: SceneRunner
    /// The `runScene` request that started the current run (for its `sceneEnded` event).
    var runRequest: JSONValue?
    private var driver: RepeatedTask?
    private var started: NIODeadline = .now()
    /// One-shot sources started by `playAt`, until they end.
    var oneShots: [ObjectIdentifier: Source] = [:]

    init(name: String, runner: SceneRunner) {
        self.name = name
        self.runner = runner
    }

    var isRunning: Bool { driver != nil }

    /// Plays the scene from its start, advancing it every `interval`; `ended` runs on the loop
    /// when the scene's duration has passed.
    func run(on loop: EventLoop, interval: TimeAmount, ended: @escaping () -> Void) {
        stop()
        started = .now()
        let bound = NIOLoopBound((scene: self, ended: ended), eventLoop: loop)
        driver = loop.scheduleRepeatedTask(initialDelay: .zero, delay: interval) { task in
            let (scene, ended) = bound.value
            let elapsed = Double((NIODeadline.now() - scene.started).nanoseconds) / 1e9
            let duration = scene.runner.description.duration
            try? scene.runner.advance(to: min(elapsed, duration))
            if elapsed >= duration {
                task.cancel()
                scene.driver = nil
                scene.runner.stop()
                ended()
            }
        }
    }

    /// Stops the run (if any) and rewinds; one-shot sounds stop too.
    func stop() {
        driver?.cancel()
        driver = nil
        runner.stop()
        for source in oneShots.values { source.stop() }
        oneShots.removeAll()
    }

    /// Stops and frees the scene's contexts and sources.
    func close() {
        stop()
        runner.close()
    }

    /// The scene (context) `context` names, or the `world` one, or the only one.
    func scene(context: String?) -> Scene? {
        if let context { return runner.scenes[context] }
        return runner.scenes["world"] ?? runner.scenes.values.first
    }
}
