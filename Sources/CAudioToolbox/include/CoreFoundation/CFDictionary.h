/*
 * CoreFoundation/CFDictionary.h — immutable dictionaries of objects, as Audio File Services returns
 * a file's information (kAudioFilePropertyInfoDictionary: string keys, string values). Soundstage's
 * subset (see CoreFoundation.h): reading a dictionary made here; a dictionary retains its keys and
 * values, and compares keys as CFEqual does. Written from Apple's documentation; no Apple header
 * was copied.
 */
#ifndef SOUNDSTAGE_CFDICTIONARY_H
#define SOUNDSTAGE_CFDICTIONARY_H

#include <CoreFoundation/CFBase.h>

CA_HEADER_BEGIN

/* Soundstage's symbols for these names (see CFBase.h). */
#define CFDictionaryGetCount soundstage_CFDictionaryGetCount
#define CFDictionaryGetValue soundstage_CFDictionaryGetValue
#define CFDictionaryContainsKey soundstage_CFDictionaryContainsKey
#define CFDictionaryGetValueIfPresent soundstage_CFDictionaryGetValueIfPresent
#define CFDictionaryGetKeysAndValues soundstage_CFDictionaryGetKeysAndValues


typedef const struct __CFDictionary *CFDictionaryRef;

/** The number of entries (0 for NULL). */
CF_EXPORT CFIndex CFDictionaryGetCount(CFDictionaryRef theDict) CA_SWIFT_NAME(CFDictionaryGetCount(_:));
/** The value for key (a key equal to it by CFEqual), not retained for the caller; NULL if none. */
CF_EXPORT const void *CFDictionaryGetValue(CFDictionaryRef theDict, const void *key) CA_SWIFT_NAME(CFDictionaryGetValue(_:_:));
/** Whether the dictionary has key. */
CF_EXPORT Boolean CFDictionaryContainsKey(CFDictionaryRef theDict, const void *key) CA_SWIFT_NAME(CFDictionaryContainsKey(_:_:));
/** Whether the dictionary has key, and its value in *value (which may be NULL). */
CF_EXPORT Boolean CFDictionaryGetValueIfPresent(CFDictionaryRef theDict, const void *key, const void **value)
    CA_SWIFT_NAME(CFDictionaryGetValueIfPresent(_:_:_:));
/** Every key and value, in the same order, into arrays of CFDictionaryGetCount entries (either may be NULL). */
CF_EXPORT void CFDictionaryGetKeysAndValues(CFDictionaryRef theDict, const void **keys, const void **values)
    CA_SWIFT_NAME(CFDictionaryGetKeysAndValues(_:_:_:));

CA_HEADER_END

#endif /* SOUNDSTAGE_CFDICTIONARY_H */
