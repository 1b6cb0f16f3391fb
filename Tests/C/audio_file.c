/*
 * Audio File Services and the Core Foundation subset from C, written as the Core Audio books write
 * their command-line programs: a CheckError-style status check, a file opened by path through
 * CFURLCreateFromFileSystemRepresentation, its description printed, its packets read with
 * AudioFileReadPacketData until the end, and AudioFileReadPackets as the books' queue player calls
 * it. The program writes its own WAVE and AIFF files (known samples) and checks every sample it
 * reads back, then writes a CAF file through Audio File Services itself (AudioFileCreateWithURL,
 * a channel layout, AudioFileWritePackets) and reads that back; given paths, it also prints and
 * reads those files. The same file compiles as C99 and
 * as C++17 (gcc, g++, clang, clang++) with -Wall -Wextra -Werror -pedantic.
 *
 *   cc -std=c99 -Wall -Wextra -Werror -pedantic -ISources/CAudioToolbox/include Tests/C/audio_file.c \
 *      -L.build/debug -l:libSoundstageC.so -Wl,-rpath,.build/debug
 *   ./a.out [file ...]
 *
 * Prints one line per file and ends with "N passed, N failed"; exits 1 when any failed.
 */
#define _XOPEN_SOURCE 700   /* mkstemp */
#include <AudioToolbox/AudioToolbox.h>
#include <CoreFoundation/CoreFoundation.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "coreaudio_checks.h"

enum { kFrames = 4410, kChannels = 2 };

/* The sample the test files hold at frame f, channel c. */
static SInt16 SampleAt(int f, int c) { return (SInt16)((f * 37 + c * 1000) % 30000 - 15000); }

static void Put16(FILE *f, UInt16 v, int big) {
    UInt16 x = big ? CFSwapInt16HostToBig(v) : CFSwapInt16HostToLittle(v);
    fwrite(&x, 2, 1, f);
}
static void Put32(FILE *f, UInt32 v, int big) {
    UInt32 x = big ? CFSwapInt32HostToBig(v) : CFSwapInt32HostToLittle(v);
    fwrite(&x, 4, 1, f);
}

/* A 16-bit stereo WAVE file (little-endian) or AIFF file (big-endian) at 44.1 kHz. */
static void WriteTestFile(const char *path, int aiff) {
    FILE *f = fopen(path, "wb");
    UInt32 dataBytes = kFrames * kChannels * 2;
    int i, c;
    if (!f) { perror(path); exit(1); }
    if (!aiff) {
        fwrite("RIFF", 1, 4, f); Put32(f, 36 + dataBytes, 0); fwrite("WAVEfmt ", 1, 8, f);
        Put32(f, 16, 0); Put16(f, 1, 0); Put16(f, kChannels, 0); Put32(f, 44100, 0);
        Put32(f, 44100 * kChannels * 2, 0); Put16(f, kChannels * 2, 0); Put16(f, 16, 0);
        fwrite("data", 1, 4, f); Put32(f, dataBytes, 0);
    } else {
        /* 44100 as an 80-bit extended: exponent 0x400E, mantissa 0xAC44 << 48. */
        static const unsigned char rate[10] = {0x40, 0x0E, 0xAC, 0x44, 0, 0, 0, 0, 0, 0};
        fwrite("FORM", 1, 4, f); Put32(f, 4 + 26 + 16 + dataBytes, 1); fwrite("AIFFCOMM", 1, 8, f);
        Put32(f, 18, 1); Put16(f, kChannels, 1); Put32(f, kFrames, 1); Put16(f, 16, 1); fwrite(rate, 1, 10, f);
        fwrite("SSND", 1, 4, f); Put32(f, 8 + dataBytes, 1); Put32(f, 0, 1); Put32(f, 0, 1);
    }
    for (i = 0; i < kFrames; i++)
        for (c = 0; c < kChannels; c++) Put16(f, (UInt16)SampleAt(i, c), aiff);
    fclose(f);
}

