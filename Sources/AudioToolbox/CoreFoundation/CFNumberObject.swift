// CFNumber: a number as an object (CoreFoundation/CFNumber.h), as the Audio Session C API hands a
// route change's reason to its listeners. Integers are kept as Int64, floating point as Double,
// with the type the number was made with.
#if canImport(Glibc)
import Glibc
#endif

/// The object behind a CFNumberRef.
final class CFNumberStorage: CFObject, @unchecked Sendable {
    // @unchecked: immutable after init.
    enum Value: Equatable {
        case integer(Int64)
        case real(Double)
    }

    let value: Value
    let type: CFNumberType

    init(_ value: Value, type: CFNumberType) {
        self.value = value
        self.type = type
    }

    /// A 32-bit integer number (kCFNumberSInt32Type), read from `pointer`.
    convenience init(sint32 pointer: UnsafePointer<Int32>) { self.init(.integer(Int64(pointer.pointee)), type: kCFNumberSInt32Type) }

    var cfDescription: String {
        switch value {
        case .integer(let number): "<CFNumber \(Unmanaged.passUnretained(self).toOpaque()) [\(number)]>"
        case .real(let number): "<CFNumber \(Unmanaged.passUnretained(self).toOpaque()) [\(number)]>"
        }
    }

    func cfEquals(_ other: any CFObject) -> Bool {
        guard let other = other as? CFNumberStorage else { return false }
        switch (value, other.value) {
        case (.integer(let a), .integer(let b)): return a == b
        case (.real(let a), .real(let b)): return a == b
        case (.integer(let a), .real(let b)), (.real(let b), .integer(let a)): return Double(a) == b
        }
    }

    /// The C layout of each type: its size and whether it is floating point (nil: unknown type).
    static func layout(_ type: CFNumberType) -> (size: Int, isFloat: Bool)? {
        switch type {
        case kCFNumberSInt8Type, kCFNumberCharType: (1, false)
        case kCFNumberSInt16Type, kCFNumberShortType: (2, false)
        case kCFNumberSInt32Type, kCFNumberIntType: (4, false)
        case kCFNumberSInt64Type, kCFNumberLongType, kCFNumberLongLongType, kCFNumberCFIndexType, kCFNumberNSIntegerType: (8, false)
        case kCFNumberFloat32Type, kCFNumberFloatType: (4, true)
        case kCFNumberFloat64Type, kCFNumberDoubleType, kCFNumberCGFloatType: (8, true)
        default: nil
        }
    }

    /// Reads a number of `type` from `pointer`.
    static func read(_ type: CFNumberType, from pointer: UnsafeRawPointer) -> CFNumberStorage? {
        guard let layout = layout(type) else { return nil }
        let value: Value = switch (layout.size, layout.isFloat) {
        case (1, _): .integer(Int64(pointer.loadUnaligned(as: Int8.self)))
        case (2, _): .integer(Int64(pointer.loadUnaligned(as: Int16.self)))
        case (4, false): .integer(Int64(pointer.loadUnaligned(as: Int32.self)))
        case (4, true): .real(Double(pointer.loadUnaligned(as: Float.self)))
        case (_, true): .real(pointer.loadUnaligned(as: Double.self))
        default: .integer(pointer.loadUnaligned(as: Int64.self))
        }
        return CFNumberStorage(value, type: type)
    }

    /// Writes the number as `type` to `pointer`; whether it fitted exactly (nil: unknown type).
    func write(_ type: CFNumberType, to pointer: UnsafeMutableRawPointer) -> Bool? {
        guard let layout = Self.layout(type) else { return nil }
        if layout.isFloat {
            let real: Double = switch value {
            case .integer(let number): Double(number)
            case .real(let number): number
            }
            if layout.size == 4 {
                let single = Float(real)
                pointer.storeBytes(of: single, as: Float.self)
                return Double(single) == real || real.isNaN
            }
            pointer.storeBytes(of: real, as: Double.self)
            if case .integer(let number) = value { return Int64(exactly: real) == number }
            return true
        }
        let exact: Int64?
        let clamped: Int64
        switch value {
        case .integer(let number):
            exact = number
            clamped = number
        case .real(let number):
            exact = Int64(exactly: number)
            clamped = number.isNaN ? 0 : Int64(max(-9.2e18, min(9.2e18, number.rounded(.towardZero))))
        }
        func store<T: FixedWidthInteger>(_: T.Type) -> Bool {
            let fitted = T(clamping: clamped)
            pointer.storeBytes(of: fitted, as: T.self)
            return exact.map { Int64(fitted) == $0 } ?? false
        }
        switch layout.size {
        case 1: return store(Int8.self)
        case 2: return store(Int16.self)
        case 4: return store(Int32.self)
        default: return store(Int64.self)
        }
    }
}

/// `CFNumberCreate`: retained for the caller; NULL for a NULL value or an unknown type.
@c(soundstage_CFNumberCreate)
public func _CFNumberCreate(_ allocator: UnsafeRawPointer?, _ theType: CFNumberType, _ valuePtr: UnsafeRawPointer?) -> UnsafeRawPointer? {
    guard let valuePtr, let number = CFNumberStorage.read(theType, from: valuePtr) else { return nil }
    return cfRetained(number)
}

/// `CFNumberGetValue`: false when the value had to change to fit, or for NULL or an unknown type.
@c(soundstage_CFNumberGetValue)
public func _CFNumberGetValue(_ number: UnsafeRawPointer?, _ theType: CFNumberType, _ valuePtr: UnsafeMutableRawPointer?) -> Bool {
    guard let number = cfObject(number) as? CFNumberStorage, let valuePtr else { return false }
    return number.write(theType, to: valuePtr) ?? false
}

/// `CFNumberGetType`: the type the number was made with (0 for NULL).
@c(soundstage_CFNumberGetType)
public func _CFNumberGetType(_ number: UnsafeRawPointer?) -> CFNumberType {
    (cfObject(number) as? CFNumberStorage)?.type ?? 0
}

/// `CFNumberGetByteSize`.
@c(soundstage_CFNumberGetByteSize)
public func _CFNumberGetByteSize(_ number: UnsafeRawPointer?) -> CFIndex {
    (cfObject(number) as? CFNumberStorage).flatMap { CFNumberStorage.layout($0.type)?.size } ?? 0
}

/// `CFNumberIsFloatType`.
@c(soundstage_CFNumberIsFloatType)
public func _CFNumberIsFloatType(_ number: UnsafeRawPointer?) -> Bool {
    (cfObject(number) as? CFNumberStorage).flatMap { CFNumberStorage.layout($0.type)?.isFloat } ?? false
}
