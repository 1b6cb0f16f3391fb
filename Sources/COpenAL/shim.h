#ifndef SOUNDSTAGE_COPENAL_SHIM_H
#define SOUNDSTAGE_COPENAL_SHIM_H
/* Make the OpenAL Soft extension entry points (loopback, HRTF, pause, thread
   context, ...) directly callable: libopenal exports them. */
#define AL_ALEXT_PROTOTYPES
#include <AL/al.h>
#include <AL/alc.h>
#include <AL/alext.h>
#include <AL/efx.h>
#endif
