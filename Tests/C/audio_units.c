/*
 * Audio Units and AUGraph pulled offline, as C and C++ engines on iOS write them: a sine render
 * callback on a generic output unit pulled with AudioUnitRender (Apple's offline-render test), an
 * AUGraph of a multichannel mixer with two input callbacks into the generic output (the books'
 * mixer graph, with volumes, a pan, a disabled bus and the meters), render notifications, the
 * converter unit resampling, and the error paths: NULL, disposed units and graphs, unknown
 * properties, wrong sizes, scopes and elements, a callback that fails, a callback that disposes
 * its own unit. The same file compiles as C99 and as C++17 with -Wall -Wextra -Werror -pedantic.
 *
 *   cc -std=c99 -Wall -Wextra -Werror -pedantic -ISources/CAudioToolbox/include Tests/C/audio_units.c \
 *      -L.build/debug -l:libSoundstageC.so -Wl,-rpath,.build/debug -lm
 *
 * It ends with "audio_units: N passed, N failed" and exits 1 when any failed.
 */
#include <AudioToolbox/AudioToolbox.h>
#include <AudioUnit/AudioUnit.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coreaudio_checks.h"

enum { kFrames = 512 };

static const double kPi = 3.14159265358979323846;

/* A sine's state: what the render callback makes and how often it was asked. */
typedef struct {
    double phase;
    double step;
    Float32 level;
    int calls;
    OSStatus fail;
    AudioUnit disposeMe;
} Tone;

/* The Core Audio books' sine callback: each buffer of ioData (non-interleaved Float32) gets the sine. */
static OSStatus SineRender(void *inRefCon, AudioUnitRenderActionFlags *ioActionFlags, const AudioTimeStamp *inTimeStamp,
                           UInt32 inBusNumber, UInt32 inNumberFrames, AudioBufferList *ioData) {
    Tone *tone = (Tone *)inRefCon;
    UInt32 frame, buffer;
    double phase = tone->phase;
    (void)ioActionFlags;
    (void)inTimeStamp;
    (void)inBusNumber;
    tone->calls++;
    if (tone->fail != noErr) return tone->fail;
    if (tone->disposeMe != NULL) {
        AudioComponentInstanceDispose(tone->disposeMe);
        tone->disposeMe = NULL;
    }
    for (buffer = 0; buffer < ioData->mNumberBuffers; buffer++) {
        Float32 *samples = (Float32 *)ioData->mBuffers[buffer].mData;
        phase = tone->phase;
        for (frame = 0; frame < inNumberFrames; frame++) {
            samples[frame] = tone->step > 0 ? (Float32)(tone->level * sin(phase)) : tone->level;
            phase += tone->step;
        }
    }
    tone->phase = phase;
    return noErr;
}

typedef struct {
    int pre;
    int post;
} Notes;

static OSStatus Notify(void *inRefCon, AudioUnitRenderActionFlags *ioActionFlags, const AudioTimeStamp *inTimeStamp,
                       UInt32 inBusNumber, UInt32 inNumberFrames, AudioBufferList *ioData) {
    Notes *notes = (Notes *)inRefCon;
    (void)inTimeStamp;
    (void)inBusNumber;
    (void)inNumberFrames;
    (void)ioData;
    if (*ioActionFlags & kAudioUnitRenderAction_PreRender) notes->pre++;
    if (*ioActionFlags & kAudioUnitRenderAction_PostRender) notes->post++;
    return noErr;
}

static AudioStreamBasicDescription FloatFormat(Float64 rate, UInt32 channels) {
    AudioStreamBasicDescription format;
    memset(&format, 0, sizeof format);
    format.mSampleRate = rate;
    format.mFormatID = kAudioFormatLinearPCM;
    format.mFormatFlags = kAudioFormatFlagsNativeFloatPacked | kAudioFormatFlagIsNonInterleaved;
    format.mBytesPerPacket = 4;
    format.mFramesPerPacket = 1;
    format.mBytesPerFrame = 4;
    format.mChannelsPerFrame = channels;
    format.mBitsPerChannel = 32;
    return format;
}

static AudioComponentDescription Describe(OSType type, OSType subType) {
    AudioComponentDescription description;
    memset(&description, 0, sizeof description);
    description.componentType = type;
    description.componentSubType = subType;
    description.componentManufacturer = kAudioUnitManufacturer_Apple;
    return description;
}

