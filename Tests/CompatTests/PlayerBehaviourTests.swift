import Foundation
import Soundstage
@testable import SoundstageCompat
import Testing
import TestSupport

extension CompatPrograms {
    /// Where iOS's `AVAudioPlayer` behaves differently from OpenAL, heard on loopback renders:
    /// `rate` keeps the pitch (measured by frequency, the duration by length) and `pan` follows
    /// iOS's balance law for mono and stereo files (measured per channel).
    @Suite(.serialized) struct PlayerBehaviourTests {
        typealias Rig = CompatTests.Rig

        /// The frames until the mix falls silent for good (the last sounding 10 ms block's end).
        static func soundingLength(_ mix: SoundBuffer) -> Int {
            let left = mix.channel(0)
            var end = 0
            for block in stride(from: 0, to: left.count, by: 480) where Signals.rms(left[block..<min(left.count, block + 480)]) > 0.01 {
                end = block + 480
            }
            return end
        }

        /// A 2 s tone at rate 1.5 and 0.75 keeps its 440 Hz and lasts 2/rate s; `currentTime`
        /// stays the file's position (≈ rate × time heard).
        @Test(arguments: [Float(1.5), 0.75])
        func rateKeepsThePitch(_ rate: Float) throws {
            try TimeStretch.check()
            let rig = try Rig()
            let player = try AVAudioPlayer(contentsOf: try rig.file(Signals.sine(440, seconds: 2), "tone.wav"))
            player.enableRate = true
            player.rate = rate
            #expect(player.play())
            let mix = try rig.render(2 / Double(rate) + 0.5)
            let heard = Double(Self.soundingLength(mix)) / 48_000
            #expect(abs(heard - 2 / Double(rate)) < 0.03, "heard \(heard) s at rate \(rate)")
            let middle = Int(0.4 * 48_000)..<Int(1.2 * 48_000)
            let frequency = Signals.frequency(Array(mix.channel(0)[middle]))
            let cents = 1_200 * log2(frequency / 440)
            #expect(abs(cents) < 5, "\(frequency) Hz (\(cents) cents) at rate \(rate)")
            print("rate \(rate): \(String(format: "%.3f", heard)) s heard for 2 s / \(rate), \(String(format: "%.2f", frequency)) Hz "
                  + "(\(String(format: "%+.2f", cents)) cents)")
            player.stop()
        }

        /// The position is the file's: after 1 s heard at rate 1.5, `currentTime` is 1.5 s; a
        /// rate change while playing goes on from where it was.
        @Test func theRateKeepsThePositionExact() throws {
            try TimeStretch.check()
            let rig = try Rig()
            let player = try AVAudioPlayer(contentsOf: try rig.file(Signals.sine(440, seconds: 4), "tone.wav"))
            player.enableRate = true
            player.rate = 1.5
            #expect(player.play())
            _ = try rig.render(1)
            #expect(abs(player.currentTime - 1.5) < 0.02, "\(player.currentTime)")
            player.rate = 0.5
            _ = try rig.render(1)
            #expect(abs(player.currentTime - 2.0) < 0.03, "\(player.currentTime)")
            player.enableRate = false
            _ = try rig.render(1)
            #expect(abs(player.currentTime - 3.0) < 0.03, "\(player.currentTime)")
            player.stop()
        }

        /// A mono player at pan 0 plays at full level in both channels, as on iOS; at ±0.5 the far
        /// channel is at half level and the near one at full; at ±1 only the near one sounds.
        @Test(arguments: [Float(0), 0.5, -0.5, 1, -1])
        func aMonoPlayerFollowsIOSPanLaw(_ pan: Float) throws {
            let rig = try Rig()
            let player = try AVAudioPlayer(contentsOf: try rig.file(Signals.sine(440, seconds: 1, amplitude: 0.5), "mono.wav"))
            player.pan = pan
            #expect(player.play())
            let mix = try rig.render(0.5).slice(frames: 2_400..<21_600)
            let full = 0.5 / 2.squareRoot()
            let left = Signals.rms(mix, channel: 0) / full, right = Signals.rms(mix, channel: 1) / full
            #expect(abs(left - Double(min(1, 1 - pan))) < 0.01, "left \(left) at pan \(pan)")
            #expect(abs(right - Double(min(1, 1 + pan))) < 0.01, "right \(right) at pan \(pan)")
            #expect(Signals.peak(mix) <= 0.5 + 1e-3)
            player.stop()
        }

        /// A stereo player's `pan` is iOS's balance: each channel stays on its side (440 Hz left,
        /// 660 Hz right), the far one at 1 − |pan| of its level, the near one at its own.
        @Test(arguments: [Float(0), 0.5, -0.5, 1, -1])
        func aStereoPlayersPanIsABalance(_ pan: Float) throws {
            let rig = try Rig()
            let player = try AVAudioPlayer(contentsOf: try rig.file(Self.stereo(seconds: 1), "stereo.wav"))
            player.pan = pan
            #expect(player.play())
            let mix = try rig.render(0.5).slice(frames: 2_400..<21_600)
            let full = 0.5      // the tones' amplitude
            let left = Signals.toneLevel(mix.channel(0), frequency: 440) / full
            let right = Signals.toneLevel(mix.channel(1), frequency: 660) / full
            #expect(abs(left - Double(min(1, 1 - pan))) < 0.01, "left \(left) at pan \(pan)")
            #expect(abs(right - Double(min(1, 1 + pan))) < 0.01, "right \(right) at pan \(pan)")
            #expect(Signals.toneLevel(mix.channel(0), frequency: 660) < 0.01 && Signals.toneLevel(mix.channel(1), frequency: 440) < 0.01,
                    "each channel on its side")
            player.stop()
        }

