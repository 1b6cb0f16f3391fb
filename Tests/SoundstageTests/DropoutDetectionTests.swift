import Testing
import TestSupport

/// `Signals.dropouts`, which the real-server tests use to tell a cycle the server missed from a
/// sound the client cut: it must find a gap and a phase jump inside a sine, and nothing in a
/// sine that is whole, merely shorter, or louder.
@Suite struct DropoutDetectionTests {
    /// A 440 Hz sine at 48 kHz, interleaved stereo, `frames` long.
    private func sine(_ frames: Int, amplitude: Float = 0.35) -> [Float] {
        Signals.sine(440, seconds: Double(frames) / 48_000, amplitude: amplitude).samples.flatMap { [$0, $0] }
    }

    private func dropouts(_ stereo: [Float]) -> Int {
        Signals.dropouts(stereo, frequency: 440, first: 0, last: stereo.count / 2 - 1)
    }

    @Test func aWholeSineHasNone() {
        #expect(dropouts(sine(4_800)) == 0)
        #expect(dropouts(sine(48_000, amplitude: 0.9)) == 0)
    }

    @Test func aSineCutShortHasNone() {
        // A late start or an early end: the client's loss, which the tests must still catch.
        #expect(dropouts(Array(sine(4_800)[600...])) == 0)
        #expect(dropouts(Array(sine(4_800)[..<6_000])) == 0)
    }

    @Test func aQuantumMissingIsOne() {
        let whole = sine(4_800)
        let jumped = Array(whole[..<(2 * 1_695)] + whole[(2 * 1_951)...])   // 256 frames gone
        #expect(dropouts(jumped) == 1)
    }

    @Test func aGapOfSilenceIsOne() {
        let whole = sine(4_800)
        let gapped = Array(whole[..<(2 * 1_695)]) + [Float](repeating: 0, count: 2 * 256) + Array(whole[(2 * 1_695)...])
        #expect(dropouts(gapped) == 1)
    }

    @Test func twoDropoutsFarApartAreTwo() {
        let whole = sine(24_000)
        let twice = Array(whole[..<4_000] + whole[4_512..<30_000] + whole[30_512...])
        #expect(dropouts(twice) == 2)
    }
}
