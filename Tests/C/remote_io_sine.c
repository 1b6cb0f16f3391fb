/*
 * A sine generator on the output unit, as iOS games and the Core Audio books write it: the RemoteIO
 * unit (or, with --default-output, macOS's DefaultOutput, as the books' command-line sine does)
 * found with AudioComponentFindNext, its client format set on input scope element 0 (16-bit
 * interleaved stereo at 44.1 kHz, what older iOS code asks; the unit converts to the device), a
 * render callback, AudioUnitInitialize, AudioOutputUnitStart, the main thread sleeping in quarter
 * seconds for the tone's length (as the books' sine does), AudioOutputUnitStop,
 * AudioUnitUninitialize and AudioComponentInstanceDispose. The same file compiles as C99 and as
 * C++17 with -Wall -Wextra -Werror -pedantic.
 *
 *   cc -std=c99 -Wall -Wextra -Werror -pedantic -ISources/CAudioToolbox/include Tests/C/remote_io_sine.c \
 *      -L.build/debug -l:libSoundstageC.so -Wl,-rpath,.build/debug -lm
 *   ./a.out [--default-output] [--frequency HZ] [--seconds S] [--pan -1|0|1]
 *
 * With --session it sets up aurioTouch's audio session first (AudioSessionInitialize with an
 * interruption listener that starts the unit again at the interruption's end, a playback category,
 * AudioSessionSetActive) and says each interruption and IsRunning change on standard output.
 *
 * It plays on the app's output device: the desktop server (PULSE_SERVER). The tone is written to
 * the left channel, the right or both (--pan). It checks: the callback ran on a thread that is
 * not the main thread, with the frames asked each time at most MaximumFramesPerSlice; IsRunning
 * went 1 then 0 and its listener heard both; no callback runs after AudioOutputUnitStop returns;
 * the unit's handle is stale after disposal. For a listener at the sink (CompatTests'
 * RemoteIODesktopTests) it prints when it started the unit, when the first callback ran and when it
 * stopped the unit, on CLOCK_MONOTONIC. It ends with "remote_io_sine: N passed, N failed" and exits 1 when any failed.
 */
#define _POSIX_C_SOURCE 200809L

#include <AudioToolbox/AudioToolbox.h>
#include <AudioUnit/AudioUnit.h>
#include <CoreFoundation/CoreFoundation.h>

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "coreaudio_checks.h"

static const double kPi = 3.14159265358979323846;

typedef struct {
    double phase;
    double step;
    int pan;
    pthread_t mainThread;
    int calls;
    int onMainThread;
    UInt32 largest;
    double firstCall;
    volatile int stopped;
    int callsAfterStop;
    int runningChanges;
    AudioUnit unit;
    int session;
    int interruptions;
} SineState;

static double Now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The render callback: 16-bit interleaved stereo, the sine on the side --pan chose. */
static OSStatus SineRenderProc(void *inRefCon, AudioUnitRenderActionFlags *ioActionFlags, const AudioTimeStamp *inTimeStamp,
                               UInt32 inBusNumber, UInt32 inNumberFrames, AudioBufferList *ioData) {
    SineState *state = (SineState *)inRefCon;
    SInt16 *samples = (SInt16 *)ioData->mBuffers[0].mData;
    UInt32 frame;
    (void)ioActionFlags;
    (void)inTimeStamp;
    (void)inBusNumber;
    if (state->calls == 0) state->firstCall = Now();
    state->calls++;
    if (state->stopped) state->callsAfterStop++;
    if (pthread_equal(pthread_self(), state->mainThread)) state->onMainThread++;
    if (inNumberFrames > state->largest) state->largest = inNumberFrames;
    for (frame = 0; frame < inNumberFrames; frame++) {
        SInt16 value = (SInt16)(0.5 * 32767.0 * sin(state->phase));
        samples[2 * frame] = state->pan <= 0 ? value : 0;
        samples[2 * frame + 1] = state->pan >= 0 ? value : 0;
        state->phase += state->step;
        if (state->phase > 2 * kPi) state->phase -= 2 * kPi;
    }
    return noErr;
}

/* A line for a listener at the sink, with when it was said (CLOCK_MONOTONIC). */
static void Say(const char *what) {
    printf("%s at %.6f\n", what, Now());
    fflush(stdout);
}

static void RunningChanged(void *inRefCon, AudioUnit inUnit, AudioUnitPropertyID inID, AudioUnitScope inScope,
                           AudioUnitElement inElement) {
    SineState *state = (SineState *)inRefCon;
    UInt32 running = 0, size = sizeof running;
    (void)inID;
    (void)inScope;
    (void)inElement;
    state->runningChanges++;
    if (state->session) {
        AudioUnitGetProperty(inUnit, kAudioOutputUnitProperty_IsRunning, kAudioUnitScope_Global, 0, &running, &size);
        Say(running ? "running 1" : "running 0");
    }
}

/* aurioTouch's interruption listener: iOS has stopped the unit at the beginning; at the end, make
   the session active again and start the unit. */
static void InterruptionListener(void *inClientData, UInt32 inInterruptionState) {
    SineState *state = (SineState *)inClientData;
    OSStatus status;
    char line[64];
    if (inInterruptionState == kAudioSessionBeginInterruption) {
        state->interruptions++;
        Say("interruption began");
        return;
    }
    status = AudioSessionSetActive(true);
    if (status == noErr) status = AudioOutputUnitStart(state->unit);
    snprintf(line, sizeof line, "interruption ended (restarted %d)", (int)status);
    Say(line);
}

