/*
 * Apple's offline-render pattern for Audio Queue Services (the "AQOfflineRenderTest" sample and the
 * Core Audio books' file player): an output queue fed from AudioFileReadPacketData with packet
 * descriptions and the file's magic cookie, three buffers refilled by the callback, which stops
 * the queue (not immediately) at the end of the file; AudioQueueSetOfflineRenderFormat, a start,
 * a first AudioQueueOfflineRender of 0 frames, then renders of 4096 frames written through
 * Extended Audio File Services until the queue has played everything (0 bytes). The same file
 * compiles as C99 and as C++17 with -Wall -Wextra -Werror -pedantic.
 *
 *   cc -std=c99 -Wall -Wextra -Werror -pedantic -ISources/CAudioToolbox/include Tests/C/audio_queue_offline.c \
 *      -L.build/debug -l:libSoundstageC.so -Wl,-rpath,.build/debug -lm
 *   ./a.out DIRECTORY     (where it writes its files)
 *
 * It writes a second of a 1 kHz sine as 16-bit PCM in CAF and as AAC in M4A (Extended Audio File
 * Services), renders each through a queue, and checks: the PCM render is the source sample for
 * sample; the AAC render is one second (plus the decoder's priming) with the tone and its level;
 * each render is bit-exact from run to run; the volume and pan parameters scale the channels; the
 * IsRunning listener hears the start and the end; the refusals give Apple's codes; and the channel
 * layout property is read, set and refused as Apple documents it. It ends
 * with "N passed, N failed" and exits 1 when any failed.
 */
#include <AudioToolbox/AudioToolbox.h>
#include <CoreFoundation/CoreFoundation.h>

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kRate = 44100, kFrames = 44100, kRenderFrames = 4096, kNumberBuffers = 3 };

static int passed, failed;

static void expect(int condition, const char *what) {
    if (condition) {
        passed++;
    } else {
        failed++;
        fprintf(stderr, "audio_queue_offline: FAILED: %s\n", what);
    }
}

static void expectStatus(OSStatus status, OSStatus wanted, const char *what) {
    if (status != wanted) fprintf(stderr, "audio_queue_offline: %s returned %d, not %d\n", what, (int)status, (int)wanted);
    expect(status == wanted, what);
}

static CFURLRef fileURL(const char *path) {
    return CFURLCreateFromFileSystemRepresentation(kCFAllocatorDefault, (const UInt8 *)path, (CFIndex)strlen(path), false);
}

static AudioStreamBasicDescription pcm16(UInt32 channels) {
    AudioStreamBasicDescription format;
    memset(&format, 0, sizeof format);
    format.mSampleRate = kRate;
    format.mFormatID = kAudioFormatLinearPCM;
    format.mFormatFlags = kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked;
    format.mBitsPerChannel = 16;
    format.mChannelsPerFrame = channels;
    format.mFramesPerPacket = 1;
    format.mBytesPerFrame = format.mBytesPerPacket = 2 * channels;
    return format;
}

/* A second of a 1 kHz sine at half scale, mono, written in fileType/format through Extended Audio File Services. */
static int writeSine(const char *path, AudioFileTypeID fileType, AudioStreamBasicDescription format) {
    AudioStreamBasicDescription client = pcm16(1);
    ExtAudioFileRef file = NULL;
    CFURLRef url = fileURL(path);
    static SInt16 samples[kFrames];
    AudioBufferList list;
    OSStatus status;
    int i;
    for (i = 0; i < kFrames; i++) samples[i] = (SInt16)(16384 * sin(2 * 3.14159265358979 * 1000 * i / kRate));
    status = ExtAudioFileCreateWithURL(url, fileType, &format, NULL, kAudioFileFlags_EraseFile, &file);
    CFRelease(url);
    if (status != noErr) return 0;
    ExtAudioFileSetProperty(file, kExtAudioFileProperty_ClientDataFormat, sizeof client, &client);
    list.mNumberBuffers = 1;
    list.mBuffers[0].mNumberChannels = 1;
    list.mBuffers[0].mDataByteSize = sizeof samples;
    list.mBuffers[0].mData = samples;
    status = ExtAudioFileWrite(file, kFrames, &list);
    return ExtAudioFileDispose(file) == noErr && status == noErr;
}

