import CSoundstage
import Soundstage
import SoundstageScenes
import SoundFile
#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif
import NIOConcurrencyHelpers

/// What a scene-file handle holds: the runner, behind a lock (it is not thread-safe itself).
final class CSceneFile: HandleObject, @unchecked Sendable {
    // @unchecked: `runner` is only touched with `lock` held; the rest is immutable.
    private let lock = NIOLock()
    /// Whether a call holds the runner (a second one is refused rather than kept waiting).
    private let busy = NIOLockedValueBox(false)
    private let runner: SceneRunner
    let duration: Double
    let device: Device
    /// The runner's sources by name (its dictionary never changes after loading).
    let sources: [String: Source]

    init(_ runner: SceneRunner) {
        duration = runner.description.duration
        device = runner.device
        sources = runner.sources
        self.runner = runner
    }

    /// Runs `body` with the runner, or refuses at once while another call holds it (a real-time
    /// play lasts as long as the scene): no caller's thread waits for a scene to end.
    func with<R>(_ body: (SceneRunner) throws -> R) throws -> R {
        let claimed = busy.withLockedValue { busy in
            defer { busy = true }
            return !busy
        }
        guard claimed else {
            throw CAPIError(SS_ERROR_INVALID_STATE, "the scene file is busy (playing or rendering on another thread)")
        }
        defer { busy.withLockedValue { $0 = false } }
        return try lock.withLock { try body(runner) }
    }

    /// Closes the runner. A play still running ends within 10 ms once its handle is dead, so this
    /// waits for it (it runs when the handle is destroyed, after any call with it has returned).
    func handleDestroyed() { lock.withLock { runner.close() } }
}


@inline(__always)
private func withSceneFile<R>(_ handle: OpaquePointer?, _ body: (CSceneFile) throws -> R) throws -> R {
    try HandleTable.shared.with(handle, .sceneFile, as: CSceneFile.self, body)
}

@c @implementation
public func ss_scene_file_load(_ device: OpaquePointer?, _ path: UnsafePointer<CChar>?,
                               _ out: UnsafeMutablePointer<OpaquePointer?>?) -> ss_result {
    capi {
        let out = try require(out, "out_file")
        let path = try string(path, "path")
        let runner = try withDevice(device) { c in
            try SceneRunner(try SceneDescription.load(path: path), device: c.device)
        }
        for scene in runner.scenes.values { scene.installCRefusalHandler() }
        try publish(CSceneFile(runner), .sceneFile, parent: device, to: out)
    }
}

@c @implementation
public func ss_scene_file_destroy(_ file: OpaquePointer?) -> ss_result {
    capi { try HandleTable.shared.destroy(file, kind: .sceneFile) }
}

@c @implementation
public func ss_scene_file_get_duration(_ file: OpaquePointer?, _ out: UnsafeMutablePointer<Double>?) -> ss_result {
    capi {
        let out = try require(out)
        out.pointee = try withSceneFile(file) { $0.duration }
    }
}

@c @implementation
public func ss_scene_file_render(_ file: OpaquePointer?, _ path: UnsafePointer<CChar>?, _ format: ss_file_format) -> ss_result {
    capi {
        let path = try string(path, "path")
        let format = try format.format
        try withSceneFile(file) { c in
            guard c.device.kind == .loopback else {
                throw CAPIError(SS_ERROR_INVALID_STATE, "ss_scene_file_render needs a scene file loaded on a loopback device")
            }
            _ = try c.with { try $0.render(to: path, format: format) }
        }
    }
}

@c @implementation
public func ss_scene_file_play(_ file: OpaquePointer?) -> ss_result {
    capi {
        try withSceneFile(file) { c in
            guard c.device.kind != .loopback else {
                throw CAPIError(SS_ERROR_INVALID_STATE, "ss_scene_file_play needs an output device; render a loopback device's scene instead")
            }
            // Destroying the handle (or its device) on another thread ends the play within 10 ms.
            try c.with { try $0.playInRealTime(isCancelled: { !HandleTable.shared.isLive(file, .sceneFile) }) }
        }
    }
}

@c @implementation
public func ss_scene_file_advance(_ file: OpaquePointer?, _ seconds: Double) -> ss_result {
    capi {
        let seconds = try checked(seconds, 0...1e7, "seconds")
        try withSceneFile(file) { c in try c.with { try $0.advance(to: seconds) } }
    }
}

@c @implementation
public func ss_scene_file_get_source(_ file: OpaquePointer?, _ name: UnsafePointer<CChar>?,
                                     _ out: UnsafeMutablePointer<OpaquePointer?>?) -> ss_result {
    capi {
        let out = try require(out, "out_source")
        let name = try string(name, "name")
        let source = try withSceneFile(file) { $0.sources[name] }
        guard let source else { throw CAPIError(SS_ERROR_NOT_FOUND, "the scene file has no source named '\(name)'") }
        try publish(source, .source, parent: file, to: out)
    }
}
