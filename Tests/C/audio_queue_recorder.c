/*
 * The recorder of Apple's SpeakHere sample and the Core Audio books, as iOS C and C++ code wrote
 * it: the session in the record category; an AAC format stating only the format ID, the hardware's
 * rate and the input's channels (kAudioSessionProperty_CurrentHardwareSampleRate and
 * _CurrentHardwareInputNumberChannels), the rest filled by kAudioFormatProperty_FormatInfo; an
 * input queue (AudioQueueNewInput, callbacks on the queue's own thread), whose completed format is
 * read back with kAudioQueueProperty_StreamDescription; a CAF file (AudioFileCreateWithURL) given
 * the encoder's magic cookie before and after recording; buffers of half a second, sized with
 * kAudioQueueProperty_MaximumOutputPacketSize (the books' MyComputeRecordBufferSize); a callback
 * that writes each buffer's packets with their descriptions (AudioFileWritePackets) and enqueues
 * it again; AudioQueueStop(queue, true), AudioQueueDispose, AudioFileClose. Then the file is
 * opened again and checked: AAC, the packets written, the cookie, about SECONDS of frames. The same
 * file compiles as C99 and as C++17 with -Wall -Wextra -Werror -pedantic.
 *
 *   cc -std=c99 -Wall -Wextra -Werror -pedantic -ISources/CAudioToolbox/include Tests/C/audio_queue_recorder.c \
 *      -L.build/debug -l:libSoundstageC.so -Wl,-rpath,.build/debug -lm
 *   ./a.out SECONDS FILE.caf
 *
 * It records the app's input: the desktop server's default source (PulseAudio or PipeWire,
 * PULSE_SERVER); CompatPrograms.AudioQueueRecorderDesktopTests makes that a sink's monitor, plays a
 * tone there and listens to the file. Without an AAC encoder (FFmpeg is loaded at run time) it
 * says so and exits 77. It ends with "audio_queue_recorder: N passed, N failed" and exits 1 when
 * any failed.
 */
#define _POSIX_C_SOURCE 200809L   /* nanosleep */

#include <AudioToolbox/AudioToolbox.h>
#include <CoreFoundation/CoreFoundation.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "coreaudio_checks.h"

enum { kNumberRecordBuffers = 3 };

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

static void expect(int condition, const char *what) {
    checks++;
    if (condition) return;
    fprintf(stderr, "  failed: %s\n", what);
    failures++;
}

/* SpeakHere's AQRecorder state. The callback runs on the queue's thread; the main thread reads
   the counts after AudioQueueStop(queue, true), which returns once the last callback has. */
typedef struct {
    pthread_mutex_t lock;
    AudioFileID recordFile;
    SInt64 recordPacket;
    int isRunning;
    int writeErrors;
    int callbacks;
} Recorder;

static void MyInputCallback(void *inUserData, AudioQueueRef inQueue, AudioQueueBufferRef inBuffer,
                            const AudioTimeStamp *inStartTime, UInt32 inNumPackets,
                            const AudioStreamPacketDescription *inPacketDesc) {
    Recorder *recorder = (Recorder *)inUserData;
    (void)inStartTime;
    pthread_mutex_lock(&recorder->lock);
    recorder->callbacks++;
    if (inNumPackets > 0) {
        if (AudioFileWritePackets(recorder->recordFile, false, inBuffer->mAudioDataByteSize, inPacketDesc,
                                  recorder->recordPacket, &inNumPackets, inBuffer->mAudioData) == noErr) {
            recorder->recordPacket += inNumPackets;
        } else {
            recorder->writeErrors++;
        }
    }
    if (recorder->isRunning) AudioQueueEnqueueBuffer(inQueue, inBuffer, 0, NULL);
    pthread_mutex_unlock(&recorder->lock);
}

/* The books' MyCopyEncoderCookieToFile: the queue's magic cookie, if it has one, to the file. */
static UInt32 MyCopyEncoderCookieToFile(AudioQueueRef queue, AudioFileID file) {
    UInt32 size = 0;
    if (AudioQueueGetPropertySize(queue, kAudioQueueProperty_MagicCookie, &size) == noErr && size > 0) {
        void *cookie = malloc(size);
        if (CheckError(AudioQueueGetProperty(queue, kAudioQueueProperty_MagicCookie, cookie, &size), "get the queue's cookie"))
            CheckError(AudioFileSetProperty(file, kAudioFilePropertyMagicCookieData, size, cookie), "set the file's cookie");
        free(cookie);
    }
    return size;
}

