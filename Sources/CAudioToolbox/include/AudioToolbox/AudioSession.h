/*
 * AudioToolbox/AudioSession.h — the Audio Session C API (iOS 2 to 7, deprecated there in favour of
 * AVAudioSession but still what C and C++ games call): the app's one session, its category,
 * activation, the interruption listener and property listeners. Written for Soundstage from
 * Apple's published documentation; no Apple header was copied. Values are Apple's.
 *
 * On Soundstage this is the same session AVAudioSession (SoundstageCompat) and the system sounds
 * use: the app's session on its default output (the desktop server, else OpenAL's default
 * device), made on first use. Interruptions come from the desktop server (it corks the app) or
 * from another session of the same Soundstage device or daemon. Where Linux differs
 * (docs/audiotoolbox.md, "Audio Session Services"): listeners given a NULL run loop run on
 * Soundstage's own thread when the event happens (iOS uses the main run loop, which a Linux game
 * does not run); with a run loop they run when its thread runs it (CFRunLoopRunInMode). Hardware
 * properties describe the output device; routes cannot be overridden (a desktop has no receiver).
 *
 * Constants are plain enums, as in Apple's header, so Swift sees them as Int, as on iOS:
 * AudioSessionPropertyID(kAudioSessionProperty_AudioCategory), UInt32(kAudioSessionCategory_...).
 */
#ifndef AudioToolbox_AudioSession_h
#define AudioToolbox_AudioSession_h

#include <CoreFoundation/CoreFoundation.h>
#include <CoreAudio/CoreAudioTypes.h>

CA_HEADER_BEGIN

/* What the functions return. */
enum {
    kAudioSessionNoError = 0,
    kAudioSessionNotInitialized = CA_FOURCC('!', 'i', 'n', 'i'),           /* before AudioSessionInitialize */
    kAudioSessionAlreadyInitialized = CA_FOURCC('i', 'n', 'i', 't'),       /* a second AudioSessionInitialize */
    kAudioSessionInitializationError = CA_FOURCC('i', 'n', 'i', '?'),      /* no output could be opened */
    kAudioSessionUnsupportedPropertyError = CA_FOURCC('p', 't', 'y', '?'), /* a property Soundstage does not have, or a read-only one set */
    kAudioSessionBadPropertySizeError = CA_FOURCC('!', 's', 'i', 'z'),
    kAudioSessionNotActiveError = CA_FOURCC('!', 'a', 'c', 't'),           /* activation refused (a session of higher priority holds the output) */
    kAudioServicesNoHardwareError = CA_FOURCC('n', 'o', 'h', 'w'),
    kAudioSessionNoCategorySet = CA_FOURCC('?', 'c', 'a', 't'),
    kAudioSessionIncompatibleCategory = CA_FOURCC('!', 'c', 'a', 't'),     /* a category value iOS does not have */
    kAudioSessionUnspecifiedError = CA_FOURCC('w', 'h', 'a', 't')
};

/** A property of the session (a four-character code). */
typedef UInt32 AudioSessionPropertyID;

/* The interruption listener's states. */
enum {
    kAudioSessionBeginInterruption = 1,
    kAudioSessionEndInterruption = 0
};

/* kAudioSessionProperty_AudioCategory's values (a UInt32). */
enum {
    kAudioSessionCategory_AmbientSound = CA_FOURCC('a', 'm', 'b', 'i'),     /* mixes with others */
    kAudioSessionCategory_SoloAmbientSound = CA_FOURCC('s', 'o', 'l', 'o'), /* the default: silences others */
    kAudioSessionCategory_MediaPlayback = CA_FOURCC('m', 'e', 'd', 'i'),
    kAudioSessionCategory_RecordAudio = CA_FOURCC('r', 'e', 'c', 'a'),
    kAudioSessionCategory_PlayAndRecord = CA_FOURCC('p', 'l', 'a', 'r'),
    kAudioSessionCategory_AudioProcessing = CA_FOURCC('p', 'r', 'o', 'c')   /* neither plays nor records: kAudioSessionIncompatibleCategory here */
};

/* Deprecated categories (iOS 3): UserInterfaceSoundEffects is AmbientSound, LiveAudio is MediaPlayback. */
enum {
    kAudioSessionCategory_UserInterfaceSoundEffects = CA_FOURCC('u', 'i', 'f', 'x'),
    kAudioSessionCategory_LiveAudio = CA_FOURCC('l', 'i', 'v', 'e')
};

/* kAudioSessionProperty_OverrideAudioRoute's values. */
enum {
    kAudioSessionOverrideAudioRoute_None = 0,
    kAudioSessionOverrideAudioRoute_Speaker = CA_FOURCC('s', 'p', 'k', 'r')
};

