/* CoreAudioTypes/CoreAudioTypes.h — newer code's spelling of <CoreAudio/CoreAudioTypes.h>. */
#include <CoreAudio/CoreAudioTypes.h>