/* Two channels of kFrames frames, and a list over them. */
typedef struct {
    Float32 left[kFrames];
    Float32 right[kFrames];
    AudioBufferList *list;
} Stereo;

static void StereoInit(Stereo *stereo) {
    stereo->list = (AudioBufferList *)calloc(1, sizeof(AudioBufferList) + sizeof(AudioBuffer));
    stereo->list->mNumberBuffers = 2;
    stereo->list->mBuffers[0].mNumberChannels = 1;
    stereo->list->mBuffers[0].mDataByteSize = sizeof stereo->left;
    stereo->list->mBuffers[0].mData = stereo->left;
    stereo->list->mBuffers[1].mNumberChannels = 1;
    stereo->list->mBuffers[1].mDataByteSize = sizeof stereo->right;
    stereo->list->mBuffers[1].mData = stereo->right;
}

static OSStatus Pull(AudioUnit unit, Stereo *stereo, Float64 sampleTime) {
    AudioUnitRenderActionFlags flags = 0;
    AudioTimeStamp stamp;
    memset(&stamp, 0, sizeof stamp);
    stamp.mSampleTime = sampleTime;
    stamp.mFlags = kAudioTimeStampSampleTimeValid;
    stereo->list->mBuffers[0].mDataByteSize = sizeof stereo->left;
    stereo->list->mBuffers[1].mDataByteSize = sizeof stereo->right;
    return AudioUnitRender(unit, &flags, &stamp, 0, kFrames, stereo->list);
}

/* The generic output pulls a sine, sample for sample. */
static void GenericOutputSine(void) {
    AudioComponentDescription description = Describe(kAudioUnitType_Output, kAudioUnitSubType_GenericOutput);
    AudioComponent component = AudioComponentFindNext(NULL, &description);
    AudioUnit unit = NULL;
    AudioStreamBasicDescription format = FloatFormat(44100, 2);
    AURenderCallbackStruct callback;
    Tone tone;
    Stereo stereo;
    Notes notes = {0, 0};
    int block, frame, exact = 1;
    double phase = 0;
    CFStringRef name = NULL;

    EXPECT(component != NULL);
    EXPECT_STATUS(AudioComponentCopyName(component, &name), noErr);
    EXPECT(name != NULL && CFStringGetLength(name) > 0);
    if (name != NULL) CFRelease(name);
    EXPECT_STATUS(AudioComponentInstanceNew(component, &unit), noErr);
    EXPECT_STATUS(AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &format, sizeof format), noErr);
    EXPECT_STATUS(AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &format, sizeof format), noErr);
    memset(&tone, 0, sizeof tone);
    tone.step = 2 * kPi * 1000.0 / 44100.0;
    tone.level = 0.5f;
    callback.inputProc = SineRender;
    callback.inputProcRefCon = &tone;
    EXPECT_STATUS(AudioUnitSetProperty(unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &callback, sizeof callback), noErr);
    EXPECT_STATUS(AudioUnitAddRenderNotify(unit, Notify, &notes), noErr);
    EXPECT_STATUS(AudioUnitInitialize(unit), noErr);
    StereoInit(&stereo);
    for (block = 0; block < 4; block++) {
        EXPECT_STATUS(Pull(unit, &stereo, block * kFrames), noErr);
        for (frame = 0; frame < kFrames; frame++) {
            Float32 expected = (Float32)(0.5f * sin(phase));
            phase += tone.step;
            if (stereo.left[frame] != expected || stereo.right[frame] != expected) exact = 0;
        }
    }
    EXPECT(exact);
    EXPECT(tone.calls == 4);
    EXPECT(notes.pre == 4 && notes.post == 4);
    EXPECT_STATUS(AudioUnitRemoveRenderNotify(unit, Notify, &notes), noErr);

    /* A callback's error is the render's. */
    tone.fail = -42;
    EXPECT_STATUS(Pull(unit, &stereo, 0), -42);
    tone.fail = noErr;
    /* A callback that disposes of its own unit: the render ends, the handle is stale after. */
    tone.disposeMe = unit;
    EXPECT_STATUS(Pull(unit, &stereo, 0), noErr);
    EXPECT_STATUS(AudioUnitInitialize(unit), kAudio_ParamError);
    EXPECT_STATUS(AudioComponentInstanceDispose(unit), kAudio_ParamError);
    free(stereo.list);
}

