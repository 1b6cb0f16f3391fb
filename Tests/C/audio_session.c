/*
 * A game's audio start-up as iOS C and C++ games wrote it with the Audio Session C API (the
 * SoundEngine that shipped in Apple's sample games, the Core Audio books): initialize the session
 * with an interruption listener, choose the ambient category, activate, read the hardware's rate
 * and I/O duration, listen for route changes (the CFDictionary with the reason as a CFNumber); and
 * System Sound Services: a click registered from a file URL, its completion delivered through the
 * main thread's run loop while the program runs it (CFRunLoopRunInMode), its properties, its
 * disposal. Every refusal is checked for Apple's code: calls before AudioSessionInitialize, a
 * second initialize, wrong sizes, unknown properties and categories, disposed and unknown sound
 * IDs, NULL pointers. The same file compiles as C99 and as C++17 with -Wall -Wextra -Werror
 * -pedantic.
 *
 *   cc -std=c99 -Wall -Wextra -Werror -pedantic -ISources/CAudioToolbox/include Tests/C/audio_session.c \
 *      -L.build/debug -l:libSoundstageC.so -Wl,-rpath,.build/debug -lm
 *   ./a.out DIRECTORY     (where it writes its click)
 *
 * The session opens the default output: the desktop server, else OpenAL's default device (the
 * tests run it on OpenAL Soft's null output: ALSOFT_DRIVERS=null). It ends with "N passed,
 * N failed" and exits 1 when any failed.
 */
#include <AudioToolbox/AudioToolbox.h>
#include <CoreFoundation/CoreFoundation.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int passed, failed;

static void expect(int condition, const char *what) {
    if (condition) {
        passed++;
    } else {
        failed++;
        fprintf(stderr, "audio_session: FAILED: %s\n", what);
    }
}

static void expectStatus(OSStatus status, OSStatus wanted, const char *what) {
    if (status != wanted) fprintf(stderr, "audio_session: %s returned %d, not %d\n", what, (int)status, (int)wanted);
    expect(status == wanted, what);
}

/* What the listeners saw. */
typedef struct {
    int interruptions;
    int routeChanges;
    SInt32 lastReason;
    int completions;
    SystemSoundID lastCompleted;
} GameAudio;

static void interruptionListener(void *inClientData, UInt32 inInterruptionState) {
    GameAudio *audio = (GameAudio *)inClientData;
    (void)inInterruptionState;
    audio->interruptions++;
}

static void routeChangeListener(void *inClientData, AudioSessionPropertyID inID, UInt32 inDataSize, const void *inData) {
    GameAudio *audio = (GameAudio *)inClientData;
    CFDictionaryRef routeChangeDictionary;
    CFNumberRef routeChangeReasonRef;
    SInt32 routeChangeReason = -1;
    if (inID != kAudioSessionProperty_AudioRouteChange || inDataSize != sizeof(CFDictionaryRef)) return;
    routeChangeDictionary = *(const CFDictionaryRef *)inData;
    routeChangeReasonRef = (CFNumberRef)CFDictionaryGetValue(routeChangeDictionary, CFSTR(kAudioSession_AudioRouteChangeKey_Reason));
    if (routeChangeReasonRef && CFNumberGetValue(routeChangeReasonRef, kCFNumberSInt32Type, &routeChangeReason)) {
        audio->routeChanges++;
        audio->lastReason = routeChangeReason;
    }
}

static void soundCompleted(SystemSoundID ssID, void *clientData) {
    GameAudio *audio = (GameAudio *)clientData;
    audio->completions++;
    audio->lastCompleted = ssID;
}

