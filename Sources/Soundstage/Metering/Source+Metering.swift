
extension Source {
    /// Where a source's meter has counted to, and its stereo panning, cached.
    struct MeteringState {
        /// The frame of its buffer metered up to (nil: not yet), the mix time it was reached,
        /// and meter updates left before the next reading of OpenAL's offset.
        var frame: Int?
        var at = 0.0
        var updatesUntilSync = 0
        /// Its stereo panning, and where it and the listener were when it was computed
        /// (computed again only when one of them moved).
        var panning: (key: PanKey, gains: StereoPanning?)?
        /// Its buffer's levels and sample rate (kept here: the buffer's own copy sits behind a
        /// lock, and a `Buffer` — weakly referenced by its device — costs two slow reference-count
        /// operations each time it is touched). Cleared when the source's buffer changes.
        var levels: (levels: BlockLevels, sampleRate: Int)?
        /// Its meter's sums since the last read (kept under the scene's lock, which the meter
        /// update holds anyway).
        var sums = LevelSums(channels: 0)
    }

    /// What a source's panning depends on.
    struct PanKey: Equatable {
        var position: Vector3
        var headRelative: Bool
        var channels: Int
        var listenerPosition: Vector3
        var at: Vector3
        var up: Vector3
    }

    /// Whether the source is metered: its signal as it reaches the mix — after its gain, groups,
    /// fade and distance attenuation (``audibility``), before panning — per channel of its
    /// buffer (a streaming source's, from levels its decoder computes per 64-frame block). Off by
    /// default, and then it costs nothing.
    public var isMeteringEnabled: Bool {
        get { meter.isOn }
        set {
            guard meter.set(newValue, countingIn: scene.meteringUsers) else { return }
            scene.withState { _, _ in
                state.metering.frame = nil
                state.metering.sums.reset(channels: 0)
            }
        }
    }

    /// The source's levels over what it played since the previous call (nil when metering is
    /// off or it played nothing since). Measured at the engine's updates.
    public func meterLevels() -> LevelMeter? {
        guard meter.isOn else { return nil }
        return scene.withState { _, _ in
            defer { state.metering.sums.reset(channels: 0) }
            return state.metering.sums.meter
        }
    }

    /// Meter updates (each 100 ms) between two readings of OpenAL's offset.
    static let meterUpdatesBetweenSyncs = 9

    /// Meters what it played since the last update (scene lock held): the buffer's frames from
    /// the last metered frame to where it plays now, × its audibility, into its own meter; with
    /// `forGroups`, also sets `reached` to what reached the mix (per output channel: through
    /// OpenAL's panning when it has 2, else folded) for its groups' and scene's meters, and
    /// returns true. Nothing when nobody meters. Allocates nothing.
    func meterLocked(_ al: borrowing ALCalls, model: DistanceModel, listener: Listener.Properties, forGroups: Bool,
                     at mixTime: Double, reached: inout LevelSums) -> Bool {
        let metered = meter.isOn
        guard metered || forGroups, let name = state.name, state.playback == .playing else { return false }
        var played: LevelSums
        if let stream = state.audioStream {
            // A stream: the levels of what played, from the chunks' levels the decoder made.
            played = LevelSums(channels: stream.channels)
            guard stream.meterLevels(name, al, into: &played) else { return false }
        } else {
            if state.metering.levels == nil {
                guard let buffer = state.buffer else { return false }
                state.metering.levels = (buffer.levels, buffer.sampleRate)
            }
            let (levels, sampleRate) = state.metering.levels!
            let frames = levels.frames
            guard frames > 0, let range = playedRangeLocked(al, name, frames: frames, sampleRate: sampleRate, at: mixTime)
            else { return false }
            played = LevelSums(channels: levels.channels)
            // From the last metered frame on, wrapping at the end of a loop, plus any whole
            // times round (a loop shorter than the 100 ms between updates).
            let end = range.from + range.count % frames
            if end <= frames {
                levels.add(range.from..<end, to: &played)
            } else {
                levels.add(range.from..<frames, to: &played)
                levels.add(0..<(end - frames), to: &played)
            }
            levels.add(0..<frames, to: &played, times: range.count / frames)
        }
        guard played.frames > 0 else { return false }
        let gain = Self.audibility(state.properties, spatialized: state.spatialized, model, listener)
        if metered {
            if state.metering.sums.channels != played.channels { state.metering.sums.reset(channels: played.channels) }
            state.metering.sums.add(played, gain: gain)
        }
        guard forGroups else { return false }
        let outputs = reached.channels
        reached.reset(channels: outputs)
        let panning = outputs == 2 ? panningLocked(channels: played.channels, listener: listener) : nil
        let power = Double(gain) * Double(gain), scale = abs(gain)
        for channel in 0..<played.channels {
            let channelPower = played.squares[channel] * power, peak = played.peaks[channel] * scale
            if let panning, channel < 2 {
                for output in 0..<2 {
                    let pan = panning.gain(channel, to: output)
                    reached.squares[output] += channelPower * Double(pan) * Double(pan)
                    reached.peaks[output] = max(reached.peaks[output], peak * pan)
                }
            } else {
                let output = channel % outputs
                reached.squares[output] += channelPower
                reached.peaks[output] = max(reached.peaks[output], peak)
            }
        }
        return true
    }

