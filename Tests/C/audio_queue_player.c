/*
 * The command-line file player of the Core Audio books, as iOS and macOS developers write it: a
 * file opened with AudioFileOpenURL from a path, its data format, buffers sized for half a second
 * from kAudioFilePropertyPacketSizeUpperBound (the books' CalculateBytesForTime), three buffers
 * with packet descriptions for variable-packet formats, the file's magic cookie copied to the
 * queue, a callback that reads packets and enqueues them and stops the queue (not immediately) at
 * the end of the file, AudioQueueStart(q, NULL), and the main thread draining its run loop in
 * quarter seconds until the callback says it is done, then for up to 2 s more while the queue plays
 * out — ended at once by an IsRunning listener, so the program takes the file's time and no more.
 * The same file compiles as C99 and as C++17 with -Wall -Wextra -Werror -pedantic.
 *
 *   cc -std=c99 -Wall -Wextra -Werror -pedantic -ISources/CAudioToolbox/include Tests/C/audio_queue_player.c \
 *      -L.build/debug -l:libSoundstageC.so -Wl,-rpath,.build/debug -lm
 *   ./a.out [--gap SECONDS] [--exact-start] [FILE...]
 *
 * It plays on the app's output device: the desktop server (PulseAudio or PipeWire, PULSE_SERVER),
 * else OpenAL's default device. The files play one after the other (--gap: seconds of silence
 * between them), in two variants by turns: the first, third, ... with the callbacks on the main
 * thread's run loop (CFRunLoopGetCurrent(), kCFRunLoopCommonModes) reading with
 * AudioFileReadPacketData into the buffers' own packet descriptions; the second, fourth, ... with a
 * NULL run loop (callbacks on the queue's own thread) reading with AudioFileReadPackets into an
 * array of descriptions handed to AudioQueueEnqueueBuffer. Then two queues (660 Hz panned left,
 * 880 Hz panned right, 0.6 s each) are started for one time of the device's clock
 * (AudioQueueDeviceGetCurrentTime + 12,000 samples), the second 0.1 s after the first was asked;
 * then the error paths a C caller meets. --exact-start says the device meets start times on the
 * sample (the desktop output, a loopback device; OpenAL's own output starts a queue at once).
 *
 * It checks, for each file: every packet was enqueued exactly once and every enqueued buffer came
 * back to the callback; the callbacks ran where the variant says (the main thread, or another);
 * IsRunning went 1 then 0; the time from AudioQueueStart to IsRunning 0 is at least the file's
 * duration (less one period of OpenAL Soft's null output: it played in real time) and less than
 * its packets' duration + 1.5 s; the queue's clock (AudioQueueGetCurrentTime) advanced while it
 * played. The device's clock advances. The two queues both run and both finish; with
 * --exact-start, their clocks are 0 before the start time and equal (within 10 ms) after it. NULL,
 * a disposed queue and wrong property sizes give Apple's codes. It ends with
 * "audio_queue_player: N passed, N failed" and exits 1 when any failed.
 */
#define _POSIX_C_SOURCE 200809L

#include <AudioToolbox/AudioToolbox.h>
#include <CoreFoundation/CoreFoundation.h>

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "coreaudio_checks.h"

enum { kNumberBuffers = 3 };

/* Seconds on the monotonic clock. */
static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void sleepSeconds(double seconds) {
    struct timespec t;
    t.tv_sec = (time_t)seconds;
    t.tv_nsec = (long)((seconds - (double)t.tv_sec) * 1e9);
    nanosleep(&t, NULL);
}

/* The books' error helper: says what failed, with the status as four characters when it has them. */
static int CheckError(OSStatus error, const char *operation) {
    char text[16];
    checks++;
    if (error == noErr) return 1;
    FormatStatus(error, text);
    fprintf(stderr, "  error: %s (%s)\n", operation, text);
    failures++;
    return 0;
}

/* The player's state, as the books keep it, with what the checks need. The callback and the
   listener run on the main thread (run-loop variant) or on the queue's thread (NULL run loop), so
   everything they touch is under `lock`; no queue call is made by the main thread with it held. */
typedef struct {
    pthread_mutex_t lock;
    AudioFileID playbackFile;
    AudioStreamBasicDescription format;
    SInt64 packetPosition;
    SInt64 packetCount;
    UInt32 numPacketsToRead;
    int isVBR;
    int useRunLoop;                               /* the variant: the main run loop, or NULL */
    AudioStreamPacketDescription *packetDescs;    /* NULL run loop: AudioFileReadPackets' descriptions */
    unsigned char *timesEnqueued;                 /* a count for every packet of the file */
    int isDone;                                   /* the callback reached the end of the file */
    int priming;                                  /* main() is calling the callback itself */
    int buffersEnqueued, buffersReturned;
    int callbacksOnMain, callbacksElsewhere;
    int readErrors, enqueueErrors;
    pthread_t mainThread;
    CFRunLoopRef mainRunLoop;
    UInt32 running[8];                            /* IsRunning, each time the listener ran */
    int runningChanges;
    double stoppedAt;                             /* when IsRunning went 0 */
} Player;

