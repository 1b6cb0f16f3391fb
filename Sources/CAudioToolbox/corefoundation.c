/* Core Foundation's two global constants, which Swift cannot define for C (CoreFoundation/CFBase.h):
 * the default allocator is NULL, as Apple documents that any allocator argument may be. Every
 * function of the subset is implemented in Swift (Sources/AudioToolbox/CoreFoundation). */
#include <CoreFoundation/CoreFoundation.h>

const CFAllocatorRef kCFAllocatorDefault = NULL;
const CFAllocatorRef kCFAllocatorSystemDefault = NULL;
