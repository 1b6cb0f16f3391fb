// Core Foundation's objects are Swift objects here: a CF...Ref handed to C is an object of one of
// the classes below, retained for the caller (Unmanaged.passRetained), so CFRetain and CFRelease are
// Swift's own atomic reference counting and the object is freed when the count reaches zero.
// Swift imports each CF...Ref as a foreign class and retains and releases it with the same runtime
// calls, so C and Swift share one count. The C functions that take or return these types are
// `@c(soundstage_Name)` rather than `@c @implementation`: Swift cannot spell a CF class in a C
// signature, and the link names carry Soundstage's prefix (CoreFoundation/CFBase.h says why).
#if canImport(Glibc)
import Glibc
#endif

/// What every Core Foundation object made here can say about itself (CFShow, CFEqual).
protocol CFObject: AnyObject, Sendable {
    /// What CFShow prints.
    var cfDescription: String { get }
    /// Whether `other` is equal to this object (CFEqual).
    func cfEquals(_ other: any CFObject) -> Bool
}

/// The object behind a CFTypeRef, or nil for NULL and for pointers this module did not make
/// (which CFRetain and friends then ignore rather than trap on).
func cfObject(_ pointer: UnsafeRawPointer?) -> (any CFObject)? {
    guard let pointer else { return nil }
    return Unmanaged<AnyObject>.fromOpaque(pointer).takeUnretainedValue() as? any CFObject
}

/// A new object for C: retained once for the caller, who releases it.
func cfRetained(_ object: any CFObject) -> UnsafeRawPointer {
    UnsafeRawPointer(Unmanaged<AnyObject>.passRetained(object).toOpaque())
}

/// An object for C that the caller does not own (a Get function's answer).
func cfUnretained(_ object: any CFObject) -> UnsafeRawPointer {
    UnsafeRawPointer(Unmanaged<AnyObject>.passUnretained(object).toOpaque())
}

@_silgen_name("swift_retainCount")
private func swiftRetainCount(_ object: UnsafeMutableRawPointer) -> Int

/// `CFRetain`: one more reference. NULL is ignored (Apple traps).
@c(soundstage_CFRetain)
public func _CFRetain(_ cf: UnsafeRawPointer?) -> UnsafeRawPointer? {
    guard let cf else { return nil }
    if (cfObject(cf) as? CFStringStorage)?.isConstant == true { return cf }   // CFSTR's strings are immortal
    _ = Unmanaged<AnyObject>.fromOpaque(cf).retain()
    return cf
}

/// `CFRelease`: one reference fewer; at zero the object is freed. NULL is ignored (Apple traps).
@c(soundstage_CFRelease)
public func _CFRelease(_ cf: UnsafeRawPointer?) {
    guard let cf else { return }
    if (cfObject(cf) as? CFStringStorage)?.isConstant == true { return }   // CFSTR's strings are immortal
    Unmanaged<AnyObject>.fromOpaque(cf).release()
}

/// `CFGetRetainCount`: the object's reference count (0 for NULL).
@c(soundstage_CFGetRetainCount)
public func _CFGetRetainCount(_ cf: UnsafeRawPointer?) -> CFIndex {
    guard let cf else { return 0 }
    return swiftRetainCount(UnsafeMutableRawPointer(mutating: cf))
}

/// `CFShow`: the object's description on standard error.
@c(soundstage_CFShow)
public func _CFShow(_ obj: UnsafeRawPointer?) {
    let text = cfObject(obj)?.cfDescription ?? (obj == nil ? "(null)" : "<CFType \(obj!)>")
    let line = text + "\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
}

/// `CFEqual`: strings by their characters, URLs by their paths, anything else by identity.
@c(soundstage_CFEqual)
public func _CFEqual(_ cf1: UnsafeRawPointer?, _ cf2: UnsafeRawPointer?) -> UInt8 {
    guard let cf1, let cf2 else { return 0 }
    if cf1 == cf2 { return 1 }
    guard let a = cfObject(cf1), let b = cfObject(cf2) else { return 0 }
    return a.cfEquals(b) ? 1 : 0
}
