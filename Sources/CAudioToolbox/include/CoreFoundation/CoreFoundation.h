/*
 * CoreFoundation/CoreFoundation.h — the part of Core Foundation that audio code touches, for code
 * ported to Linux with Soundstage: reference-counted objects (CFRetain, CFRelease), strings (CFSTR
 * in C and C++), file URLs, the main bundle's resources (next to the executable), the absolute
 * time, run loops (which Core Audio's callbacks are delivered through), byte swapping and CFShow. Not the rest of Core Foundation. Written for Soundstage from
 * Apple's published documentation; no Apple header was copied. docs/audiotoolbox.md says where
 * each function differs from Apple's.
 *
 * This is not the toolchain's own CoreFoundation (swift-corelibs-foundation's, a private part of
 * Foundation on Linux, in /opt/swift/usr/lib/swift/CoreFoundation): a port finds this one through
 * its -I (pkg-config, or the CAudioToolbox module in SwiftPM), and the two never meet in one
 * translation unit.
 */
#ifndef SOUNDSTAGE_COREFOUNDATION_H
#define SOUNDSTAGE_COREFOUNDATION_H

#include <CoreFoundation/CFBase.h>
#include <CoreFoundation/CFByteOrder.h>
#include <CoreFoundation/CFString.h>
#include <CoreFoundation/CFArray.h>
#include <CoreFoundation/CFNumber.h>
#include <CoreFoundation/CFDictionary.h>
#include <CoreFoundation/CFURL.h>
#include <CoreFoundation/CFBundle.h>
#include <CoreFoundation/CFDate.h>
#include <CoreFoundation/CFRunLoop.h>

#endif /* SOUNDSTAGE_COREFOUNDATION_H */
