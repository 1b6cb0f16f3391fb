import Foundation
@testable import Soundstage
import SoundFile
import Testing
import TestSupport

/// SoundTouch's time stretch, loaded at run time: what a machine without it is told, and the
/// placements the balance pan law computes from OpenAL Soft's panning.
@Suite struct TimeStretchTests {
    /// Without the library (an empty directory to load it from), the error names the package.
    @Test func aMissingLibrarySaysWhatToInstall() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("no-soundtouch-\(UUID())")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        let error = #expect(throws: SoundstageError.self) { try TimeStretchLibrary(directory: empty.path) }
        #expect(error?.code == .codecUnavailable)
        #expect(error?.message.contains("apt-get install libsoundtouch1") == true, "\(String(describing: error))")
        #expect(error?.message.contains("SOUNDSTAGE_SOUNDTOUCH_PATH") == true)
    }

    /// The installed library loads and names its version.
    @Test(.enabled(if: TimeStretch.isAvailable)) func theInstalledLibraryLoads() throws {
        try TimeStretch.check()
        #expect(TimeStretch.version?.first?.isNumber == true, "\(String(describing: TimeStretch.version))")
    }

    /// The balance law's placements give OpenAL Soft's gains the law's levels: the near channel
    /// at 1 and the far one at 1 − |pan|.
    @Test(arguments: [Float(0), 0.25, 0.5, 0.75, 1, -0.5])
    func balancePlacementsMeetTheLaw(_ pan: Float) {
        let placement = PanPlacement(pan: pan, law: .balance)
        let widened = Double(abs(placement.azimuth)) * 1.5
        let (far, near) = PanPlacement.openALGains(widened: widened)
        #expect(abs(near * Double(placement.gain) - 1) < 1e-4)
        #expect(abs(far * Double(placement.gain) - Double(1 - abs(pan))) < 1e-4)
        #expect(placement.gain <= 1.68 && placement.gain >= 1)
    }
}
