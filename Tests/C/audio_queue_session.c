/*
 * A game's music on an output queue under the Audio Session's rules, as iOS C and C++ games wrote
 * it (the SoundEngine of Apple's sample games, the Core Audio books): AudioSessionInitialize with
 * an interruption listener, the solo-ambient category, AudioSessionSetActive, a route-change
 * listener reading the reason from the CFDictionary; an output queue (16-bit mono, 44.1 kHz, three
 * buffers of 0.1 s) whose callback, on the queue's own thread (a NULL run loop), makes the music —
 * here a 440 Hz tone of SECONDS seconds at half scale, each buffer going on from the last — and
 * stops the queue, not immediately, at its end; an IsRunning listener. When the interruption
 * begins, iOS has stopped the queue (IsRunning 0) and the listener notes it; when it ends, the
 * listener makes the session active again and starts the queue, which plays on from where it
 * was. A route change (the sink the game plays on is pulled) is only said: the queue goes on on
 * the new output by itself, nothing lost. The same file compiles as C99 and as C++17 with
 * -Wall -Wextra -Werror -pedantic.
 *
 *   cc -std=c99 -Wall -Wextra -Werror -pedantic -ISources/CAudioToolbox/include Tests/C/audio_queue_session.c \
 *      -L.build/debug -l:libSoundstageC.so -Wl,-rpath,.build/debug -lm -lpthread
 *   ./a.out SECONDS
 *
 * It plays on the app's output device: the desktop server (PulseAudio or PipeWire, PULSE_SERVER),
 * else OpenAL's default device. The test that runs it (CompatPrograms.AudioQueueSessionDesktopTests)
 * plays a phone call that corks the game and pulls the game's sink meanwhile, and hears the sinks.
 * The program says what happened, one line each, with the time on the monotonic clock:
 *
 *   started at T
 *   running R at T                          (each time the IsRunning listener runs)
 *   interruption began at T
 *   interruption ended at T restarted S     (S: AudioQueueStart's status)
 *   route change reason N at T
 *   finished at T: F frames made, C callbacks
 *
 * and exits 0 once the queue has played the whole tone (IsRunning 0 after the stop at its end),
 * 1 after 60 s or when a call fails.
 */
#define _POSIX_C_SOURCE 200809L

#include <AudioToolbox/AudioToolbox.h>
#include <CoreFoundation/CoreFoundation.h>

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { kNumberBuffers = 3, kRate = 44100, kBufferFrames = 4410 };

/* Seconds on the monotonic clock (the test's recorder dates the sink's frames on it). */
static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The game's music and what the listeners saw. The queue's callback and IsRunning listener run on
   the queue's thread, the session's listeners on Soundstage's (a NULL run loop), so all of it is
   under `lock`; no queue call is made with it held except from the queue's own callback. */
typedef struct {
    pthread_mutex_t lock;
    AudioQueueRef queue;
    long frames;          /* the tone's length */
    long made;            /* frames made so far */
    int callbacks;
    int stopped;          /* the callback reached the end and asked for a deferred stop */
    int interrupted;
    int finished;         /* IsRunning 0 after the stop at the end: the whole tone played */
} Music;

static void say(const char *what) {
    printf("%s at %.6f\n", what, now());
    fflush(stdout);
}

static void MusicCallback(void *inUserData, AudioQueueRef inAQ, AudioQueueBufferRef inBuffer) {
    Music *music = (Music *)inUserData;
    SInt16 *samples = (SInt16 *)inBuffer->mAudioData;
    long i, count;
    pthread_mutex_lock(&music->lock);
    music->callbacks++;
    count = music->frames - music->made;
    if (count > kBufferFrames) count = kBufferFrames;
    if (count <= 0) {
        if (!music->stopped) AudioQueueStop(inAQ, false);
        music->stopped = 1;
        pthread_mutex_unlock(&music->lock);
        return;
    }
    for (i = 0; i < count; i++)
        samples[i] = (SInt16)(16383.0 * sin(2 * 3.14159265358979 * 440.0 * (double)(music->made + i) / kRate));
    music->made += count;
    inBuffer->mAudioDataByteSize = (UInt32)(count * 2);
    if (AudioQueueEnqueueBuffer(inAQ, inBuffer, 0, NULL) != noErr) fprintf(stderr, "audio_queue_session: enqueue failed\n");
    pthread_mutex_unlock(&music->lock);
}

static void RunningListener(void *inUserData, AudioQueueRef inAQ, AudioQueuePropertyID inID) {
    Music *music = (Music *)inUserData;
    UInt32 running = 0, size = sizeof running;
    char line[64];
    if (inID != kAudioQueueProperty_IsRunning || AudioQueueGetProperty(inAQ, inID, &running, &size) != noErr) return;
    snprintf(line, sizeof line, "running %u", (unsigned)running);
    say(line);
    pthread_mutex_lock(&music->lock);
    if (!running && music->stopped && !music->interrupted) music->finished = 1;
    pthread_mutex_unlock(&music->lock);
}

/* The SoundEngine's interruption listener: note the beginning (iOS has stopped the queue); at the
   end, make the session active again and start the queue where it was. */