/* The player's state, as the samples keep it. */
typedef struct {
    AudioFileID file;
    AudioQueueRef queue;
    SInt64 packet;
    UInt32 packetsToRead;
    int done;
    int runningChanges;
    UInt32 lastRunning;
} Player;

static void bufferCallback(void *inUserData, AudioQueueRef inAQ, AudioQueueBufferRef inBuffer) {
    Player *player = (Player *)inUserData;
    UInt32 bytes = inBuffer->mAudioDataBytesCapacity, packets = player->packetsToRead;
    if (player->done) return;
    if (AudioFileReadPacketData(player->file, false, &bytes, inBuffer->mPacketDescriptions, player->packet, &packets,
                                inBuffer->mAudioData) != noErr && packets == 0) packets = 0;
    if (packets > 0) {
        inBuffer->mAudioDataByteSize = bytes;
        inBuffer->mPacketDescriptionCount = inBuffer->mPacketDescriptionCapacity > 0 ? packets : 0;
        AudioQueueEnqueueBuffer(inAQ, inBuffer, 0, NULL);
        player->packet += packets;
    } else {
        AudioQueueStop(inAQ, false);
        player->done = 1;
    }
}

static void runningListener(void *inUserData, AudioQueueRef inAQ, AudioQueuePropertyID inID) {
    Player *player = (Player *)inUserData;
    UInt32 running = 0, size = sizeof running;
    AudioQueueGetProperty(inAQ, inID, &running, &size);
    player->runningChanges++;
    player->lastRunning = running;
}

/* Renders the file at `source` through a queue into `destination` (16-bit stereo CAF) with the
   given volume and pan; the frames rendered, or -1. */
static long renderFile(const char *source, const char *destination, Float32 volume, Float32 pan, Player *player) {
    AudioStreamBasicDescription dataFormat, renderFormat = pcm16(2);
    AudioQueueBufferRef buffers[kNumberBuffers], capture = NULL;
    ExtAudioFileRef out = NULL;
    UInt32 size, maxPacketSize = 0, cookieSize = 0, bufferBytes;
    AudioTimeStamp timeStamp;
    CFURLRef url = fileURL(source);
    long frames = 0;
    int i, isVBR;

    memset(player, 0, sizeof *player);
    if (AudioFileOpenURL(url, kAudioFileReadPermission, 0, &player->file) != noErr) {
        CFRelease(url);
        return -1;
    }
    CFRelease(url);
    size = sizeof dataFormat;
    AudioFileGetProperty(player->file, kAudioFilePropertyDataFormat, &size, &dataFormat);
    if (AudioQueueNewOutput(&dataFormat, bufferCallback, player, CFRunLoopGetCurrent(), kCFRunLoopCommonModes, 0, &player->queue) != noErr)
        return -1;
    size = sizeof maxPacketSize;
    AudioFileGetProperty(player->file, kAudioFilePropertyPacketSizeUpperBound, &size, &maxPacketSize);
    isVBR = dataFormat.mBytesPerPacket == 0 || dataFormat.mFramesPerPacket == 0;
    bufferBytes = 0x8000 < maxPacketSize ? maxPacketSize : 0x8000;
    player->packetsToRead = bufferBytes / maxPacketSize;
    if (AudioFileGetPropertyInfo(player->file, kAudioFilePropertyMagicCookieData, &cookieSize, NULL) == noErr && cookieSize > 0) {
        void *cookie = malloc(cookieSize);
        AudioFileGetProperty(player->file, kAudioFilePropertyMagicCookieData, &cookieSize, cookie);
        AudioQueueSetProperty(player->queue, kAudioQueueProperty_MagicCookie, cookie, cookieSize);
        free(cookie);
    }
    AudioQueueAddPropertyListener(player->queue, kAudioQueueProperty_IsRunning, runningListener, player);
    AudioQueueSetParameter(player->queue, kAudioQueueParam_Volume, volume);
    AudioQueueSetParameter(player->queue, kAudioQueueParam_Pan, pan);
    for (i = 0; i < kNumberBuffers; i++) {
        AudioQueueAllocateBufferWithPacketDescriptions(player->queue, bufferBytes, isVBR ? player->packetsToRead : 0, &buffers[i]);
        bufferCallback(player, player->queue, buffers[i]);
    }
    AudioQueueSetOfflineRenderFormat(player->queue, &renderFormat, NULL);
    AudioQueueAllocateBuffer(player->queue, kRenderFrames * renderFormat.mBytesPerFrame, &capture);
    url = fileURL(destination);
    ExtAudioFileCreateWithURL(url, kAudioFileCAFType, &renderFormat, NULL, kAudioFileFlags_EraseFile, &out);
    CFRelease(url);
    AudioQueueStart(player->queue, NULL);
    memset(&timeStamp, 0, sizeof timeStamp);
    timeStamp.mFlags = kAudioTimeStampSampleTimeValid;
    AudioQueueOfflineRender(player->queue, &timeStamp, capture, 0);
    for (i = 0; i < 1000; i++) {
        AudioBufferList list;
        if (AudioQueueOfflineRender(player->queue, &timeStamp, capture, kRenderFrames) != noErr) { frames = -1; break; }
        if (capture->mAudioDataByteSize == 0 && player->done) break;
        list.mNumberBuffers = 1;
        list.mBuffers[0].mNumberChannels = 2;
        list.mBuffers[0].mDataByteSize = capture->mAudioDataByteSize;
        list.mBuffers[0].mData = capture->mAudioData;
        ExtAudioFileWrite(out, capture->mAudioDataByteSize / renderFormat.mBytesPerFrame, &list);
        frames += capture->mAudioDataByteSize / renderFormat.mBytesPerFrame;
        timeStamp.mSampleTime += kRenderFrames;
    }
    ExtAudioFileDispose(out);
    AudioQueueDispose(player->queue, true);
    AudioFileClose(player->file);
    return frames;
}