/* Opens a file by path as the books do: CFURLCreateFromFileSystemRepresentation, AudioFileOpenURL. */
static OSStatus OpenByPath(const char *path, AudioFileID *outFile) {
    CFURLRef url = CFURLCreateFromFileSystemRepresentation(kCFAllocatorDefault, (const UInt8 *)path, (CFIndex)strlen(path), false);
    OSStatus status;
    if (!url) return kAudio_ParamError;
    status = AudioFileOpenURL(url, kAudioFileReadPermission, 0, outFile);
    CFRelease(url);
    return status;
}

/* Prints a file's description and packet count; reads every packet; returns the packets' bytes. */
static UInt8 *ReadWholeFile(const char *path, AudioStreamBasicDescription *asbd, UInt64 *outPackets, UInt32 *outBytes) {
    AudioFileID file = NULL;
    UInt32 size = sizeof(*asbd), maxPacket = 0, room, total = 0;
    UInt64 packetCount = 0, read = 0;
    UInt8 *all, *buffer;
    AudioStreamPacketDescription *descriptions;
    char format[16];
    OSStatus status = OpenByPath(path, &file);
    EXPECT_STATUS(status, noErr);
    if (status != noErr) return NULL;
    EXPECT_STATUS(AudioFileGetProperty(file, kAudioFilePropertyDataFormat, &size, asbd), noErr);
    size = sizeof(packetCount);
    EXPECT_STATUS(AudioFileGetProperty(file, kAudioFilePropertyAudioDataPacketCount, &size, &packetCount), noErr);
    size = sizeof(maxPacket);
    EXPECT_STATUS(AudioFileGetProperty(file, kAudioFilePropertyPacketSizeUpperBound, &size, &maxPacket), noErr);
    FormatStatus((OSStatus)asbd->mFormatID, format);
    printf("%s: %s, %.0f Hz, %u channels, %u bits, %u bytes and %u frames a packet, %llu packets\n", path, format,
           asbd->mSampleRate, (unsigned)asbd->mChannelsPerFrame, (unsigned)asbd->mBitsPerChannel,
           (unsigned)asbd->mBytesPerPacket, (unsigned)asbd->mFramesPerPacket, (unsigned long long)packetCount);

    room = maxPacket * 100;
    buffer = (UInt8 *)malloc(room);
    descriptions = (AudioStreamPacketDescription *)malloc(100 * sizeof(AudioStreamPacketDescription));
    all = (UInt8 *)malloc(packetCount * maxPacket + 1);
    for (;;) {
        UInt32 numBytes = room, numPackets = 100;
        status = AudioFileReadPacketData(file, false, &numBytes, descriptions, (SInt64)read, &numPackets, buffer);
        if (status == kAudioFileEndOfFileError || numPackets == 0) break;
        EXPECT_STATUS(status, noErr);
        if (status != noErr) break;
        memcpy(all + total, buffer, numBytes);
        total += numBytes;
        read += numPackets;
    }
    EXPECT(read == packetCount);
    EXPECT_STATUS(AudioFileClose(file), noErr);
    EXPECT_STATUS(AudioFileClose(file), kAudioFileNotOpenError);
    free(buffer);
    free(descriptions);
    *outPackets = read;
    *outBytes = total;
    return all;
}

