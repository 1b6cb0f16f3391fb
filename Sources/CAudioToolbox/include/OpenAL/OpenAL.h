/*
 * OpenAL/OpenAL.h — the whole of OpenAL as Apple's systems offer it: <OpenAL/al.h>,
 * <OpenAL/alc.h> and Apple's extensions (the static buffer, ALC_EXT_MAC_OSX, ALC_EXT_ASA).
 */
#ifndef SOUNDSTAGE_OPENAL_OPENAL_H
#define SOUNDSTAGE_OPENAL_OPENAL_H

#include <OpenAL/al.h>
#include <OpenAL/alc.h>
#include <OpenAL/oalMacOSX_OALExtensions.h>
#include <OpenAL/oalStaticBufferExtension.h>

#endif /* SOUNDSTAGE_OPENAL_OPENAL_H */