/* The books' CalculateBytesForTime: a buffer for `seconds` of packets of the largest size, within
   16 KB and 64 KB (or one packet, if larger), and how many packets to read into it. */
static void CalculateBytesForTime(AudioFileID file, AudioStreamBasicDescription format, Float64 seconds,
                                  UInt32 *outBufferSize, UInt32 *outNumPackets) {
    static const UInt32 maxBufferSize = 0x10000, minBufferSize = 0x4000;
    UInt32 maxPacketSize = 0, size = sizeof maxPacketSize;
    CheckError(AudioFileGetProperty(file, kAudioFilePropertyPacketSizeUpperBound, &size, &maxPacketSize),
               "couldn't get the file's largest packet size");
    if (maxPacketSize == 0) maxPacketSize = 1;
    if (format.mFramesPerPacket) {
        Float64 packetsForTime = format.mSampleRate / format.mFramesPerPacket * seconds;
        *outBufferSize = (UInt32)(packetsForTime * maxPacketSize);
    } else {
        *outBufferSize = maxBufferSize > maxPacketSize ? maxBufferSize : maxPacketSize;
    }
    if (*outBufferSize > maxBufferSize && *outBufferSize > maxPacketSize) {
        *outBufferSize = maxBufferSize;
    } else if (*outBufferSize < minBufferSize) {
        *outBufferSize = minBufferSize;
    }
    *outNumPackets = *outBufferSize / maxPacketSize;
}

/* The books' MyCopyEncoderCookieToQueue: the file's magic cookie, if it has one, to the queue. */
static void CopyEncoderCookieToQueue(AudioFileID file, AudioQueueRef queue) {
    UInt32 size = 0;
    if (AudioFileGetPropertyInfo(file, kAudioFilePropertyMagicCookieData, &size, NULL) == noErr && size > 0) {
        void *cookie = malloc(size);
        if (CheckError(AudioFileGetProperty(file, kAudioFilePropertyMagicCookieData, &size, cookie), "get the cookie from the file"))
            CheckError(AudioQueueSetProperty(queue, kAudioQueueProperty_MagicCookie, cookie, size), "set the cookie on the queue");
        free(cookie);
    }
}

static void OutputCallback(void *inUserData, AudioQueueRef inAQ, AudioQueueBufferRef inCompleteAQBuffer) {
    Player *player = (Player *)inUserData;
    UInt32 numBytes = inCompleteAQBuffer->mAudioDataBytesCapacity, numPackets;
    OSStatus status;
    SInt64 i;
    pthread_mutex_lock(&player->lock);
    if (!player->priming) {
        player->buffersReturned++;
        if (pthread_equal(pthread_self(), player->mainThread)) player->callbacksOnMain++;
        else player->callbacksElsewhere++;
    }
    if (player->isDone) {
        pthread_mutex_unlock(&player->lock);
        return;
    }
    numPackets = player->numPacketsToRead;
    if (player->useRunLoop) {
        status = AudioFileReadPacketData(player->playbackFile, false, &numBytes, inCompleteAQBuffer->mPacketDescriptions,
                                         player->packetPosition, &numPackets, inCompleteAQBuffer->mAudioData);
    } else {
        status = AudioFileReadPackets(player->playbackFile, false, &numBytes, player->packetDescs, player->packetPosition,
                                      &numPackets, inCompleteAQBuffer->mAudioData);
    }
    if (status != noErr && status != kAudioFileEndOfFileError) {
        player->readErrors++;
        numPackets = 0;
    }
    if (numPackets > 0) {
        inCompleteAQBuffer->mAudioDataByteSize = numBytes;
        if (player->useRunLoop) {
            inCompleteAQBuffer->mPacketDescriptionCount = player->isVBR ? numPackets : 0;
            status = AudioQueueEnqueueBuffer(inAQ, inCompleteAQBuffer, 0, NULL);
        } else {
            status = AudioQueueEnqueueBuffer(inAQ, inCompleteAQBuffer, player->isVBR ? numPackets : 0,
                                             player->isVBR ? player->packetDescs : NULL);
        }
        if (status == noErr) {
            for (i = player->packetPosition; i < player->packetPosition + numPackets && i < player->packetCount; i++)
                if (player->timesEnqueued[i] < 255) player->timesEnqueued[i]++;
            player->buffersEnqueued++;
            player->packetPosition += numPackets;
        } else {
            player->enqueueErrors++;
        }
    } else {
        AudioQueueStop(inAQ, false);
        player->isDone = 1;
    }
    pthread_mutex_unlock(&player->lock);
}

