/*
 * CoreFoundation/CFArray.h — immutable arrays of objects, as Audio File Services returns lists of
 * strings (Soundstage's subset; see CoreFoundation.h). An array retains its items. Written from
 * Apple's documentation; no Apple header was copied.
 */
#ifndef SOUNDSTAGE_CFARRAY_H
#define SOUNDSTAGE_CFARRAY_H

#include <CoreFoundation/CFBase.h>

CA_HEADER_BEGIN

/* Soundstage's symbols for these names (see CFBase.h: they never meet the CoreFoundation inside
   Swift's Foundation, which exports the same names). */
#define CFArrayGetCount soundstage_CFArrayGetCount
#define CFArrayGetValueAtIndex soundstage_CFArrayGetValueAtIndex


typedef const struct __CFArray *CFArrayRef;

/** The number of items (0 for NULL). */
CF_EXPORT CFIndex CFArrayGetCount(CFArrayRef theArray) CA_SWIFT_NAME(CFArrayGetCount(_:));
/** The item at idx, not retained for the caller; NULL when idx is out of range (Apple traps). */
CF_EXPORT const void *CFArrayGetValueAtIndex(CFArrayRef theArray, CFIndex idx) CA_SWIFT_NAME(CFArrayGetValueAtIndex(_:_:));

CA_HEADER_END

#endif /* SOUNDSTAGE_CFARRAY_H */
