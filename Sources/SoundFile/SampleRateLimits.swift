/// The sample rates each part of Soundstage accepts, in one place so the library, the CLI and
/// their messages agree. They differ for a reason: a mix is made by OpenAL Soft, a file or a
/// recording is not.
public enum SampleRateLimits {
    /// A rendered or played mix (a loopback, desktop or real-time device, `soundstage render`):
    /// 8000–192000 Hz, the output rates OpenAL Soft accepts.
    public static let mix: ClosedRange<Int> = 8_000...192_000
    /// A conversion's target rate (`soundstage convert --sample-rate`) and a recording's rate:
    /// 1000–384000 Hz, PulseAudio's largest rate (`PA_RATE_MAX`).
    public static let conversion: ClosedRange<Int> = 1_000...384_000
    /// A decoded file or a buffer: up to 768000 Hz (what libsndfile's containers hold).
    public static let decoded: ClosedRange<Int> = 1...768_000

    /// "8000...192000", for messages.
    public static func describe(_ range: ClosedRange<Int>) -> String { "\(range.lowerBound)...\(range.upperBound)" }
}