/* A 0.1 s, 1 kHz click as a 16-bit mono WAVE file. */
static int writeClick(const char *path) {
    enum { rate = 44100, frames = 4410 };
    unsigned char header[44];
    UInt32 dataBytes = frames * 2, value;
    FILE *file = fopen(path, "wb");
    int i;
    if (!file) return 0;
    memcpy(header, "RIFF\0\0\0\0WAVEfmt \x10\0\0\0\x01\0\x01\0\0\0\0\0\0\0\0\0\x02\0\x10\0data\0\0\0\0", 44);
    value = 36 + dataBytes;
    for (i = 0; i < 4; i++) header[4 + i] = (unsigned char)(value >> (8 * i));
    for (i = 0; i < 4; i++) header[24 + i] = (unsigned char)((UInt32)rate >> (8 * i));
    for (i = 0; i < 4; i++) header[28 + i] = (unsigned char)((UInt32)(rate * 2) >> (8 * i));
    for (i = 0; i < 4; i++) header[40 + i] = (unsigned char)(dataBytes >> (8 * i));
    fwrite(header, 1, sizeof header, file);
    for (i = 0; i < frames; i++) {
        SInt16 sample = (SInt16)(12000 * sin(2 * 3.14159265358979 * 1000 * i / rate));
        unsigned char bytes[2];
        bytes[0] = (unsigned char)(sample & 0xFF);
        bytes[1] = (unsigned char)((sample >> 8) & 0xFF);
        fwrite(bytes, 1, 2, file);
    }
    return fclose(file) == 0;
}

static CFURLRef fileURL(const char *path) {
    return CFURLCreateFromFileSystemRepresentation(kCFAllocatorDefault, (const UInt8 *)path, (CFIndex)strlen(path), false);
}

