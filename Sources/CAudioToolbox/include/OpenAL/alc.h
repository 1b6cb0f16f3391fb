/*
 * OpenAL/alc.h — OpenAL 1.1's context API as iOS code includes it. Not a copy of Apple's header:
 * every declaration is OpenAL Soft's own <AL/alc.h> (libopenal-dev), which this file includes, and
 * OpenAL Soft answers every call, but for the few names below that Soundstage routes
 * (docs/audiotoolbox.md, "OpenAL's Apple extensions"):
 *
 *   alcGetProcAddress      also finds Apple's extension functions (alBufferDataStatic,
 *                          alcMacOSXMixerOutputRate, alcASASetListener, ...), which OpenAL Soft
 *                          1.19.1 answers with NULL;
 *   alcGetEnumValue        also knows the ASA and Mac OS X constants' names ("ALC_ASA_REVERB_ON");
 *   alcIsExtensionPresent  also says ALC_EXT_ASA, ALC_EXT_MAC_OSX and AL_EXT_STATIC_BUFFER are there;
 *   alcCreateContext       a context made after alcMacOSXMixerOutputRate mixes at that rate
 *                          (ALC_FREQUENCY added to its attributes when they have none);
 *   alcDestroyContext      also frees what the ASA extension made for the context.
 *
 * Each is a macro for a soundstage_-prefixed function of libsoundstage that answers Apple's names
 * and hands everything else to OpenAL Soft, so OpenAL Soft's own symbols are never interposed.
 * Code that takes their address by name (dlsym) reaches OpenAL Soft's, not Soundstage's.
 */
#ifndef SOUNDSTAGE_OPENAL_ALC_H
#define SOUNDSTAGE_OPENAL_ALC_H

#include <AL/alc.h>

#ifdef __cplusplus
extern "C" {
#endif

#define alcGetProcAddress soundstage_alcGetProcAddress
#define alcGetEnumValue soundstage_alcGetEnumValue
#define alcIsExtensionPresent soundstage_alcIsExtensionPresent
#define alcCreateContext soundstage_alcCreateContext
#define alcDestroyContext soundstage_alcDestroyContext

/** OpenAL Soft's alcGetProcAddress, which also finds Apple's extension functions. */
void *soundstage_alcGetProcAddress(ALCdevice *device, const ALCchar *funcname);
/** OpenAL Soft's alcGetEnumValue, which also knows the ASA and Mac OS X constants. */
ALCenum soundstage_alcGetEnumValue(ALCdevice *device, const ALCchar *enumname);
/** OpenAL Soft's alcIsExtensionPresent, which also knows ALC_EXT_ASA, ALC_EXT_MAC_OSX and AL_EXT_STATIC_BUFFER. */
ALCboolean soundstage_alcIsExtensionPresent(ALCdevice *device, const ALCchar *extname);
/** OpenAL Soft's alcCreateContext; after alcMacOSXMixerOutputRate, ALC_FREQUENCY is that rate
    unless attrlist gives one. */
ALCcontext *soundstage_alcCreateContext(ALCdevice *device, const ALCint *attrlist);
/** OpenAL Soft's alcDestroyContext; the ASA extension's effect and filter for it are deleted first. */
void soundstage_alcDestroyContext(ALCcontext *context);

#ifdef __cplusplus
}
#endif

#endif /* SOUNDSTAGE_OPENAL_ALC_H */
