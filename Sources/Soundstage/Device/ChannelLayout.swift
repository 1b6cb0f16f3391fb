/// The speaker layout of a device's output (the loopback renderer's `ALC_FORMAT_CHANNELS_SOFT`).
public enum ChannelLayout: String, Sendable, Codable, CaseIterable {
    /// One channel.
    case mono
    /// Left, right.
    case stereo
    /// Front left/right, back left/right.
    case quad
    /// 5.1: front left/right, centre, LFE, side/back left/right.
    case surround51 = "5.1"
    /// 6.1.
    case surround61 = "6.1"
    /// 7.1.
    case surround71 = "7.1"

    /// Channels per frame.
    public var channelCount: Int {
        switch self {
        case .mono: 1
        case .stereo: 2
        case .quad: 4
        case .surround51: 6
        case .surround61: 7
        case .surround71: 8
        }
    }

    /// The layout with `count` channels, if there is one.
    public init?(channelCount count: Int) {
        guard let layout = Self.allCases.first(where: { $0.channelCount == count }) else { return nil }
        self = layout
    }
}