        /// A pan changed while a stereo file plays is heard at once, from where it was: the music
        /// goes on without a skip (the 660 Hz channel's position is the file's), the left side silent.
        @Test func aStereoPanChangeIsHeardAtOnceWhereThePlayerWas() throws {
            let rig = try Rig()
            let player = try AVAudioPlayer(contentsOf: try rig.file(Self.stereo(seconds: 2), "stereo.wav"))
            #expect(player.play())
            _ = try rig.render(0.5)
            player.pan = 1
            let after = try rig.render(0.5)
            let full = 0.5      // the tones' amplitude
            let settled = after.slice(frames: 960..<24_000)     // past the 20 ms the requeue may take
            #expect(Signals.rms(settled, channel: 0) < 0.005, "left \(Signals.rms(settled, channel: 0))")
            #expect(abs(Signals.toneLevel(settled.channel(1), frequency: 660) / full - 1) < 0.01)
            #expect(abs(player.currentTime - 1) < 0.03, "\(player.currentTime)")
            player.stop()
        }

        /// 440 Hz on the left and 660 Hz on the right, at amplitude 0.5 each.
        static func stereo(seconds: Double) -> SoundBuffer {
            let left = Signals.sine(440, seconds: seconds).samples, right = Signals.sine(660, seconds: seconds).samples
            return SoundBuffer(samples: zip(left, right).flatMap { [$0, $1] }, channels: 2, sampleRate: 48_000)
        }

        /// Soundstage's own `AudioPlayer` keeps OpenAL's constant-power law by default (0.596 in each
        /// channel ahead), and its rate changes the pitch unless `preservesPitch` is on.
        @Test func theEnginesPlayerKeepsItsDefaults() throws {
            let rig = try Rig()
            let scene = try rig.device.makeScene()
            defer { scene.close() }
            let player = try AudioPlayer(url: try rig.file(Signals.sine(440, seconds: 1, amplitude: 0.5), "mono.wav"), scene: scene)
            #expect(player.panLaw == .constantPower)
            #expect(!player.preservesPitch)
            player.rate = 2
            try player.play()
            let mix = try rig.render(0.3).slice(frames: 2_400..<12_000)
            #expect(abs(Signals.rms(mix, channel: 0) / (0.5 / 2.squareRoot()) - 0.596) < 0.01)
            #expect(abs(Signals.frequency(mix) - 880) < 3)
            player.stop()
        }
    }
}

extension CompatPrograms.PlayerBehaviourTests {
    /// The spellings the programs rely on, one by one: file type hints, a player's settings, url
    /// and data, the override refused outside `.playAndRecord`, a scheduled recording refused for
    /// a time that is not one.
    @Test func theNewSpellings() throws {
        let rig = try Rig()
        #expect(AVFileType.mp3.rawValue == "public.mp3" && AVFileTypeWAVE == AVFileType.wav.rawValue)
        let url = try rig.file(Signals.sine(440, seconds: 0.2), "tone.wav")
        let fromFile = try AVAudioPlayer(contentsOf: url, fileTypeHint: AVFileType.mp3.rawValue)   // a wrong hint does no harm
        #expect(fromFile.url == url && fromFile.data == nil)
        let settings = fromFile.settings
        #expect(settings[AVFormatIDKey] as? Int == Int(kAudioFormatLinearPCM))
        #expect(settings[AVSampleRateKey] as? Double == 48_000 && settings[AVNumberOfChannelsKey] as? Int == 1)
        #expect(settings[AVLinearPCMBitDepthKey] as? Int == 16 && settings[AVLinearPCMIsFloatKey] as? Bool == false)
        let data = try Data(contentsOf: url)
        let fromData = try AVAudioPlayer(data: data, fileTypeHint: "wav")
        #expect(fromData.url == nil && fromData.data == data)
        #expect(fromData.play())
        #expect(Signals.rms(try rig.render(0.1), channel: 0) > 0.2)

        let session = AVAudioSession.sharedInstance()
        try session.setCategory(.ambient)
        #expect(throws: NSError.self) { try session.overrideOutputAudioPort(.speaker) }
        try session.setCategory(.playAndRecord, options: [.defaultToSpeaker, .allowBluetooth])
        try session.setMode(.voiceChat)
        #expect(session.mode == .voiceChat && session.category == .playAndRecord)
        try session.overrideOutputAudioPort(.speaker)
        #expect(session.currentOutputOverride == .speaker)
        try session.overrideOutputAudioPort(.none)
        #expect(AVAudioSession.PortOverride.speaker.rawValue == 0x7370_6B72)
        #expect(AVAudioSession.RecordPermission.granted.rawValue == 0x6772_6E74)
        #expect(session.currentRoute.outputs.first?.portType == .lineOut, "a loopback device is described as a line out")

        let recorder = try AVAudioRecorder(url: rig.dir.appendingPathComponent("take.wav"), settings: [:])
        #expect(!recorder.record(atTime: .nan))
        #expect(recorder.lastError?.code == .invalidArgument)
        #expect(!recorder.record(atTime: recorder.deviceCurrentTime + 1, forDuration: -1))
        #expect(!recorder.record(atTime: 1e300), "a time Dispatch cannot count to is refused, not a trap")
        try session.setCategory(.soloAmbient)
        #expect(!recorder.record(atTime: recorder.deviceCurrentTime + 0.1))
        #expect(recorder.lastError?.code == .categoryForbids, "refused at once, as iOS answers false at once")
        #expect(recorder.url.lastPathComponent == "take.wav")
    }
}