    /// The frames of its buffer played since the last meter update: `count` frames from frame
    /// `from` (going round a loop as often as that takes), moving the metered position on; nil
    /// the first time (it only marks where counting starts) and when it has not moved. OpenAL's
    /// offset is read once a second; in between the position follows the mix's advance × pitch
    /// (Doppler shifts, not counted, move it by a few percent at most until the next reading).
    private func playedRangeLocked(_ al: borrowing ALCalls, _ name: ALName, frames: Int, sampleRate: Int,
                                   at mixTime: Double) -> (from: Int, count: Int)? {
        let looping = state.properties.looping
        var count: Int
        let now: Int
        // How far the mix's advance × pitch has moved it since the last update.
        let advanced = Int(((mixTime - state.metering.at) * Double(sampleRate) * Double(state.properties.pitch)).rounded())
        if let last = state.metering.frame, state.metering.updatesUntilSync > 0 {
            state.metering.updatesUntilSync -= 1
            count = looping ? max(0, advanced) : max(0, min(frames - last, advanced))
            now = looping ? (last + count) % frames : last + count
        } else {
            guard let offset = try? al.sampleOffset(name) else { return nil }
            now = offset % frames
            state.metering.updatesUntilSync = Self.meterUpdatesBetweenSyncs
            let last = state.metering.frame ?? now
            if looping {
                // Forward to OpenAL's offset, and round a short loop as many whole times as the
                // advance says.
                count = (now - last + frames) % frames
                count += frames * max(0, Int((Double(advanced - count) / Double(frames)).rounded()))
            } else {
                // An offset behind the last one without a loop is a restart: nothing counted.
                count = max(0, now - last)
            }
        }
        let from = state.metering.frame ?? now
        if state.metering.frame == nil { count = 0 }
        state.metering.frame = now
        state.metering.at = mixTime
        return count > 0 ? (from, count) : nil
    }

    /// Its stereo panning (``StereoPanning``), computed again only when it or the listener moved.
    private func panningLocked(channels: Int, listener: Listener.Properties) -> StereoPanning? {
        let key = PanKey(position: state.properties.position, headRelative: state.properties.headRelative, channels: channels,
                         listenerPosition: listener.position, at: listener.at, up: listener.up)
        if let cached = state.metering.panning, cached.key == key { return cached.gains }
        let gains = StereoPanning(state.properties, channels: channels, spatialized: state.spatialized, listener: listener)
        state.metering.panning = (key, gains)
        return gains
    }
}
