
extension Source {
    /// Where a source's meter has counted to, and its stereo panning, cached.
    struct MeteringState {
        /// The frame of its buffer metered up to (nil: not yet), the mix time it was reached,
        /// and meter updates left before the next reading of OpenAL's offset.
        var frame: Int?
        var at = 0.0
        var updatesUntilSync = 0
        /// Its audibility and stereo panning (nil: not computed), and what they were computed
        /// from (computed again only when that changed).
        var mix: (key: MixKey, gain: Float, panning: StereoPanning??)?
        /// Its buffer's levels and sample rate (kept here: the buffer's own copy sits behind a
        /// lock, and a `Buffer` — weakly referenced by its device — costs two slow reference-count
        /// operations each time it is touched). Cleared when the source's buffer changes.
        var levels: BufferLevels?
        /// Its meter's sums since the last read (kept under the scene's lock, which the meter
        /// update holds anyway).
        var sums = LevelSums(channels: 0)
    }

    /// What one source brought to the mix in a meter update, for its groups' and scene's
    /// meters: power and peak on the left and right of a stereo mix (on `left` alone otherwise).
    struct MixContribution {
        var left: Double, right: Double
        var leftPeak: Float, rightPeak: Float
    }

    /// A buffer's levels as a source's meter keeps them. Not retained, and used borrowed (a
    /// retain and a release for every source at every meter update): the source's buffer keeps
    /// them alive, and the source drops this when its buffer changes.
    struct BufferLevels {
        let table: Unmanaged<BlockLevels>
        let sampleRate: Int
    }

    /// What a source's audibility and panning at the mix depend on: its properties' and the
    /// listener's change counts, the distance model, and the channels it plays.
    struct MixKey: Equatable {
        var properties: UInt32
        var listener: UInt32
        var model: DistanceModel
        var spatialized: Bool
        var channels: Int
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
    /// `forGroups`, also returns what reached the mix on `outputs` channels (2 or 1, as
    /// ``Scene/meterOutputs``: through OpenAL's panning when there are 2, else folded) for its
    /// groups' and scene's meters. Nothing when nobody meters. Allocates nothing.
    func meterLocked(_ al: borrowing ALCalls, model: DistanceModel, listener: Listener.Properties, listenerVersion: UInt32,
                     forGroups: Bool, outputs: Int, at mixTime: Double) -> MixContribution? {
        let metered = meter.isOn
        guard metered || forGroups, let name = state.name, state.playback == .playing else { return nil }
        var played: LevelSums
        if let stream = state.audioStream {
            // A stream: the levels of what played, from the chunks' levels the decoder made.
            played = LevelSums(channels: stream.channels)
            guard stream.meterLevels(name, al, into: &played) else { return nil }
        } else {
            if state.metering.levels == nil {
                guard let buffer = state.buffer else { return nil }
                state.metering.levels = BufferLevels(table: .passUnretained(buffer.levels), sampleRate: buffer.sampleRate)
            }
            let table = state.metering.levels!.table, sampleRate = state.metering.levels!.sampleRate
            guard let sums = table._withUnsafeGuaranteedRef({ levels -> LevelSums? in
                let frames = levels.frames
                guard frames > 0, let range = playedRangeLocked(al, name, frames: frames, sampleRate: sampleRate, at: mixTime)
                else { return nil }
                var played = LevelSums(channels: levels.channels)
                // From the last metered frame on, wrapping at the end of a loop, plus any whole
                // times round (a loop shorter than the 100 ms between updates).
                // (Divisions only for a range past one loop: an integer division costs as much as
                // the rest of this.)
                let whole = range.count < frames ? 0 : range.count / frames
                let end = range.from + (whole == 0 ? range.count : range.count % frames)
                if end <= frames {
                    levels.add(range.from..<end, to: &played)
                } else {
                    levels.add(range.from..<frames, to: &played)
                    levels.add(0..<(end - frames), to: &played)
                }
                if whole > 0 { levels.add(0..<frames, to: &played, times: whole) }
                return played
            }) else { return nil }
            played = sums
        }
        guard played.frames > 0 else { return nil }
        let key = MixKey(properties: state.propertiesVersion, listener: listenerVersion, model: model,
                         spatialized: state.spatialized, channels: played.channels)
        if state.metering.mix?.key != key {
            state.metering.mix = (key, Self.audibility(state.properties, spatialized: state.spatialized, model, listener), nil)
        }
        let gain = state.metering.mix!.gain
        if metered {
            if state.metering.sums.channels != played.channels { state.metering.sums.reset(channels: played.channels) }
            state.metering.sums.add(played, gain: gain)
        }
        guard forGroups else { return nil }
        var panning: StereoPanning?
        if outputs == 2 {
            if let cached = state.metering.mix!.panning {
                panning = cached
            } else {
                panning = StereoPanning(state.properties, channels: played.channels, spatialized: state.spatialized, listener: listener)
                state.metering.mix!.panning = .some(panning)
            }
        }
        // In scalars, returned in registers (vectors written here and read by the caller would
        // wait on the store).
        let power = Double(gain) * Double(gain), scale = abs(gain)
        var left = 0.0, right = 0.0, leftPeak: Float = 0, rightPeak: Float = 0
        for channel in 0..<played.channels {
            let channelPower = played.squares[channel] * power, peak = played.peaks[channel] * scale
            if let panning, channel < 2 {
                let toLeft = panning.gain(channel, to: 0), toRight = panning.gain(channel, to: 1)
                left += channelPower * Double(toLeft) * Double(toLeft)
                right += channelPower * Double(toRight) * Double(toRight)
                leftPeak = max(leftPeak, peak * toLeft)
                rightPeak = max(rightPeak, peak * toRight)
            } else if outputs == 2 && channel % 2 == 1 {
                right += channelPower
                rightPeak = max(rightPeak, peak)
            } else {
                left += channelPower
                leftPeak = max(leftPeak, peak)
            }
        }
        return MixContribution(left: left, right: right, leftPeak: leftPeak, rightPeak: rightPeak)
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
        // (Rounded by adding ½ and truncating, both ≥ 0: `rounded()` is a call into libm.)
        let advanced = Int(max(0, (mixTime - state.metering.at) * Double(sampleRate) * Double(state.properties.pitch)) + 0.5)
        if let last = state.metering.frame, state.metering.updatesUntilSync > 0 {
            state.metering.updatesUntilSync -= 1
            count = looping ? max(0, advanced) : max(0, min(frames - last, advanced))
            let reached = last + count
            now = looping && reached >= frames ? reached % frames : reached
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

}
