#include <AudioToolbox/AudioComponent.h> /* AudioUnit/AudioComponent.h: Apple keeps this header in AudioToolbox now. */