/* The books' MyComputeRecordBufferSize: bytes for `seconds` of packets of the largest size. */
static UInt32 MyComputeRecordBufferSize(const AudioStreamBasicDescription *format, AudioQueueRef queue, double seconds) {
    UInt32 frames = (UInt32)(seconds * format->mSampleRate + 0.5), bytes, maxPacketSize, packets, size;
    if (format->mBytesPerFrame > 0) return frames * format->mBytesPerFrame;
    if (format->mBytesPerPacket > 0) {
        maxPacketSize = format->mBytesPerPacket;
    } else {
        size = sizeof maxPacketSize;
        if (!CheckError(AudioQueueGetProperty(queue, kAudioQueueProperty_MaximumOutputPacketSize, &maxPacketSize, &size),
                        "couldn't get the queue's maximum output packet size"))
            maxPacketSize = 2048;
    }
    packets = format->mFramesPerPacket > 0 ? frames / format->mFramesPerPacket : frames;
    if (packets == 0) packets = 1;
    bytes = packets * maxPacketSize;
    return bytes;
}

static void sleepSeconds(double seconds) {
    struct timespec t;
    t.tv_sec = (time_t)seconds;
    t.tv_nsec = (long)((seconds - (double)t.tv_sec) * 1e9);
    nanosleep(&t, NULL);
}