/* IsRunning changed: noted; at 0 the main run loop's drain ends (CFRunLoopStop). With a NULL run
   loop the main thread is not running its loop (it sleeps) and sees the change by polling. */
static void IsRunningListener(void *inUserData, AudioQueueRef inAQ, AudioQueuePropertyID inID) {
    Player *player = (Player *)inUserData;
    UInt32 running = 9, size = sizeof running;
    double at = now();
    CFRunLoopRef stop = NULL;
    AudioQueueGetProperty(inAQ, inID, &running, &size);
    pthread_mutex_lock(&player->lock);
    if (player->runningChanges < 8) player->running[player->runningChanges] = running;
    player->runningChanges++;
    if (running == 0 && player->stoppedAt == 0) player->stoppedAt = at;
    if (running == 0 && player->useRunLoop) stop = player->mainRunLoop;
    pthread_mutex_unlock(&player->lock);
    /* Nothing of the player after the unlock: with a NULL run loop, main() may be done with it. */
    if (stop) CFRunLoopStop(stop);
}

/* Runs the main thread's run loop for `seconds` (what the books do). It waits that long even with
   a NULL-run-loop queue, whose callbacks do not come through it: the audio system is attached to
   the main run loop once the program has made a queue, as on a Mac. */
static void drain(double seconds) {
    CFRunLoopRunInMode(kCFRunLoopDefaultMode, seconds, false);
}

static int isDone(Player *player) {
    int done;
    pthread_mutex_lock(&player->lock);
    done = player->isDone;
    pthread_mutex_unlock(&player->lock);
    return done;
}

static double stoppedAt(Player *player) {
    double at;
    pthread_mutex_lock(&player->lock);
    at = player->stoppedAt;
    pthread_mutex_unlock(&player->lock);
    return at;
}

