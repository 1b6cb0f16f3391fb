#include <AudioToolbox/AudioUnitProperties.h> /* AudioUnit/AudioUnitProperties.h: Apple keeps this header in AudioToolbox now. */