static void KnownSamples(const char *path, int aiff) {
    AudioStreamBasicDescription asbd;
    UInt64 packets = 0;
    UInt32 bytes = 0;
    UInt8 *data;
    int i, c, wrong = 0;
    WriteTestFile(path, aiff);
    data = ReadWholeFile(path, &asbd, &packets, &bytes);
    if (!data) return;
    EXPECT(asbd.mFormatID == kAudioFormatLinearPCM && asbd.mSampleRate == 44100.0 && asbd.mChannelsPerFrame == kChannels);
    EXPECT(asbd.mBitsPerChannel == 16 && asbd.mBytesPerPacket == 4 && asbd.mFramesPerPacket == 1);
    EXPECT(((asbd.mFormatFlags & kAudioFormatFlagIsBigEndian) != 0) == (aiff != 0));
    EXPECT(packets == kFrames && bytes == kFrames * kChannels * 2);
    for (i = 0; i < kFrames; i++) {
        for (c = 0; c < kChannels; c++) {
            UInt16 raw;
            memcpy(&raw, data + (i * kChannels + c) * 2, 2);
            raw = aiff ? CFSwapInt16BigToHost(raw) : CFSwapInt16LittleToHost(raw);
            if ((SInt16)raw != SampleAt(i, c)) wrong++;
        }
    }
    EXPECT(wrong == 0);
    free(data);
}

/* The books' queue player fills its buffers with AudioFileReadPackets until it reads none. */
/* The file's information dictionary, as a player shows it: a new CFDictionary of CFStrings. */
static void InfoDictionaryOf(const char *path) {
    AudioFileID file = NULL;
    CFDictionaryRef info = NULL;
    UInt32 size = 0, writable = 1;
    CFStringRef duration;
    char text[32];
    if (OpenByPath(path, &file) != noErr) { EXPECT(0); return; }
    EXPECT_STATUS(AudioFileGetPropertyInfo(file, kAudioFilePropertyInfoDictionary, &size, &writable), noErr);
    EXPECT(size == sizeof(CFDictionaryRef) && writable == 0);
    EXPECT_STATUS(AudioFileGetProperty(file, kAudioFilePropertyInfoDictionary, &size, &info), noErr);
    EXPECT(info != NULL && CFDictionaryGetCount(info) >= 1);
    duration = (CFStringRef)CFDictionaryGetValue(info, CFSTR(kAFInfoDictionary_ApproximateDurationInSeconds));
    EXPECT(duration && CFStringGetCString(duration, text, sizeof(text), kCFStringEncodingUTF8));
    EXPECT(duration && strcmp(text, "0.100") == 0);   /* kFrames at 44.1 kHz */
    EXPECT(!CFDictionaryContainsKey(info, CFSTR(kAFInfoDictionary_Artist)));
    if (info) CFRelease(info);
    size = 1;
    EXPECT_STATUS(AudioFileGetProperty(file, kAudioFilePropertyInfoDictionary, &size, &info), kAudioFileBadPropertySizeError);
    AudioFileClose(file);
}

/* A WAVE with a LIST/INFO chunk before its data: its title and artist in the dictionary. */
static void TaggedFile(const char *path) {
    static const char title[] = "Caf\xC3\xA9 Song";   /* UTF-8, 10 bytes */
    AudioFileID file = NULL;
    CFDictionaryRef info = NULL;
    UInt32 size = sizeof(info);
    CFStringRef value;
    char text[32];
    int i;
    FILE *f = fopen(path, "wb");
    if (!f) { EXPECT(0); return; }
    fwrite("RIFF", 1, 4, f);
    Put32(f, 4 + 24 + 8 + 4 + 8 + 10 + 8 + 4 + 8 + 32, 0);
    fwrite("WAVEfmt ", 1, 8, f);
    Put32(f, 16, 0); Put16(f, 1, 0); Put16(f, 1, 0); Put32(f, 8000, 0); Put32(f, 16000, 0); Put16(f, 2, 0); Put16(f, 16, 0);
    fwrite("LIST", 1, 4, f);
    Put32(f, 4 + 8 + 10 + 8 + 4, 0);
    fwrite("INFOINAM", 1, 8, f);
    Put32(f, 10, 0);
    fwrite(title, 1, 10, f);
    fwrite("IART", 1, 4, f);
    Put32(f, 4, 0);
    fwrite("Band", 1, 4, f);
    fwrite("data", 1, 4, f);
    Put32(f, 32, 0);
    for (i = 0; i < 16; i++) Put16(f, (UInt16)SampleAt(i, 0), 0);
    fclose(f);
    if (OpenByPath(path, &file) != noErr) { EXPECT(0); return; }
    EXPECT_STATUS(AudioFileGetProperty(file, kAudioFilePropertyInfoDictionary, &size, &info), noErr);
    EXPECT(info != NULL && CFDictionaryGetCount(info) == 3);   /* the duration, the title, the artist */
    value = info ? (CFStringRef)CFDictionaryGetValue(info, CFSTR(kAFInfoDictionary_Title)) : NULL;
    EXPECT(value && CFStringGetCString(value, text, sizeof(text), kCFStringEncodingUTF8) && strcmp(text, title) == 0);
    value = info ? (CFStringRef)CFDictionaryGetValue(info, CFSTR(kAFInfoDictionary_Artist)) : NULL;
    EXPECT(value && CFStringGetCString(value, text, sizeof(text), kCFStringEncodingUTF8) && strcmp(text, "Band") == 0);
    if (info) CFRelease(info);
    AudioFileClose(file);
}

