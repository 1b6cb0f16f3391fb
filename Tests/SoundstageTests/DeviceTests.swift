import Testing
import Soundstage
import TestSupport

/// Loopback layouts, HRTF and device information.
@Suite struct DeviceTests {
    @Test(arguments: ChannelLayout.allCases)
    func everyLayoutRendersItsChannels(_ layout: ChannelLayout) throws {
        let device = try Device.loopback(layout: layout)
        defer { device.close() }
        #expect(try device.info.layout == layout.rawValue)
        let scene = try device.makeScene()
        let source = scene.makeSource(buffer: try device.makeBuffer(Signals.sine(440, seconds: 0.5)))
        source.position = Vector3(3, 0, 0)
        try source.play()
        let mix = try device.render(frames: 4_800)
        #expect(mix.channels == layout.channelCount)
        #expect(Signals.rms(mix.samples) > 0.01)
        if layout != .mono {
            // Channel 0 is front-left and channel 1 front-right in every layout.
            #expect(Signals.rms(mix, channel: 1) > Signals.rms(mix, channel: 0))
        }
    }

    @Test func hrtfChangesTheStereoImage() throws {
        func render(hrtf: Bool) throws -> AudioBuffer {
            let device = try Device.loopback(hrtf: hrtf)
            defer { device.close() }
            #expect(try device.info.hrtfEnabled == hrtf)
            let scene = try device.makeScene()
            let source = scene.makeSource(buffer: try device.makeBuffer(Signals.sine(440, seconds: 0.5)))
            source.position = Vector3(2, 0, 0)     // 90° to the right
            try source.play()
            return try device.render(frames: 12_000)
        }
        let panned = try render(hrtf: false), binaural = try render(hrtf: true)
        #expect(Signals.rms(panned, channel: 0) < 0.0001)
        #expect(Signals.rms(binaural, channel: 0) > 0.001, "HRTF lets the far ear hear the source")
        #expect(Signals.rms(binaural, channel: 1) > Signals.rms(binaural, channel: 0) * 1.5, "the near ear still louder")
    }

    @Test func hrtfGivesTheEarsDifferentSpectraWherePanningOnlyScales() throws {
        /// Far-ear / near-ear level of a tone 2 m to the right (90°).
        func interaural(_ frequency: Double, hrtf: Bool) throws -> Double {
            let device = try Device.loopback(hrtf: hrtf)
            defer { device.close() }
            let scene = try device.makeScene()
            let source = scene.makeSource(buffer: try device.makeBuffer(Signals.sine(frequency, seconds: 0.5)))
            source.position = Vector3(2, 0, 0)
            try source.play()
            let mix = Array(try device.render(frames: 12_000).samples.dropFirst(2 * 2_400))   // past the onset
            let stereo = AudioBuffer(samples: mix, channels: 2, sampleRate: device.sampleRate)
            return Signals.rms(stereo, channel: 0) / Signals.rms(stereo, channel: 1)
        }
        let low = try interaural(300, hrtf: true), high = try interaural(6_000, hrtf: true)
        // The head shadows high frequencies far more than low ones: the spectra of the ears differ.
        #expect(low > 0.3, "low frequencies bend round the head: \(low)")
        #expect(high < low / 2, "high frequencies are shadowed: \(high) vs \(low)")
        // Stereo panning gives the far ear nothing at any frequency: the same (empty) spectrum shape.
        #expect(try interaural(300, hrtf: false) < 1e-3)
        #expect(try interaural(6_000, hrtf: false) < 1e-3)
    }

    @Test func hrtfCanBeChosenByName() throws {
        let probe = try Device.loopback()
        let names = try probe.info.hrtfNames
        probe.close()
        guard let name = names.first(where: { $0.contains("48000") }) ?? names.first else { return }
        let device = try Device.loopback(hrtfName: name)
        defer { device.close() }
        #expect(try device.info.hrtfEnabled)
        #expect(throws: SoundstageError.self) { try Device.loopback(hrtfName: "no such HRTF") }
    }

    @Test func infoDescribesTheLoopbackDevice() throws {
        let device = try Device.loopback(sampleRate: 44_100, layout: .quad)
        defer { device.close() }
        let info = try device.info
        #expect(info.kind == "loopback")
        #expect(info.sampleRate == 44_100)
        #expect(info.version.contains("ALSOFT"))
        #expect(info.deviceExtensions.contains("ALC_SOFT_loopback"))
        #expect(info.extensions.contains("AL_EXT_FLOAT32"))
        #expect(info.sourceLimit == 256)
        #expect(info.updateFrames == 441)
    }

    @Test func badLoopbackArgumentsAreErrors() {
        #expect(throws: SoundstageError.self) { try Device.loopback(sampleRate: 100) }
        #expect(throws: SoundstageError.self) { try Device.loopback().makeScene(sourceBudget: 0) }
    }

    @Test func renderingIsDeterministic() throws {
        func once() throws -> [Float] {
            let rig = try Rig()
            _ = try rig.playing(at: Vector3(1, 0, -3)) { $0.velocity = Vector3(0, 0, 10) }
            return try rig.render(0.3).samples
        }
        #expect(try once() == once())
    }

    @Test func renderingToAFileWritesTheMix() throws {
        let rig = try Rig()
        _ = try rig.playing(at: Vector3(0, 0, -1))
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("render-\(UUID()).wav").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var progress: [Double] = []
        try rig.device.render(seconds: 1.2, to: path, format: .wavFloat32) { progress.append($0) }
        let file = try SoundFile(path: path)
        #expect(file.format.frames == 57_600)
        #expect(file.format.channels == 2)
        #expect(progress.last == 1)
        #expect(abs(Signals.frequency(try file.readAll()) - 440) < 0.5)
    }
}

import Foundation
