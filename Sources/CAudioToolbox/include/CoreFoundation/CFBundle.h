/*
 * CoreFoundation/CFBundle.h — the main bundle and its resources (Soundstage's subset; see
 * CoreFoundation.h). Written from Apple's documentation; no Apple header was copied.
 *
 * On Linux the main bundle is the directory holding the running executable (/proc/self/exe).
 * CFBundleCopyResourceURL(bundle, name, type, subDir) looks, in this order, for
 *     <that directory>/<subDir>/<name>.<type>
 *     <that directory>/Resources/<subDir>/<name>.<type>
 * (without "/<subDir>" when subDir is NULL, without ".<type>" when type is NULL or empty) and returns
 * the first that exists, or NULL. docs/audiotoolbox.md says how a port lays out its resources.
 */
#ifndef SOUNDSTAGE_CFBUNDLE_H
#define SOUNDSTAGE_CFBUNDLE_H

#include <CoreFoundation/CFBase.h>
#include <CoreFoundation/CFString.h>
#include <CoreFoundation/CFURL.h>

CA_HEADER_BEGIN

/* Soundstage's symbols for these names (see CFBase.h: they never meet the CoreFoundation inside
   Swift's Foundation, which exports the same names). */
#define CFBundleGetMainBundle soundstage_CFBundleGetMainBundle
#define CFBundleCopyResourceURL soundstage_CFBundleCopyResourceURL
#define CFBundleCopyBundleURL soundstage_CFBundleCopyBundleURL
#define CFBundleCopyResourcesDirectoryURL soundstage_CFBundleCopyResourcesDirectoryURL


typedef struct __CFBundle *CFBundleRef;

/** The main bundle: the executable's directory. Never released; NULL if the executable cannot be found. */
CF_EXPORT CFBundleRef CFBundleGetMainBundle(void) CF_RETURNS_NOT_RETAINED CA_SWIFT_NAME(CFBundleGetMainBundle());
/** The URL of a resource file that exists (see above), or NULL. */
CF_EXPORT CFURLRef CFBundleCopyResourceURL(CFBundleRef bundle, CFStringRef resourceName, CFStringRef resourceType,
                                           CFStringRef subDirName) CF_RETURNS_RETAINED CA_SWIFT_NAME(CFBundleCopyResourceURL(_:_:_:_:));
/** The bundle's directory as a URL. */
CF_EXPORT CFURLRef CFBundleCopyBundleURL(CFBundleRef bundle) CF_RETURNS_RETAINED CA_SWIFT_NAME(CFBundleCopyBundleURL(_:));
/** The bundle's resource directory: the executable's directory too. */
CF_EXPORT CFURLRef CFBundleCopyResourcesDirectoryURL(CFBundleRef bundle) CF_RETURNS_RETAINED CA_SWIFT_NAME(CFBundleCopyResourcesDirectoryURL(_:));

CA_HEADER_END

#endif /* SOUNDSTAGE_CFBUNDLE_H */
