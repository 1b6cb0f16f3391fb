/// A position, velocity or direction in OpenAL's right-handed coordinates (metres by
/// convention): +x right, +y up, −z ahead of a listener with the default orientation.
public struct Vector3: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Right.
    public var x: Float
    /// Up.
    public var y: Float
    /// Backwards (towards the default listener's back).
    public var z: Float

    /// Creates a vector.
    public init(_ x: Float, _ y: Float, _ z: Float) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// (0, 0, 0).
    public static let zero = Vector3(0, 0, 0)

    /// Whether every component is finite (not NaN or infinite).
    public var isFinite: Bool { x.isFinite && y.isFinite && z.isFinite }

    /// Euclidean length.
    public var length: Float { (x * x + y * y + z * z).squareRoot() }

    /// The largest coordinate a position or velocity may have: 1,000,000 km. Beyond it, squared
    /// distances leave `Float`'s range and the mixer's maths turns to infinities.
    public static let maxCoordinate: Float = 1e9

    /// Finite, with every coordinate within ±``maxCoordinate``: what setters of positions,
    /// velocities and directions accept.
    public var isUsablePosition: Bool { isFinite && abs(x) <= Self.maxCoordinate && abs(y) <= Self.maxCoordinate && abs(z) <= Self.maxCoordinate }

    /// The rule ``isUsablePosition`` checks, for refusals.
    static let positionRule: StaticString = "finite, each coordinate within ±1e9"

    /// The cross product.
    public func cross(_ other: Vector3) -> Vector3 {
        Vector3(y * other.z - z * other.y, z * other.x - x * other.z, x * other.y - y * other.x)
    }

    /// Component-wise sum.
    public static func + (a: Vector3, b: Vector3) -> Vector3 { Vector3(a.x + b.x, a.y + b.y, a.z + b.z) }
    /// Component-wise difference.
    public static func - (a: Vector3, b: Vector3) -> Vector3 { Vector3(a.x - b.x, a.y - b.y, a.z - b.z) }
    /// Scaling.
    public static func * (a: Vector3, s: Float) -> Vector3 { Vector3(a.x * s, a.y * s, a.z * s) }

    /// The vector scaled to length 1 (zero stays zero).
    var normalized: Vector3 {
        let length = self.length
        return length > 0 ? self * (1 / length) : self
    }

    /// Dot product.
    public func dot(_ other: Vector3) -> Float { x * other.x + y * other.y + z * other.z }

    /// `(x, y, z)`.
    public var description: String { "(\(x), \(y), \(z))" }
}
