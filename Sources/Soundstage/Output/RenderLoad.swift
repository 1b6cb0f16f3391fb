#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif

/// How hard a device's render works: time spent mixing against audio mixed, since it opened.
/// Two readings give the share of one core the render took between them (``share(since:)``).
public struct RenderLoad: Sendable, Equatable {
    /// Seconds spent mixing (wall clock, in the render call: OpenAL Soft's mixer, effects,
    /// metering, the mix recording's copy).
    public var busySeconds: Double
    /// Seconds of audio mixed.
    public var audioSeconds: Double
    /// Of ``busySeconds``, the seconds spent metering: the output's meter and the scenes' meter
    /// updates (sources, groups, scenes).
    public var meteringSeconds: Double

    /// Creates a reading.
    public init(busySeconds: Double, audioSeconds: Double, meteringSeconds: Double = 0) {
        self.busySeconds = busySeconds
        self.audioSeconds = audioSeconds
        self.meteringSeconds = meteringSeconds
    }

    /// The fraction of real time the render spent mixing between `earlier` and this reading
    /// (0.01: 1 % of a core); nil if no audio was mixed between them.
    public func share(since earlier: RenderLoad) -> Double? {
        let audio = audioSeconds - earlier.audioSeconds
        guard audio > 0 else { return nil }
        return max(0, busySeconds - earlier.busySeconds) / audio
    }

    /// What metering cost between `earlier` and this reading, against the rest of the render's
    /// work (0.02: metering added 2 %); nil if the render did nothing between them.
    public func meteringCost(since earlier: RenderLoad) -> Double? {
        let metering = max(0, meteringSeconds - earlier.meteringSeconds)
        let rest = busySeconds - earlier.busySeconds - metering
        guard rest > 0 else { return nil }
        return metering / rest
    }
}

extension Device {
    /// The render's work so far. Counts devices Soundstage renders (desktop and loopback); an
    /// OpenAL output mixes on its own thread, and reads zero.
    public var renderLoad: RenderLoad {
        RenderLoad(busySeconds: Double(renderBusyNanoseconds.load(ordering: .relaxed)) / 1e9,
                   audioSeconds: rendersInEngine ? mixTime : 0,
                   meteringSeconds: Double(meteringBusyNanoseconds.load(ordering: .relaxed)) / 1e9)
    }
}