static void QueuePlayerStyle(const char *path) {
    AudioFileID file = NULL;
    UInt32 maxPacket = 0, size = sizeof(maxPacket);
    SInt64 packetIndex = 0;
    UInt8 *buffer;
    int calls = 0;
    EXPECT_STATUS(OpenByPath(path, &file), noErr);
    EXPECT_STATUS(AudioFileGetProperty(file, kAudioFilePropertyMaximumPacketSize, &size, &maxPacket), noErr);
    buffer = (UInt8 *)malloc(1000 * maxPacket);
    for (;;) {
        UInt32 numBytes = 0, numPackets = 1000;
        EXPECT_STATUS(AudioFileReadPackets(file, false, &numBytes, NULL, packetIndex, &numPackets, buffer), noErr);
        calls++;
        if (numPackets == 0) break;
        packetIndex += numPackets;
    }
    EXPECT(packetIndex == kFrames && calls == 6);
    free(buffer);
    EXPECT_STATUS(AudioFileClose(file), noErr);
}

static void ErrorPaths(const char *wavPath) {
    AudioFileID file = NULL;
    UInt32 size = 4, numBytes = 16, numPackets = 4;
    AudioStreamBasicDescription asbd;
    UInt8 buffer[64];
    CFURLRef missing = CFURLCreateWithFileSystemPath(NULL, CFSTR("/nonexistent/soundstage.wav"), kCFURLPOSIXPathStyle, false);
    EXPECT_STATUS(AudioFileOpenURL(missing, kAudioFileReadPermission, 0, &file), kAudioFileFileNotFoundError);
    CFRelease(missing);
    EXPECT_STATUS(AudioFileOpenURL(NULL, kAudioFileReadPermission, 0, &file), kAudio_ParamError);
    EXPECT_STATUS(OpenByPath(wavPath, &file), noErr);
    EXPECT_STATUS(AudioFileGetProperty(file, kAudioFilePropertyDataFormat, &size, &asbd), kAudioFileBadPropertySizeError);
    size = sizeof(asbd);
    EXPECT_STATUS(AudioFileGetProperty(file, CA_FOURCC('z', 'z', 'z', 'z'), &size, &asbd), kAudioFileUnsupportedPropertyError);
    EXPECT_STATUS(AudioFileReadPacketData(file, false, &numBytes, NULL, kFrames, &numPackets, buffer), kAudioFileEndOfFileError);
    numBytes = 16;
    numPackets = 4;
    EXPECT_STATUS(AudioFileReadPacketData(file, false, &numBytes, NULL, -1, &numPackets, buffer), kAudioFileInvalidPacketOffsetError);
    EXPECT_STATUS(AudioFileReadPacketData(file, false, NULL, NULL, 0, &numPackets, buffer), kAudio_ParamError);
    EXPECT_STATUS(AudioFileClose(file), noErr);
    size = sizeof(asbd);
    EXPECT_STATUS(AudioFileGetProperty(file, kAudioFilePropertyDataFormat, &size, &asbd), kAudioFileNotOpenError);
    EXPECT_STATUS(AudioFileClose(NULL), kAudio_ParamError);
}

