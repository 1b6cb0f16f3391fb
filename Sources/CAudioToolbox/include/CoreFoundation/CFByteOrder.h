/*
 * CoreFoundation/CFByteOrder.h — byte swapping (Soundstage's subset; see CoreFoundation.h). Every
 * function is static inline, as on Apple's systems. Written from Apple's documentation.
 */
#ifndef SOUNDSTAGE_CFBYTEORDER_H
#define SOUNDSTAGE_CFBYTEORDER_H

#include <CoreFoundation/CFBase.h>

CA_HEADER_BEGIN

enum __CFByteOrder {
    CFByteOrderUnknown,
    CFByteOrderLittleEndian,
    CFByteOrderBigEndian
};
typedef CFIndex CFByteOrder;

CF_INLINE CFByteOrder CFByteOrderGetCurrent(void) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return CFByteOrderBigEndian;
#else
    return CFByteOrderLittleEndian;
#endif
}

CF_INLINE uint16_t CFSwapInt16(uint16_t arg) { return (uint16_t)((arg << 8) | (arg >> 8)); }
CF_INLINE uint32_t CFSwapInt32(uint32_t arg) { return __builtin_bswap32(arg); }
CF_INLINE uint64_t CFSwapInt64(uint64_t arg) { return __builtin_bswap64(arg); }

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
CF_INLINE uint16_t CFSwapInt16BigToHost(uint16_t arg) { return arg; }
CF_INLINE uint32_t CFSwapInt32BigToHost(uint32_t arg) { return arg; }
CF_INLINE uint64_t CFSwapInt64BigToHost(uint64_t arg) { return arg; }
CF_INLINE uint16_t CFSwapInt16HostToBig(uint16_t arg) { return arg; }
CF_INLINE uint32_t CFSwapInt32HostToBig(uint32_t arg) { return arg; }
CF_INLINE uint64_t CFSwapInt64HostToBig(uint64_t arg) { return arg; }
CF_INLINE uint16_t CFSwapInt16LittleToHost(uint16_t arg) { return CFSwapInt16(arg); }
CF_INLINE uint32_t CFSwapInt32LittleToHost(uint32_t arg) { return CFSwapInt32(arg); }
CF_INLINE uint64_t CFSwapInt64LittleToHost(uint64_t arg) { return CFSwapInt64(arg); }
CF_INLINE uint16_t CFSwapInt16HostToLittle(uint16_t arg) { return CFSwapInt16(arg); }
CF_INLINE uint32_t CFSwapInt32HostToLittle(uint32_t arg) { return CFSwapInt32(arg); }
CF_INLINE uint64_t CFSwapInt64HostToLittle(uint64_t arg) { return CFSwapInt64(arg); }
#else
CF_INLINE uint16_t CFSwapInt16BigToHost(uint16_t arg) { return CFSwapInt16(arg); }
CF_INLINE uint32_t CFSwapInt32BigToHost(uint32_t arg) { return CFSwapInt32(arg); }
CF_INLINE uint64_t CFSwapInt64BigToHost(uint64_t arg) { return CFSwapInt64(arg); }
CF_INLINE uint16_t CFSwapInt16HostToBig(uint16_t arg) { return CFSwapInt16(arg); }
CF_INLINE uint32_t CFSwapInt32HostToBig(uint32_t arg) { return CFSwapInt32(arg); }
CF_INLINE uint64_t CFSwapInt64HostToBig(uint64_t arg) { return CFSwapInt64(arg); }
CF_INLINE uint16_t CFSwapInt16LittleToHost(uint16_t arg) { return arg; }
CF_INLINE uint32_t CFSwapInt32LittleToHost(uint32_t arg) { return arg; }
CF_INLINE uint64_t CFSwapInt64LittleToHost(uint64_t arg) { return arg; }
CF_INLINE uint16_t CFSwapInt16HostToLittle(uint16_t arg) { return arg; }
CF_INLINE uint32_t CFSwapInt32HostToLittle(uint32_t arg) { return arg; }
CF_INLINE uint64_t CFSwapInt64HostToLittle(uint64_t arg) { return arg; }
#endif

CA_HEADER_END

#endif /* SOUNDSTAGE_CFBYTEORDER_H */
