/*
 * CoreFoundation/CFArray.h — immutable arrays of objects, as Audio File Services returns lists of
 * strings (Soundstage's subset; see CoreFoundation.h). An array retains its items. Written from
 * Apple's documentation; no Apple header was copied.
 */
#ifndef SOUNDSTAGE_CFARRAY_H
#define SOUNDSTAGE_CFARRAY_H

#include <CoreFoundation/CFBase.h>

CA_HEADER_BEGIN

typedef const struct __CFArray *CFArrayRef;

/** The number of items (0 for NULL). */
CF_EXPORT CFIndex CFArrayGetCount(CFArrayRef theArray);
/** The item at idx, not retained for the caller; NULL when idx is out of range (Apple traps). */
CF_EXPORT const void *CFArrayGetValueAtIndex(CFArrayRef theArray, CFIndex idx);

CA_HEADER_END

#endif /* SOUNDSTAGE_CFARRAY_H */