/* Reads a 16-bit file whole. */
static SInt16 *readAll(const char *path, UInt32 channels, long *frames) {
    AudioStreamBasicDescription client = pcm16(channels);
    ExtAudioFileRef file = NULL;
    SInt64 length = 0;
    UInt32 size = sizeof length, count;
    SInt16 *samples;
    AudioBufferList list;
    CFURLRef url = fileURL(path);
    OSStatus status = ExtAudioFileOpenURL(url, &file);
    CFRelease(url);
    if (status != noErr) return NULL;
    ExtAudioFileSetProperty(file, kExtAudioFileProperty_ClientDataFormat, sizeof client, &client);
    ExtAudioFileGetProperty(file, kExtAudioFileProperty_FileLengthFrames, &size, &length);
    samples = (SInt16 *)calloc((size_t)length * channels + 1, sizeof(SInt16));
    count = (UInt32)length;
    list.mNumberBuffers = 1;
    list.mBuffers[0].mNumberChannels = channels;
    list.mBuffers[0].mDataByteSize = (UInt32)(length * channels * 2);
    list.mBuffers[0].mData = samples;
    ExtAudioFileRead(file, &count, &list);
    ExtAudioFileDispose(file);
    *frames = count;
    return samples;
}

static int sameFile(const char *a, const char *b) {
    long framesA = 0, framesB = 0;
    SInt16 *x = readAll(a, 2, &framesA), *y = readAll(b, 2, &framesB);
    int same = x && y && framesA == framesB && memcmp(x, y, (size_t)framesA * 4) == 0;
    free(x);
    free(y);
    return same;
}

/* Crossings of zero going up, and the RMS of one channel, over frames [from, to). */
static void measure(const SInt16 *samples, long from, long to, int channel, int *crossings, double *rms) {
    double sum = 0;
    long i;
    *crossings = 0;
    for (i = from; i < to; i++) {
        double value = samples[i * 2 + channel] / 32768.0;
        sum += value * value;
        if (i > from && samples[(i - 1) * 2 + channel] < 0 && samples[i * 2 + channel] >= 0) (*crossings)++;
    }
    *rms = sqrt(sum / (double)(to - from));
}

