#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif

extension Scene {
    /// The scene's part of a ``MixSnapshot``: read under the scene's lock once, without OpenAL
    /// calls (states are the engine's own; levels are computed as ``Source/audibility`` does).
    /// Without `details`, virtual voices carry no reason, and zones and voice events are left out.
    func snapshot(meters: Bool, details: Bool = true) -> SceneSnapshot {
        var snapshot = withState { state, _ -> SceneSnapshot in
            let listener = self.listener.propertiesLocked
            let model = state.distanceModel
            let virtual = Array(state.voices?.virtual.values ?? [:].values)
            let real = state.active.values.filter(\.isPlayingLocked).count
            var sources = state.active.values.map { $0.snapshotLocked(model, listener, isVirtual: false, reason: nil) }
            sources.reserveCapacity(sources.count + virtual.count)
            if !virtual.isEmpty {
                // The weakest real voice's rank: what a virtual one would have to beat.
                let weakest = details ? state.active.values.filter(\.isPlayingLocked).map { $0.rankKeyLocked(model, listener) }.min() : nil
                for source in virtual {
                    let reason = details ? Self.virtualReason(source, model, listener, real: real, budget: sourceBudget, weakest: weakest) : nil
                    sources.append(source.snapshotLocked(model, listener, isVirtual: true, reason: reason))
                }
            }
            sources.sort { $0.id < $1.id }
            let zones = details ? state.effects.zones.compactMap { $0 }.map { $0.snapshotLocked(listener: listener.position) } : []
            let recent = details ? state.voices?.recent ?? [] : []
            return SceneSnapshot(id: Int(bitPattern: ObjectIdentifier(self)), listener: ListenerSnapshot(
                                     position: listener.position, at: listener.at, up: listener.up, gain: listener.gain * listener.duck),
                                 distanceModel: model.rawValue, sourceBudget: sourceBudget, virtualizesVoices: state.voices != nil,
                                 realVoices: real, virtualVoices: virtual.filter(\.isPlayingLocked).count,
                                 steals: state.voices?.statistics.steals ?? 0, levels: nil,
                                 groups: state.groups.compactMap(\.group).map { $0.snapshotLocked }, zones: zones,
                                 sources: sources, recentVoiceEvents: recent)
        }
        if meters {
            // Meter readings take the meters' own locks, not the scene's.
            snapshot.levels = meterLevels().map(MixSnapshot.Levels.init)
            let groups = withState { state, _ in state.groups.compactMap(\.group) }
            for (index, group) in groups.enumerated() where index < snapshot.groups.count {
                snapshot.groups[index].levels = group.meterLevels().map(MixSnapshot.Levels.init)
            }
        }
        return snapshot
    }

    private static func virtualReason(_ source: Source, _ model: DistanceModel, _ listener: Listener.Properties,
                                      real: Int, budget: Int, weakest: Double?) -> String {
        let audibility = source.audibilityLocked(model, listener)
        if audibility <= 0 {
            return "inaudible where it is (out of range, or its gain is 0): it costs no voice until it can be heard"
        }
        // Rounded by hand: String(format:) cost more than the rest of a snapshot.
        let level = (200 * log10(Double(audibility))).rounded() / 10
        let rank = "priority \(source.state.priority), \(level) dB at the listener"
        guard let weakest, real >= budget else {
            return "waiting for a voice: \(real) of \(budget) are real (\(rank))"
        }
        let key = (source.rankKeyLocked(model, listener) * 1_000).rounded() / 1_000
        return "outranked: the \(real) real voices fill the budget of \(budget), and it ranks below the weakest of them "
            + "(\(rank); ranking \(key) against \((weakest * 1_000).rounded() / 1_000))"
    }
}

extension Source {
    /// An identifier for snapshots, stable for the source's life.
    var snapshotID: Int { Int(bitPattern: ObjectIdentifier(self)) }

    /// What it plays, for people: its stream's or buffer's file (scene lock held).
    var fileLocked: String? { state.audioStream?.path ?? state.buffer?.name }

    /// The source's part of a snapshot (scene lock held).
    func snapshotLocked(_ model: DistanceModel, _ listener: Listener.Properties, isVirtual: Bool, reason: String?) -> SourceSnapshot {
        let p = state.properties
        let audibility = audibilityLocked(model, listener)
        return SourceSnapshot(id: snapshotID, file: fileLocked, state: state.playback == .paused ? "paused" : "playing",
                              isVirtual: isVirtual, virtualReason: reason, group: state.group?.name,
                              position: p.position, velocity: p.velocity, gain: p.gain, pitch: p.openALPitch, looping: p.looping,
                              headRelative: p.headRelative, spatialized: state.spatialized, streaming: state.audioStream != nil,
                              referenceDistance: p.referenceDistance, maxDistance: p.maxDistance, rolloffFactor: p.rolloffFactor,
                              priority: state.priority, level: LevelMeter.decibels(Double(audibility)))
    }
}

extension SoundGroup {
    /// The group's part of a snapshot (scene lock held).
    var snapshotLocked: GroupSnapshot {
        GroupSnapshot(name: name, parent: parent?.name, gain: state.gain, effectiveGain: effectiveGainLocked,
                      muted: state.muted, paused: state.paused, levels: nil)
    }
}

extension ReverbZone {
    /// The zone's part of a snapshot (scene lock held).
    func snapshotLocked(listener: Vector3) -> ZoneSnapshot {
        let region = state.region
        var zone = ZoneSnapshot(name: name, preset: state.preset.name, shape: "everywhere", center: nil, radius: nil, upper: nil,
                                fade: 0, weight: region.weight(at: listener))
        switch region {
        case .everywhere:
            break
        case let .sphere(center, radius, fade):
            (zone.shape, zone.center, zone.radius, zone.fade) = ("sphere", center, radius, fade)
        case let .box(low, high, fade):
            (zone.shape, zone.center, zone.upper, zone.fade) = ("box", low, high, fade)
        }
        return zone
    }
}
