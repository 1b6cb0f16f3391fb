/*
 * CoreFoundation/CFURL.h — file URLs (Soundstage's subset; see CoreFoundation.h). A URL here is a
 * file system path: created from a POSIX path or its bytes, given back as bytes. Written from
 * Apple's documentation; no Apple header was copied.
 *
 * A relative path is resolved against the current directory when the URL is created, as Apple's
 * CFURLCreateWithFileSystemPath does. Swift: the type imports as the class CFURLObject; `CFURL` is
 * Foundation's URL (the AudioToolbox module's typealias), so iOS code's `url as CFURL` compiles.
 */
#ifndef SOUNDSTAGE_CFURL_H
#define SOUNDSTAGE_CFURL_H

#include <CoreFoundation/CFBase.h>
#include <CoreFoundation/CFString.h>

CA_HEADER_BEGIN

/* Soundstage's symbols for these names (see CFBase.h: they never meet the CoreFoundation inside
   Swift's Foundation, which exports the same names). */
#define CFURLCreateWithFileSystemPath soundstage_CFURLCreateWithFileSystemPath
#define CFURLCreateFromFileSystemRepresentation soundstage_CFURLCreateFromFileSystemRepresentation
#define CFURLGetFileSystemRepresentation soundstage_CFURLGetFileSystemRepresentation
#define CFURLCopyFileSystemPath soundstage_CFURLCopyFileSystemPath
#define CFURLCopyLastPathComponent soundstage_CFURLCopyLastPathComponent
#define CFURLCopyPathExtension soundstage_CFURLCopyPathExtension
#define CFURLHasDirectoryPath soundstage_CFURLHasDirectoryPath


typedef const struct __CFURL *CFURLRef CA_SWIFT_NAME(CFURLObject);

typedef CA_NAMED_ENUM(CFIndex, CFURLPathStyle) {
    kCFURLPOSIXPathStyle CA_SWIFT_NAME(cfurlposixPathStyle) = 0,
    kCFURLHFSPathStyle CA_SWIFT_NAME(cfurlhfsPathStyle) = 1,
    kCFURLWindowsPathStyle CA_SWIFT_NAME(cfurlWindowsPathStyle) = 2
};

/** A file URL for a path. Only kCFURLPOSIXPathStyle is accepted (others give NULL); NULL or an empty
    path give NULL. isDirectory is remembered (CFURLHasDirectoryPath); nothing is looked up on disk. */
CF_EXPORT CFURLRef CFURLCreateWithFileSystemPath(CFAllocatorRef allocator, CFStringRef filePath,
                                                 CFURLPathStyle pathStyle, Boolean isDirectory) CF_RETURNS_RETAINED CA_SWIFT_NAME(CFURLCreateWithFileSystemPath(_:_:_:_:));
/** A file URL for bufLen bytes of a path (UTF-8, no NUL needed); NULL for NULL, no bytes, or bytes
    that are not UTF-8. */
CF_EXPORT CFURLRef CFURLCreateFromFileSystemRepresentation(CFAllocatorRef allocator, const UInt8 *buffer,
                                                           CFIndex bufLen, Boolean isDirectory) CF_RETURNS_RETAINED CA_SWIFT_NAME(CFURLCreateFromFileSystemRepresentation(_:_:_:_:));
/** Copies the URL's absolute path with a terminating NUL into buffer; false if it does not fit in
    maxBufLen bytes or anything is NULL. resolveAgainstBase is ignored: every URL here is absolute. */
CF_EXPORT Boolean CFURLGetFileSystemRepresentation(CFURLRef url, Boolean resolveAgainstBase,
                                                   UInt8 *buffer, CFIndex maxBufLen) CA_SWIFT_NAME(CFURLGetFileSystemRepresentation(_:_:_:_:));
/** The URL's absolute path as a new string (kCFURLPOSIXPathStyle only; NULL otherwise). */
CF_EXPORT CFStringRef CFURLCopyFileSystemPath(CFURLRef anURL, CFURLPathStyle pathStyle) CF_RETURNS_RETAINED CA_SWIFT_NAME(CFURLCopyFileSystemPath(_:_:));
/** The last path component as a new string. */
CF_EXPORT CFStringRef CFURLCopyLastPathComponent(CFURLRef url) CF_RETURNS_RETAINED CA_SWIFT_NAME(CFURLCopyLastPathComponent(_:));
/** The last path component's extension (after its last dot) as a new string, NULL when it has none. */
CF_EXPORT CFStringRef CFURLCopyPathExtension(CFURLRef url) CF_RETURNS_RETAINED CA_SWIFT_NAME(CFURLCopyPathExtension(_:));
/** Whether the URL was created as a directory's. */
CF_EXPORT Boolean CFURLHasDirectoryPath(CFURLRef anURL) CA_SWIFT_NAME(CFURLHasDirectoryPath(_:));

CA_HEADER_END

#endif /* SOUNDSTAGE_CFURL_H */
