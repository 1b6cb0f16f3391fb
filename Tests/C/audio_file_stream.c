/*
 * Audio File Stream Services from C, written as the Core Audio books and Apple's streaming examples
 * write a network player's parser: a state struct passed as the client data, a property listener
 * that reads the format and the packet size bound when ReadyToProducePackets comes, a packets
 * callback that walks the packet descriptions, and AudioFileStreamParseBytes fed what a socket
 * gives: a file read in chunks of random length. It counts the packets and frames it is given and
 * checks them against what Audio File Services says of the same file.
 *
 * Without arguments it writes its own MP3 streams (an ID3v2 tag, an Info frame with the counts,
 * frames of several bit rates, silent; and the same frames with junk between them and no Info
 * frame); given paths of MP3 files, it streams those too. The same file compiles as C99 and as C++17
 * (gcc, g++, clang, clang++) with -Wall -Wextra -Werror -pedantic, and runs under LeakSanitizer.
 *
 *   cc -std=c99 -Wall -Wextra -Werror -pedantic -ISources/CAudioToolbox/include Tests/C/audio_file_stream.c \
 *      -L.build/debug -l:libSoundstageC.so -Wl,-rpath,.build/debug
 *   ./a.out [file.mp3 ...]
 *
 * Prints one line per stream and ends with "N passed, N failed"; exits 1 when any failed.
 */
#define _XOPEN_SOURCE 700   /* mkstemp */
#include <AudioToolbox/AudioToolbox.h>
#include <CoreFoundation/CoreFoundation.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "coreaudio_checks.h"

/* What the parser has told us about one stream. */
typedef struct MyStreamState {
    AudioFileStreamID stream;
    AudioStreamBasicDescription format;
    UInt32 packetSizeBound;
    Boolean readyToProducePackets;
    Boolean sawFileFormat;
    UInt64 statedPackets;      /* AudioDataPacketCount, when the header states it */
    UInt64 packets;
    UInt64 frames;
    UInt64 bytes;
    UInt32 packetCalls;
    int packetsBeforeReady;
    int badPackets;             /* a description outside the buffer, or a packet that is not a frame */
} MyStreamState;

static void MyPropertyListenerProc(void *inClientData, AudioFileStreamID inAudioFileStream,
                                   AudioFileStreamPropertyID inPropertyID, AudioFileStreamPropertyFlags *ioFlags) {
    MyStreamState *state = (MyStreamState *)inClientData;
    UInt32 size;
    EXPECT((*ioFlags & kAudioFileStreamPropertyFlag_PropertyIsCached) != 0);
    switch (inPropertyID) {
    case kAudioFileStreamProperty_FileFormat:
        state->sawFileFormat = 1;
        break;
    case kAudioFileStreamProperty_DataFormat:
        EXPECT(state->sawFileFormat);
        size = sizeof(state->format);
        EXPECT_STATUS(AudioFileStreamGetProperty(inAudioFileStream, kAudioFileStreamProperty_DataFormat, &size, &state->format), noErr);
        break;
    case kAudioFileStreamProperty_AudioDataPacketCount:
        size = sizeof(state->statedPackets);
        EXPECT_STATUS(AudioFileStreamGetProperty(inAudioFileStream, inPropertyID, &size, &state->statedPackets), noErr);
        break;
    case kAudioFileStreamProperty_ReadyToProducePackets:
        /* A player would make its audio queue here, its buffers sized by the packet bound. */
        state->readyToProducePackets = 1;
        size = sizeof(state->packetSizeBound);
        if (AudioFileStreamGetProperty(inAudioFileStream, kAudioFileStreamProperty_PacketSizeUpperBound, &size,
                                       &state->packetSizeBound) != noErr || state->packetSizeBound == 0) {
            size = sizeof(state->packetSizeBound);
            EXPECT_STATUS(AudioFileStreamGetProperty(inAudioFileStream, kAudioFileStreamProperty_MaximumPacketSize, &size,
                                                     &state->packetSizeBound), noErr);
        }
        break;
    default:
        break;
    }
}