/* Plays one file through a queue, the books' main(), and checks what happened. */
static void playFile(const char *path, int useRunLoop) {
    Player player;
    AudioQueueRef queue = NULL;
    AudioQueueBufferRef buffers[kNumberBuffers];
    AudioTimeStamp queueTime;
    CFURLRef fileURL;
    UInt32 size, bufferByteSize = 0, framesPerPacket;
    UInt64 packets = 0;
    Float64 duration = 0, packetsDuration, lastQueueTime = 0, firstQueueTime = -1;
    double startedAt, stopAt, played;
    int i, once = 0, timesAdvanced = 0;
    SInt64 p;
    const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;

    memset(&player, 0, sizeof player);
    pthread_mutex_init(&player.lock, NULL);
    player.useRunLoop = useRunLoop;
    player.mainThread = pthread_self();
    player.mainRunLoop = CFRunLoopGetCurrent();

    fileURL = CFURLCreateFromFileSystemRepresentation(kCFAllocatorDefault, (const UInt8 *)path, (CFIndex)strlen(path), false);
    if (!CheckError(AudioFileOpenURL(fileURL, kAudioFileReadPermission, 0, &player.playbackFile), "AudioFileOpenURL failed")) {
        fprintf(stderr, "  (%s)\n", path);
        CFRelease(fileURL);
        pthread_mutex_destroy(&player.lock);
        return;
    }
    CFRelease(fileURL);
    size = sizeof player.format;
    CheckError(AudioFileGetProperty(player.playbackFile, kAudioFilePropertyDataFormat, &size, &player.format), "couldn't get the file's data format");
    size = sizeof packets;
    CheckError(AudioFileGetProperty(player.playbackFile, kAudioFilePropertyAudioDataPacketCount, &size, &packets), "couldn't get the packet count");
    size = sizeof duration;
    CheckError(AudioFileGetProperty(player.playbackFile, kAudioFilePropertyEstimatedDuration, &size, &duration), "couldn't get the duration");
    player.packetCount = (SInt64)packets;
    player.timesEnqueued = (unsigned char *)calloc((size_t)packets + 1, 1);
    framesPerPacket = player.format.mFramesPerPacket ? player.format.mFramesPerPacket : 1;
    packetsDuration = (Float64)packets * framesPerPacket / player.format.mSampleRate;

    if (!CheckError(AudioQueueNewOutput(&player.format, OutputCallback, &player, useRunLoop ? CFRunLoopGetCurrent() : NULL,
                                        useRunLoop ? kCFRunLoopCommonModes : NULL, 0, &queue), "AudioQueueNewOutput failed")) {
        AudioFileClose(player.playbackFile);
        free(player.timesEnqueued);
        pthread_mutex_destroy(&player.lock);
        return;
    }

    CalculateBytesForTime(player.playbackFile, player.format, 0.5, &bufferByteSize, &player.numPacketsToRead);
    player.isVBR = player.format.mBytesPerPacket == 0 || player.format.mFramesPerPacket == 0;
    if (player.isVBR && !useRunLoop)
        player.packetDescs = (AudioStreamPacketDescription *)malloc(sizeof(AudioStreamPacketDescription) * player.numPacketsToRead);
    CopyEncoderCookieToQueue(player.playbackFile, queue);
    CheckError(AudioQueueAddPropertyListener(queue, kAudioQueueProperty_IsRunning, IsRunningListener, &player), "AudioQueueAddPropertyListener failed");

    player.priming = 1;
    for (i = 0; i < kNumberBuffers; i++) {
        if (useRunLoop && player.isVBR) {
            CheckError(AudioQueueAllocateBufferWithPacketDescriptions(queue, bufferByteSize, player.numPacketsToRead, &buffers[i]),
                       "AudioQueueAllocateBufferWithPacketDescriptions failed");
        } else {
            CheckError(AudioQueueAllocateBuffer(queue, bufferByteSize, &buffers[i]), "AudioQueueAllocateBuffer failed");
        }
        OutputCallback(&player, queue, buffers[i]);
        if (isDone(&player)) break;
    }
    pthread_mutex_lock(&player.lock);
    player.priming = 0;
    pthread_mutex_unlock(&player.lock);

    startedAt = now();
    CheckError(AudioQueueStart(queue, NULL), "AudioQueueStart failed");

    /* The books' loop: a quarter second at a time until the callback has read everything... */
    while (!isDone(&player) && now() - startedAt < packetsDuration + 5) {
        drain(0.25);
        if (AudioQueueGetCurrentTime(queue, NULL, &queueTime, NULL) == noErr && stoppedAt(&player) == 0) {
            if (firstQueueTime < 0) firstQueueTime = queueTime.mSampleTime;
            /* The clock goes back to 0 once the run has ended, which may be just before the
               IsRunning listener says so: the latest reading is the largest. */
            if (queueTime.mSampleTime > lastQueueTime) {
                timesAdvanced++;
                lastQueueTime = queueTime.mSampleTime;
            }
        }
    }
    /* ...then up to 2 s more for the queue to play what it holds, ended by the IsRunning listener. */
    stopAt = now() + 2;
    while (stoppedAt(&player) == 0 && now() < stopAt) {
        drain(0.1);
        if (AudioQueueGetCurrentTime(queue, NULL, &queueTime, NULL) == noErr && stoppedAt(&player) == 0) {
            if (firstQueueTime < 0) firstQueueTime = queueTime.mSampleTime;
            /* The clock goes back to 0 once the run has ended, which may be just before the
               IsRunning listener says so: the latest reading is the largest. */
            if (queueTime.mSampleTime > lastQueueTime) {
                timesAdvanced++;
                lastQueueTime = queueTime.mSampleTime;
            }
        }
    }
    CFRunLoopRunInMode(kCFRunLoopDefaultMode, 0, false);   /* whatever is still queued for this thread */
    played = stoppedAt(&player) > 0 ? stoppedAt(&player) - startedAt : -1;

    CheckError(AudioQueueDispose(queue, true), "AudioQueueDispose failed");
    CheckError(AudioFileClose(player.playbackFile), "AudioFileClose failed");

    pthread_mutex_lock(&player.lock);
    for (p = 0; p < player.packetCount; p++) once += player.timesEnqueued[p] == 1;
    printf("%s: '%c%c%c%c', %.0f Hz, %u channels, %lld packets, %.3f s (%.3f s of packets), %s: "
           "IsRunning 1 then 0 after %.3f s, %d buffers enqueued, %d back, queue time %.0f frames\n",
           name, (char)(player.format.mFormatID >> 24), (char)(player.format.mFormatID >> 16), (char)(player.format.mFormatID >> 8),
           (char)player.format.mFormatID, player.format.mSampleRate, (unsigned)player.format.mChannelsPerFrame,
           (long long)player.packetCount, duration, packetsDuration, useRunLoop ? "the main run loop" : "a NULL run loop",
           played, player.buffersEnqueued, player.buffersReturned, lastQueueTime);
    /* For a listener at the sink (CompatTests' AudioQueuePlayerDesktopTests): when, on CLOCK_MONOTONIC. */
    printf("  %s: started at %.6f s, IsRunning 0 at %.6f s\n", name, startedAt, player.stoppedAt);
    if (once != player.packetCount || player.packetPosition != player.packetCount)
        fprintf(stderr, "  %s: %d of %lld packets enqueued exactly once, read to %lld\n", name, once,
                (long long)player.packetCount, (long long)player.packetPosition);
    EXPECT(player.packetCount > 0 && once == player.packetCount && player.packetPosition == player.packetCount);
    EXPECT(player.readErrors == 0 && player.enqueueErrors == 0);
    EXPECT(player.isDone);
    EXPECT(player.buffersEnqueued > 0 && player.buffersReturned == player.buffersEnqueued);
    if (useRunLoop) {
        EXPECT(player.callbacksOnMain > 0 && player.callbacksElsewhere == 0);
    } else {
        EXPECT(player.callbacksElsewhere > 0 && player.callbacksOnMain == 0);
    }
    if (player.runningChanges != 2) fprintf(stderr, "  %s: the IsRunning listener ran %d times\n", name, player.runningChanges);
    EXPECT(player.runningChanges == 2 && player.running[0] == 1 && player.running[1] == 0);
    /* Real time: OpenAL Soft's null output (the tests' device without a desktop server) mixes a
       period (1,024 frames, 23 ms at 44.1 kHz) at a time, once that time has passed, so a sound
       started inside a period is mixed from the period's start: up to one period early. */
    EXPECT(played >= duration - 0.025);
    EXPECT(played < packetsDuration + 1.5);
    if (timesAdvanced < 1 || firstQueueTime < 0 || lastQueueTime <= 0)
        fprintf(stderr, "  %s: the queue's clock read %.0f, then %.0f frames (%d advances)\n", name, firstQueueTime, lastQueueTime, timesAdvanced);
    EXPECT(timesAdvanced >= 1 && lastQueueTime > 0 && lastQueueTime <= packetsDuration * player.format.mSampleRate + 4800);
    pthread_mutex_unlock(&player.lock);

    free(player.packetDescs);
    free(player.timesEnqueued);
    pthread_mutex_destroy(&player.lock);
}