static void InterruptionListener(void *inClientData, UInt32 inInterruptionState) {
    Music *music = (Music *)inClientData;
    AudioQueueRef queue;
    OSStatus status;
    char line[64];
    pthread_mutex_lock(&music->lock);
    queue = music->queue;
    music->interrupted = inInterruptionState == kAudioSessionBeginInterruption;
    pthread_mutex_unlock(&music->lock);
    if (inInterruptionState == kAudioSessionBeginInterruption) {
        say("interruption began");
        return;
    }
    status = AudioSessionSetActive(true);
    if (status == noErr) status = AudioQueueStart(queue, NULL);
    snprintf(line, sizeof line, "interruption ended (restarted %d)", (int)status);
    say(line);
}

static void RouteChangeListener(void *inClientData, AudioSessionPropertyID inID, UInt32 inDataSize, const void *inData) {
    CFDictionaryRef routeChange;
    CFNumberRef reasonNumber;
    SInt32 reason = -1;
    char line[64];
    (void)inClientData;
    if (inID != kAudioSessionProperty_AudioRouteChange || inDataSize != sizeof(CFDictionaryRef)) return;
    routeChange = *(const CFDictionaryRef *)inData;
    reasonNumber = (CFNumberRef)CFDictionaryGetValue(routeChange, CFSTR(kAudioSession_AudioRouteChangeKey_Reason));
    if (reasonNumber) CFNumberGetValue(reasonNumber, kCFNumberSInt32Type, &reason);
    snprintf(line, sizeof line, "route change reason %d", (int)reason);
    say(line);
}

static int check(OSStatus status, const char *what) {
    if (status == noErr) return 1;
    fprintf(stderr, "audio_queue_session: %s returned %d\n", what, (int)status);
    return 0;
}

int main(int argc, char **argv) {
    Music music;
    AudioStreamBasicDescription format;
    AudioQueueBufferRef buffers[kNumberBuffers];
    UInt32 category = kAudioSessionCategory_SoloAmbientSound;
    double seconds = argc > 1 ? atof(argv[1]) : 3, deadline;
    int i, finished = 0;

    if (!(seconds > 0 && seconds < 30)) {
        fprintf(stderr, "usage: audio_queue_session SECONDS (0 < SECONDS < 30)\n");
        return 2;
    }
    pthread_mutex_init(&music.lock, NULL);
    music.queue = NULL;
    music.frames = (long)(seconds * kRate);
    music.made = 0;
    music.callbacks = 0;
    music.stopped = music.interrupted = music.finished = 0;

    if (!check(AudioSessionInitialize(NULL, NULL, InterruptionListener, &music), "AudioSessionInitialize")
        || !check(AudioSessionSetProperty(kAudioSessionProperty_AudioCategory, sizeof category, &category), "the category")
        || !check(AudioSessionAddPropertyListener(kAudioSessionProperty_AudioRouteChange, RouteChangeListener, &music),
                  "the route-change listener")
        || !check(AudioSessionSetActive(true), "AudioSessionSetActive"))
        return 1;

    format.mSampleRate = kRate;
    format.mFormatID = kAudioFormatLinearPCM;
    format.mFormatFlags = kLinearPCMFormatFlagIsSignedInteger | kLinearPCMFormatFlagIsPacked;
    format.mBytesPerPacket = 2;
    format.mFramesPerPacket = 1;
    format.mBytesPerFrame = 2;
    format.mChannelsPerFrame = 1;
    format.mBitsPerChannel = 16;
    format.mReserved = 0;
    if (!check(AudioQueueNewOutput(&format, MusicCallback, &music, NULL, NULL, 0, &music.queue), "AudioQueueNewOutput")
        || !check(AudioQueueAddPropertyListener(music.queue, kAudioQueueProperty_IsRunning, RunningListener, &music),
                  "the IsRunning listener"))
        return 1;
    for (i = 0; i < kNumberBuffers; i++) {
        if (!check(AudioQueueAllocateBuffer(music.queue, kBufferFrames * 2, &buffers[i]), "AudioQueueAllocateBuffer")) return 1;
        MusicCallback(&music, music.queue, buffers[i]);
    }
    say("started");
    if (!check(AudioQueueStart(music.queue, NULL), "AudioQueueStart")) return 1;

    deadline = now() + 60;
    while (!finished && now() < deadline) {
        CFRunLoopRunInMode(kCFRunLoopDefaultMode, 0.05, false);
        pthread_mutex_lock(&music.lock);
        finished = music.finished;
        pthread_mutex_unlock(&music.lock);
    }
    pthread_mutex_lock(&music.lock);
    printf("finished at %.6f: %ld frames made, %d callbacks\n", now(), music.made, music.callbacks);
    pthread_mutex_unlock(&music.lock);
    fflush(stdout);
    check(AudioQueueDispose(music.queue, true), "AudioQueueDispose");
    check(AudioSessionSetActive(false), "AudioSessionSetActive(false)");
    if (!finished) fprintf(stderr, "audio_queue_session: the tone did not finish within 60 s\n");
    return finished ? 0 : 1;
}
