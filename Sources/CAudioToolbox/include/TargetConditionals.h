/*
 * TargetConditionals.h — what Apple code asks of its target, answered for Linux. Written for
 * Soundstage (not Apple's header); docs/audiotoolbox.md says why each answer is what it is.
 *
 * The short of it: this is not an iPhone and not a Mac. A port's `#if TARGET_OS_IPHONE` branches
 * hold UIKit, Objective-C and the iOS-only Audio Session; its `#if TARGET_OS_MAC` branches hold
 * macOS frameworks (CoreServices, AUHAL). Neither exists here, so both are 0 and TARGET_OS_LINUX
 * is 1: a port adds an `#elif TARGET_OS_LINUX` where it needs one. Every macro can be overridden
 * by defining it first (`-DTARGET_OS_IPHONE=1` takes the iOS branches, at the port's risk).
 */
#ifndef __TARGETCONDITIONALS__
#define __TARGETCONDITIONALS__

#ifndef TARGET_OS_MAC
#define TARGET_OS_MAC 0
#endif
#ifndef TARGET_OS_OSX
#define TARGET_OS_OSX 0
#endif
#ifndef TARGET_OS_IPHONE
#define TARGET_OS_IPHONE 0
#endif
#ifndef TARGET_OS_IOS
#define TARGET_OS_IOS 0
#endif
#ifndef TARGET_OS_MACCATALYST
#define TARGET_OS_MACCATALYST 0
#endif
#ifndef TARGET_OS_TV
#define TARGET_OS_TV 0
#endif
#ifndef TARGET_OS_WATCH
#define TARGET_OS_WATCH 0
#endif
#ifndef TARGET_OS_VISION
#define TARGET_OS_VISION 0
#endif
#ifndef TARGET_OS_BRIDGE
#define TARGET_OS_BRIDGE 0
#endif
#ifndef TARGET_OS_DRIVERKIT
#define TARGET_OS_DRIVERKIT 0
#endif
#ifndef TARGET_OS_SIMULATOR
#define TARGET_OS_SIMULATOR 0
#endif
#ifndef TARGET_IPHONE_SIMULATOR
#define TARGET_IPHONE_SIMULATOR TARGET_OS_SIMULATOR
#endif
#ifndef TARGET_OS_EMBEDDED
#define TARGET_OS_EMBEDDED 0
#endif
#ifndef TARGET_OS_WIN32
#define TARGET_OS_WIN32 0
#endif
#ifndef TARGET_OS_WINDOWS
#define TARGET_OS_WINDOWS 0
#endif
#ifndef TARGET_OS_LINUX
#define TARGET_OS_LINUX 1
#endif
#ifndef TARGET_OS_UNIX
#define TARGET_OS_UNIX 1
#endif

/* The processor and run-time model, from the compiler's own macros. */
#if defined(__x86_64__)
#  define TARGET_CPU_X86_64 1
#else
#  define TARGET_CPU_X86_64 0
#endif
#if defined(__i386__)
#  define TARGET_CPU_X86 1
#else
#  define TARGET_CPU_X86 0
#endif
#if defined(__aarch64__)
#  define TARGET_CPU_ARM64 1
#else
#  define TARGET_CPU_ARM64 0
#endif
#if defined(__arm__)
#  define TARGET_CPU_ARM 1
#else
#  define TARGET_CPU_ARM 0
#endif
#define TARGET_CPU_PPC 0
#define TARGET_CPU_PPC64 0

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#  define TARGET_RT_BIG_ENDIAN 1
#  define TARGET_RT_LITTLE_ENDIAN 0
#else
#  define TARGET_RT_BIG_ENDIAN 0
#  define TARGET_RT_LITTLE_ENDIAN 1
#endif
#if defined(__LP64__)
#  define TARGET_RT_64_BIT 1
#else
#  define TARGET_RT_64_BIT 0
#endif
#define TARGET_RT_MAC_MACHO 0
#define TARGET_RT_MAC_CFM 0

#endif /* __TARGETCONDITIONALS__ */