/* Why the route changed: the CFNumber under kAudioSession_AudioRouteChangeKey_Reason. */
enum {
    kAudioSessionRouteChangeReason_Unknown = 0,
    kAudioSessionRouteChangeReason_NewDeviceAvailable = 1,
    kAudioSessionRouteChangeReason_OldDeviceUnavailable = 2,   /* the sink was pulled, or the server moved the stream */
    kAudioSessionRouteChangeReason_CategoryChange = 3,
    kAudioSessionRouteChangeReason_Override = 4,
    kAudioSessionRouteChangeReason_WakeFromSleep = 6,
    kAudioSessionRouteChangeReason_NoSuitableRouteForCategory = 7,
    kAudioSessionRouteChangeReason_RouteConfigurationChange = 8
};

/** The key of the reason in the dictionary a kAudioSessionProperty_AudioRouteChange listener gets
    (as a C string: CFSTR(kAudioSession_AudioRouteChangeKey_Reason)). */
#define kAudioSession_AudioRouteChangeKey_Reason "OutputDeviceDidChange_Reason"

/* kAudioSessionProperty_InterruptionType's values. */
enum {
    kAudioSessionInterruptionType_ShouldResume = CA_FOURCC('i', 'r', 's', 'm'),
    kAudioSessionInterruptionType_ShouldNotResume = CA_FOURCC('!', 'r', 's', 'm')
};
/** kAudioSessionProperty_InterruptionType's type. */
typedef UInt32 AudioSessionInterruptionType;

/* kAudioSessionProperty_Mode's values: kept and reported, changing nothing on Linux. */
enum {
    kAudioSessionMode_Default = CA_FOURCC('d', 'f', 'l', 't'),
    kAudioSessionMode_VoiceChat = CA_FOURCC('v', 'c', 'c', 't'),
    kAudioSessionMode_VideoRecording = CA_FOURCC('v', 'r', 'c', 'd'),
    kAudioSessionMode_Measurement = CA_FOURCC('m', 's', 'm', 't'),
    kAudioSessionMode_GameChat = CA_FOURCC('g', 'm', 'c', 't')
};

/* AudioSessionSetActiveWithFlags's flags. */
enum {
    kAudioSessionSetActiveFlag_NotifyOthersOnDeactivation = (1 << 0)
};

