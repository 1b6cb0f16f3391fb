/* The C target's header check (SwiftPM builds a C target from its sources): it includes every
 * header, so a header that does not compile as C fails the package build. The functions the
 * headers declare are implemented in Swift (Sources/AudioToolbox, `@c @implementation` or `@c(name)`); corefoundation.c
 * defines the two constants Swift cannot. */
#include <AudioToolbox/AudioToolbox.h>
#include <AudioToolbox/AudioFileStream.h>
#include <AudioToolbox/ExtendedAudioFile.h>
#include <AudioToolbox/AUGraph.h>
#include <AudioUnit/AudioUnit.h>
#include <CoreAudioTypes/CoreAudioTypes.h>
#include <CoreFoundation/CoreFoundation.h>
#include <OpenAL/OpenAL.h>
#include <OpenAL/MacOSX_OALExtensions.h>