/* The books' mixer graph: two callbacks into a multichannel mixer, into the generic output. */
static void MixerGraph(void) {
    AUGraph graph = NULL;
    AUNode outputNode = 0, mixerNode = 0;
    AudioComponentDescription output = Describe(kAudioUnitType_Output, kAudioUnitSubType_GenericOutput);
    AudioComponentDescription mixerDescription = Describe(kAudioUnitType_Mixer, kAudioUnitSubType_MultiChannelMixer);
    AudioUnit mixer = NULL, outputUnit = NULL;
    AudioStreamBasicDescription mono = FloatFormat(44100, 1);
    UInt32 buses = 2, metering = 1, size;
    Boolean running = true, updated = false;
    Tone a, b;
    AURenderCallbackStruct callback;
    Stereo stereo;
    AudioUnitParameterValue level = 0;
    int frame, right = 1;

    EXPECT_STATUS(NewAUGraph(&graph), noErr);
    EXPECT_STATUS(AUGraphAddNode(graph, &output, &outputNode), noErr);
    EXPECT_STATUS(AUGraphAddNode(graph, &mixerDescription, &mixerNode), noErr);
    EXPECT_STATUS(AUGraphOpen(graph), noErr);
    EXPECT_STATUS(AUGraphNodeInfo(graph, mixerNode, NULL, &mixer), noErr);
    EXPECT_STATUS(AUGraphNodeInfo(graph, outputNode, NULL, &outputUnit), noErr);
    EXPECT_STATUS(AudioUnitSetProperty(mixer, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0, &buses, sizeof buses), noErr);
    EXPECT_STATUS(AudioUnitSetProperty(mixer, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &mono, sizeof mono), noErr);
    EXPECT_STATUS(AudioUnitSetProperty(mixer, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 1, &mono, sizeof mono), noErr);
    EXPECT_STATUS(AudioUnitSetProperty(mixer, kAudioUnitProperty_MeteringMode, kAudioUnitScope_Input, 0, &metering, sizeof metering), noErr);
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    a.level = 0.5f;
    b.level = 0.25f;
    callback.inputProc = SineRender;
    callback.inputProcRefCon = &a;
    EXPECT_STATUS(AUGraphSetNodeInputCallback(graph, mixerNode, 0, &callback), noErr);
    callback.inputProcRefCon = &b;
    EXPECT_STATUS(AUGraphSetNodeInputCallback(graph, mixerNode, 1, &callback), noErr);
    EXPECT_STATUS(AUGraphConnectNodeInput(graph, mixerNode, 0, outputNode, 0), noErr);
    EXPECT_STATUS(AudioUnitSetParameter(mixer, kMultiChannelMixerParam_Pan, kAudioUnitScope_Input, 0, 1.0f, 0), noErr);
    EXPECT_STATUS(AudioUnitSetParameter(mixer, kMultiChannelMixerParam_Volume, kAudioUnitScope_Output, 0, 0.5f, 0), noErr);
    EXPECT_STATUS(AUGraphInitialize(graph), noErr);
    StereoInit(&stereo);
    EXPECT_STATUS(Pull(outputUnit, &stereo, 0), noErr);
    /* Bus 0 (0.5) hard right, bus 1 (0.25) centred; the output at half volume. */
    for (frame = 0; frame < kFrames; frame++) {
        if (stereo.left[frame] != 0.125f || stereo.right[frame] != 0.375f) right = 0;
    }
    EXPECT(right);
    EXPECT_STATUS(AudioUnitGetParameter(mixer, kMultiChannelMixerParam_PreAveragePower, kAudioUnitScope_Input, 0, &level), noErr);
    EXPECT(fabs(level - 20 * log10(0.5)) < 0.01);
    /* Disabling bus 1: only bus 0 is asked. */
    EXPECT_STATUS(AudioUnitSetParameter(mixer, kMultiChannelMixerParam_Enable, kAudioUnitScope_Input, 1, 0, 0), noErr);
    b.calls = 0;
    EXPECT_STATUS(Pull(outputUnit, &stereo, kFrames), noErr);
    EXPECT(b.calls == 0 && stereo.left[0] == 0 && stereo.right[0] == 0.25f);
    /* The graph's state and its errors. */
    EXPECT_STATUS(AUGraphIsRunning(graph, &running), noErr);
    EXPECT(!running);
    EXPECT_STATUS(AUGraphUpdate(graph, &updated), noErr);
    EXPECT_STATUS(AUGraphConnectNodeInput(graph, mixerNode, 0, 4242, 0), kAUGraphErr_NodeNotFound);
    EXPECT_STATUS(AUGraphAddNode(graph, &output, &outputNode), kAUGraphErr_OutputNodeErr);
    size = 0;
    EXPECT_STATUS(AUGraphGetNodeCount(graph, &size), noErr);
    EXPECT(size == 2);
    EXPECT_STATUS(AUGraphStop(graph), noErr);
    EXPECT_STATUS(AUGraphUninitialize(graph), noErr);
    EXPECT_STATUS(AUGraphClose(graph), noErr);
    EXPECT_STATUS(DisposeAUGraph(graph), noErr);
    EXPECT_STATUS(AUGraphOpen(graph), kAudio_ParamError);
    EXPECT_STATUS(AudioUnitInitialize(mixer), kAudio_ParamError);
    free(stereo.list);
}

