/*
 * AudioToolbox/AudioToolbox.h — Core Audio's C interfaces on Linux, by Apple's names, over
 * Soundstage. Include this as on Apple's systems; docs/audiotoolbox.md says what each part does
 * here and where Linux differs. Written for Soundstage; no Apple header was copied.
 *
 * The parts offered so far: Core Audio's types (CoreAudio/CoreAudioTypes.h), the Core Foundation
 * subset audio code touches (CoreFoundation/CoreFoundation.h), Audio Format Services
 * (AudioFormat.h), the codec class identifiers it uses (AudioCodec.h), Audio File Services'
 * reading and writing (AudioFile.h), Audio File Stream Services (AudioFileStream.h), Audio
 * Converter Services (AudioConverter.h), Extended Audio File Services (ExtendedAudioFile.h), Audio
 * Queue Services (AudioQueue.h), System Sound Services (AudioServices.h), the Audio Session C API
 * (AudioSession.h), Audio Component Services (AudioComponent.h), Audio Unit Services
 * (AUComponent.h, AudioOutputUnit.h; the units' properties and parameters in
 * AudioUnitProperties.h and AudioUnitParameters.h, also reached as <AudioUnit/AudioUnit.h>) and
 * Audio Processing Graph Services (AUGraph.h).
 */
#ifndef AudioToolbox_AudioToolbox_h
#define AudioToolbox_AudioToolbox_h

#include <TargetConditionals.h>
#include <MacTypes.h>
#include <CoreAudio/CoreAudioTypes.h>
#include <AudioToolbox/AudioCodec.h>
#include <AudioToolbox/AudioFormat.h>
#include <AudioToolbox/AudioFile.h>
#include <AudioToolbox/AudioConverter.h>
#include <AudioToolbox/AudioFileStream.h>
#include <AudioToolbox/ExtendedAudioFile.h>
#include <AudioToolbox/AudioQueue.h>
#include <AudioToolbox/AudioServices.h>
#include <AudioToolbox/AudioSession.h>
#include <AudioToolbox/AudioComponent.h>
#include <AudioToolbox/AUComponent.h>
#include <AudioToolbox/AudioOutputUnit.h>
#include <AudioToolbox/AudioUnitProperties.h>
#include <AudioToolbox/AudioUnitParameters.h>
#include <AudioToolbox/AUGraph.h>

#endif /* AudioToolbox_AudioToolbox_h */