static void session(GameAudio *audio) {
    UInt32 category = kAudioSessionCategory_AmbientSound, size;
    Float64 hardwareRate = 0;
    Float32 duration = 0, preferredDuration = 0.005f;
    UInt32 bogus = 0x78787878 /* 'xxxx' */;

    expectStatus(AudioSessionSetActive(true), kAudioSessionNotInitialized, "AudioSessionSetActive before AudioSessionInitialize");
    size = sizeof category;
    expectStatus(AudioSessionGetProperty(kAudioSessionProperty_AudioCategory, &size, &category), kAudioSessionNotInitialized,
                 "AudioSessionGetProperty before AudioSessionInitialize");

    expectStatus(AudioSessionInitialize(NULL, NULL, interruptionListener, audio), kAudioSessionNoError, "AudioSessionInitialize");
    expectStatus(AudioSessionInitialize(NULL, NULL, interruptionListener, audio), kAudioSessionAlreadyInitialized,
                 "a second AudioSessionInitialize");

    category = kAudioSessionCategory_AmbientSound;
    expectStatus(AudioSessionSetProperty(kAudioSessionProperty_AudioCategory, sizeof category, &category), kAudioSessionNoError,
                 "the ambient category");
    expectStatus(AudioSessionSetActive(true), kAudioSessionNoError, "AudioSessionSetActive(true)");
    category = 0;
    size = sizeof category;
    expectStatus(AudioSessionGetProperty(kAudioSessionProperty_AudioCategory, &size, &category), kAudioSessionNoError,
                 "reading the category");
    expect(category == kAudioSessionCategory_AmbientSound && size == sizeof category, "the category reads back as ambient");

    size = sizeof hardwareRate;
    expectStatus(AudioSessionGetProperty(kAudioSessionProperty_CurrentHardwareSampleRate, &size, &hardwareRate), kAudioSessionNoError,
                 "the hardware's rate");
    expect(hardwareRate >= 8000 && hardwareRate <= 192000, "the hardware's rate is an audio rate");
    size = sizeof duration;
    expectStatus(AudioSessionGetProperty(kAudioSessionProperty_CurrentHardwareIOBufferDuration, &size, &duration),
                 kAudioSessionNoError, "the I/O buffer duration");
    expect(duration > 0 && duration < 0.5f && size == sizeof(Float32), "the I/O buffer duration is a Float32 of a few milliseconds");
    expectStatus(AudioSessionGetPropertySize(kAudioSessionProperty_CurrentHardwareSampleRate, &size), kAudioSessionNoError,
                 "AudioSessionGetPropertySize");
    expect(size == sizeof(Float64), "the hardware's rate is a Float64");
    expectStatus(AudioSessionSetProperty(kAudioSessionProperty_PreferredHardwareIOBufferDuration, sizeof preferredDuration,
                                         &preferredDuration), kAudioSessionNoError, "a preferred I/O buffer duration");
    duration = 0;
    size = sizeof duration;
    AudioSessionGetProperty(kAudioSessionProperty_PreferredHardwareIOBufferDuration, &size, &duration);
    expect(duration == preferredDuration, "the preferred I/O buffer duration reads back");

    /* Refusals, with Apple's codes. */
    expectStatus(AudioSessionSetProperty(kAudioSessionProperty_AudioCategory, 2, &category), kAudioSessionBadPropertySizeError,
                 "a category of the wrong size");
    expectStatus(AudioSessionSetProperty(kAudioSessionProperty_AudioCategory, sizeof bogus, &bogus), kAudioSessionIncompatibleCategory,
                 "a category iOS does not have");
    expectStatus(AudioSessionSetProperty(0x7A7A7A7A, sizeof bogus, &bogus), kAudioSessionUnsupportedPropertyError, "an unknown property");
    expectStatus(AudioSessionSetProperty(kAudioSessionProperty_CurrentHardwareSampleRate, sizeof hardwareRate, &hardwareRate),
                 kAudioSessionUnsupportedPropertyError, "setting a read-only property");
    size = 1;
    expectStatus(AudioSessionGetProperty(kAudioSessionProperty_CurrentHardwareSampleRate, &size, &hardwareRate),
                 kAudioSessionBadPropertySizeError, "reading into too small a value");
    expectStatus(AudioSessionGetProperty(kAudioSessionProperty_AudioCategory, NULL, NULL), kAudioSessionUnsupportedPropertyError,
                 "reading into NULL");
    expectStatus(AudioSessionAddPropertyListener(0x7A7A7A7A, routeChangeListener, audio), kAudioSessionUnsupportedPropertyError,
                 "a listener of an unknown property");

    /* A change of category while active is a route change, reported with iOS's dictionary. */
    expectStatus(AudioSessionAddPropertyListener(kAudioSessionProperty_AudioRouteChange, routeChangeListener, audio), kAudioSessionNoError,
                 "a route-change listener");
    category = kAudioSessionCategory_MediaPlayback;
    AudioSessionSetProperty(kAudioSessionProperty_AudioCategory, sizeof category, &category);
    expect(audio->routeChanges == 1 && audio->lastReason == kAudioSessionRouteChangeReason_CategoryChange,
           "changing the category calls the route-change listener with kAudioSessionRouteChangeReason_CategoryChange");
    expectStatus(AudioSessionRemovePropertyListenerWithUserData(kAudioSessionProperty_AudioRouteChange, routeChangeListener, audio),
                 kAudioSessionNoError, "removing the listener");
    category = kAudioSessionCategory_AmbientSound;
    AudioSessionSetProperty(kAudioSessionProperty_AudioCategory, sizeof category, &category);
    expect(audio->routeChanges == 1, "a removed listener is not called");
}

