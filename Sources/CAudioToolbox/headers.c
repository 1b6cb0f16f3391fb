/* The C target's one source file (SwiftPM builds a C target from its sources): it includes every
 * header, so a header that does not compile as C fails the package build. The functions the
 * headers declare are implemented in Swift (Sources/AudioToolbox, `@c @implementation`). */
#include <AudioToolbox/AudioToolbox.h>
#include <CoreAudioTypes/CoreAudioTypes.h>
