/*
 * CoreFoundation/CFString.h — immutable strings (Soundstage's subset; see CoreFoundation.h).
 * Written from Apple's documentation; no Apple header was copied.
 *
 * CFSTR("text") works in C and C++: it calls __CFStringMakeConstantString, which returns one
 * interned string per distinct text, made on first use and never freed (CFRelease on it is
 * harmless), so it may be used from any thread, stored and compared by address, as on Apple's
 * systems. Swift: the type imports as the class CFStringObject; `CFString` is Swift's String (the
 * AudioToolbox module's typealias), so iOS code's `"name" as CFString` compiles.
 */
#ifndef SOUNDSTAGE_CFSTRING_H
#define SOUNDSTAGE_CFSTRING_H

#include <CoreFoundation/CFBase.h>

CA_HEADER_BEGIN

/* Soundstage's symbols for these names (see CFBase.h: they never meet the CoreFoundation inside
   Swift's Foundation, which exports the same names). */
#define __CFStringMakeConstantString soundstage___CFStringMakeConstantString
#define CFStringCreateWithCString soundstage_CFStringCreateWithCString
#define CFStringCreateWithBytes soundstage_CFStringCreateWithBytes
#define CFStringCreateCopy soundstage_CFStringCreateCopy
#define CFStringGetLength soundstage_CFStringGetLength
#define CFStringGetCString soundstage_CFStringGetCString
#define CFStringGetCStringPtr soundstage_CFStringGetCStringPtr
#define CFStringGetMaximumSizeForEncoding soundstage_CFStringGetMaximumSizeForEncoding
#define CFStringCompare soundstage_CFStringCompare


typedef const struct __CFString *CFStringRef CA_SWIFT_NAME(CFStringObject);
typedef UInt32 CFStringEncoding;

/** The encodings Soundstage converts: UTF-8, ASCII and ISO Latin 1 (MacRoman only in its ASCII half). */
typedef CA_NAMED_ENUM(CFStringEncoding, CFStringBuiltInEncodings) {
    kCFStringEncodingMacRoman      = 0,
    kCFStringEncodingWindowsLatin1 = 0x0500,
    kCFStringEncodingISOLatin1     = 0x0201,
    kCFStringEncodingNextStepLatin = 0x0B01,
    kCFStringEncodingASCII         = 0x0600,
    kCFStringEncodingUnicode       = 0x0100,
    kCFStringEncodingUTF8          = 0x08000100,
    kCFStringEncodingNonLossyASCII = 0x0BFF,
    kCFStringEncodingUTF16         = 0x0100,
    kCFStringEncodingUTF16BE       = 0x10000100,
    kCFStringEncodingUTF16LE       = 0x14000100,
    kCFStringEncodingUTF32         = 0x0c000100,
    kCFStringEncodingUTF32BE       = 0x18000100,
    kCFStringEncodingUTF32LE       = 0x1c000100
};

/** What CFSTR expands to: the interned, immortal string with these UTF-8 bytes (NULL for NULL). */
CF_EXPORT CFStringRef __CFStringMakeConstantString(const char *cStr) CF_RETURNS_NOT_RETAINED CA_SWIFT_NAME(__CFStringMakeConstantString(_:));
#define CFSTR(cStr) __CFStringMakeConstantString("" cStr "")

/** A new string from a NUL-terminated C string in the given encoding; NULL when cStr is NULL, the
    bytes are not valid in that encoding, or the encoding is not one Soundstage converts. */
CF_EXPORT CFStringRef CFStringCreateWithCString(CFAllocatorRef alloc, const char *cStr,
                                                CFStringEncoding encoding) CF_RETURNS_RETAINED CA_SWIFT_NAME(CFStringCreateWithCString(_:_:_:));
/** A new string from numBytes bytes (no NUL needed); isExternalRepresentation is ignored (no BOMs). */
CF_EXPORT CFStringRef CFStringCreateWithBytes(CFAllocatorRef alloc, const UInt8 *bytes, CFIndex numBytes,
                                              CFStringEncoding encoding, Boolean isExternalRepresentation) CF_RETURNS_RETAINED CA_SWIFT_NAME(CFStringCreateWithBytes(_:_:_:_:_:));
/** The same string (strings are immutable here, so this is CFRetain). */
CF_EXPORT CFStringRef CFStringCreateCopy(CFAllocatorRef alloc, CFStringRef theString) CF_RETURNS_RETAINED CA_SWIFT_NAME(CFStringCreateCopy(_:_:));
/** The number of UTF-16 code units, as on Apple's systems (0 for NULL). */
CF_EXPORT CFIndex CFStringGetLength(CFStringRef theString) CA_SWIFT_NAME(CFStringGetLength(_:));
/** Copies the string with a terminating NUL into buffer; false (and an empty buffer when there is
    room for the NUL) if it does not fit in bufferSize bytes, cannot be encoded, or anything is NULL. */
CF_EXPORT Boolean CFStringGetCString(CFStringRef theString, char *buffer, CFIndex bufferSize,
                                     CFStringEncoding encoding) CA_SWIFT_NAME(CFStringGetCString(_:_:_:_:));
/** The string's own NUL-terminated bytes for kCFStringEncodingUTF8 (and ASCII when it is ASCII),
    valid while the string lives; NULL otherwise, which Apple's documentation allows. */
CF_EXPORT const char *CFStringGetCStringPtr(CFStringRef theString, CFStringEncoding encoding) CA_SWIFT_NAME(CFStringGetCStringPtr(_:_:));
/** The most bytes length UTF-16 units can take in the encoding (without the NUL). */
CF_EXPORT CFIndex CFStringGetMaximumSizeForEncoding(CFIndex length, CFStringEncoding encoding) CA_SWIFT_NAME(CFStringGetMaximumSizeForEncoding(_:_:));

typedef CA_NAMED_ENUM(CFIndex, CFComparisonResult) {
    kCFCompareLessThan CA_SWIFT_NAME(compareLessThan) = -1,
    kCFCompareEqualTo CA_SWIFT_NAME(compareEqualTo) = 0,
    kCFCompareGreaterThan CA_SWIFT_NAME(compareGreaterThan) = 1
};
typedef CA_OPTIONS(CFOptionFlags, CFStringCompareFlags) {
    kCFCompareCaseInsensitive CA_SWIFT_NAME(compareCaseInsensitive) = 1
};
/** Compares by Unicode scalar values; kCFCompareCaseInsensitive folds ASCII letters. Other flags are ignored. */
CF_EXPORT CFComparisonResult CFStringCompare(CFStringRef theString1, CFStringRef theString2,
                                             CFStringCompareFlags compareOptions) CA_SWIFT_NAME(CFStringCompare(_:_:_:));

CA_HEADER_END

#endif /* SOUNDSTAGE_CFSTRING_H */
