/*
 * AudioUnit/AudioUnit.h — the AudioUnit framework's umbrella, as macOS and iOS code includes it
 * (#include <AudioUnit/AudioUnit.h>). Apple moved these headers into AudioToolbox and left the
 * AudioUnit framework forwarding to them; Soundstage does the same. Written for Soundstage; no
 * Apple header was copied.
 */
#ifndef AudioUnit_AudioUnit_h
#define AudioUnit_AudioUnit_h

#include <AudioToolbox/AudioComponent.h>
#include <AudioToolbox/AUComponent.h>
#include <AudioToolbox/AudioOutputUnit.h>
#include <AudioToolbox/AudioUnitProperties.h>
#include <AudioToolbox/AudioUnitParameters.h>

#endif /* AudioUnit_AudioUnit_h */
