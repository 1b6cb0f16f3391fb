/*
 * AudioToolbox/AudioOutputUnit.h — starting and stopping an output unit (kAudioUnitType_Output,
 * AUComponent.h): RemoteIO and the voice-processing unit on iOS, the default, system and device
 * output units on macOS. Written for Soundstage from Apple's published documentation; no Apple
 * header was copied.
 *
 * A started I/O unit pulls its input bus 0 (a render callback or a connected unit) for every
 * period of the device and plays what it renders; with input enabled
 * (kAudioOutputUnitProperty_EnableIO on element 1) it calls its input callback as input arrives.
 * kAudioOutputUnitProperty_IsRunning says whether it runs, and its listeners hear starts and stops.
 * Publishing an output unit for inter-app audio (AudioOutputUnitPublish) is not declared.
 */
#ifndef AudioToolbox_AudioOutputUnit_h
#define AudioToolbox_AudioOutputUnit_h

#include <AudioToolbox/AUComponent.h>

CA_HEADER_BEGIN

/** Starts the unit's I/O (initialize it first, AudioUnitInitialize). */
OSStatus AudioOutputUnitStart(AudioUnit CA_NULLABLE ci);
/** Stops the unit's I/O (its settings and initialization are kept; AudioOutputUnitStart resumes). */
OSStatus AudioOutputUnitStop(AudioUnit CA_NULLABLE ci);

CA_HEADER_END

#endif /* AudioToolbox_AudioOutputUnit_h */