static void MyPacketsProc(void *inClientData, UInt32 inNumberBytes, UInt32 inNumberPackets, const void *inInputData,
                          AudioStreamPacketDescription *inPacketDescriptions) {
    MyStreamState *state = (MyStreamState *)inClientData;
    const UInt8 *data = (const UInt8 *)inInputData;
    UInt32 i;
    state->packetCalls++;
    if (!state->readyToProducePackets) state->packetsBeforeReady++;
    if (inPacketDescriptions == NULL) {   /* MP3 has variable packets: they always come described */
        state->badPackets++;
        return;
    }
    for (i = 0; i < inNumberPackets; i++) {
        SInt64 start = inPacketDescriptions[i].mStartOffset;
        UInt32 size = inPacketDescriptions[i].mDataByteSize;
        if (start < 0 || start + size > inNumberBytes || size > state->packetSizeBound || size < 4 ||
            data[start] != 0xFF || (data[start + 1] & 0xE0) != 0xE0) {
            state->badPackets++;
            continue;
        }
        state->bytes += size;
        state->frames += inPacketDescriptions[i].mVariableFramesInPacket ? inPacketDescriptions[i].mVariableFramesInPacket
                                                                          : state->format.mFramesPerPacket;
    }
    state->packets += inNumberPackets;
}

/* A deterministic generator for the chunk sizes (what a socket's reads return). */
static UInt32 NextRandom(UInt32 *seed) {
    *seed = *seed * 1103515245u + 12345u;
    return (*seed >> 16) & 0x7FFF;
}

/* Reads the whole file. */
static UInt8 *ReadFile(const char *path, long *outSize) {
    FILE *f = fopen(path, "rb");
    UInt8 *data;
    long size;
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    size = ftell(f);
    fseek(f, 0, SEEK_SET);
    data = (UInt8 *)malloc((size_t)size + 1);
    if (fread(data, 1, (size_t)size, f) != (size_t)size) size = 0;
    fclose(f);
    *outSize = size;
    return data;
}

/* What Audio File Services says of the file: its packets and their bytes. */
static void FileCounts(const char *path, UInt64 *outPackets, UInt64 *outBytes, UInt32 *outFramesPerPacket) {
    CFURLRef url = CFURLCreateFromFileSystemRepresentation(kCFAllocatorDefault, (const UInt8 *)path, (CFIndex)strlen(path), false);
    AudioFileID file = NULL;
    AudioStreamBasicDescription asbd;
    UInt32 size;
    *outPackets = *outBytes = 0;
    *outFramesPerPacket = 0;
    EXPECT_STATUS(AudioFileOpenURL(url, kAudioFileReadPermission, kAudioFileMP3Type, &file), noErr);
    CFRelease(url);
    if (!file) return;
    size = sizeof(*outPackets);
    EXPECT_STATUS(AudioFileGetProperty(file, kAudioFilePropertyAudioDataPacketCount, &size, outPackets), noErr);
    size = sizeof(*outBytes);
    EXPECT_STATUS(AudioFileGetProperty(file, kAudioFilePropertyAudioDataByteCount, &size, outBytes), noErr);
    size = sizeof(asbd);
    EXPECT_STATUS(AudioFileGetProperty(file, kAudioFilePropertyDataFormat, &size, &asbd), noErr);
    *outFramesPerPacket = asbd.mFramesPerPacket;
    EXPECT_STATUS(AudioFileClose(file), noErr);
}

/* Streams the file at `path` in random chunks, as a network player does, and checks the count. */
static void StreamFile(const char *path, UInt32 seed, Boolean expectStatedCount) {
    MyStreamState state;
    long size = 0, at = 0;
    UInt8 *data = ReadFile(path, &size);
    UInt64 filePackets, fileBytes;
    UInt32 framesPerPacket, reads = 0;
    EXPECT(data != NULL && size > 0);
    if (!data) return;
    memset(&state, 0, sizeof(state));
    FileCounts(path, &filePackets, &fileBytes, &framesPerPacket);

    EXPECT_STATUS(AudioFileStreamOpen(&state, MyPropertyListenerProc, MyPacketsProc, kAudioFileMP3Type, &state.stream), noErr);
    while (at < size) {
        UInt32 chunk = 1 + NextRandom(&seed) % 4096;
        if (NextRandom(&seed) % 8 == 0) chunk = 1 + NextRandom(&seed) % 3;   /* now and then a few bytes */
        if ((long)chunk > size - at) chunk = (UInt32)(size - at);
        EXPECT_STATUS(AudioFileStreamParseBytes(state.stream, chunk, data + at, 0), noErr);
        at += chunk;
        reads++;
    }
    EXPECT_STATUS(AudioFileStreamParseBytes(state.stream, 0, NULL, 0), noErr);   /* the end of the stream */

    printf("%s: %u reads, %llu packets, %llu frames at %.0f Hz in %u calls\n", path, (unsigned)reads,
           (unsigned long long)state.packets, (unsigned long long)state.frames, state.format.mSampleRate, (unsigned)state.packetCalls);
    EXPECT(state.readyToProducePackets && state.packetsBeforeReady == 0 && state.badPackets == 0);
    EXPECT(state.format.mFormatID == kAudioFormatMPEGLayer3 && state.format.mFramesPerPacket == framesPerPacket);
    EXPECT(state.packets > 0 && state.packets == filePackets);
    EXPECT(state.frames == filePackets * framesPerPacket);
    EXPECT(state.bytes <= fileBytes);   /* the data's bytes: junk between frames counted there, not here */
    if (expectStatedCount) EXPECT(state.statedPackets == filePackets && state.bytes == fileBytes);

    EXPECT_STATUS(AudioFileStreamClose(state.stream), noErr);
    EXPECT_STATUS(AudioFileStreamClose(state.stream), kAudioFileNotOpenError);
    free(data);
}

