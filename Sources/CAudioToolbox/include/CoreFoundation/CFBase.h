/*
 * CoreFoundation/CFBase.h — Core Foundation's base types and reference counting (Soundstage's
 * subset; see CoreFoundation.h). Written from Apple's documentation; no Apple header was copied.
 *
 * Every object is reference counted and thread safe: CFRetain and CFRelease may be called from any
 * thread; an object is freed when its count reaches zero. A function with Create or Copy in its name
 * returns an object the caller owns (release it); a Get function returns one it does not.
 * Swift imports each CF...Ref as a class that Swift retains and releases itself, as on iOS.
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
CF_EXPORT const CFAllocatorRef kCFAllocatorDefault;
/** The same default allocator (NULL). */
CF_EXPORT const CFAllocatorRef kCFAllocatorSystemDefault;

/** Adds one to an object's reference count and returns it. NULL is ignored (Apple traps). */
CF_EXPORT CFTypeRef CFRetain(CFTypeRef cf);
/** Takes one from an object's reference count; at zero the object is freed. NULL is ignored (Apple traps). */
CF_EXPORT void CFRelease(CFTypeRef cf);
/** The object's reference count (0 for NULL). Strings made by CFSTR never reach zero. */
CF_EXPORT CFIndex CFGetRetainCount(CFTypeRef cf);
/** Writes a description of the object to standard error: a string's characters, a URL's address,
    an array's items, the class of anything else. */
CF_EXPORT void CFShow(CFTypeRef obj);
/** Whether two objects are equal (strings by their characters, URLs by their address). */
CF_EXPORT Boolean CFEqual(CFTypeRef cf1, CFTypeRef cf2);

CA_HEADER_END

#endif /* SOUNDSTAGE_CFBASE_H */