/* A tone fed to a queue from memory (16-bit mono, 44.1 kHz), for the synchronised start. */
typedef struct {
    pthread_mutex_t lock;
    SInt16 *samples;
    UInt32 frames, position;
    int ended;
    UInt32 lastRunning;
    int runningChanges;
} Tone;

static void ToneCallback(void *inUserData, AudioQueueRef inAQ, AudioQueueBufferRef inBuffer) {
    Tone *tone = (Tone *)inUserData;
    UInt32 count;
    pthread_mutex_lock(&tone->lock);
    count = inBuffer->mAudioDataBytesCapacity / 2;
    if (count > tone->frames - tone->position) count = tone->frames - tone->position;
    if (count == 0) {
        if (!tone->ended) AudioQueueStop(inAQ, false);
        tone->ended = 1;
    } else {
        memcpy(inBuffer->mAudioData, tone->samples + tone->position, count * 2);
        inBuffer->mAudioDataByteSize = count * 2;
        tone->position += count;
        AudioQueueEnqueueBuffer(inAQ, inBuffer, 0, NULL);
    }
    pthread_mutex_unlock(&tone->lock);
}

static void ToneRunningListener(void *inUserData, AudioQueueRef inAQ, AudioQueuePropertyID inID) {
    Tone *tone = (Tone *)inUserData;
    UInt32 running = 9, size = sizeof running;
    AudioQueueGetProperty(inAQ, inID, &running, &size);
    pthread_mutex_lock(&tone->lock);
    tone->lastRunning = running;
    tone->runningChanges++;
    pthread_mutex_unlock(&tone->lock);
}

static AudioStreamBasicDescription pcm16Mono(void) {
    AudioStreamBasicDescription format;
    memset(&format, 0, sizeof format);
    format.mSampleRate = 44100;
    format.mFormatID = kAudioFormatLinearPCM;
    format.mFormatFlags = kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked;
    format.mBitsPerChannel = 16;
    format.mChannelsPerFrame = 1;
    format.mFramesPerPacket = 1;
    format.mBytesPerFrame = format.mBytesPerPacket = 2;
    return format;
}