/* A seek: the byte offset of a packet (estimated for MP3), then the bytes from there, flagged as a
   discontinuity: the parser finds the next frame, and every packet after it is a frame. */
static void SeekInStream(const char *path) {
    MyStreamState state;
    long size = 0;
    UInt8 *data = ReadFile(path, &size);
    SInt64 offset = 0, dataOffset = 0;
    AudioFileStreamSeekFlags flags = 0;
    UInt32 propertySize = sizeof(dataOffset);
    UInt64 before;
    if (!data) return;
    memset(&state, 0, sizeof(state));
    EXPECT_STATUS(AudioFileStreamOpen(&state, MyPropertyListenerProc, MyPacketsProc, 0, &state.stream), noErr);
    EXPECT_STATUS(AudioFileStreamParseBytes(state.stream, (UInt32)(size / 5), data, 0), noErr);
    EXPECT_STATUS(AudioFileStreamGetProperty(state.stream, kAudioFileStreamProperty_DataOffset, &propertySize, &dataOffset), noErr);
    EXPECT_STATUS(AudioFileStreamSeek(state.stream, 10, &offset, &flags), noErr);
    EXPECT((flags & kAudioFileStreamSeekFlag_OffsetIsEstimated) != 0);
    EXPECT(offset > 0 && dataOffset + offset < size);
    before = state.packets;
    if (dataOffset + offset < size) {
        EXPECT_STATUS(AudioFileStreamParseBytes(state.stream, (UInt32)(size - (dataOffset + offset)), data + dataOffset + offset,
                                                kAudioFileStreamParseFlag_Discontinuity), noErr);
    }
    EXPECT(state.packets > before && state.badPackets == 0);
    EXPECT_STATUS(AudioFileStreamSeek(state.stream, -1, &offset, &flags), kAudioFileStreamError_InvalidPacketOffset);
    EXPECT_STATUS(AudioFileStreamClose(state.stream), noErr);
    free(data);
}

static void ErrorPaths(void) {
    MyStreamState state;
    AudioFileStreamID stream = NULL;
    UInt32 size = sizeof(AudioStreamBasicDescription), ready = 7;
    AudioStreamBasicDescription asbd;
    static const char text[] = "Not a sound: a sentence.";
    memset(&state, 0, sizeof(state));
    EXPECT_STATUS(AudioFileStreamOpen(&state, MyPropertyListenerProc, MyPacketsProc, 0, NULL), kAudio_ParamError);
    EXPECT_STATUS(AudioFileStreamOpen(&state, NULL, MyPacketsProc, 0, &stream), kAudio_ParamError);
    EXPECT(stream == NULL);
    EXPECT_STATUS(AudioFileStreamOpen(&state, MyPropertyListenerProc, MyPacketsProc, 0, &stream), noErr);
    EXPECT_STATUS(AudioFileStreamGetProperty(stream, kAudioFileStreamProperty_DataFormat, &size, &asbd),
                  kAudioFileStreamError_DataUnavailable);
    size = sizeof(ready);
    EXPECT_STATUS(AudioFileStreamGetProperty(stream, kAudioFileStreamProperty_ReadyToProducePackets, &size, &ready), noErr);
    EXPECT(ready == 0);
    EXPECT_STATUS(AudioFileStreamParseBytes(stream, 10, NULL, 0), kAudio_ParamError);
    EXPECT_STATUS(AudioFileStreamParseBytes(stream, sizeof(text), text, 0), kAudioFileStreamError_UnsupportedFileType);
    EXPECT_STATUS(AudioFileStreamParseBytes(stream, sizeof(text), text, 0), kAudioFileStreamError_UnsupportedFileType);
    EXPECT_STATUS(AudioFileStreamSetProperty(stream, kAudioFileStreamProperty_DataFormat, size, &asbd),
                  kAudioFileStreamError_IllegalOperation);
    EXPECT_STATUS(AudioFileStreamClose(stream), noErr);
    EXPECT_STATUS(AudioFileStreamParseBytes(stream, sizeof(text), text, 0), kAudioFileNotOpenError);
    EXPECT_STATUS(AudioFileStreamClose(NULL), kAudio_ParamError);
}

