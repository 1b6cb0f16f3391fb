/*
 * OpenAL/al.h — OpenAL 1.1 as iOS code includes it. Not a copy of Apple's header: every
 * declaration is OpenAL Soft's own <AL/al.h> (libopenal-dev), which this file includes, and OpenAL
 * Soft answers every call, but for the few names below that Soundstage routes (docs/audiotoolbox.md,
 * "OpenAL's Apple extensions"):
 *
 *   alGetProcAddress      also finds Apple's extension functions (alBufferDataStatic, the ASA and
 *                         Mac OS X functions), which OpenAL Soft 1.19.1 answers with NULL;
 *   alGetEnumValue        also knows the ASA and Mac OS X constants' names ("ALC_ASA_REVERB_ON");
 *   alIsExtensionPresent  also says AL_EXT_STATIC_BUFFER, ALC_EXT_ASA and ALC_EXT_MAC_OSX are there;
 *   alDeleteSources       also forgets what the ASA extension kept for the deleted sources.
 *
 * Each is a macro for a soundstage_-prefixed function of libsoundstage that answers Apple's names
 * and hands everything else to OpenAL Soft, so OpenAL Soft's own symbols are never interposed.
 * Code that takes their address by name (dlsym) reaches OpenAL Soft's, not Soundstage's.
 */
#ifndef SOUNDSTAGE_OPENAL_AL_H
#define SOUNDSTAGE_OPENAL_AL_H

#include <AL/al.h>

#ifdef __cplusplus
extern "C" {
#endif

#define alGetProcAddress soundstage_alGetProcAddress
#define alGetEnumValue soundstage_alGetEnumValue
#define alIsExtensionPresent soundstage_alIsExtensionPresent
#define alDeleteSources soundstage_alDeleteSources

/** OpenAL Soft's alGetProcAddress, which also finds Apple's extension functions. */
void *soundstage_alGetProcAddress(const ALchar *fname);
/** OpenAL Soft's alGetEnumValue, which also knows the ASA and Mac OS X constants. */
ALenum soundstage_alGetEnumValue(const ALchar *ename);
/** OpenAL Soft's alIsExtensionPresent, which also knows AL_EXT_STATIC_BUFFER, ALC_EXT_ASA and ALC_EXT_MAC_OSX. */
ALboolean soundstage_alIsExtensionPresent(const ALchar *extname);
/** OpenAL Soft's alDeleteSources; the ASA settings of the sources it deletes are forgotten. */
void soundstage_alDeleteSources(ALsizei n, const ALuint *sources);

#ifdef __cplusplus
}
#endif

#endif /* SOUNDSTAGE_OPENAL_AL_H */
