import Soundstage
import SoundstageJSON

/// The value ranges that scene files and the daemon's commands share, kept in one place so a
/// value a scene file accepts is accepted by the daemon too, with the same message.
public enum SceneLimits {
    /// A source's or listener's gain: 0 (silent) to 100 (+40 dB).
    public static let gain: ClosedRange<Double> = 0...100
    /// A source's pitch: 0.01 to 100 (OpenAL Soft clamps within that).
    public static let pitch: ClosedRange<Double> = 0.01...100
}

extension JSONReader {
    /// A vector written `[x, y, z]`, or nil when absent; `nonZero` refuses `[0, 0, 0]` (a
    /// direction or orientation).
    public func vector(_ value: JSONValue?, _ path: String, nonZero: Bool = false) throws -> Vector3? {
        guard let xyz = try numbers(value, path, count: 3, what: "[x, y, z]") else { return nil }
        let vector = Vector3(Float(xyz[0]), Float(xyz[1]), Float(xyz[2]))
        if nonZero && vector.length == 0 { throw fail(path, "must not be the zero vector") }
        return vector
    }
}