static AudioQueueRef makeToneQueue(Tone *tone, double frequency, double seconds, Float32 pan) {
    AudioStreamBasicDescription format = pcm16Mono();
    AudioQueueRef queue = NULL;
    AudioQueueBufferRef buffer;
    UInt32 i;
    memset(tone, 0, sizeof *tone);
    pthread_mutex_init(&tone->lock, NULL);
    tone->frames = (UInt32)(seconds * 44100);
    tone->samples = (SInt16 *)malloc(tone->frames * sizeof(SInt16));
    for (i = 0; i < tone->frames; i++) tone->samples[i] = (SInt16)(16384 * sin(2 * 3.14159265358979 * frequency * i / 44100));
    if (!CheckError(AudioQueueNewOutput(&format, ToneCallback, tone, NULL, NULL, 0, &queue), "AudioQueueNewOutput (a tone)")) return NULL;
    CheckError(AudioQueueAddPropertyListener(queue, kAudioQueueProperty_IsRunning, ToneRunningListener, tone), "a tone's listener");
    CheckError(AudioQueueSetParameter(queue, kAudioQueueParam_Pan, pan), "a tone's pan");
    for (i = 0; i < kNumberBuffers; i++) {
        if (CheckError(AudioQueueAllocateBuffer(queue, 4096, &buffer), "a tone's buffer")) ToneCallback(tone, queue, buffer);
    }
    return queue;
}

static UInt32 toneRunning(Tone *tone, int *changes) {
    UInt32 running;
    pthread_mutex_lock(&tone->lock);
    running = tone->lastRunning;
    *changes = tone->runningChanges;
    pthread_mutex_unlock(&tone->lock);
    return running;
}

/* The device's clock advances; two queues started for one time of it both start, play together and finish. */
static void synchronisedStart(int exactStart) {
    Tone left, right;
    AudioQueueRef first = makeToneQueue(&left, 660, 0.6, -1), second = makeToneQueue(&right, 880, 0.6, 1);
    AudioTimeStamp before, after, startTime, firstTime, secondTime;
    UInt32 running = 0, size = sizeof running;
    double rate, waited, deadline;
    int leftChanges = 0, rightChanges = 0;
    if (!first || !second) return;

    /* The device's clock: its sample time advances with its host time (nanoseconds). */
    memset(&before, 0, sizeof before);
    memset(&after, 0, sizeof after);
    EXPECT_STATUS(AudioQueueDeviceGetCurrentTime(first, &before), noErr);
    sleepSeconds(0.1);
    EXPECT_STATUS(AudioQueueDeviceGetCurrentTime(first, &after), noErr);
    EXPECT((before.mFlags & kAudioTimeStampSampleTimeValid) && (before.mFlags & kAudioTimeStampHostTimeValid));
    rate = after.mHostTime > before.mHostTime ? (after.mSampleTime - before.mSampleTime) / ((double)(after.mHostTime - before.mHostTime) / 1e9) : 0;
    printf("the device's clock: %.0f then %.0f samples 0.1 s later (%.0f a second)\n", before.mSampleTime, after.mSampleTime, rate);
    EXPECT(after.mSampleTime > before.mSampleTime);
    EXPECT(rate > 0.8 * 8000 && rate < 1.2 * 192000);

    /* Both for 12,000 samples from now (a quarter second at 48 kHz); the second asked 0.1 s after the first. */
    EXPECT_STATUS(AudioQueueDeviceGetCurrentTime(first, &startTime), noErr);
    startTime.mSampleTime += 12000;
    startTime.mFlags = kAudioTimeStampSampleTimeValid;
    EXPECT_STATUS(AudioQueueStart(first, &startTime), noErr);
    sleepSeconds(0.1);
    EXPECT_STATUS(AudioQueueStart(second, &startTime), noErr);
    EXPECT_STATUS(AudioQueueGetProperty(first, kAudioQueueProperty_IsRunning, &running, &size), noErr);
    EXPECT(running == 1);
    size = sizeof running;
    EXPECT_STATUS(AudioQueueGetProperty(second, kAudioQueueProperty_IsRunning, &running, &size), noErr);
    EXPECT(running == 1);
    /* Not yet at the start time: neither queue has played a frame. */
    EXPECT_STATUS(AudioQueueGetCurrentTime(first, NULL, &firstTime, NULL), noErr);
    EXPECT_STATUS(AudioQueueGetCurrentTime(second, NULL, &secondTime, NULL), noErr);
    printf("before the start time, the queues' clocks read %.0f and %.0f frames\n", firstTime.mSampleTime, secondTime.mSampleTime);
    if (exactStart) EXPECT(firstTime.mSampleTime == 0 && secondTime.mSampleTime == 0);
    /* Well inside both tones, 0.4 s after the first was asked (also on OpenAL's output, where each
       started at once): both clocks run, and on one start sample they agree, read one after the other. */
    sleepSeconds(0.3);
    EXPECT_STATUS(AudioQueueGetCurrentTime(first, NULL, &firstTime, NULL), noErr);
    EXPECT_STATUS(AudioQueueGetCurrentTime(second, NULL, &secondTime, NULL), noErr);
    printf("inside them, %.0f and %.0f frames\n", firstTime.mSampleTime, secondTime.mSampleTime);
    EXPECT(firstTime.mSampleTime > 0 && secondTime.mSampleTime > 0);
    if (exactStart) EXPECT(fabs(firstTime.mSampleTime - secondTime.mSampleTime) <= 441);

    waited = now();
    deadline = waited + 5;
    while (now() < deadline && (toneRunning(&left, &leftChanges) != 0 || toneRunning(&right, &rightChanges) != 0 ||
                                leftChanges < 2 || rightChanges < 2)) sleepSeconds(0.01);
    printf("both finished %.3f s later\n", now() - waited);
    EXPECT(toneRunning(&left, &leftChanges) == 0 && leftChanges == 2);
    EXPECT(toneRunning(&right, &rightChanges) == 0 && rightChanges == 2);
    CheckError(AudioQueueDispose(first, true), "disposing the first tone's queue");
    CheckError(AudioQueueDispose(second, true), "disposing the second tone's queue");
    free(left.samples);
    free(right.samples);
    pthread_mutex_destroy(&left.lock);
    pthread_mutex_destroy(&right.lock);
}

