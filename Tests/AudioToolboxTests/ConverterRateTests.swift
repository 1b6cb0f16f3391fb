import AudioToolbox
import Foundation
import Testing

/// Sample-rate conversion and channel changes, measured: a sine keeps its frequency and level,
/// the output's length is right to the frame, the passband is flat and the stopband rejects what
/// the lower rate cannot hold, by the quality set with kAudioConverterSampleRateConverterQuality.
@Suite struct ConverterRateTests {
    /// Resamples mono Float32 `input` at `quality`.
    static func resample(_ input: [Float], from: Double, to: Double, quality: UInt32? = nil, chunk: Int = 1000) -> (OSStatus, [Float]) {
        let result = convertPCM([bytes(of: input)], from: pcmFormat(rate: from, channels: 1, bits: 32, float: true),
                                to: pcmFormat(rate: to, channels: 1, bits: 32, float: true), setUp: { converter in
            if var quality {
                let status = AudioConverterSetProperty(converter, kAudioConverterSampleRateConverterQuality, UInt32(MemoryLayout<UInt32>.size), &quality)
                precondition(status == noErr)
            }
        }, chunk: chunk)
        return (result.status, result.output.first.map(floats) ?? [])
    }

    @Test(arguments: [(44_100.0, 48_000.0), (48_000.0, 22_050.0), (22_050.0, 44_100.0), (8_000.0, 44_100.0), (44_100.0, 44_056.0)])
    func aSineKeepsItsFrequencyLevelAndLength(from: Double, to: Double) throws {
        let frames = Int(from) + 37
        let (status, out) = Self.resample(sine(frequency: 1_000, rate: from, frames: frames), from: from, to: to)
        #expect(status == noErr)
        // Output frame n is the input at n × from / to, for every instant inside the input.
        let expected = Int((Double(frames) * to / from).rounded(.up))
        #expect(out.count == expected, "\(from) → \(to): \(out.count) frames, expected \(expected)")
        let middle = out[(out.count / 4)..<(3 * out.count / 4)]
        let frequency = zeroCrossingFrequency(middle, rate: to)
        #expect(abs(frequency - 1_000) < 0.05, "\(from) → \(to): \(frequency) Hz")
        let level = 20 * log10(amplitude(of: middle, frequency: 1_000, rate: to) / 0.5)
        #expect(abs(level) < 0.01, "\(from) → \(to): level \(level) dB")
        // No latency (kConverterPrimeMethod_Normal): frame n is the sine at n / to seconds.
        var error = 0.0
        for i in middle.indices {
            let ideal = 0.5 * sin(2 * Double.pi * 1_000 * Double(i) / to)
            error = max(error, abs(Double(out[i]) - ideal))
        }
        #expect(error < 1e-3, "\(from) → \(to): \(error) from the ideal sine")
    }

    @Test func passbandRippleAndStopbandRejectionAreMeasuredPerQuality() throws {
        // Down from 48 kHz to 22.05 kHz: tones below 9 kHz must pass untouched; tones above the
        // new Nyquist frequency (11.025 kHz) must vanish rather than fold back as aliases.
        let from = 48_000.0, to = 22_050.0, frames = 24_000
        var report: [String] = []
        for (quality, ripple, rejection) in [(kAudioConverterQuality_Medium, 0.01, 75.0), (kAudioConverterQuality_High, 0.005, 95.0),
                                             (kAudioConverterQuality_Max, 0.005, 110.0)] {
            var worstRipple = 0.0
            for frequency in [100.0, 1_000, 4_000, 7_000, 8_500] {
                let (_, out) = Self.resample(sine(frequency: frequency, rate: from, frames: frames), from: from, to: to, quality: quality)
                let gain = 20 * log10(amplitude(of: out[2_000..<(out.count - 2_000)], frequency: frequency, rate: to) / 0.5)
                worstRipple = max(worstRipple, abs(gain))
            }
            var worstAlias = -300.0
            for frequency in [12_500.0, 14_000, 18_000, 23_000] {
                let (_, out) = Self.resample(sine(frequency: frequency, rate: from, frames: frames), from: from, to: to, quality: quality)
                let level = 20 * log10(max(1e-20, rms(out[2_000..<(out.count - 2_000)]) / (0.5 / 2.0.squareRoot())))
                worstAlias = max(worstAlias, level)
            }
            report.append("quality \(quality): passband ±\(worstRipple) dB to 8.5 kHz, stopband \(worstAlias) dB from 12.5 kHz")
            #expect(worstRipple < ripple, "\(report.last!)")
            #expect(worstAlias < -rejection, "\(report.last!)")
        }
        // Linear interpolation (the minimum quality) is no filter: its aliases are loud.
        let (_, linear) = Self.resample(sine(frequency: 14_000, rate: from, frames: frames), from: from, to: to, quality: kAudioConverterQuality_Min)
        let alias = 20 * log10(rms(linear[2_000..<(linear.count - 2_000)]) / (0.5 / 2.0.squareRoot()))
        #expect(alias > -30, "linear interpolation's alias of 14 kHz: \(alias) dB")
        print("ConverterRateTests: " + report.joined(separator: "; ") + "; linear: alias \(alias) dB")
    }

