/*
 * MacTypes.h — the basic types of Apple's C interfaces, for code ported to Linux with Soundstage.
 * Written from Apple's published documentation (no Apple header was copied).
 *
 * The integer types are <stdint.h>'s; Boolean is an unsigned char as on Apple's systems (not C's
 * bool; Swift imports it as Bool, see below). OSStatus is a signed 32-bit result: noErr (0) or a negative or four-character error code.
 */
#ifndef __MACTYPES__
#define __MACTYPES__

#include <stdint.h>
#include <stddef.h>
#include "soundstage_coreaudio_base.h"

CA_HEADER_BEGIN

typedef uint8_t  UInt8;
typedef int8_t   SInt8;
typedef uint16_t UInt16;
typedef int16_t  SInt16;
typedef uint32_t UInt32;
typedef int32_t  SInt32;
typedef uint64_t UInt64;
typedef int64_t  SInt64;

typedef float  Float32;
typedef double Float64;

#if defined(__swift__) && !defined(__cplusplus)
/* Swift's importer (which defines __swift__) sees Boolean as C's _Bool, so Swift code passes and
   gets Bool, as it does on Apple's systems (whose importer maps MacTypes' Boolean to Bool). Same size
   and calling convention as unsigned char; C callers pass 0 or 1 (false/true, FALSE/TRUE). */
typedef _Bool Boolean;
#else
typedef unsigned char Boolean;
#endif
typedef UInt8  Byte;
typedef SInt8  SignedByte;
typedef char  *Ptr;
typedef Ptr   *Handle;
typedef long   Size;

typedef SInt16 OSErr;
typedef SInt32 OSStatus;
typedef UInt32 FourCharCode;
typedef FourCharCode OSType;
typedef FourCharCode ResType;
typedef UInt32 UTF32Char;
typedef UInt16 UniChar;
typedef unsigned char Str255[256];
typedef unsigned char *StringPtr;
typedef const unsigned char *ConstStringPtr;

CA_ENUM(OSStatus) {
    noErr = 0
};

#ifndef TRUE
#define TRUE 1
#endif
#ifndef FALSE
#define FALSE 0
#endif

CA_HEADER_END

#endif /* __MACTYPES__ */
