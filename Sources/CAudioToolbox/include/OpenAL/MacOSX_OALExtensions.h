/*
 * OpenAL/MacOSX_OALExtensions.h — the name macOS code includes Apple's OpenAL extensions by;
 * the same declarations as <OpenAL/oalMacOSX_OALExtensions.h> (iOS's name) and the static buffer.
 */
#ifndef SOUNDSTAGE_OPENAL_MACOSX_OALEXTENSIONS_H
#define SOUNDSTAGE_OPENAL_MACOSX_OALEXTENSIONS_H

#include <OpenAL/oalMacOSX_OALExtensions.h>
#include <OpenAL/oalStaticBufferExtension.h>

#endif /* SOUNDSTAGE_OPENAL_MACOSX_OALEXTENSIONS_H */
