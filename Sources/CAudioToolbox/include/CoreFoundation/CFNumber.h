/*
 * CoreFoundation/CFNumber.h — numbers as objects, as the Audio Session C API hands a route change's
 * reason to its listener (a CFDictionary whose kAudioSession_AudioRouteChangeKey_Reason value is a
 * CFNumber). Soundstage's subset (see CoreFoundation.h): making a number and reading it back in
 * any of the types. Written from Apple's documentation; no Apple header was copied. Values are
 * Apple's.
 */
#ifndef SOUNDSTAGE_CFNUMBER_H
#define SOUNDSTAGE_CFNUMBER_H

#include <CoreFoundation/CFBase.h>

CA_HEADER_BEGIN

/* Soundstage's symbols for these names (see CFBase.h). */
#define CFNumberCreate soundstage_CFNumberCreate
#define CFNumberGetValue soundstage_CFNumberGetValue
#define CFNumberGetType soundstage_CFNumberGetType
#define CFNumberGetByteSize soundstage_CFNumberGetByteSize
#define CFNumberIsFloatType soundstage_CFNumberIsFloatType

typedef const struct __CFNumber *CFNumberRef;

/** The C type a number is made from or read into. */
typedef CFIndex CFNumberType;
CA_ENUM(CFNumberType) {
    kCFNumberSInt8Type = 1,
    kCFNumberSInt16Type = 2,
    kCFNumberSInt32Type = 3,
    kCFNumberSInt64Type = 4,
    kCFNumberFloat32Type = 5,
    kCFNumberFloat64Type = 6,
    kCFNumberCharType = 7,
    kCFNumberShortType = 8,
    kCFNumberIntType = 9,
    kCFNumberLongType = 10,
    kCFNumberLongLongType = 11,
    kCFNumberFloatType = 12,
    kCFNumberDoubleType = 13,
    kCFNumberCFIndexType = 14,
    kCFNumberNSIntegerType = 15,
    kCFNumberCGFloatType = 16,
    kCFNumberMaxType = 16
};

/** A new number holding *valuePtr, read as theType; retained for the caller. NULL for a NULL
    valuePtr or an unknown type (Apple's behaviour there is undefined). */
CF_EXPORT CFNumberRef CFNumberCreate(CFAllocatorRef allocator, CFNumberType theType, const void *valuePtr) CF_RETURNS_RETAINED
    CA_SWIFT_NAME(CFNumberCreate(_:_:_:));
/** Writes the number as theType into *valuePtr; false if the value had to be rounded, truncated
    or clamped to fit (the value is still written), or for NULL or an unknown type (nothing is written). */
CF_EXPORT Boolean CFNumberGetValue(CFNumberRef number, CFNumberType theType, void *valuePtr) CA_SWIFT_NAME(CFNumberGetValue(_:_:_:));
/** The type the number was made with (0 for NULL). */
CF_EXPORT CFNumberType CFNumberGetType(CFNumberRef number) CA_SWIFT_NAME(CFNumberGetType(_:));
/** The size in bytes of the type the number was made with (0 for NULL). */
CF_EXPORT CFIndex CFNumberGetByteSize(CFNumberRef number) CA_SWIFT_NAME(CFNumberGetByteSize(_:));
/** Whether the number was made from a floating-point type. */
CF_EXPORT Boolean CFNumberIsFloatType(CFNumberRef number) CA_SWIFT_NAME(CFNumberIsFloatType(_:));

CA_HEADER_END

#endif /* SOUNDSTAGE_CFNUMBER_H */