/* The properties. The comment after each gives its type and what Soundstage answers. */
enum {
    kAudioSessionProperty_PreferredHardwareSampleRate = CA_FOURCC('h', 'w', 's', 'r'),        /* Float64, get/set: kept (the output is open already) */
    kAudioSessionProperty_PreferredHardwareIOBufferDuration = CA_FOURCC('i', 'o', 'b', 'd'),  /* Float32, get/set: kept */
    kAudioSessionProperty_AudioCategory = CA_FOURCC('a', 'c', 'a', 't'),                      /* UInt32, get/set */
    kAudioSessionProperty_AudioRouteChange = CA_FOURCC('r', 'o', 'c', 'h'),                   /* CFDictionaryRef, listener only */
    kAudioSessionProperty_CurrentHardwareSampleRate = CA_FOURCC('c', 'h', 's', 'r'),          /* Float64, get: the output's rate */
    kAudioSessionProperty_CurrentHardwareInputNumberChannels = CA_FOURCC('c', 'h', 'i', 'c'), /* UInt32, get: 1 when an input exists, else 0 */
    kAudioSessionProperty_CurrentHardwareOutputNumberChannels = CA_FOURCC('c', 'h', 'o', 'c'),/* UInt32, get: the output's channels */
    kAudioSessionProperty_CurrentHardwareOutputVolume = CA_FOURCC('c', 'h', 'o', 'v'),        /* Float32, get: the app's stream volume on the desktop, else 1 */
    kAudioSessionProperty_CurrentHardwareInputLatency = CA_FOURCC('c', 'i', 'l', 't'),        /* Float32, get: 0 (not measured) */
    kAudioSessionProperty_CurrentHardwareOutputLatency = CA_FOURCC('c', 'o', 'l', 't'),       /* Float32, get: what the output reports */
    kAudioSessionProperty_CurrentHardwareIOBufferDuration = CA_FOURCC('c', 'h', 'b', 'd'),    /* Float32, get: one update of the mix */
    kAudioSessionProperty_OtherAudioIsPlaying = CA_FOURCC('o', 't', 'h', 'r'),                /* UInt32, get: another session of the device sounds */
    kAudioSessionProperty_OverrideAudioRoute = CA_FOURCC('o', 'v', 'r', 'd'),                 /* UInt32, set: None or Speaker, accepted (one route) */
    kAudioSessionProperty_AudioInputAvailable = CA_FOURCC('a', 'i', 'a', 'v'),                /* UInt32, get: a capture source exists */
    kAudioSessionProperty_ServerDied = CA_FOURCC('d', 'i', 'e', 'd'),                         /* listener only: never called */
    kAudioSessionProperty_OtherMixableAudioShouldDuck = CA_FOURCC('d', 'u', 'c', 'k'),        /* UInt32, get/set: ducks the device's other sessions */
    kAudioSessionProperty_OverrideCategoryMixWithOthers = CA_FOURCC('c', 'm', 'i', 'x'),      /* UInt32, get/set */
    kAudioSessionProperty_OverrideCategoryDefaultToSpeaker = CA_FOURCC('c', 's', 'p', 'k'),   /* UInt32, get/set: kept */
    kAudioSessionProperty_OverrideCategoryEnableBluetoothInput = CA_FOURCC('c', 'b', 'l', 'u'),/* UInt32, get/set: kept */
    kAudioSessionProperty_InterruptionType = CA_FOURCC('t', 'y', 'p', 'e'),                   /* UInt32, get: the last interruption's end */
    kAudioSessionProperty_Mode = CA_FOURCC('m', 'o', 'd', 'e'),                               /* UInt32, get/set: kept */
    kAudioSessionProperty_InputSources = CA_FOURCC('s', 'r', 'c', 's'),                       /* unsupported */
    kAudioSessionProperty_OutputDestinations = CA_FOURCC('d', 's', 't', 's'),                 /* unsupported */
    kAudioSessionProperty_InputSource = CA_FOURCC('i', 's', 'r', 'c'),                        /* unsupported */
    kAudioSessionProperty_OutputDestination = CA_FOURCC('o', 'd', 's', 't'),                  /* unsupported */
    kAudioSessionProperty_InputGainAvailable = CA_FOURCC('i', 'g', 'a', 'v'),                 /* UInt32, get: 0 */
    kAudioSessionProperty_InputGainScalar = CA_FOURCC('i', 'g', 's', 'c'),                    /* unsupported */
    kAudioSessionProperty_AudioRouteDescription = CA_FOURCC('c', 'r', 'a', 'r')               /* unsupported */
};

/** Called when an interruption begins (kAudioSessionBeginInterruption) or ends. */
typedef void (*AudioSessionInterruptionListener)(void *inClientData, UInt32 inInterruptionState);

/** Called when a property changes: its ID and its new value (of inDataSize bytes). */
typedef void (*AudioSessionPropertyListener)(void *inClientData, AudioSessionPropertyID inID, UInt32 inDataSize, const void *inData);

/** Initializes the session, once; the listener is called on inRunLoop (NULL: Soundstage's own
    thread; see above) in inRunLoopMode (NULL: the default mode). */
OSStatus AudioSessionInitialize(CFRunLoopRef inRunLoop, CFStringRef inRunLoopMode,
                                AudioSessionInterruptionListener inInterruptionListener, void *inClientData);
/** Activates or deactivates the session. */
OSStatus AudioSessionSetActive(Boolean active);
/** The same, with kAudioSessionSetActiveFlag_NotifyOthersOnDeactivation. */
OSStatus AudioSessionSetActiveWithFlags(Boolean active, UInt32 inFlags);
/** Reads a property into outData (*ioDataSize bytes; set to the size written). */
OSStatus AudioSessionGetProperty(AudioSessionPropertyID inID, UInt32 *ioDataSize, void *outData);
/** Sets a property. */
OSStatus AudioSessionSetProperty(AudioSessionPropertyID inID, UInt32 inDataSize, const void *inData);
/** The size of a property's value. */
OSStatus AudioSessionGetPropertySize(AudioSessionPropertyID inID, UInt32 *outDataSize);
/** Adds a listener for a property (a second add of the same function and data replaces it). */
OSStatus AudioSessionAddPropertyListener(AudioSessionPropertyID inID, AudioSessionPropertyListener inProc, void *inClientData);
/** Removes every listener of a property. */
OSStatus AudioSessionRemovePropertyListener(AudioSessionPropertyID inID);
/** Removes the listener added with this function and data. */
OSStatus AudioSessionRemovePropertyListenerWithUserData(AudioSessionPropertyID inID, AudioSessionPropertyListener inProc,
                                                        void *inClientData);

CA_HEADER_END

#endif /* AudioToolbox_AudioSession_h */