int main(int argc, char **argv) {
    Recorder recorder;
    AudioStreamBasicDescription recordFormat, fileFormat;
    AudioQueueRef queue = NULL;
    AudioQueueBufferRef buffers[kNumberRecordBuffers];
    CFURLRef url;
    UInt32 category = kAudioSessionCategory_RecordAudio, size, bufferBytes, cookieBefore, cookieAfter, channels = 0;
    Float64 hardwareRate = 0;
    UInt64 packetsInFile = 0;
    SInt64 recordedPackets;
    double seconds = argc > 2 ? atof(argv[1]) : 0;
    int i;

    if (argc != 3 || !(seconds > 0 && seconds < 60)) {
        fprintf(stderr, "usage: audio_queue_recorder SECONDS FILE.caf (0 < SECONDS < 60)\n");
        return 2;
    }
    pthread_mutex_init(&recorder.lock, NULL);
    recorder.recordFile = NULL;
    recorder.recordPacket = 0;
    recorder.isRunning = 0;
    recorder.writeErrors = 0;
    recorder.callbacks = 0;

    /* SpeakHere's session: initialized, in the record category, active. */
    CheckError(AudioSessionInitialize(NULL, NULL, NULL, NULL), "AudioSessionInitialize");
    CheckError(AudioSessionSetProperty(kAudioSessionProperty_AudioCategory, sizeof category, &category), "the record category");
    CheckError(AudioSessionSetActive(true), "AudioSessionSetActive");

    /* SpeakHere's SetupAudioFormat: the hardware's rate and the input's channels, then the rest. */
    memset(&recordFormat, 0, sizeof recordFormat);
    size = sizeof hardwareRate;
    CheckError(AudioSessionGetProperty(kAudioSessionProperty_CurrentHardwareSampleRate, &size, &hardwareRate),
               "couldn't get the hardware sample rate");
    size = sizeof channels;
    CheckError(AudioSessionGetProperty(kAudioSessionProperty_CurrentHardwareInputNumberChannels, &size, &channels),
               "couldn't get the input's channels");
    recordFormat.mFormatID = kAudioFormatMPEG4AAC;
    recordFormat.mSampleRate = hardwareRate;
    recordFormat.mChannelsPerFrame = channels;
    size = sizeof recordFormat;
    CheckError(AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, 0, NULL, &size, &recordFormat),
               "AudioFormatGetProperty(kAudioFormatProperty_FormatInfo) failed");

    if (AudioQueueNewInput(&recordFormat, MyInputCallback, &recorder, NULL, NULL, 0, &queue) == kAudioFormatUnsupportedDataFormatError) {
        printf("audio_queue_recorder: no AAC encoder here (FFmpeg is not installed)\n");
        return 77;
    }
    if (!queue) {
        fprintf(stderr, "audio_queue_recorder: AudioQueueNewInput failed\n");
        return 1;
    }
    /* The queue fills in what the encoder decided. */
    size = sizeof recordFormat;
    CheckError(AudioQueueGetProperty(queue, kAudioQueueProperty_StreamDescription, &recordFormat, &size),
               "couldn't get the queue's format");
    expect(recordFormat.mFormatID == kAudioFormatMPEG4AAC && recordFormat.mFramesPerPacket == 1024,
           "the queue records AAC, 1024 frames a packet");
    expect(recordFormat.mSampleRate == hardwareRate && recordFormat.mChannelsPerFrame == channels && channels > 0,
           "the queue records at the hardware's rate and the input's channels");

    url = CFURLCreateFromFileSystemRepresentation(kCFAllocatorDefault, (const UInt8 *)argv[2], (CFIndex)strlen(argv[2]), false);
    if (!CheckError(AudioFileCreateWithURL(url, kAudioFileCAFType, &recordFormat, kAudioFileFlags_EraseFile, &recorder.recordFile),
                    "AudioFileCreateWithURL failed")) {
        CFRelease(url);
        return 1;
    }
    cookieBefore = MyCopyEncoderCookieToFile(queue, recorder.recordFile);
    expect(cookieBefore > 0, "the encoder has a magic cookie before recording");

    bufferBytes = MyComputeRecordBufferSize(&recordFormat, queue, 0.5);
    for (i = 0; i < kNumberRecordBuffers; i++) {
        CheckError(AudioQueueAllocateBuffer(queue, bufferBytes, &buffers[i]), "AudioQueueAllocateBuffer failed");
        CheckError(AudioQueueEnqueueBuffer(queue, buffers[i], 0, NULL), "AudioQueueEnqueueBuffer failed");
    }
    recorder.isRunning = 1;
    CheckError(AudioQueueStart(queue, NULL), "AudioQueueStart failed");
    printf("audio_queue_recorder: recording %.2f s of AAC at %.0f Hz, %u channel(s), buffers of %u bytes\n",
           seconds, recordFormat.mSampleRate, (unsigned)recordFormat.mChannelsPerFrame, (unsigned)bufferBytes);
    fflush(stdout);
    sleepSeconds(seconds);

    pthread_mutex_lock(&recorder.lock);
    recorder.isRunning = 0;
    pthread_mutex_unlock(&recorder.lock);
    CheckError(AudioQueueStop(queue, true), "AudioQueueStop failed");
    cookieAfter = MyCopyEncoderCookieToFile(queue, recorder.recordFile);
    expect(cookieAfter == cookieBefore, "the cookie is the same after recording");
    CheckError(AudioQueueDispose(queue, true), "AudioQueueDispose failed");
    CheckError(AudioFileClose(recorder.recordFile), "AudioFileClose failed");
    pthread_mutex_lock(&recorder.lock);
    recordedPackets = recorder.recordPacket;
    expect(recorder.writeErrors == 0, "every buffer's packets were written");
    pthread_mutex_unlock(&recorder.lock);
    /* About SECONDS of packets: the last buffer may be part full, and the start takes a moment. */
    expect((double)recordedPackets * 1024 > (seconds - 0.3) * recordFormat.mSampleRate
               && (double)recordedPackets * 1024 < (seconds + 0.1) * recordFormat.mSampleRate,
           "about SECONDS of packets were recorded");

    /* The file again, as a player would open it. */
    if (CheckError(AudioFileOpenURL(url, kAudioFileReadPermission, kAudioFileCAFType, &recorder.recordFile), "AudioFileOpenURL")) {
        size = sizeof fileFormat;
        CheckError(AudioFileGetProperty(recorder.recordFile, kAudioFilePropertyDataFormat, &size, &fileFormat), "the file's format");
        expect(fileFormat.mFormatID == kAudioFormatMPEG4AAC && fileFormat.mSampleRate == recordFormat.mSampleRate
                   && fileFormat.mChannelsPerFrame == recordFormat.mChannelsPerFrame, "the file holds AAC at the queue's rate and channels");
        size = sizeof packetsInFile;
        CheckError(AudioFileGetProperty(recorder.recordFile, kAudioFilePropertyAudioDataPacketCount, &size, &packetsInFile),
                   "the file's packet count");
        expect((SInt64)packetsInFile == recordedPackets, "the file holds every packet written");
        size = 0;
        CheckError(AudioFileGetPropertyInfo(recorder.recordFile, kAudioFilePropertyMagicCookieData, &size, NULL), "the file's cookie");
        expect(size == cookieBefore, "the file holds the encoder's cookie");
        AudioFileClose(recorder.recordFile);
    }
    CFRelease(url);
    AudioSessionSetActive(false);
    printf("audio_queue_recorder: %lld packets (%.3f s) in the file\n", (long long)recordedPackets,
           (double)recordedPackets * 1024 / recordFormat.mSampleRate);
    printf("audio_queue_recorder: %d passed, %d failed\n", checks - failures, failures);
    return failures ? 1 : 0;
}
