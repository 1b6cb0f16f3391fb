// A queue of more than two channels on the device's two: each channel's share of the left and the
// right, by its label, as a stereo output plays a multichannel queue on iOS. The shares are
// ITU-R BS.775's downmix: the fronts to their side, the centre and the surrounds at −3 dB to
// theirs (the centre to both), a centre surround at −6 dB to both, the LFE left out. Nothing is
// scaled down: a channel on its own plays at its level.

/// How an N-channel queue folds into stereo on the device.
struct StereoDownmix {
    /// Each channel's gain into the left and into the right.
    let left: [Float]
    let right: [Float]

    /// The fold for channels labelled `labels`.
    init(labels: [AudioChannelLabel]) {
        let shares = labels.map(Self.share)
        left = shares.map(\.left)
        right = shares.map(\.right)
    }

    /// The fold for a queue of `channels` channels with `layout` (the ChannelLayout property, if
    /// set): the layout's labels when it names every channel, else WAVE's order for the count
    /// (L R C LFE, then the surrounds: what FFmpeg's decoders give and WAVE files hold).
    init(layout: [UInt8]?, channels: Int) {
        if let layout, let labels = try? layout.withUnsafeBytes({ try ChannelLayouts.labels(ofLayout: $0) }),
           labels.count == channels, !labels.contains(where: { $0 >= kAudioChannelLabel_Discrete }) {
            self.init(labels: labels)
        } else {
            self.init(labels: Self.waveOrder(channels))
        }
    }

    /// WAVE's channel order for `channels` channels (its default masks); past eight, the rest unlabelled.
    static func waveOrder(_ channels: Int) -> [AudioChannelLabel] {
        let L = kAudioChannelLabel_Left, R = kAudioChannelLabel_Right, C = kAudioChannelLabel_Center
        let LFE = kAudioChannelLabel_LFEScreen, Ls = kAudioChannelLabel_LeftSurround, Rs = kAudioChannelLabel_RightSurround
        let Cs = kAudioChannelLabel_CenterSurround
        let Rls = kAudioChannelLabel_RearSurroundLeft, Rrs = kAudioChannelLabel_RearSurroundRight
        let orders: [Int: [AudioChannelLabel]] = [
            1: [C], 2: [L, R], 3: [L, R, C], 4: [L, R, Ls, Rs], 5: [L, R, C, Ls, Rs], 6: [L, R, C, LFE, Ls, Rs],
            7: [L, R, C, LFE, Cs, Ls, Rs], 8: [L, R, C, LFE, Rls, Rrs, Ls, Rs],
        ]
        if let order = orders[channels] { return order }
        return orders[8]! + Array(repeating: kAudioChannelLabel_Unknown, count: max(0, channels - 8))
    }

    /// A label's gains into the left and the right.
    static func share(_ label: AudioChannelLabel) -> (left: Float, right: Float) {
        let half: Float = 0.707_106_77
        switch label {
        case kAudioChannelLabel_Left, kAudioChannelLabel_LeftWide, kAudioChannelLabel_LeftTotal, kAudioChannelLabel_HeadphonesLeft,
             kAudioChannelLabel_LeftCenter:
            return (1, 0)
        case kAudioChannelLabel_Right, kAudioChannelLabel_RightWide, kAudioChannelLabel_RightTotal, kAudioChannelLabel_HeadphonesRight,
             kAudioChannelLabel_RightCenter:
            return (0, 1)
        case kAudioChannelLabel_Center, kAudioChannelLabel_Mono, kAudioChannelLabel_VerticalHeightCenter, kAudioChannelLabel_DialogCentricMix:
            return (half, half)
        case kAudioChannelLabel_LeftSurround, kAudioChannelLabel_LeftSurroundDirect, kAudioChannelLabel_RearSurroundLeft,
             kAudioChannelLabel_VerticalHeightLeft, kAudioChannelLabel_TopBackLeft:
            return (half, 0)
        case kAudioChannelLabel_RightSurround, kAudioChannelLabel_RightSurroundDirect, kAudioChannelLabel_RearSurroundRight,
             kAudioChannelLabel_VerticalHeightRight, kAudioChannelLabel_TopBackRight:
            return (0, half)
        case kAudioChannelLabel_LFEScreen, kAudioChannelLabel_LFE2, kAudioChannelLabel_Unused, kAudioChannelLabel_Haptic,
             kAudioChannelLabel_ClickTrack:
            return (0, 0)
        default:
            // A centre surround, a top centre, a label with no side: to both at −6 dB.
            return (0.5, 0.5)
        }
    }

    /// Folds `frames` interleaved frames of `left.count` channels into interleaved stereo.
    func fold(_ source: UnsafePointer<Float>, frames: Int, into destination: UnsafeMutablePointer<Float>) {
        let channels = left.count
        for frame in 0..<frames {
            let input = source + frame * channels
            var l: Float = 0, r: Float = 0
            for channel in 0..<channels {
                l += input[channel] * left[channel]
                r += input[channel] * right[channel]
            }
            destination[2 * frame] = l
            destination[2 * frame + 1] = r
        }
    }
}