static void NothingCallback(void *inUserData, AudioQueueRef inAQ, AudioQueueBufferRef inBuffer) {
    (void)inUserData;
    (void)inAQ;
    (void)inBuffer;
}

static void NothingListener(void *inUserData, AudioQueueRef inAQ, AudioQueuePropertyID inID) {
    (void)inUserData;
    (void)inAQ;
    (void)inID;
}

/* What a C caller meets: NULL, a disposed queue, wrong property sizes. */
static void errorPaths(void) {
    AudioStreamBasicDescription format = pcm16Mono();
    AudioQueueRef queue = NULL;
    AudioQueueBufferRef buffer = NULL;
    AudioTimeStamp stamp;
    UInt32 value = 0, size = sizeof value;
    Float32 volume = 0;

    EXPECT_STATUS(AudioQueueNewOutput(NULL, NothingCallback, NULL, NULL, NULL, 0, &queue), kAudio_ParamError);
    EXPECT_STATUS(AudioQueueNewOutput(&format, NothingCallback, NULL, NULL, NULL, 0, NULL), kAudio_ParamError);
    EXPECT_STATUS(AudioQueueStart(NULL, NULL), kAudio_ParamError);
    EXPECT_STATUS(AudioQueueStop(NULL, true), kAudio_ParamError);
    EXPECT_STATUS(AudioQueueDispose(NULL, true), kAudio_ParamError);
    EXPECT_STATUS(AudioQueueGetProperty(NULL, kAudioQueueProperty_IsRunning, &value, &size), kAudio_ParamError);
    EXPECT_STATUS(AudioQueueGetCurrentTime(NULL, NULL, &stamp, NULL), kAudio_ParamError);
    EXPECT_STATUS(AudioQueueDeviceGetCurrentTime(NULL, &stamp), kAudio_ParamError);

    if (!CheckError(AudioQueueNewOutput(&format, NothingCallback, NULL, CFRunLoopGetCurrent(), kCFRunLoopCommonModes, 0, &queue),
                    "AudioQueueNewOutput")) return;
    EXPECT_STATUS(AudioQueueAllocateBuffer(queue, 1024, NULL), kAudio_ParamError);
    EXPECT_STATUS(AudioQueueEnqueueBuffer(queue, NULL, 0, NULL), kAudioQueueErr_InvalidBuffer);
    EXPECT_STATUS(AudioQueueGetProperty(queue, kAudioQueueProperty_IsRunning, &value, NULL), kAudio_ParamError);
    EXPECT_STATUS(AudioQueueDeviceGetCurrentTime(queue, NULL), kAudio_ParamError);
    EXPECT_STATUS(AudioQueueAddPropertyListener(queue, kAudioQueueProperty_IsRunning, NULL, NULL), kAudio_ParamError);
    EXPECT_STATUS(AudioQueueAddPropertyListener(queue, 0x7a7a7a7a, NothingListener, NULL), kAudioQueueErr_InvalidProperty);
    /* Wrong sizes: too small a value to read into, a 32-bit property set with 2 or 8 bytes. */
    size = 2;
    EXPECT_STATUS(AudioQueueGetProperty(queue, kAudioQueueProperty_IsRunning, &value, &size), kAudioQueueErr_InvalidPropertySize);
    size = sizeof(AudioStreamBasicDescription) - 1;
    EXPECT_STATUS(AudioQueueGetProperty(queue, kAudioQueueProperty_StreamDescription, &format, &size), kAudioQueueErr_InvalidPropertySize);
    value = 1;
    EXPECT_STATUS(AudioQueueSetProperty(queue, kAudioQueueProperty_EnableLevelMetering, &value, 2), kAudioQueueErr_InvalidPropertySize);
    {
        UInt64 wide = 1;
        EXPECT_STATUS(AudioQueueSetProperty(queue, kAudioQueueProperty_EnableLevelMetering, &wide, sizeof wide), kAudioQueueErr_InvalidPropertySize);
    }
    size = sizeof value;
    EXPECT_STATUS(AudioQueueGetProperty(queue, kAudioQueueProperty_IsRunning, &value, &size), noErr);
    EXPECT(value == 0 && size == sizeof value);

    /* Disposed: every call is kAudio_ParamError, and nothing crashes. */
    CheckError(AudioQueueAllocateBuffer(queue, 1024, &buffer), "AudioQueueAllocateBuffer");
    EXPECT_STATUS(AudioQueueDispose(queue, true), noErr);
    EXPECT_STATUS(AudioQueueDispose(queue, true), kAudio_ParamError);
    EXPECT_STATUS(AudioQueueStart(queue, NULL), kAudio_ParamError);
    EXPECT_STATUS(AudioQueueStop(queue, false), kAudio_ParamError);
    EXPECT_STATUS(AudioQueuePause(queue), kAudio_ParamError);
    EXPECT_STATUS(AudioQueueAllocateBuffer(queue, 1024, &buffer), kAudio_ParamError);
    EXPECT_STATUS(AudioQueueEnqueueBuffer(queue, buffer, 0, NULL), kAudio_ParamError);
    EXPECT_STATUS(AudioQueueFreeBuffer(queue, buffer), kAudio_ParamError);
    size = sizeof value;
    EXPECT_STATUS(AudioQueueGetProperty(queue, kAudioQueueProperty_IsRunning, &value, &size), kAudio_ParamError);
    EXPECT_STATUS(AudioQueueSetParameter(queue, kAudioQueueParam_Volume, 0.5f), kAudio_ParamError);
    EXPECT_STATUS(AudioQueueGetParameter(queue, kAudioQueueParam_Volume, &volume), kAudio_ParamError);
    EXPECT_STATUS(AudioQueueAddPropertyListener(queue, kAudioQueueProperty_IsRunning, NothingListener, NULL), kAudio_ParamError);
    EXPECT_STATUS(AudioQueueGetCurrentTime(queue, NULL, &stamp, NULL), kAudio_ParamError);
    EXPECT_STATUS(AudioQueueDeviceGetCurrentTime(queue, &stamp), kAudio_ParamError);
    /* The run loop the disposed queue was given has nothing of it left, but the main run loop
       keeps the audio system (attached when the first queue was made, as on a Mac): a run of the
       default mode waits its whole time, another mode has nothing to wait for. */
    {
        double before = now();
        EXPECT(CFRunLoopRunInMode(kCFRunLoopDefaultMode, 0.2, false) == kCFRunLoopRunTimedOut);
        EXPECT(now() - before >= 0.19);
        EXPECT(CFRunLoopRunInMode(CFSTR("another mode"), 1, false) == kCFRunLoopRunFinished);
    }
}

int main(int argc, char **argv) {
    double gap = 0;
    int first = 1, exactStart = 0, i;
    while (first < argc && strncmp(argv[first], "--", 2) == 0) {
        if (strcmp(argv[first], "--exact-start") == 0) {
            exactStart = 1;
            first++;
        } else if (strcmp(argv[first], "--gap") == 0 && first + 1 < argc) {
            gap = atof(argv[first + 1]);
            first += 2;
        } else {
            fprintf(stderr, "usage: audio_queue_player [--gap SECONDS] [--exact-start] [FILE...]\n");
            return 2;
        }
    }
    for (i = first; i < argc; i++) {
        playFile(argv[i], (i - first) % 2 == 0);
        if (gap > 0) sleepSeconds(gap);
    }
    synchronisedStart(exactStart);
    if (gap > 0) sleepSeconds(gap);
    errorPaths();
    printf("audio_queue_player: %d passed, %d failed\n", checks - failures, failures);
    return failures ? 1 : 0;
}
