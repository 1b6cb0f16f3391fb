/*
 * OpenAL/oalMacOSX_OALExtensions.h — Apple's ALC_EXT_MAC_OSX (the mixer's output rate) and ALC_EXT_ASA
 * (Apple Spatial Audio: reverb, occlusion, obstruction). Written for Soundstage from the
 * extensions' published descriptions; no Apple header was copied. Values are Apple's (the property
 * IDs are four-character codes, written here as numbers: 'rvon' is 0x72766F6E).
 *
 * Every function is returned by alcGetProcAddress and alGetProcAddress (through <OpenAL/alc.h> and
 * <OpenAL/al.h>), as iOS code fetches them, and can be called directly. What each does on OpenAL
 * Soft (docs/audiotoolbox.md, "OpenAL's Apple extensions"):
 *
 * alcMacOSXMixerOutputRate(rate): contexts created afterwards through alcCreateContext mix at rate
 * Hz (8000 to 192000): ALC_FREQUENCY = rate is added to their attributes when these name no
 * ALC_FREQUENCY (OpenAL Soft then reopens the device at that rate; the rate is the device's, shared
 * by every context on it). Contexts that exist already keep their rate. A rate out of range, NaN or
 * infinite is ALC_INVALID_VALUE (alcGetError(NULL)) and changes nothing.
 * alcMacOSXGetMixerOutputRate(): the rate last set, 0 before any (then each device mixes at its own
 * default rate).
 *
 * ASA: the settings of the current context, made of OpenAL Soft's EFX (one auxiliary effect slot
 * holding an EAX reverb, and low-pass filters on each source's direct path and reverb send).
 * Listener properties: ALC_ASA_REVERB_ON (ALuint, or any 1-, 2- or 4-byte integer: 0 off, else on;
 * off by default), ALC_ASA_REVERB_ROOM_TYPE (ALint, one of the room types below: each is an EFX
 * reverb preset; ALC_ASA_REVERB_ROOM_TYPE_LargeRoom by default), ALC_ASA_REVERB_GLOBAL_LEVEL
 * (ALfloat dB, -40 to 40: the reverb's level; 0 by default), ALC_ASA_REVERB_QUALITY and the EQ's
 * three properties (kept and read back, not heard). Source properties: ALC_ASA_REVERB_SEND_LEVEL
 * (ALfloat, 0 dry to 1 wet; 0 by default, so a source is heard in the reverb only once it is given
 * a send level), ALC_ASA_OCCLUSION and ALC_ASA_OBSTRUCTION (ALfloat dB, -100 to 0; 0 by default:
 * occlusion low-passes the source's direct sound and its reverb send, obstruction its direct sound
 * only). Each function returns AL_NO_ERROR or the error it also records for alGetError:
 * AL_INVALID_ENUM for a property it does not know, AL_INVALID_VALUE for NULL data, a wrong size,
 * NaN or a value out of range, AL_INVALID_NAME for a source that is not one (deleted, or of
 * another context), AL_INVALID_OPERATION for ALC_ASA_REVERB_PRESET (no Audio Unit preset files
 * here) and when no context is current (then recorded as ALC_INVALID_CONTEXT for alcGetError(NULL)).
 */
#ifndef SOUNDSTAGE_OPENAL_OALMACOSX_OALEXTENSIONS_H
#define SOUNDSTAGE_OPENAL_OALMACOSX_OALEXTENSIONS_H

#include <OpenAL/al.h>
#include <OpenAL/alc.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ALC_EXT_MAC_OSX */

typedef ALvoid (*alcMacOSXMixerOutputRateProcPtr)(const ALdouble value);
typedef ALdouble (*alcMacOSXGetMixerOutputRateProcPtr)(void);

/** Contexts created afterwards mix at value Hz (see above). */
ALC_API ALvoid ALC_APIENTRY alcMacOSXMixerOutputRate(const ALdouble value);
/** The rate last given to alcMacOSXMixerOutputRate, 0 before any. */
ALC_API ALdouble ALC_APIENTRY alcMacOSXGetMixerOutputRate(void);

/* ALC_EXT_ASA */

typedef ALenum (*alcASAGetSourceProcPtr)(const ALuint property, ALuint source, ALvoid *data, ALuint *dataSize);
typedef ALenum (*alcASASetSourceProcPtr)(const ALuint property, ALuint source, ALvoid *data, ALuint dataSize);
typedef ALenum (*alcASAGetListenerProcPtr)(const ALuint property, ALvoid *data, ALuint *dataSize);
typedef ALenum (*alcASASetListenerProcPtr)(const ALuint property, ALvoid *data, ALuint dataSize);

