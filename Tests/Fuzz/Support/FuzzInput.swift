/// A fuzzer's input read as a stream of choices: bytes, integers, any float bits. Past its end
/// every read gives zeros, so a short input is still a whole program.
public struct FuzzInput {
    private let bytes: [UInt8]
    private var position = 0

    /// The input `bytes`, read from the start.
    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Whether every byte has been read.
    public var isAtEnd: Bool { position >= bytes.count }

    /// How many bytes are left.
    public var remaining: Int { max(0, bytes.count - position) }

    /// The next byte (0 past the end).
    public mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    /// The next `count` bytes (fewer at the end).
    public mutating func bytes(_ count: Int) -> [UInt8] {
        let end = min(bytes.count, position + max(0, count))
        defer { position = end }
        return Array(bytes[min(position, end)..<end])
    }

    /// The rest of the input.
    public mutating func rest() -> [UInt8] { bytes(remaining) }

    /// A little-endian 16-bit integer.
    public mutating func u16() -> UInt16 { UInt16(byte()) | UInt16(byte()) << 8 }

    /// A little-endian 32-bit integer.
    public mutating func u32() -> UInt32 { UInt32(u16()) | UInt32(u16()) << 16 }

    /// A little-endian 64-bit integer.
    public mutating func u64() -> UInt64 { UInt64(u32()) | UInt64(u32()) << 32 }

    /// An integer in `range`.
    public mutating func int(in range: ClosedRange<Int>) -> Int {
        let span = UInt64(range.upperBound - range.lowerBound) + 1
        return range.lowerBound + Int(u32() % UInt32(truncatingIfNeeded: min(span, UInt64(UInt32.max))))
    }

    /// One of `choices`.
    public mutating func choice<T>(_ choices: [T]) -> T { choices[Int(byte()) % choices.count] }

    /// A float: usually an ordinary value, sometimes any bit pattern (NaN, infinities,
    /// subnormals, huge values).
    public mutating func float() -> Float {
        switch byte() % 8 {
        case 0: Float(bitPattern: u32())
        case 1: choice([Float.nan, .infinity, -.infinity, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
                        .leastNonzeroMagnitude, 0, -0.0, 1e9, -1e9, 1e12])
        default: Float(Int16(bitPattern: u16())) / 1024
        }
    }

    /// A double, the same way.
    public mutating func double() -> Double {
        switch byte() % 8 {
        case 0: Double(bitPattern: u64())
        case 1: choice([Double.nan, .infinity, -.infinity, .greatestFiniteMagnitude, -1, 1e9, 1e18, 0])
        default: Double(Int16(bitPattern: u16())) / 256
        }
    }
}
