/*
 * AudioToolbox/AudioComponent.h — Audio Component Services: finding an audio component (an Audio
 * Unit's class) by a description of its type, subtype and manufacturer, and making instances of
 * it. Written for Soundstage from Apple's published documentation; no Apple header was copied.
 * Values are Apple's.
 *
 * The components are Apple's own units (AUComponent.h names them all). Soundstage offers those its
 * catalog lists (Sources/AudioToolbox/AudioUnit, UnitComponents); a description of any other finds
 * nothing (AudioComponentFindNext returns NULL), as a unit missing from a device does on Apple's
 * systems. Registering components, version 3 units and their asynchronous instantiation are not
 * declared: a port that needs them fails to build rather than failing at run time. An
 * AudioComponent and an AudioComponentInstance are handles: a call given a disposed or foreign
 * one returns an error code, never crashes.
 */
#ifndef AudioToolbox_AudioComponent_h
#define AudioToolbox_AudioComponent_h

#include <CoreFoundation/CoreFoundation.h>
#include <CoreAudio/CoreAudioTypes.h>

CA_HEADER_BEGIN

/** The flags of AudioComponentDescription's componentFlags (Swift: .unsearchable, .sandboxSafe, ...). */
typedef CA_OPTIONS(UInt32, AudioComponentFlags) {
    kAudioComponentFlag_Unsearchable = 1,                /* found only by a description with no zero field */
    kAudioComponentFlag_SandboxSafe = 2,                 /* may be opened in a sandboxed process */
    kAudioComponentFlag_IsV3AudioUnit = 4,               /* set by the system for version 3 units */
    kAudioComponentFlag_RequiresAsyncInstantiation = 8,  /* set by the system: instantiate asynchronously */
    kAudioComponentFlag_CanLoadInProcess = 0x10          /* set by the system: loadable into this process */
};

/**
 * What identifies a component, and what a search for one gives. In a search a zero type, subtype
 * or manufacturer matches any; componentFlags are compared under componentFlagsMask. Set both
 * flag fields to zero to find a unit.
 */
typedef struct AudioComponentDescription {
    OSType componentType;           /* kAudioUnitType_Output, kAudioUnitType_Mixer, ... */
    OSType componentSubType;        /* kAudioUnitSubType_RemoteIO, ... */
    OSType componentManufacturer;   /* kAudioUnitManufacturer_Apple */
    UInt32 componentFlags;
    UInt32 componentFlagsMask;
} AudioComponentDescription;

/** A component (a class of audio unit): a handle, valid for the life of the process. */
typedef struct OpaqueAudioComponent *AudioComponent;

/** An instance of a component (AUComponent.h calls it an AudioUnit): a handle that
    AudioComponentInstanceDispose leaves stale. */
typedef struct OpaqueAudioComponentInstance *AudioComponentInstance;

/* What the component functions return (inter-app audio and extensions give most of them on iOS). */
CA_ENUM(OSStatus) {
    kAudioComponentErr_InstanceTimedOut = -66754,
    kAudioComponentErr_DuplicateDescription = -66752,
    kAudioComponentErr_UnsupportedType = -66751,
    kAudioComponentErr_TooManyInstances = -66750,
    kAudioComponentErr_InstanceInvalidated = -66749,     /* the instance's process went away */
    kAudioComponentErr_NotPermitted = -66748,
    kAudioComponentErr_InitializationTimedOut = -66747,
    kAudioComponentErr_InvalidFormat = -66746
};

/** The next component after inComponent (NULL: from the first) that matches *inDesc; NULL when
    there is none. */
AudioComponent CA_NULLABLE AudioComponentFindNext(AudioComponent CA_NULLABLE inComponent,
                                                  const AudioComponentDescription *CA_NULLABLE inDesc);
/** How many components match *inDesc. */
UInt32 AudioComponentCount(const AudioComponentDescription *CA_NULLABLE inDesc);
/** The component's name, "Manufacturer: Unit" (a new string: the caller releases it). */
OSStatus AudioComponentCopyName(AudioComponent CA_NULLABLE inComponent, CFStringRef CA_NULLABLE *CA_NULLABLE outName);
/** The component's full description. */
OSStatus AudioComponentGetDescription(AudioComponent CA_NULLABLE inComponent, AudioComponentDescription *CA_NULLABLE outDesc);
/** The component's version, 0xMMMMmmbb (major, minor, bug fix). */
OSStatus AudioComponentGetVersion(AudioComponent CA_NULLABLE inComponent, UInt32 *CA_NULLABLE outVersion);
/** A new, uninitialized instance of the component in *outInstance. */
OSStatus AudioComponentInstanceNew(AudioComponent CA_NULLABLE inComponent,
                                   AudioComponentInstance CA_NULLABLE *CA_NULLABLE outInstance);
/** Disposes of an instance (an output unit stops first). */
OSStatus AudioComponentInstanceDispose(AudioComponentInstance CA_NULLABLE inInstance);
/** The component an instance was made from (NULL for a disposed or foreign instance). */
AudioComponent CA_NULLABLE AudioComponentInstanceGetComponent(AudioComponentInstance CA_NULLABLE inInstance);

CA_HEADER_END

#endif /* AudioToolbox_AudioComponent_h */
