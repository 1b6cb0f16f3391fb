// CFAbsoluteTimeGetCurrent: the system clock in Core Foundation's epoch (2001-01-01 00:00:00 UTC).
#if canImport(Glibc)
import Glibc
#endif

/// `CFAbsoluteTimeGetCurrent` (linked as soundstage_CFAbsoluteTimeGetCurrent, see CFBase.h):
/// seconds since 1 January 2001 00:00:00 UTC (CLOCK_REALTIME).
@c(soundstage_CFAbsoluteTimeGetCurrent)
public func _CFAbsoluteTimeGetCurrent() -> CFAbsoluteTime {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Double(now.tv_sec) - 978_307_200 + Double(now.tv_nsec) / 1e9
}
