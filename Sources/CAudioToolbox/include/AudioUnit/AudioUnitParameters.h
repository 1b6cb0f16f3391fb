#include <AudioToolbox/AudioUnitParameters.h> /* AudioUnit/AudioUnitParameters.h: Apple keeps this header in AudioToolbox now. */