int main(int argc, char **argv) {
    int useDefaultOutput = 0, i;
    double frequency = 440, seconds = 1, started, stopped, waited;
    AudioComponentDescription description;
    AudioComponent component;
    AudioUnit unit = NULL;
    AudioStreamBasicDescription format;
    AURenderCallbackStruct callback;
    UInt32 running = 0, size = sizeof running, maximumFrames = 0;
    SineState state;

    memset(&state, 0, sizeof state);
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--default-output") == 0) {
            useDefaultOutput = 1;
        } else if (strcmp(argv[i], "--frequency") == 0 && i + 1 < argc) {
            frequency = atof(argv[++i]);
        } else if (strcmp(argv[i], "--seconds") == 0 && i + 1 < argc) {
            seconds = atof(argv[++i]);
        } else if (strcmp(argv[i], "--session") == 0) {
            state.session = 1;
        } else if (strcmp(argv[i], "--pan") == 0 && i + 1 < argc) {
            state.pan = atoi(argv[++i]);
        } else {
            fprintf(stderr, "usage: remote_io_sine [--default-output] [--session] [--frequency HZ] [--seconds S] [--pan -1|0|1]\n");
            return 2;
        }
    }
    state.mainThread = pthread_self();
    state.step = 2 * kPi * frequency / 44100.0;

    if (state.session) {
        /* aurioTouch's session: initialized with an interruption listener, a category that plays,
           active before the unit is made. */
        UInt32 category = kAudioSessionCategory_MediaPlayback;
        EXPECT_STATUS(AudioSessionInitialize(NULL, NULL, InterruptionListener, &state), noErr);
        EXPECT_STATUS(AudioSessionSetProperty(kAudioSessionProperty_AudioCategory, sizeof category, &category), noErr);
        EXPECT_STATUS(AudioSessionSetActive(true), noErr);
    }
    memset(&description, 0, sizeof description);
    description.componentType = kAudioUnitType_Output;
    description.componentSubType = useDefaultOutput ? kAudioUnitSubType_DefaultOutput : kAudioUnitSubType_RemoteIO;
    description.componentManufacturer = kAudioUnitManufacturer_Apple;
    component = AudioComponentFindNext(NULL, &description);
    EXPECT(component != NULL);
    EXPECT_STATUS(AudioComponentInstanceNew(component, &unit), noErr);
    state.unit = unit;

    memset(&format, 0, sizeof format);
    format.mSampleRate = 44100;
    format.mFormatID = kAudioFormatLinearPCM;
    format.mFormatFlags = kLinearPCMFormatFlagIsSignedInteger | kLinearPCMFormatFlagIsPacked;
    format.mBytesPerPacket = 4;
    format.mFramesPerPacket = 1;
    format.mBytesPerFrame = 4;
    format.mChannelsPerFrame = 2;
    format.mBitsPerChannel = 16;
    EXPECT_STATUS(AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &format, sizeof format), noErr);
    callback.inputProc = SineRenderProc;
    callback.inputProcRefCon = &state;
    EXPECT_STATUS(AudioUnitSetProperty(unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &callback, sizeof callback), noErr);
    EXPECT_STATUS(AudioUnitAddPropertyListener(unit, kAudioOutputUnitProperty_IsRunning, RunningChanged, &state), noErr);
    EXPECT_STATUS(AudioUnitInitialize(unit), noErr);
    size = sizeof maximumFrames;
    EXPECT_STATUS(AudioUnitGetProperty(unit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &maximumFrames, &size), noErr);

    started = Now();
    EXPECT_STATUS(AudioOutputUnitStart(unit), noErr);
    size = sizeof running;
    EXPECT_STATUS(AudioUnitGetProperty(unit, kAudioOutputUnitProperty_IsRunning, kAudioUnitScope_Global, 0, &running, &size), noErr);
    EXPECT(running == 1);
    /* The books' sine sleeps while the unit plays (a run loop with no sources returns at once). */
    for (waited = 0; waited < seconds; waited += 0.25) {
        double step = seconds - waited < 0.25 ? seconds - waited : 0.25;
        struct timespec pause;
        pause.tv_sec = 0;
        pause.tv_nsec = (long)(step * 1e9);
        nanosleep(&pause, NULL);
    }
    EXPECT_STATUS(AudioOutputUnitStop(unit), noErr);
    stopped = Now();
    state.stopped = 1;
    EXPECT_STATUS(AudioUnitGetProperty(unit, kAudioOutputUnitProperty_IsRunning, kAudioUnitScope_Global, 0, &running, &size), noErr);
    EXPECT(running == 0);
    /* No callback after the stop returned. */
    {
        struct timespec pause = {0, 100000000};
        nanosleep(&pause, NULL);
    }
    EXPECT(state.callsAfterStop == 0);
    EXPECT(state.calls > 0 && state.onMainThread == 0);
    EXPECT(state.largest > 0 && state.largest <= maximumFrames);
    /* Each interruption stops the unit and its end starts it again. */
    EXPECT(state.runningChanges == 2 + 2 * state.interruptions);
    EXPECT_STATUS(AudioUnitUninitialize(unit), noErr);
    EXPECT_STATUS(AudioComponentInstanceDispose(unit), noErr);
    EXPECT_STATUS(AudioOutputUnitStart(unit), kAudio_ParamError);

    printf("  tone: started at %.6f, first callback at %.6f, stopped at %.6f, %d callbacks of up to %u frames\n", started,
           state.firstCall, stopped, state.calls, (unsigned)state.largest);
    printf("remote_io_sine: %d passed, %d failed\n", checks - failures, failures);
    return failures == 0 ? 0 : 1;
}