/* Wrong calls: Apple's codes, never a stop. */
static void ErrorPaths(void) {
    AudioComponentDescription description = Describe(kAudioUnitType_Output, kAudioUnitSubType_RemoteIO);
    AudioComponent component = AudioComponentFindNext(NULL, &description);
    AudioUnit unit = NULL;
    AudioStreamBasicDescription format = FloatFormat(44100, 2);
    UInt32 size = sizeof format, value = 0;
    Boolean writable = false;

    EXPECT_STATUS(AudioComponentInstanceNew(NULL, &unit), kAudio_ParamError);
    EXPECT_STATUS(AudioComponentInstanceNew(component, NULL), kAudio_ParamError);
    EXPECT_STATUS(AudioComponentInstanceNew(component, &unit), noErr);
    EXPECT_STATUS(AudioUnitGetProperty(unit, 0x51515151, kAudioUnitScope_Global, 0, &value, &size), kAudioUnitErr_InvalidProperty);
    size = sizeof format;
    EXPECT_STATUS(AudioUnitGetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 9, &format, &size), kAudioUnitErr_InvalidElement);
    EXPECT_STATUS(AudioUnitGetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Part, 0, &format, &size), kAudioUnitErr_InvalidScope);
    EXPECT_STATUS(AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &format, 3), kAudioUnitErr_InvalidPropertyValue);
    EXPECT_STATUS(AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, NULL, 0), kAudio_ParamError);
    EXPECT_STATUS(AudioUnitGetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, NULL, &size), kAudio_ParamError);
    EXPECT_STATUS(AudioUnitGetPropertyInfo(unit, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Input, 1, &size, &writable), noErr);
    EXPECT(size == sizeof(UInt32) && writable);
    value = 1;
    EXPECT_STATUS(AudioUnitSetProperty(unit, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Output, 0, &value, sizeof value), noErr);
    EXPECT_STATUS(AudioUnitSetProperty(unit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &value, sizeof value), noErr);
    value = 0;
    EXPECT_STATUS(AudioUnitSetProperty(unit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &value, sizeof value), kAudioUnitErr_InvalidPropertyValue);
    EXPECT_STATUS(AudioUnitSetParameter(unit, 0, kAudioUnitScope_Global, 0, 1, 0), kAudioUnitErr_InvalidParameter);
    EXPECT_STATUS(AudioOutputUnitStart(unit), kAudioUnitErr_Uninitialized);
    EXPECT_STATUS(AudioUnitRender(unit, NULL, NULL, 0, 0, NULL), kAudio_ParamError);
    EXPECT_STATUS(AudioComponentInstanceDispose(unit), noErr);
    EXPECT_STATUS(AudioComponentInstanceDispose(unit), kAudio_ParamError);
    EXPECT_STATUS(AudioOutputUnitStop(unit), kAudio_ParamError);
    EXPECT_STATUS(AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &format, sizeof format), kAudio_ParamError);
    EXPECT_STATUS(AUGraphStart(NULL), kAudio_ParamError);
    EXPECT_STATUS(DisposeAUGraph(NULL), kAudio_ParamError);
}

int main(void) {
    GenericOutputSine();
    MixerGraph();
    ErrorPaths();
    printf("audio_units: %d passed, %d failed\n", checks - failures, failures);
    return failures == 0 ? 0 : 1;
}
