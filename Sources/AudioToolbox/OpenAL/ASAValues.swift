// How ALC_EXT_ASA's properties travel: a pointer and a size. Integer properties (ALuint, ALint) are
// read from 1, 2 or 4 bytes (code passes an ALboolean for ALC_ASA_REVERB_ON as often as an ALuint)
// and written in the room given, up to 4; float properties are one ALfloat, 4 bytes or more of room.
import COpenAL

enum ASAValue {
    /// The integer at `data`, `size` bytes wide. `AL_INVALID_VALUE` for NULL or another size.
    static func integer(_ data: UnsafeMutableRawPointer?, _ size: ALuint) throws(ALError) -> ALint {
        guard let data else { throw .invalidValue }
        switch size {
        case 1: return ALint(data.load(as: UInt8.self))
        case 2: return ALint(data.loadUnaligned(as: Int16.self))
        case 4: return data.loadUnaligned(as: ALint.self)
        default: throw .invalidValue
        }
    }

    /// The float at `data`, which must be finite and in `range`. `AL_INVALID_VALUE` otherwise.
    static func float(_ data: UnsafeMutableRawPointer?, _ size: ALuint, in range: ClosedRange<ALfloat>) throws(ALError) -> ALfloat {
        guard let data, size == 4 else { throw .invalidValue }
        let value = data.loadUnaligned(as: ALfloat.self)
        guard range.contains(value) else { throw .invalidValue }   // NaN is in no range
        return value
    }

    /// Writes `value` into `data` in the room `*size` gives (1, 2, or 4 and more), and the size written.
    static func write(_ value: ALint, _ data: UnsafeMutableRawPointer?, _ size: UnsafeMutablePointer<ALuint>?) throws(ALError) {
        guard let data, let size else { throw .invalidValue }
        switch size.pointee {
        case 1: data.storeBytes(of: UInt8(truncatingIfNeeded: value), as: UInt8.self)
        case 2, 3: data.storeBytes(of: Int16(truncatingIfNeeded: value), toByteOffset: 0, as: Int16.self); size.pointee = 2
        case 4...: data.storeBytes(of: value, toByteOffset: 0, as: ALint.self); size.pointee = 4
        default: throw .invalidValue
        }
    }

    /// Writes `value` into `data`, which must have 4 bytes of room, and the size written.
    static func write(_ value: ALfloat, _ data: UnsafeMutableRawPointer?, _ size: UnsafeMutablePointer<ALuint>?) throws(ALError) {
        guard let data, let size, size.pointee >= 4 else { throw .invalidValue }
        data.storeBytes(of: value, toByteOffset: 0, as: ALfloat.self)
        size.pointee = 4
    }
}