static void CoreFoundation(void) {
    char text[64];
    UInt8 path[256];
    CFStringRef hello = CFStringCreateWithCString(kCFAllocatorDefault, "h\xC3\xA9llo", kCFStringEncodingUTF8);
    CFURLRef url;
    CFStringRef ext;
    CFAbsoluteTime now = CFAbsoluteTimeGetCurrent();
    EXPECT(hello != NULL && CFStringGetLength(hello) == 5);
    EXPECT(CFGetRetainCount(hello) == 1);
    EXPECT(CFRetain(hello) == hello && CFGetRetainCount(hello) == 2);
    CFRelease(hello);
    EXPECT(CFGetRetainCount(hello) == 1);
    EXPECT(CFStringGetCString(hello, text, sizeof(text), kCFStringEncodingUTF8) && strcmp(text, "h\xC3\xA9llo") == 0);
    EXPECT(!CFStringGetCString(hello, text, sizeof(text), kCFStringEncodingASCII));
    EXPECT(CFStringGetCString(hello, text, sizeof(text), kCFStringEncodingISOLatin1) && (unsigned char)text[1] == 0xE9);
    EXPECT(CFStringCompare(hello, CFSTR("h\xC3\xA9llo"), 0) == kCFCompareEqualTo && CFEqual(hello, CFSTR("h\xC3\xA9llo")));
    CFRelease(hello);
    EXPECT(CFSTR("Soundstage") == CFSTR("Soundstage"));
    CFRelease(CFSTR("Soundstage"));   /* harmless: CFSTR's strings are never freed */
    EXPECT(CFStringGetLength(CFSTR("Soundstage")) == 10);

    url = CFURLCreateWithFileSystemPath(kCFAllocatorDefault, CFSTR("/tmp/sounds/boom.caf"), kCFURLPOSIXPathStyle, false);
    EXPECT(url != NULL && CFURLGetFileSystemRepresentation(url, true, path, sizeof(path)));
    EXPECT(strcmp((const char *)path, "/tmp/sounds/boom.caf") == 0);
    ext = CFURLCopyPathExtension(url);
    EXPECT(ext != NULL && CFStringGetCString(ext, text, sizeof(text), kCFStringEncodingUTF8) && strcmp(text, "caf") == 0);
    CFShow(url);
    CFRelease(ext);
    CFRelease(url);
    EXPECT(CFURLCreateWithFileSystemPath(NULL, CFSTR("C:\\x"), kCFURLWindowsPathStyle, false) == NULL);

    EXPECT(CFBundleGetMainBundle() != NULL);
    EXPECT(CFBundleCopyResourceURL(CFBundleGetMainBundle(), CFSTR("no-such-resource"), CFSTR("caf"), NULL) == NULL);
    EXPECT(CFSwapInt32(0x01020304u) == 0x04030201u && CFSwapInt16BigToHost(CFSwapInt16HostToBig(0x1234)) == 0x1234);
    EXPECT(CFSwapInt64(1) == ((UInt64)1 << 56));
    EXPECT(now > 8.0e8 && now < 4.0e9);   /* between 2026 and 2127 */
}

/* Run loops as a Core Audio program's main() uses them: the main thread's loop is the current one,
 * a loop with nothing to wait for returns kCFRunLoopRunFinished at once, and a stop asked before a
 * run makes it return kCFRunLoopRunStopped. The mode names are interned: equal pointers. */
