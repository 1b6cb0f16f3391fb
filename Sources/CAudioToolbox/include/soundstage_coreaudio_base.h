/*
 * soundstage_coreaudio_base.h — the macros Soundstage's Core Audio headers share. Not an Apple
 * header: MacTypes.h, CoreAudioTypes.h and the AudioToolbox headers include it. Written for
 * Soundstage from Apple's published documentation; no Apple header was copied.
 *
 * CA_FOURCC('l','p','c','m') is the four-character code 'lpcm' as a UInt32 (0x6C70636D), without
 * the multi-character constants that gcc warns about.
 *
 * Apple declares its constants in enums with a fixed underlying type (CF_ENUM), which is how
 * Swift learns that kAudioFormatLinearPCM is an AudioFormatID. C99 has no such enums; clang
 * accepts them in C as an extension (silenced here: it is what Swift needs) and C++11 has them.
 * gcc in C mode gets a plain enum: the values are the same, only their C type differs.
 *
 *   CA_ENUM(UInt32) { ... };                         an anonymous enum of UInt32 constants
 *   typedef CA_NAMED_ENUM(UInt32, Name) { ... };     a named type with its constants (an open enum in Swift)
 *   typedef CA_OPTIONS(UInt32, Name) { ... };        a named bit set (an OptionSet in Swift)
 *
 * CA_NONNULL, CA_NULLABLE and CA_NULL_UNSPECIFIED are clang's pointer nullability (_Nonnull,
 * _Nullable, _Null_unspecified), which Swift's importer reads as Apple's headers' nullability: a
 * callback's `void *inClientData` that Apple marks non-null arrives in a Swift closure as
 * UnsafeMutableRawPointer, not as an optional. Other compilers see nothing. A header that uses
 * them marks every pointer it declares (clang's -Wnullability-completeness).
 *
 * Every header that uses them opens with CA_HEADER_BEGIN and closes with CA_HEADER_END: extern "C"
 * for C++, and the extension warnings that -pedantic would raise on the enums turned off for the
 * header's own lines (the program's code keeps them).
 */
#ifndef SOUNDSTAGE_COREAUDIO_BASE_H
#define SOUNDSTAGE_COREAUDIO_BASE_H

#define CA_FOURCC(a, b, c, d) \
    ((((UInt32)(UInt8)(a)) << 24) | (((UInt32)(UInt8)(b)) << 16) | (((UInt32)(UInt8)(c)) << 8) | ((UInt32)(UInt8)(d)))

#if defined(__has_attribute)
#  define CA_HAS_ATTRIBUTE(x) __has_attribute(x)
#else
#  define CA_HAS_ATTRIBUTE(x) 0
#endif

#if defined(__clang__) && CA_HAS_ATTRIBUTE(enum_extensibility)
#  define CA_ENUM_ATTRIBUTES __attribute__((enum_extensibility(open)))
#  define CA_OPTIONS_ATTRIBUTES __attribute__((flag_enum, enum_extensibility(open)))
#else
#  define CA_ENUM_ATTRIBUTES
#  define CA_OPTIONS_ATTRIBUTES
#endif

#if defined(__cplusplus)
/* C++11: a named enum is a type by itself; the typedef before it only keeps the macro's shape.
   Options are the integer type itself with anonymous constants, as Apple's CF_OPTIONS does in C++:
   kAudioFileFlags_EraseFile | kAudioFileFlags_DontPageAlignAudioData is an int, which an enum
   type would refuse. */
#  define CA_ENUM(_type) enum : _type
#  define CA_NAMED_ENUM(_type, _name) _type _name##_CAUnderlyingType; enum CA_ENUM_ATTRIBUTES _name : _type
#  define CA_OPTIONS(_type, _name) _type _name; enum CA_OPTIONS_ATTRIBUTES : _type
#elif defined(__clang__)
/* clang in C (and Swift's importer): Apple's own shape, which Swift imports as an enum or an
   OptionSet named _name. */
#  define CA_ENUM(_type) enum : _type
#  define CA_NAMED_ENUM(_type, _name) enum CA_ENUM_ATTRIBUTES _name : _type _name; enum CA_ENUM_ATTRIBUTES _name : _type
#  define CA_OPTIONS(_type, _name) enum CA_OPTIONS_ATTRIBUTES _name : _type _name; enum CA_OPTIONS_ATTRIBUTES _name : _type
#else
/* gcc in C: the typedef names _type, the constants are a plain enum. */
#  define CA_ENUM(_type) enum
#  define CA_NAMED_ENUM(_type, _name) _type _name; enum
#  define CA_OPTIONS(_type, _name) _type _name; enum
#endif

#if defined(__clang__)
#  define CA_NONNULL _Nonnull
#  define CA_NULLABLE _Nullable
#  define CA_NULL_UNSPECIFIED _Null_unspecified
#else
#  define CA_NONNULL
#  define CA_NULLABLE
#  define CA_NULL_UNSPECIFIED
#endif

#if defined(__clang__) && !defined(__cplusplus) && defined(__has_warning)
#  if __has_warning("-Welaborated-enum-base")
/* A typedef naming an enum with a fixed underlying type (Apple's CF_ENUM shape) is a clang
   extension in C. */
#    define CA_HEADER_WARNINGS_OFF _Pragma("clang diagnostic push") _Pragma("clang diagnostic ignored \"-Wpedantic\"") \
         _Pragma("clang diagnostic ignored \"-Welaborated-enum-base\"")
#  else
#    define CA_HEADER_WARNINGS_OFF _Pragma("clang diagnostic push") _Pragma("clang diagnostic ignored \"-Wpedantic\"")
#  endif
#  define CA_HEADER_WARNINGS_ON _Pragma("clang diagnostic pop")
#elif defined(__clang__)
#  define CA_HEADER_WARNINGS_OFF _Pragma("clang diagnostic push") _Pragma("clang diagnostic ignored \"-Wpedantic\"")
#  define CA_HEADER_WARNINGS_ON _Pragma("clang diagnostic pop")
#elif defined(__GNUC__)
/* gcc -pedantic in C: enumerators above INT_MAX (0x80000000, 0xFFFF0000) are an extension. */
#  define CA_HEADER_WARNINGS_OFF _Pragma("GCC diagnostic push") _Pragma("GCC diagnostic ignored \"-Wpedantic\"")
#  define CA_HEADER_WARNINGS_ON _Pragma("GCC diagnostic pop")
#else
#  define CA_HEADER_WARNINGS_OFF
#  define CA_HEADER_WARNINGS_ON
#endif

#ifdef __cplusplus
#  define CA_HEADER_BEGIN CA_HEADER_WARNINGS_OFF extern "C" {
#  define CA_HEADER_END } CA_HEADER_WARNINGS_ON
#else
#  define CA_HEADER_BEGIN CA_HEADER_WARNINGS_OFF
#  define CA_HEADER_END CA_HEADER_WARNINGS_ON
#endif

#endif /* SOUNDSTAGE_COREAUDIO_BASE_H */