static void pcmQueue(const char *directory) {
    char source[4096], rendered[4096], again[4096];
    long frames, outFrames = 0, sourceFrames = 0, i, mismatches = 0;
    SInt16 *input, *output;
    Player player;
    snprintf(source, sizeof source, "%s/sine16.caf", directory);
    snprintf(rendered, sizeof rendered, "%s/queue-pcm.caf", directory);
    snprintf(again, sizeof again, "%s/queue-pcm-again.caf", directory);
    expect(writeSine(source, kAudioFileCAFType, pcm16(1)), "writing the 16-bit CAF");
    frames = renderFile(source, rendered, 1, 0, &player);
    expect(frames == kFrames, "a 16-bit file renders to exactly its frames");
    expect(player.runningChanges == 2 && player.lastRunning == 0, "the IsRunning listener heard the start and the end");
    input = readAll(source, 1, &sourceFrames);
    output = readAll(rendered, 2, &outFrames);
    if (input && output && outFrames == sourceFrames) {
        for (i = 0; i < outFrames; i++) mismatches += output[2 * i] != input[i] || output[2 * i + 1] != input[i];
    }
    expect(input && output && outFrames == kFrames && mismatches == 0, "the PCM render is the source, sample for sample, in both channels");
    free(input);
    free(output);
    renderFile(source, again, 1, 0, &player);
    expect(sameFile(rendered, again), "the PCM render is the same from run to run");

    /* Volume and pan: half volume, panned halfway right (a balance: the left at half). */
    frames = renderFile(source, again, 0.5f, 0.5f, &player);
    output = readAll(again, 2, &outFrames);
    if (output) {
        int crossings;
        double left, right;
        measure(output, 1000, 40000, 0, &crossings, &left);
        measure(output, 1000, 40000, 1, &crossings, &right);
        expect(fabs(right / 0.3535 - 0.5) < 0.01 && fabs(left / right - 0.5) < 0.01,
               "volume 0.5 halves the level; pan 0.5 halves the left channel");
    }
    free(output);
}

static void aacQueue(const char *directory) {
    char source[4096], rendered[4096], again[4096];
    AudioStreamBasicDescription aac;
    long frames, outFrames = 0;
    SInt16 *output;
    Player player;
    memset(&aac, 0, sizeof aac);
    aac.mSampleRate = kRate;
    aac.mFormatID = kAudioFormatMPEG4AAC;
    aac.mChannelsPerFrame = 1;
    aac.mFramesPerPacket = 1024;
    snprintf(source, sizeof source, "%s/sine.m4a", directory);
    snprintf(rendered, sizeof rendered, "%s/queue-aac.caf", directory);
    snprintf(again, sizeof again, "%s/queue-aac-again.caf", directory);
    expect(writeSine(source, kAudioFileM4AType, aac), "writing the AAC file (FFmpeg's AAC encoder)");
    frames = renderFile(source, rendered, 1, 0, &player);
    /* The packets hold the encoder's 2112 frames of priming and the last packet's padding; a queue plays them all. */
    if (frames < kFrames + 2112 || frames > kFrames + 2112 + 1024) fprintf(stderr, "audio_queue_offline: the AAC render has %ld frames\n", frames);
    expect(frames >= kFrames + 2112 && frames <= kFrames + 2112 + 1024, "an AAC file renders to its packets' frames (priming included)");
    output = readAll(rendered, 2, &outFrames);
    if (output && outFrames > 40000) {
        int crossings;
        double rms;
        measure(output, 2112 + 1000, 2112 + 1000 + 22050, 0, &crossings, &rms);
        expect(crossings >= 498 && crossings <= 502, "the AAC render has the 1 kHz tone");
        expect(fabs(rms - 0.3535) < 0.02, "the AAC render keeps the tone's level");
    } else {
        expect(0, "reading the AAC render");
    }
    free(output);
    renderFile(source, again, 1, 0, &player);
    expect(sameFile(rendered, again), "the AAC render is the same from run to run");
}

static void dummyCallback(void *inUserData, AudioQueueRef inAQ, AudioQueueBufferRef inBuffer) {
    (void)inUserData;
    (void)inAQ;
    (void)inBuffer;
}

