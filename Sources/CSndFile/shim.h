#ifndef SOUNDSTAGE_CSNDFILE_SHIM_H
#define SOUNDSTAGE_CSNDFILE_SHIM_H
#include <sndfile.h>
#endif