static void systemSounds(GameAudio *audio, const char *directory) {
    char path[4096];
    CFURLRef url, missing;
    SystemSoundID click = 0, none = 0;
    UInt32 isUISound = 0, size = sizeof isUISound, off = 0;
    Boolean writable = false;
    int turns;

    snprintf(path, sizeof path, "%s/click.wav", directory);
    expect(writeClick(path), "writing the click");
    url = fileURL(path);
    expectStatus(AudioServicesCreateSystemSoundID(url, &click), kAudioServicesNoError, "AudioServicesCreateSystemSoundID");
    CFRelease(url);
    expect(click != 0, "the click has an ID");

    /* The completion comes through this thread's run loop, while it runs. */
    expectStatus(AudioServicesAddSystemSoundCompletion(click, CFRunLoopGetCurrent(), kCFRunLoopDefaultMode, soundCompleted, audio),
                 kAudioServicesNoError, "AudioServicesAddSystemSoundCompletion");
    AudioServicesPlaySystemSound(click);
    for (turns = 0; turns < 100 && audio->completions == 0; turns++) CFRunLoopRunInMode(kCFRunLoopDefaultMode, 0.05, true);
    expect(audio->completions == 1 && audio->lastCompleted == click, "the click's completion ran on the run loop once it ended");
    AudioServicesRemoveSystemSoundCompletion(click);

    expectStatus(AudioServicesGetPropertyInfo(kAudioServicesPropertyIsUISound, sizeof click, &click, &size, &writable),
                 kAudioServicesNoError, "AudioServicesGetPropertyInfo");
    expect(size == sizeof(UInt32) && writable, "IsUISound is a writable UInt32");
    size = sizeof isUISound;
    expectStatus(AudioServicesGetProperty(kAudioServicesPropertyIsUISound, sizeof click, &click, &size, &isUISound),
                 kAudioServicesNoError, "reading IsUISound");
    expect(isUISound == 1, "a sound is a UI sound until told otherwise");
    expectStatus(AudioServicesSetProperty(kAudioServicesPropertyIsUISound, sizeof click, &click, sizeof off, &off),
                 kAudioServicesNoError, "setting IsUISound");
    AudioServicesGetProperty(kAudioServicesPropertyIsUISound, sizeof click, &click, &size, &isUISound);
    expect(isUISound == 0, "IsUISound reads back");
    expectStatus(AudioServicesGetProperty(kAudioServicesPropertyIsUISound, 2, &click, &size, &isUISound),
                 kAudioServicesBadSpecifierSizeError, "a specifier of the wrong size");
    expectStatus(AudioServicesGetProperty(0x7A7A7A7A, sizeof click, &click, &size, &isUISound), kAudioServicesUnsupportedPropertyError,
                 "an unknown property");

    expectStatus(AudioServicesDisposeSystemSoundID(click), kAudioServicesNoError, "AudioServicesDisposeSystemSoundID");
    expectStatus(AudioServicesDisposeSystemSoundID(click), kAudioServicesUnsupportedPropertyError, "disposing twice");
    expectStatus(AudioServicesGetProperty(kAudioServicesPropertyIsUISound, sizeof click, &click, &size, &isUISound),
                 kAudioServicesUnsupportedPropertyError, "a disposed sound's property");
    AudioServicesPlaySystemSound(click);             /* plays nothing, as on iOS */
    AudioServicesPlaySystemSound(kSystemSoundID_Vibrate);

    snprintf(path, sizeof path, "%s/no-such-click.wav", directory);
    missing = fileURL(path);
    expectStatus(AudioServicesCreateSystemSoundID(missing, &none), kAudioServicesSystemSoundUnspecifiedError, "a missing file");
    CFRelease(missing);
    expectStatus(AudioServicesCreateSystemSoundID(NULL, &none), kAudioServicesSystemSoundUnspecifiedError, "a NULL URL");
}

static void numbers(void) {
    SInt32 reason = kAudioSessionRouteChangeReason_OldDeviceUnavailable, whole = 0;
    Float64 real = 1.5, back = 0;
    CFNumberRef number = CFNumberCreate(kCFAllocatorDefault, kCFNumberSInt32Type, &reason);
    expect(CFNumberGetValue(number, kCFNumberFloat64Type, &back) && back == 2.0, "a CFNumber reads back in another type");
    expect(CFNumberGetType(number) == kCFNumberSInt32Type && !CFNumberIsFloatType(number), "a CFNumber keeps its type");
    CFRelease(number);
    number = CFNumberCreate(kCFAllocatorDefault, kCFNumberFloat64Type, &real);
    expect(!CFNumberGetValue(number, kCFNumberSInt32Type, &whole) && whole == 1, "a fraction read as an integer is truncated, and says so");
    CFRelease(number);
}

int main(int argc, char **argv) {
    GameAudio audio;
    memset(&audio, 0, sizeof audio);
    if (argc != 2) {
        fprintf(stderr, "usage: audio_session DIRECTORY\n");
        return 2;
    }
    session(&audio);
    systemSounds(&audio, argv[1]);
    numbers();
    expectStatus(AudioSessionSetActive(false), kAudioSessionNoError, "AudioSessionSetActive(false)");
    expect(audio.interruptions == 0, "no interruption came");
    printf("audio_session: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
