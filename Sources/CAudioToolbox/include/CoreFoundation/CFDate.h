/*
 * CoreFoundation/CFDate.h — absolute time (Soundstage's subset; see CoreFoundation.h). Written from
 * Apple's documentation; no Apple header was copied.
 */
#ifndef SOUNDSTAGE_CFDATE_H
#define SOUNDSTAGE_CFDATE_H

#include <CoreFoundation/CFBase.h>

CA_HEADER_BEGIN

/* Soundstage's symbols for these names (see CFBase.h: they never meet the CoreFoundation inside
   Swift's Foundation, which exports the same names). */
#define CFAbsoluteTimeGetCurrent soundstage_CFAbsoluteTimeGetCurrent


typedef double CFTimeInterval;
typedef CFTimeInterval CFAbsoluteTime;

/** Seconds since 1 January 1970 00:00:00 UTC at 1 January 2001 00:00:00 UTC, Core Foundation's epoch. */
#define kCFAbsoluteTimeIntervalSince1970 978307200.0L
/** Seconds since 1 January 1904 at the same epoch. */
#define kCFAbsoluteTimeIntervalSince1904 3061152000.0L

/** The current time, in seconds since 1 January 2001 00:00:00 UTC (the system clock, CLOCK_REALTIME). */
CF_EXPORT CFAbsoluteTime CFAbsoluteTimeGetCurrent(void) CA_SWIFT_NAME(CFAbsoluteTimeGetCurrent());

CA_HEADER_END

#endif /* SOUNDSTAGE_CFDATE_H */
