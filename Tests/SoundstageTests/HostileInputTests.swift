import Foundation
import NIOConcurrencyHelpers
@testable import Soundstage
import SoundFile
import Testing
import TestSupport

/// What a hostile caller found in the engine (issue 35), each proven on loopback renders: a
/// removed reverb zone no longer crashes the next scene, a completion handler cannot deadlock its
/// own render, and no sample can poison the output.
@Suite struct HostileInputTests {
    /// OpenAL Soft 1.19.1 crashed in `alcCreateContext` once a scene on the device had deleted an
    /// effect slot (a NULL hole in the context's slot list). Zones are removed and made in every
    /// order, with scenes made and closed around them; every scene still hears its reverb.
    @Test func zonesAndScenesMayComeAndGoInAnyOrder() throws {
        let device = try Device.loopback()
        defer { device.close() }
        let first = try device.makeScene()
        let zone = try first.makeReverbZone("cave", preset: .cave)
        zone.remove()
        let second = try device.makeScene()               // crashed here
        let hall = try second.makeReverbZone("hall", preset: .concertHall)
        let third = try device.makeScene()
        hall.remove()
        try first.makeReverbZone("again", preset: .room)    // the parked slot, reused
        second.close()
        let fourth = try device.makeScene()
        for index in 0..<3 { try fourth.makeReverbZone("z\(index)", preset: .room).remove() }
        let ringing = try fourth.makeReverbZone("ringing", preset: .cave)
        let fifth = try device.makeScene()
        _ = (third, fifth)

        // The zone made on a parked slot rings: a dry burst leaves a tail.
        let burst = fourth.makeSource(buffer: try device.makeBuffer(Signals.sine(1_000, seconds: 0.2)))
        burst.position = Vector3(0, 0, -1)
        try burst.play()
        _ = try device.render(frames: Signals.rate * 3 / 10)
        let tail = Signals.rms(try device.render(frames: Signals.rate / 10).samples)
        #expect(tail > 0.005, "the zone made on a reused slot rings on: tail RMS \(tail)")
        #expect(fourth.reverbZones.map(\.name) == [ringing.name])
        // A parked slot is reused, not piled up: at most one per send.
        #expect(fourth.effectObjectCounts.slots <= fourth.maxReverbZones)
    }

