#include <AudioToolbox/AUComponent.h> /* AudioUnit/AUComponent.h: Apple keeps this header in AudioToolbox now. */