/* Writes a silent MPEG-1 layer 3 stream, 44.1 kHz stereo: an ID3v2 tag, an Info frame stating the
   counts (when `info`), then `frames` frames cycling through four bit rates, with junk between two
   of them (when `junk`). Every frame's side information is zero: each decodes to silence. */
static void WriteMP3(const char *path, int frames, int info, int junk) {
    static const int rates[4] = {128000, 160000, 320000, 64000};
    static const int indexes[4] = {9, 10, 14, 5};
    FILE *f = fopen(path, "wb");
    UInt8 frame[1500];
    long total = 0;
    int i, pad = 0;
    if (!f) { perror(path); exit(1); }
    /* The ID3v2 tag: a 20-byte body of padding. */
    fwrite("ID3\x04\x00\x00\x00\x00\x00\x14", 1, 10, f);
    memset(frame, 0, 20);
    fwrite(frame, 1, 20, f);
    for (i = 0; i < frames; i++) total += 144 * rates[i % 4] / 44100 + (i % 3 == 0);
    if (info) {
        int size = 144 * 128000 / 44100;   /* 417 bytes, no padding */
        memset(frame, 0, sizeof(frame));
        frame[0] = 0xFF; frame[1] = 0xFB; frame[2] = (UInt8)(9 << 4); frame[3] = 0x44;
        memcpy(frame + 36, "Info", 4);
        frame[43] = 3;   /* flags: frames, bytes */
        frame[44] = (UInt8)(frames >> 24); frame[45] = (UInt8)(frames >> 16); frame[46] = (UInt8)(frames >> 8); frame[47] = (UInt8)frames;
        total += size;
        frame[48] = (UInt8)(total >> 24); frame[49] = (UInt8)(total >> 16); frame[50] = (UInt8)(total >> 8); frame[51] = (UInt8)total;
        fwrite(frame, 1, (size_t)size, f);
    }
    for (i = 0; i < frames; i++) {
        int size;
        pad = i % 3 == 0;
        size = 144 * rates[i % 4] / 44100 + pad;
        memset(frame, 0, sizeof(frame));
        frame[0] = 0xFF; frame[1] = 0xFB; frame[2] = (UInt8)(indexes[i % 4] << 4 | pad << 1); frame[3] = 0x44;
        fwrite(frame, 1, (size_t)size, f);
        if (junk && i == frames / 2) {
            static const char garbage[] = "junk\xFF\xFB junk \xFF\xFF\xFF more junk";
            fwrite(garbage, 1, sizeof(garbage) - 1, f);
        }
    }
    fclose(f);
}

int main(int argc, char **argv) {
    char plain[] = "/tmp/soundstage-audio-file-stream-XXXXXX";
    char junky[80];
    int fd = mkstemp(plain), i;
    if (fd < 0) { perror("mkstemp"); return 1; }
    close(fd);
    snprintf(junky, sizeof(junky), "%s-junk", plain);
    WriteMP3(plain, 300, 1, 0);
    WriteMP3(junky, 200, 0, 1);

    StreamFile(plain, 1, 1);
    StreamFile(plain, 2, 1);
    StreamFile(junky, 3, 0);
    SeekInStream(plain);
    ErrorPaths();
    for (i = 1; i < argc; i++) {
        StreamFile(argv[i], (UInt32)(100 + i), 0);
        SeekInStream(argv[i]);
    }
    unlink(plain);
    unlink(junky);
    printf("%d passed, %d failed\n", checks - failures, failures);
    return failures == 0 ? 0 : 1;
}