    /// A completion handler that renders its own device is refused with `.invalidState`: it used
    /// to wait forever on the lock its own render held (a trap in debug builds).
    @Test func aCompletionHandlerCannotRenderItsOwnDevice() throws {
        let device = try Device.loopback()
        defer { device.close() }
        let scene = try device.makeScene()
        let source = scene.makeSource(buffer: try device.makeBuffer(Signals.sine(440, seconds: 0.01)))
        let outcome = NIOLockedValueBox<String?>(nil)
        source.completionHandler = { _ in
            do {
                _ = try device.render(frames: 128)
                outcome.withLockedValue { $0 = "rendered" }
            } catch let error as SoundstageError {
                outcome.withLockedValue { $0 = error.code.rawValue }
            } catch {
                outcome.withLockedValue { $0 = "\(error)" }
            }
            // Ending a recording of the mix from inside the render used to deadlock too.
            device.stopRecordingOutput()
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("nested-\(UUID()).wav").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        try device.recordOutput(to: file)
        try source.play()
        _ = try device.render(frames: Signals.rate / 10)
        #expect(outcome.withLockedValue { $0 } == "invalidState")
        // The device renders on afterwards.
        #expect(try device.render(frames: 480).frames == 480)
    }

    /// A buffer of one `Float.greatestFiniteMagnitude` sample is refused; one that gets past the
    /// check (a path that forgot it) never reaches the output: the chunk is silenced and counted,
    /// the reverb it poisoned gets a fresh state, and the device sounds right again at once.
    @Test func noSampleCanPoisonTheOutput() throws {
        let device = try Device.loopback()
        defer { device.close() }
        let scene = try device.makeScene()
        try scene.makeReverbZone("cave", preset: .cave)
        var samples = [Float](repeating: 0, count: 480)
        samples[10] = .greatestFiniteMagnitude
        let poison = AudioBuffer(samples: samples, channels: 1, sampleRate: Signals.rate)
        let refused = try #require(throws: SoundstageError.self) { try device.makeBuffer(poison) }
        #expect(refused.code == .invalidArgument && refused.message.contains("sample 10"), "\(refused)")
        for bad in [Float.nan, .infinity, -.infinity, 65_537] {
            samples[10] = bad
            #expect(throws: SoundstageError.self) {
                try device.makeBuffer(AudioBuffer(samples: samples, channels: 1, sampleRate: Signals.rate))
            }
        }
        samples[10] = 65_536
        _ = try device.makeBuffer(AudioBuffer(samples: samples, channels: 1, sampleRate: Signals.rate))

        // Past the check: the mix overflows, and the reverb would hold NaN for good.
        let unchecked = try Buffer(device: device, audio: poison, name: "poison", checkingSamples: false)
        let source = scene.makeSource(buffer: unchecked)
        source.position = Vector3(0, 0, -1)
        try source.play()
        let poisoned = try device.render(frames: 4_800)
        #expect(poisoned.samples.allSatisfy { $0.isFinite }, "a non-finite mix reached the output")
        #expect(device.nonFiniteMixCount > 0)
        source.stop()
        let after = try device.render(frames: 4_800)
        #expect(after.samples.allSatisfy { $0.isFinite }, "the poison outlived its source")
        let counted = device.nonFiniteMixCount

        // The reverb works again: a clean burst is heard, with a tail.
        let clean = scene.makeSource(buffer: try device.makeBuffer(Signals.sine(1_000, seconds: 0.2)))
        clean.position = Vector3(0, 0, -1)
        try clean.play()
        let heard = try device.render(frames: Signals.rate * 3 / 10)
        let tail = try device.render(frames: Signals.rate / 10)
        #expect(heard.samples.allSatisfy { $0.isFinite } && tail.samples.allSatisfy { $0.isFinite })
        #expect(Signals.rms(heard.samples) > 0.05 && Signals.rms(tail.samples) > 0.005,
                "heard \(Signals.rms(heard.samples)), tail \(Signals.rms(tail.samples))")
        #expect(device.nonFiniteMixCount == counted, "nothing more was silenced once the poison was gone")
    }

    /// OpenAL Soft 1.19.1's reverb crashed `alcRenderSamplesSOFT` on calls of fewer than 128
    /// frames that are not a multiple of 4 during its cross-fade (the capi fuzzer found it). Renders
    /// of any size now work on a device with a zone, and hand out exactly the samples one big
    /// render does: the frames mixed ahead are neither lost nor repeated.
    @Test func renderSizesThatAreNotMultiplesOfFourWithAReverbZone() throws {
        func world() throws -> Device {
            let device = try Device.loopback()
            let scene = try device.makeScene()
            try scene.makeReverbZone("room", preset: .stoneRoom)
            let tone = scene.makeSource(buffer: try device.makeBuffer(Signals.sine(700, seconds: 0.05)))
            tone.position = Vector3(1, 0, -1)
            try tone.play()
            return device
        }
        let sizes = [95, 58, 7, 3, 1, 2, 33, 127, 5, 6, 250, 13]
        let pieces = try world()
        defer { pieces.close() }
        var assembled: [Float] = []
        for round in 0..<40 { assembled += try pieces.render(frames: sizes[round % sizes.count]).samples }
        let whole = try world()
        defer { whole.close() }
        let reference = try whole.render(frames: assembled.count / 2).samples
        #expect(Signals.rms(reference) > 0.01, "the tone and its reverb are heard")
        #expect(Signals.difference(assembled, reference) == nil, "odd-sized renders deliver the same samples as one render")
    }

    /// A stream whose file holds NaN, infinities and absurd values plays them as silence and
    /// ±65536 (made playable as they are queued), never as a non-finite mix.
    @Test func aStreamedFileOfBadFloatsPlaysFinite() throws {
        var samples = Signals.sine(440, seconds: 0.5).samples
        for index in stride(from: 0, to: samples.count, by: 97) { samples[index] = [Float.nan, .infinity, -.infinity, 1e30][index % 4] }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bad-floats-\(UUID()).wav").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try SoundFileWriter(path: path, format: .wavFloat32, sampleRate: Signals.rate, channels: 1)
        try writer.write(AudioBuffer(samples: samples, channels: 1, sampleRate: Signals.rate))
        try writer.finish()

        let device = try Device.loopback()
        defer { device.close() }
        let scene = try device.makeScene()
        try scene.makeReverbZone("cave", preset: .cave)
        let stream = try scene.makeStreamingSource(file: path)
        try stream.play()
        let mix = try device.render(frames: Signals.rate)
        #expect(mix.samples.allSatisfy { $0.isFinite })
        #expect(device.nonFiniteMixCount == 0, "the stream's samples were made playable before the mix")
        #expect(Signals.rms(mix.samples) > 0.01, "the stream was heard")
    }
}
