import COpenAL
@testable import Soundstage
import Testing

/// The OpenAL layer's error paths that a loopback device never takes by itself.
@Suite struct OpenALLayerTests {
    /// A context OpenAL refuses to create is a typed `.openAL` error naming `alcCreateContext`
    /// and ALC's error — the one path every context creation (device, scene, migration) goes through.
    @Test func aContextThatFailsToCreateIsATypedError() throws {
        let device = try Device.loopback()
        defer { device.close() }
        let error = #expect(throws: SoundstageError.self) {
            _ = try OpenAL.createContext(on: device.handle.raw, [0], for: "a scene") { _, _ in nil }
        }
        #expect(error?.code == .openAL)
        #expect(error?.message == "cannot create a scene")
        guard case let .openAL(function, _, _)? = error?.cause else {
            Issue.record("no OpenAL cause: \(String(describing: error))")
            return
        }
        #expect(function == "alcCreateContext")
        // The real path still works afterwards.
        let scene = try device.makeScene()
        scene.close()
    }

    /// An out-of-memory error from `alGen*` is `.sourceBudgetExhausted`, other errors `.openAL`,
    /// each naming the call: what `ALCalls.call` makes of an error it reads.
    @Test func callErrorsAreTypedByWhatOpenALSaid() throws {
        let device = try Device.loopback()
        defer { device.close() }
        let scene = try device.makeScene()
        defer { scene.close() }
        let error = #expect(throws: SoundstageError.self) {
            try scene.context.withLock { lock throws(SoundstageError) in
                let al = try lock.current()
                // A source name that does not exist: AL_INVALID_NAME.
                try al.call("alSourcePlay") { alSourcePlay(987_654) }
            }
        }
        #expect(error?.code == .openAL)
        guard case let .openAL(function, code, name)? = error?.cause else {
            Issue.record("no OpenAL cause")
            return
        }
        #expect(function == "alSourcePlay" && code == AL_INVALID_NAME && name == "AL_INVALID_NAME")
        // `freeing` reads and drops the error of a call on the way out: the next call is not blamed.
        try scene.context.withLock { lock throws(SoundstageError) in
            let al = try lock.current()
            al.freeing { alSourceStop(987_654) }
            try al.call("alGetError is clean") { }
        }
    }
}
