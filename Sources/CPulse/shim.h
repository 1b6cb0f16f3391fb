#ifndef SOUNDSTAGE_CPULSE_SHIM_H
#define SOUNDSTAGE_CPULSE_SHIM_H
/* libpulse: the client library of PulseAudio, and of PipeWire through pipewire-pulse.
   Soundstage uses its asynchronous API on a threaded main loop. */
#include <pulse/pulseaudio.h>
#endif