static void refusals(void) {
    AudioStreamBasicDescription format = pcm16(1), weird;
    AudioQueueRef queue = NULL, other = NULL;
    AudioQueueBufferRef buffer = NULL, foreign = NULL;
    AudioTimeStamp timeStamp;
    UInt32 value = 0, size = sizeof value;
    Float32 volume = 0;
    memset(&timeStamp, 0, sizeof timeStamp);
    memset(&weird, 0, sizeof weird);
    weird.mSampleRate = kRate;
    weird.mFormatID = 0x71717171;
    weird.mChannelsPerFrame = 1;

    expectStatus(AudioQueueNewOutput(&format, NULL, NULL, NULL, NULL, 0, &queue), kAudio_ParamError, "a queue without a callback");
    expect(AudioQueueNewOutput(&weird, dummyCallback, NULL, NULL, NULL, 0, &queue) != noErr && queue == NULL, "a format no one decodes");
    expectStatus(AudioQueueNewOutput(&format, dummyCallback, NULL, NULL, NULL, 0, &queue), noErr, "AudioQueueNewOutput");
    expectStatus(AudioQueueNewOutput(&format, dummyCallback, NULL, NULL, NULL, 0, &other), noErr, "a second queue");
    AudioQueueAllocateBuffer(queue, 1024, &buffer);
    AudioQueueAllocateBuffer(other, 1024, &foreign);
    foreign->mAudioDataByteSize = 512;
    expectStatus(AudioQueueEnqueueBuffer(queue, foreign, 0, NULL), kAudioQueueErr_InvalidBuffer, "another queue's buffer");
    buffer->mAudioDataByteSize = 0;
    expectStatus(AudioQueueEnqueueBuffer(queue, buffer, 0, NULL), kAudioQueueErr_BufferEmpty, "an empty buffer");
    buffer->mAudioDataByteSize = 4096;
    expectStatus(AudioQueueEnqueueBuffer(queue, buffer, 0, NULL), kAudio_ParamError, "more bytes than the buffer holds");
    buffer->mAudioDataByteSize = 512;
    expectStatus(AudioQueueEnqueueBuffer(queue, buffer, 0, NULL), noErr, "AudioQueueEnqueueBuffer");
    expectStatus(AudioQueueEnqueueBuffer(queue, buffer, 0, NULL), kAudioQueueErr_BufferEnqueuedTwice, "a buffer enqueued twice");
    expectStatus(AudioQueueFreeBuffer(queue, buffer), kAudioQueueErr_BufferInQueue, "freeing an enqueued buffer");
    expectStatus(AudioQueueOfflineRender(queue, &timeStamp, foreign, 16), kAudioQueueErr_InvalidBuffer, "rendering into another queue's buffer");
    expectStatus(AudioQueueAllocateBuffer(queue, 1024, &foreign), noErr, "a capture buffer");
    expectStatus(AudioQueueOfflineRender(queue, &timeStamp, foreign, 16), kAudioQueueErr_InvalidOfflineMode, "rendering without an offline format");
    weird = format;
    weird.mBytesPerFrame = weird.mBytesPerPacket = 0xFFFFFFFF;
    expectStatus(AudioQueueSetOfflineRenderFormat(queue, &weird, NULL), kAudioFormatUnsupportedDataFormatError, "a render format of absurd frames");
    expectStatus(AudioQueueOfflineRender(queue, &timeStamp, foreign, 0xFFFFFFFF), kAudioQueueErr_InvalidOfflineMode,
                 "a refused render format leaves none");
    expectStatus(AudioQueueGetProperty(queue, 0x7a7a7a7a, &value, &size), kAudioQueueErr_InvalidProperty, "an unknown property");
    size = 2;
    expectStatus(AudioQueueGetProperty(queue, kAudioQueueProperty_IsRunning, &value, &size), kAudioQueueErr_InvalidPropertySize,
                 "a property into too small a value");
    expectStatus(AudioQueueSetProperty(queue, kAudioQueueProperty_IsRunning, &value, sizeof value), kAudioQueueErr_InvalidProperty,
                 "setting a read-only property");
    expectStatus(AudioQueueSetParameter(queue, kAudioQueueParam_Volume, NAN), kAudioQueueErr_InvalidParameter, "a NaN volume");
    expectStatus(AudioQueueGetParameter(queue, kAudioQueueParam_Volume, &volume), noErr, "reading the volume");
    expect(volume == 1, "a NaN volume is not taken");
    expectStatus(AudioQueueSetParameter(queue, 99, 1), kAudioQueueErr_InvalidParameter, "an unknown parameter");
    expectStatus(AudioQueueReset(queue), noErr, "AudioQueueReset");
    expectStatus(AudioQueueFreeBuffer(queue, buffer), noErr, "freeing a buffer the reset handed back");
    expectStatus(AudioQueueDispose(queue, true), noErr, "AudioQueueDispose");
    expectStatus(AudioQueueDispose(queue, true), kAudio_ParamError, "disposing twice");
    expectStatus(AudioQueueStart(queue, NULL), kAudio_ParamError, "a disposed queue");
    expectStatus(AudioQueueDispose(other, true), noErr, "disposing the other queue");
}

