/*
 * OpenAL/oalStaticBufferExtension.h — Apple's AL_EXT_STATIC_BUFFER: a buffer filled from memory the
 * app owns. Written for Soundstage from the extension's published description; no Apple header was
 * copied.
 *
 * On Apple's systems the buffer reads the app's memory in place, so the app keeps it until
 * alDeleteBuffers has deleted the buffer. OpenAL Soft 1.19.1 cannot play from memory it does not
 * own, so Soundstage copies the data into the buffer, as alBufferData does: the app may keep its
 * memory as long as it likes (keeping it as Apple requires is still right), and a change it makes
 * to that memory afterwards is not heard. The errors are alBufferData's (AL_INVALID_NAME for a
 * buffer that is not one, AL_INVALID_VALUE for a negative size or a size that is not whole frames,
 * AL_INVALID_ENUM for a format OpenAL Soft does not know, AL_INVALID_OPERATION for a buffer a
 * source is using), and NULL data is AL_INVALID_VALUE (alBufferData would make silence).
 *
 * alcGetProcAddress(NULL, "alBufferDataStatic") returns it (through <OpenAL/alc.h>), as iOS code
 * fetches it, and it can be called directly.
 */
#ifndef SOUNDSTAGE_OPENAL_OALSTATICBUFFEREXTENSION_H
#define SOUNDSTAGE_OPENAL_OALSTATICBUFFEREXTENSION_H

#include <OpenAL/al.h>
#include <OpenAL/alc.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The type of alBufferDataStatic, as iOS code casts alcGetProcAddress's answer to. */
typedef ALvoid AL_APIENTRY (*alBufferDataStaticProcPtr)(const ALint bid, ALenum format, const ALvoid *data, ALsizei size, ALsizei freq);

/** Fills buffer bid with size bytes of data in format at freq Hz (copied here: see above). The
    data pointer is not const, as in OpenAL Soft's <AL/alext.h>, which declares the same function. */
AL_API ALvoid AL_APIENTRY alBufferDataStatic(const ALint bid, ALenum format, ALvoid *data, ALsizei size, ALsizei freq);

#ifdef __cplusplus
}
#endif

#endif /* SOUNDSTAGE_OPENAL_OALSTATICBUFFEREXTENSION_H */