static void RunLoops(void) {
    CFRunLoopRef loop = CFRunLoopGetCurrent();
    EXPECT(loop != NULL && loop == CFRunLoopGetMain());
    EXPECT(kCFRunLoopDefaultMode == kCFRunLoopDefaultMode && kCFRunLoopDefaultMode != kCFRunLoopCommonModes);
    EXPECT(CFRunLoopRunInMode(kCFRunLoopDefaultMode, 0.25, false) == kCFRunLoopRunFinished);
    EXPECT(!CFRunLoopIsWaiting(loop));
    CFRunLoopStop(loop);
    EXPECT(CFRunLoopRunInMode(kCFRunLoopDefaultMode, 0.25, false) == kCFRunLoopRunStopped);
    CFRunLoopWakeUp(loop);
    CFRunLoopStop(NULL);
    CFRunLoopRun();   /* returns: nothing to wait for */
}

static void GlobalInfo(void) {
    UInt32 size = 0, type = kAudioFileWAVEType;
    AudioFileTypeID types[16];
    CFStringRef name = NULL;
    CFArrayRef extensions = NULL;
    char text[32];
    EXPECT_STATUS(AudioFileGetGlobalInfoSize(kAudioFileGlobalInfo_ReadableTypes, 0, NULL, &size), noErr);
    EXPECT(size >= 4 * sizeof(AudioFileTypeID));
    size = sizeof(types);
    EXPECT_STATUS(AudioFileGetGlobalInfo(kAudioFileGlobalInfo_ReadableTypes, 0, NULL, &size, types), noErr);
    size = sizeof(name);
    EXPECT_STATUS(AudioFileGetGlobalInfo(kAudioFileGlobalInfo_FileTypeName, sizeof(type), &type, &size, &name), noErr);
    EXPECT(name && CFStringGetCString(name, text, sizeof(text), kCFStringEncodingUTF8) && strcmp(text, "WAVE") == 0);
    if (name) CFRelease(name);
    size = sizeof(extensions);
    EXPECT_STATUS(AudioFileGetGlobalInfo(kAudioFileGlobalInfo_ExtensionsForType, sizeof(type), &type, &size, &extensions), noErr);
    EXPECT(extensions && CFArrayGetCount(extensions) == 2);
    EXPECT(extensions && CFEqual(CFArrayGetValueAtIndex(extensions, 0), CFSTR("wav")));
    if (extensions) CFRelease(extensions);
}

/* A recorder's file, written as the Core Audio books write one: AudioFileCreateWithURL with a
 * CFURL, a channel layout set, 16-bit big-endian PCM in CAF written in blocks with
 * AudioFileWritePackets, closed, then read back sample by sample; and what a writer gets wrong. */
