import Foundation
import Testing
@testable import SoundFile
import SoundstageErrors

/// iLBC frames: sizes, bit layout, malformed packets, and input no encoder call may trap on.
@Suite struct ILBCPacketTests {
    @Test(arguments: ILBCMode.allCases)
    func framesHaveTheirModesSize(_ mode: ILBCMode) throws {
        var encoder = ILBCEncoder(mode: mode)
        #expect(encoder.encode([Float](repeating: 0, count: mode.samplesPerFrame - 1)).isEmpty)
        #expect(encoder.pendingSamples == mode.samplesPerFrame - 1)
        let one = encoder.encode([Float(0)])
        #expect(one.count == mode.bytesPerFrame)
        #expect(encoder.flush().isEmpty)
        let three = encoder.encode([Float](repeating: 0.1, count: 3 * mode.samplesPerFrame + 5)) + encoder.flush()
        #expect(three.count == 4 * mode.bytesPerFrame)
        #expect(ILBCMode(bytesPerFrame: mode.bytesPerFrame) == mode)
        #expect(ILBCMode(samplesPerFrame: mode.samplesPerFrame) == mode)
        // Every frame ends in the zero bit that says "not lost".
        for f in 0..<4 { #expect(three[f * mode.bytesPerFrame + mode.bytesPerFrame - 1] & 1 == 0) }
    }

    @Test(arguments: ILBCMode.allCases)
    func unusualInputStillMakesValidFrames(_ mode: ILBCMode) throws {
        let n = mode.samplesPerFrame
        let inputs: [[Float]] = [
            [Float](repeating: .nan, count: n), [Float](repeating: .infinity, count: n),
            (0..<n).map { $0 % 2 == 0 ? -.infinity : .greatestFiniteMagnitude }, [Float](repeating: 1, count: n),
            (0..<n).map { $0 % 2 == 0 ? 1 : -1 }, [Float](repeating: 0, count: n),
            (0..<n).map { Float.leastNonzeroMagnitude * Float($0) },
        ]
        var encoder = ILBCEncoder(mode: mode)
        for input in inputs {
            let bytes = try encoder.encodeFrame(input)
            #expect(bytes.count == mode.bytesPerFrame)
            _ = try ILBCFrameParameters.unpack(bytes, mode: mode)
        }
        let int16 = encoder.encode(int16: (0..<n).map { $0 % 2 == 0 ? Int16.min : Int16.max })
        #expect(int16.count == mode.bytesPerFrame)
        #expect(encoder.encode([Float]()).isEmpty)
        #expect(throws: SoundstageError.self) { try encoder.encodeFrame([Float](repeating: 0, count: n + 1)) }
    }

    @Test(arguments: ILBCMode.allCases)
    func malformedPacketsAreRefused(_ mode: ILBCMode) throws {
        var encoder = ILBCEncoder(mode: mode)
        let good = encoder.encode((0..<mode.samplesPerFrame).map { Float(sin(Double($0) * 0.3) * 0.4) })
        _ = try ILBCFrameParameters.unpack(good, mode: mode)
        func refused(_ bytes: [UInt8]) -> Bool {
            do { _ = try ILBCFrameParameters.unpack(bytes, mode: mode); return false } catch let error as SoundstageError {
                return error.code == .corruptData
            } catch { return false }
        }
        #expect(refused([]))
        #expect(refused(Array(good.dropLast())))
        #expect(refused(good + [0]))
        var lost = good
        lost[lost.count - 1] |= 1
        #expect(refused(lost))
        // The start sub-block is the 2 or 3 bits after the LSF indices (20 or 40 bits in).
        var zeroStart = good
        let startBit = mode == .ms20 ? 20 : 40, startBits = mode == .ms20 ? 2 : 3
        for b in startBit..<(startBit + startBits) { zeroStart[b / 8] &= ~(0x80 >> UInt8(b % 8)) }
        #expect(refused(zeroStart))
        if mode == .ms30 {
            var six = good
            for b in startBit..<(startBit + startBits) { six[b / 8] |= 0x80 >> UInt8(b % 8) }
            #expect(refused(six))
        }
    }
}