/** Sets a listener property of the current context from dataSize bytes at data. */
ALC_API ALenum ALC_APIENTRY alcASASetListener(const ALuint property, ALvoid *data, ALuint dataSize);
/** Reads a listener property of the current context into data (*dataSize bytes of room; the size written). */
ALC_API ALenum ALC_APIENTRY alcASAGetListener(const ALuint property, ALvoid *data, ALuint *dataSize);
/** Sets a property of a source of the current context. */
ALC_API ALenum ALC_APIENTRY alcASASetSource(const ALuint property, ALuint source, ALvoid *data, ALuint dataSize);
/** Reads a property of a source of the current context. */
ALC_API ALenum ALC_APIENTRY alcASAGetSource(const ALuint property, ALuint source, ALvoid *data, ALuint *dataSize);

/* Listener properties */
#define ALC_ASA_REVERB_ON 0x72766F6E            /* 'rvon', ALuint: 0 off, else on */
#define ALC_ASA_REVERB_GLOBAL_LEVEL 0x7276676C  /* 'rvgl', ALfloat: -40 to 40 dB */
#define ALC_ASA_REVERB_ROOM_TYPE 0x72767274     /* 'rvrt', ALint: a room type below */
#define ALC_ASA_REVERB_PRESET 0x72767073        /* 'rvps', an Audio Unit preset file's path: AL_INVALID_OPERATION here */
#define ALC_ASA_REVERB_EQ_GAIN 0x72766567       /* 'rveg', ALfloat: kept, not heard */
#define ALC_ASA_REVERB_EQ_BANDWITH 0x72766562   /* 'rveb', ALfloat: kept, not heard (Apple's spelling) */
#define ALC_ASA_REVERB_EQ_FREQ 0x72766566       /* 'rvef', ALfloat: kept, not heard */
#define ALC_ASA_REVERB_QUALITY 0x72767174       /* 'rvqt', ALint: kept, not heard */

/* Room types for ALC_ASA_REVERB_ROOM_TYPE, and the EFX reverb preset each is here */
#define ALC_ASA_REVERB_ROOM_TYPE_SmallRoom 0       /* EFX_REVERB_PRESET_ROOM */
#define ALC_ASA_REVERB_ROOM_TYPE_MediumRoom 1      /* EFX_REVERB_PRESET_PREFAB_SCHOOLROOM */
#define ALC_ASA_REVERB_ROOM_TYPE_LargeRoom 2       /* EFX_REVERB_PRESET_GENERIC */
#define ALC_ASA_REVERB_ROOM_TYPE_MediumHall 3      /* EFX_REVERB_PRESET_CASTLE_HALL */
#define ALC_ASA_REVERB_ROOM_TYPE_LargeHall 4       /* EFX_REVERB_PRESET_CONCERTHALL */
#define ALC_ASA_REVERB_ROOM_TYPE_Plate 5           /* EFX_REVERB_PRESET_BATHROOM */
#define ALC_ASA_REVERB_ROOM_TYPE_MediumChamber 6   /* EFX_REVERB_PRESET_STONEROOM */
#define ALC_ASA_REVERB_ROOM_TYPE_LargeChamber 7    /* EFX_REVERB_PRESET_CAVE */
#define ALC_ASA_REVERB_ROOM_TYPE_Cathedral 8       /* EFX_REVERB_PRESET_DOME_SAINTPAULS */
#define ALC_ASA_REVERB_ROOM_TYPE_LargeRoom2 9      /* EFX_REVERB_PRESET_WOODEN_LARGEROOM */
#define ALC_ASA_REVERB_ROOM_TYPE_MediumHall2 10    /* EFX_REVERB_PRESET_WOODEN_HALL */
#define ALC_ASA_REVERB_ROOM_TYPE_MediumHall3 11    /* EFX_REVERB_PRESET_AUDITORIUM */
#define ALC_ASA_REVERB_ROOM_TYPE_LargeHall2 12     /* EFX_REVERB_PRESET_ARENA */

/* Values for ALC_ASA_REVERB_QUALITY */
#define ALC_ASA_REVERB_QUALITY_Max 0x7F
#define ALC_ASA_REVERB_QUALITY_High 0x60
#define ALC_ASA_REVERB_QUALITY_Medium 0x40
#define ALC_ASA_REVERB_QUALITY_Low 0x20
#define ALC_ASA_REVERB_QUALITY_Min 0

/* Source properties */
#define ALC_ASA_REVERB_SEND_LEVEL 0x7276736C    /* 'rvsl', ALfloat: 0 (dry) to 1 (wet) */
#define ALC_ASA_OCCLUSION 0x6F63636C            /* 'occl', ALfloat: -100 to 0 dB */
#define ALC_ASA_OBSTRUCTION 0x6F627374          /* 'obst', ALfloat: -100 to 0 dB */

#ifdef __cplusplus
}
#endif

#endif /* SOUNDSTAGE_OPENAL_OALMACOSX_OALEXTENSIONS_H */