static void WriteAndReadBack(const char *dir) {
    char path[256];
    CFURLRef url;
    AudioFileID file = NULL;
    AudioStreamBasicDescription asbd, read;
    AudioChannelLayout layout;
    SInt16 block[2 * 512];
    UInt32 size, packets, writable = 0;
    UInt64 count = 0;
    UInt8 *data;
    UInt32 bytes = 0;
    int f, c, start, errors = 0;

    snprintf(path, sizeof(path), "%s-written.caf", dir);
    url = CFURLCreateFromFileSystemRepresentation(kCFAllocatorDefault, (const UInt8 *)path, (CFIndex)strlen(path), false);
    FillOutASBDForLPCM(&asbd, 48000, 2, 16, 16, false, true, false);
    EXPECT_STATUS(AudioFileCreateWithURL(url, kAudioFileCAFType, &asbd, kAudioFileFlags_EraseFile, &file), noErr);
    /* Without kAudioFileFlags_EraseFile an existing file is left alone (dupFNErr, -48). */
    {
        AudioFileID again = NULL;
        EXPECT_STATUS(AudioFileCreateWithURL(url, kAudioFileCAFType, &asbd, 0, &again), -48);
        EXPECT(again == NULL);
    }
    memset(&layout, 0, sizeof(layout));
    layout.mChannelLayoutTag = kAudioChannelLayoutTag_Stereo;
    EXPECT_STATUS(AudioFileGetPropertyInfo(file, kAudioFilePropertyChannelLayout, NULL, &writable), noErr);
    EXPECT(writable == 1);
    EXPECT_STATUS(AudioFileSetProperty(file, kAudioFilePropertyChannelLayout, sizeof(layout), &layout), noErr);
    for (start = 0; start < 4000; start += 512) {
        packets = (UInt32)(4000 - start < 512 ? 4000 - start : 512);
        for (f = 0; f < (int)packets; f++)
            for (c = 0; c < 2; c++) block[f * 2 + c] = (SInt16)CFSwapInt16HostToBig((UInt16)SampleAt(start + f, c));
        EXPECT_STATUS(AudioFileWritePackets(file, false, packets * 4, NULL, start, &packets, block), noErr);
    }
    /* Packets past the end, a format change after data: refused. */
    packets = 1;
    EXPECT_STATUS(AudioFileWritePackets(file, false, 4, NULL, 5000, &packets, block), kAudioFileInvalidPacketOffsetError);
    EXPECT_STATUS(AudioFileSetProperty(file, kAudioFilePropertyDataFormat, sizeof(asbd), &asbd), kAudioFileOperationNotSupportedError);
    EXPECT_STATUS(AudioFileClose(file), noErr);
    CFRelease(url);

    data = ReadWholeFile(path, &read, &count, &bytes);
    EXPECT(data != NULL && count == 4000 && bytes == 16000);
    EXPECT(read.mSampleRate == 48000 && read.mChannelsPerFrame == 2 && read.mBitsPerChannel == 16);
    EXPECT(read.mFormatFlags & kAudioFormatFlagIsBigEndian);
    for (f = 0; data && f < 4000; f++)
        for (c = 0; c < 2; c++) {
            SInt16 sample = (SInt16)((data[(f * 2 + c) * 2] << 8) | data[(f * 2 + c) * 2 + 1]);
            if (sample != SampleAt(f, c)) errors++;
        }
    EXPECT(errors == 0);
    free(data);
    if (OpenByPath(path, &file) == noErr) {
        size = sizeof(layout);
        memset(&layout, 0, sizeof(layout));
        EXPECT_STATUS(AudioFileGetProperty(file, kAudioFilePropertyChannelLayout, &size, &layout), noErr);
        EXPECT(layout.mChannelLayoutTag == kAudioChannelLayoutTag_Stereo);
        AudioFileClose(file);
    }
    unlink(path);
}

int main(int argc, char **argv) {
    char wav[] = "/tmp/soundstage-audio-file-XXXXXX";
    char aiff[64], tagged[64];
    int fd = mkstemp(wav), i;
    if (fd < 0) { perror("mkstemp"); return 1; }
    close(fd);
    snprintf(aiff, sizeof(aiff), "%s.aiff", wav);
    snprintf(tagged, sizeof(tagged), "%s-tagged.wav", wav);

    KnownSamples(wav, 0);
    KnownSamples(aiff, 1);
    QueuePlayerStyle(wav);
    InfoDictionaryOf(wav);
    TaggedFile(tagged);
    ErrorPaths(wav);
    WriteAndReadBack(wav);
    CoreFoundation();
    RunLoops();
    GlobalInfo();
    for (i = 1; i < argc; i++) {
        AudioStreamBasicDescription asbd;
        UInt64 packets = 0;
        UInt32 bytes = 0;
        UInt8 *data = ReadWholeFile(argv[i], &asbd, &packets, &bytes);
        EXPECT(data != NULL && packets > 0 && bytes > 0);
        free(data);
    }
    unlink(wav);
    unlink(aiff);
    unlink(tagged);
    printf("%d passed, %d failed\n", checks - failures, failures);
    return failures == 0 ? 0 : 1;
}
