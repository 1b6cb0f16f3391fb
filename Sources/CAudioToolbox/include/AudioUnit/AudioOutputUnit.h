#include <AudioToolbox/AudioOutputUnit.h> /* AudioUnit/AudioOutputUnit.h: Apple keeps this header in AudioToolbox now. */
