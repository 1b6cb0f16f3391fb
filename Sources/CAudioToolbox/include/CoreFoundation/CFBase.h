/*
 * CoreFoundation/CFBase.h — Core Foundation's base types and reference counting (Soundstage's
 * subset; see CoreFoundation.h). Written from Apple's documentation; no Apple header was copied.
 *
 * Every object is reference counted and thread safe: CFRetain and CFRelease may be called from any
 * thread; an object is freed when its count reaches zero. A function with Create or Copy in its name
 * returns an object the caller owns (release it); a Get function returns one it does not.
 * Swift imports each CF...Ref as a class that Swift retains and releases itself, as on iOS.
 *
 * Link names: Swift's Foundation on Linux carries its own CoreFoundation and exports every CF name
 * (CFRetain, CFStringCreateWithCString, kCFAllocatorDefault, ... from libFoundation.so, or linked
 * into a program with -static-stdlib). Two definitions of CFRetain in one process would interpose
 * each other's objects and crash. So each function and constant here is a macro for a
 * soundstage_-prefixed symbol (#define CFRetain soundstage_CFRetain): C and C++ code calls CFRetain
 * as written and links soundstage_CFRetain; Swift sees the Apple name (swift_name). Code that needs
 * the function's address by its Apple name (dlsym("CFRetain")) gets Foundation's, not this one.
 */
#ifndef SOUNDSTAGE_CFBASE_H
#define SOUNDSTAGE_CFBASE_H

#include <MacTypes.h>
#include <stdbool.h>

#if defined(__clang__)
#  define CF_RETURNS_RETAINED __attribute__((cf_returns_retained))
#  define CF_RETURNS_NOT_RETAINED __attribute__((cf_returns_not_retained))
#  define CA_SWIFT_NAME(_name) __attribute__((swift_name(#_name)))
#else
#  define CF_RETURNS_RETAINED
#  define CF_RETURNS_NOT_RETAINED
#  define CA_SWIFT_NAME(_name)
#endif
#ifndef CF_INLINE
#  define CF_INLINE static inline
#endif
#ifndef CF_EXPORT
#  ifdef __cplusplus
#    define CF_EXPORT extern "C"
#  else
#    define CF_EXPORT extern
#  endif
#endif
#ifndef CF_ENUM
#  define CF_ENUM CA_NAMED_ENUM
#endif
#ifndef CF_OPTIONS
#  define CF_OPTIONS CA_OPTIONS
#endif

CA_HEADER_BEGIN

/* Soundstage's symbols for these names (see CFBase.h: they never meet the CoreFoundation inside
   Swift's Foundation, which exports the same names). */
#define CFRetain soundstage_CFRetain
#define CFRelease soundstage_CFRelease
#define CFGetRetainCount soundstage_CFGetRetainCount
#define CFShow soundstage_CFShow
#define CFEqual soundstage_CFEqual
#define kCFAllocatorDefault soundstage_kCFAllocatorDefault
#define kCFAllocatorSystemDefault soundstage_kCFAllocatorSystemDefault


typedef long CFIndex;
typedef unsigned long CFOptionFlags;
typedef unsigned long CFHashCode;
typedef unsigned long CFTypeID;

/** Any Core Foundation object (Swift: AnyObject). */
typedef const void *CFTypeRef;

/** A range of indexes. */
typedef struct {
    CFIndex location;
    CFIndex length;
} CFRange;

/** CFRangeMake(location, length). */
CF_INLINE CFRange CFRangeMake(CFIndex loc, CFIndex len) {
    CFRange range;
    range.location = loc;
    range.length = len;
    return range;
}

/** Memory allocators. Soundstage has one, the default: every CFAllocatorRef argument may be NULL
    or kCFAllocatorDefault, and any other allocator is treated as the default. */
typedef const struct __CFAllocator *CFAllocatorRef;
/** NULL, as Apple documents it may be: "use the default allocator". */
CF_EXPORT const CFAllocatorRef kCFAllocatorDefault CA_SWIFT_NAME(kCFAllocatorDefault);
/** The same default allocator (NULL). */
CF_EXPORT const CFAllocatorRef kCFAllocatorSystemDefault CA_SWIFT_NAME(kCFAllocatorSystemDefault);

/** Adds one to an object's reference count and returns it. NULL is ignored (Apple traps). */
CF_EXPORT CFTypeRef CFRetain(CFTypeRef cf) CA_SWIFT_NAME(CFRetain(_:));
/** Takes one from an object's reference count; at zero the object is freed. NULL is ignored (Apple traps). */
CF_EXPORT void CFRelease(CFTypeRef cf) CA_SWIFT_NAME(CFRelease(_:));
/** The object's reference count (0 for NULL). Strings made by CFSTR never reach zero. */
CF_EXPORT CFIndex CFGetRetainCount(CFTypeRef cf) CA_SWIFT_NAME(CFGetRetainCount(_:));
/** Writes a description of the object to standard error: a string's characters, a URL's address,
    an array's items, the class of anything else. */
CF_EXPORT void CFShow(CFTypeRef obj) CA_SWIFT_NAME(CFShow(_:));
/** Whether two objects are equal (strings by their characters, URLs by their address). */
CF_EXPORT Boolean CFEqual(CFTypeRef cf1, CFTypeRef cf2) CA_SWIFT_NAME(CFEqual(_:_:));

CA_HEADER_END

#endif /* SOUNDSTAGE_CFBASE_H */
