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

    /// Component-wise sum.
    public static func + (a: Vector3, b: Vector3) -> Vector3 { Vector3(a.x + b.x, a.y + b.y, a.z + b.z) }
    /// Component-wise difference.
    public static func - (a: Vector3, b: Vector3) -> Vector3 { Vector3(a.x - b.x, a.y - b.y, a.z - b.z) }
    /// Scaling.
    public static func * (a: Vector3, s: Float) -> Vector3 { Vector3(a.x * s, a.y * s, a.z * s) }

    /// Dot product.
    public func dot(_ other: Vector3) -> Float { x * other.x + y * other.y + z * other.z }

    /// `(x, y, z)`.
    public var description: String { "(\(x), \(y), \(z))" }
}
