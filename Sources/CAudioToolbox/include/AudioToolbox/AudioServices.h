/*
 * AudioToolbox/AudioServices.h — System Sound Services: short sounds (30 s at most) registered
 * from files and played at once, the alert sound, completions, and the two properties. Written
 * for Soundstage from Apple's published documentation; no Apple header was copied. Values are
 * Apple's. Includes the Audio Session C API (AudioSession.h), as Apple's does.
 *
 * On Soundstage the sounds are in the system-sound registry of the app's session (the same one
 * AVAudioSession and the Audio Session C API use), on its default output, made on first use.
 * Where Linux differs (docs/audiotoolbox.md, "System Sound Services"): kSystemSoundID_Vibrate calls
 * the registry's attention handler (a game may rumble a pad) and plays nothing; a completion given
 * a NULL run loop runs on Soundstage's own thread when the sound ends (iOS uses the main run loop);
 * the block forms (AudioServicesPlaySystemSoundWithCompletion, ...PlayAlertSoundWithCompletion) are
 * Swift's only (C on Linux has no blocks with gcc), taking a closure.
 */
#ifndef AudioToolbox_AudioServices_h
#define AudioToolbox_AudioServices_h

#include <CoreFoundation/CoreFoundation.h>
#include <CoreAudio/CoreAudioTypes.h>
#include <AudioToolbox/AudioSession.h>

CA_HEADER_BEGIN

/* What the functions return. */
CA_ENUM(OSStatus) {
    kAudioServicesNoError = 0,
    kAudioServicesUnsupportedPropertyError = (OSStatus)CA_FOURCC('p', 't', 'y', '?'),   /* also an ID never made, or disposed */
    kAudioServicesBadPropertySizeError = (OSStatus)CA_FOURCC('!', 's', 'i', 'z'),
    kAudioServicesBadSpecifierSizeError = (OSStatus)CA_FOURCC('!', 's', 'p', 'c'),
    kAudioServicesSystemSoundUnspecifiedError = -1500,               /* a missing or unreadable file, no output */
    kAudioServicesSystemSoundClientTimedOutError = -1501,            /* never returned here */
    kAudioServicesSystemSoundExceededMaximumDurationError = -1502    /* longer than 30 s */
};

/** A registered sound. */
typedef UInt32 SystemSoundID;

/** A property of System Sound Services. */
typedef UInt32 AudioServicesPropertyID;

/* Sound IDs with a meaning of their own. */
CA_ENUM(SystemSoundID) {
    kSystemSoundID_UserPreferredAlert = 0x00001000,   /* not registered on Linux: plays nothing */
    kSystemSoundID_FlashScreen = 0x00000FFE,          /* calls the attention handler, as Vibrate */
    kSystemSoundID_Vibrate = 0x00000FFF               /* calls the attention handler; plays nothing */
};

/* The properties; each takes the sound's SystemSoundID as its specifier. */
CA_ENUM(AudioServicesPropertyID) {
    kAudioServicesPropertyIsUISound = CA_FOURCC('i', 's', 'u', 'i'),                  /* UInt32, get/set: kept (1 until set) */
    kAudioServicesPropertyCompletePlaybackIfAppDies = CA_FOURCC('i', 'f', 'd', 'i')   /* UInt32, get/set: kept (0 until set); the sound ends with the process */
};

/** Called when a sound finishes playing, with the client data given when it was added. */
typedef void (*AudioServicesSystemSoundCompletionProc)(SystemSoundID ssID, void *CA_NULLABLE clientData);

/** Registers the sound file at inFileURL (any format Soundstage decodes, 30 s at most) and
    stores its ID in *outSystemSoundID. */
OSStatus AudioServicesCreateSystemSoundID(CFURLRef CA_NULLABLE inFileURL, SystemSoundID *CA_NULLABLE outSystemSoundID);
/** Disposes of a sound (one playing stops). */
OSStatus AudioServicesDisposeSystemSoundID(SystemSoundID inSystemSoundID);
/** Plays a sound at once (an unknown ID plays nothing, silently, as on iOS). */
void AudioServicesPlaySystemSound(SystemSoundID inSystemSoundID);
/** Plays a sound as an alert: the sound, and the registry's attention handler. */
void AudioServicesPlayAlertSound(SystemSoundID inSystemSoundID);
/** Calls inCompletionRoutine each time the sound finishes, on inRunLoop (NULL: Soundstage's
    thread) in inRunLoopMode (NULL: the default mode). One completion per sound: a second replaces it. */
OSStatus AudioServicesAddSystemSoundCompletion(SystemSoundID inSystemSoundID, CFRunLoopRef CA_NULLABLE inRunLoop,
                                               CFStringRef CA_NULLABLE inRunLoopMode,
                                               AudioServicesSystemSoundCompletionProc CA_NULLABLE inCompletionRoutine,
                                               void *CA_NULLABLE inClientData);
/** Removes the sound's completion. */
void AudioServicesRemoveSystemSoundCompletion(SystemSoundID inSystemSoundID);
/** The size of a property's value and whether it can be set. */
OSStatus AudioServicesGetPropertyInfo(AudioServicesPropertyID inPropertyID, UInt32 inSpecifierSize,
                                      const void *CA_NULLABLE inSpecifier, UInt32 *CA_NULLABLE outPropertyDataSize,
                                      Boolean *CA_NULLABLE outWritable);
/** Reads a property of the sound named by the specifier (a SystemSoundID). */
OSStatus AudioServicesGetProperty(AudioServicesPropertyID inPropertyID, UInt32 inSpecifierSize,
                                  const void *CA_NULLABLE inSpecifier, UInt32 *CA_NULLABLE ioPropertyDataSize,
                                  void *CA_NULLABLE outPropertyData);
/** Sets a property of the sound named by the specifier (a SystemSoundID). */
OSStatus AudioServicesSetProperty(AudioServicesPropertyID inPropertyID, UInt32 inSpecifierSize,
                                  const void *CA_NULLABLE inSpecifier, UInt32 inPropertyDataSize,
                                  const void *CA_NULLABLE inPropertyData);

CA_HEADER_END

#endif /* AudioToolbox_AudioServices_h */