/* kAudioQueueProperty_ChannelLayout as a multichannel-aware player sets it: sized first, read,
 * set by tag and by descriptions; a layout of another channel count, or one the queue would
 * have to reorder (right, then left), is kAudioQueueErr_InvalidPropertyValue. */
static void channelLayouts(void) {
    AudioStreamBasicDescription format = pcm16(2);
    AudioQueueRef queue = NULL;
    AudioChannelLayout layout, *swapped;
    AudioChannelDescription *channel;
    UInt32 size = 0, descriptions = (UInt32)offsetof(AudioChannelLayout, mChannelDescriptions) + 2 * (UInt32)sizeof(AudioChannelDescription);
    expectStatus(AudioQueueNewOutput(&format, dummyCallback, NULL, NULL, NULL, 0, &queue), noErr, "a stereo queue");
    expectStatus(AudioQueueGetPropertySize(queue, kAudioQueueProperty_ChannelLayout, &size), noErr, "the layout's size");
    expect(size >= offsetof(AudioChannelLayout, mChannelDescriptions) && size <= sizeof layout, "a layout of a tag's size");
    memset(&layout, 0, sizeof layout);
    size = sizeof layout;
    expectStatus(AudioQueueGetProperty(queue, kAudioQueueProperty_ChannelLayout, &layout, &size), noErr, "reading the layout");
    expect(layout.mChannelLayoutTag == kAudioChannelLayoutTag_Stereo, "a stereo queue's layout is stereo");
    layout.mChannelLayoutTag = kAudioChannelLayoutTag_StereoHeadphones;
    expectStatus(AudioQueueSetProperty(queue, kAudioQueueProperty_ChannelLayout, &layout, sizeof layout), noErr, "a headphones layout");
    memset(&layout, 0, sizeof layout);
    size = sizeof layout;
    AudioQueueGetProperty(queue, kAudioQueueProperty_ChannelLayout, &layout, &size);
    expect(layout.mChannelLayoutTag == kAudioChannelLayoutTag_StereoHeadphones, "the layout set is the layout read");
    layout.mChannelLayoutTag = kAudioChannelLayoutTag_Mono;
    expectStatus(AudioQueueSetProperty(queue, kAudioQueueProperty_ChannelLayout, &layout, sizeof layout), kAudioQueueErr_InvalidPropertyValue,
                 "a mono layout on a stereo queue");
    swapped = (AudioChannelLayout *)calloc(1, descriptions);
    if (swapped) {
        swapped->mChannelLayoutTag = kAudioChannelLayoutTag_UseChannelDescriptions;
        swapped->mNumberChannelDescriptions = 2;
        channel = swapped->mChannelDescriptions;   /* room for two: the layout was allocated by its size */
        channel[0].mChannelLabel = kAudioChannelLabel_Right;
        channel[1].mChannelLabel = kAudioChannelLabel_Left;
        expectStatus(AudioQueueSetProperty(queue, kAudioQueueProperty_ChannelLayout, swapped, descriptions), kAudioQueueErr_InvalidPropertyValue,
                     "right, then left");
        channel[0].mChannelLabel = kAudioChannelLabel_Left;
        channel[1].mChannelLabel = kAudioChannelLabel_Right;
        expectStatus(AudioQueueSetProperty(queue, kAudioQueueProperty_ChannelLayout, swapped, descriptions), noErr, "left, then right");
        expectStatus(AudioQueueSetProperty(queue, kAudioQueueProperty_ChannelLayout, swapped, 4), kAudioQueueErr_InvalidPropertyValue,
                     "four bytes of a layout");
        free(swapped);
    }
    expectStatus(AudioQueueDispose(queue, true), noErr, "disposing the stereo queue");
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: audio_queue_offline DIRECTORY\n");
        return 2;
    }
    pcmQueue(argv[1]);
    aacQueue(argv[1]);
    refusals();
    channelLayouts();
    printf("audio_queue_offline: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