    @Test func primeInfoAndPrimeMethodsShiftTheOutput() throws {
        var from = pcmFormat(rate: 44_100, channels: 1, bits: 32, float: true), to = pcmFormat(rate: 48_000, channels: 1, bits: 32, float: true)
        var converter: AudioConverterRef?
        #expect(AudioConverterNew(&from, &to, &converter) == noErr)
        defer { AudioConverterDispose(converter!) }
        var info = AudioConverterPrimeInfo()
        var size = UInt32(MemoryLayout<AudioConverterPrimeInfo>.size)
        #expect(AudioConverterGetProperty(converter!, kAudioConverterPrimeInfo, &size, &info) == noErr)
        #expect(info.leadingFrames > 0 && info.trailingFrames == info.leadingFrames)
        // kConverterPrimeMethod_None: the filter's latency shows, trailingFrames of it.
        let input = sine(frequency: 500, rate: 44_100, frames: 8_000)
        let normal = convertPCM([bytes(of: input)], from: from, to: to)
        let none = convertPCM([bytes(of: input)], from: from, to: to, setUp: { converter in
            var method = kConverterPrimeMethod_None
            #expect(AudioConverterSetProperty(converter, kAudioConverterPrimeMethod, 4, &method) == noErr)
        })
        let a = floats(of: normal.output[0]), b = floats(of: none.output[0])
        let latency = Int((Double(info.trailingFrames) * 48_000 / 44_100).rounded())
        #expect(b.count > a.count)
        #expect(abs(b[1_000 + latency] - a[1_000]) < 0.01)
    }

    @Test func monoBecomesStereoAndStereoMixesToMono() throws {
        let mono: [Int16] = [1_000, -2_000, 3_000]
        let stereo = convertPCM([bytes(of: mono)], from: pcmFormat(channels: 1, bits: 16), to: pcmFormat(channels: 2, bits: 16))
        #expect(int16s(of: stereo.output[0]) == [1_000, 1_000, -2_000, -2_000, 3_000, 3_000])
        let pair: [Int16] = [1_000, 3_000, -2_000, 0, 100, -100]
        let mixed = convertPCM([bytes(of: pair)], from: pcmFormat(channels: 2, bits: 16), to: pcmFormat(channels: 1, bits: 16))
        #expect(int16s(of: mixed.output[0]) == [2_000, -1_000, 0])
        // Four to two: the first two kept, as Apple's default map does.
        let quad: [Int16] = [1, 2, 3, 4, 5, 6, 7, 8]
        let two = convertPCM([bytes(of: quad)], from: pcmFormat(channels: 4, bits: 16), to: pcmFormat(channels: 2, bits: 16))
        #expect(int16s(of: two.output[0]) == [1, 2, 5, 6])
    }

    @Test func channelMapPicksAndReordersChannels() throws {
        let pair: [Int16] = [1, 2, 3, 4]
        let swapped = convertPCM([bytes(of: pair)], from: pcmFormat(channels: 2, bits: 16), to: pcmFormat(channels: 2, bits: 16), setUp: { converter in
            var map: [Int32] = [1, 0]
            #expect(AudioConverterSetProperty(converter, kAudioConverterChannelMap, UInt32(MemoryLayout<Int32>.size * map.count), &map) == noErr)
            var wrong: [Int32] = [0]
            #expect(AudioConverterSetProperty(converter, kAudioConverterChannelMap, 4, &wrong) == kAudioConverterErr_BadPropertySizeError)
            var outOfRange: [Int32] = [2, 0]
            #expect(AudioConverterSetProperty(converter, kAudioConverterChannelMap, 8, &outOfRange) == kAudio_ParamError)
        })
        #expect(int16s(of: swapped.output[0]) == [2, 1, 4, 3])
        let picked = convertPCM([bytes(of: pair)], from: pcmFormat(channels: 2, bits: 16), to: pcmFormat(channels: 3, bits: 16), setUp: { converter in
            var map: [Int32] = [1, -1, 0]
            #expect(AudioConverterSetProperty(converter, kAudioConverterChannelMap, 12, &map) == noErr)
            var back = [Int32](repeating: 9, count: 3)
            var size = UInt32(12)
            #expect(AudioConverterGetProperty(converter, kAudioConverterChannelMap, &size, &back) == noErr)
            #expect(back == [1, -1, 0])
        })
        #expect(int16s(of: picked.output[0]) == [2, 0, 1, 4, 0, 3])
    }
}
