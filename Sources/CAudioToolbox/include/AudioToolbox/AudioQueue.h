/*
 * AudioToolbox/AudioQueue.h — Audio Queue Services: a queue of buffers the program fills with
 * packets of any format Audio Converter Services decodes, played in order, each handed back to the
 * program's callback when it has been used. Written for Soundstage from Apple's published
 * documentation; no Apple header was copied. Values are Apple's.
 *
 * What Soundstage has so far (docs/audiotoolbox.md, "Audio Queue Services"): output queues on the
 * app's output device (the desktop server, else OpenAL's default device) under the app's audio
 * session, and rendered offline (AudioQueueSetOfflineRenderFormat, AudioQueueOfflineRender:
 * Apple's offline-render pattern, bit-exact from run to run); their buffers, transport, start
 * times, clocks and timelines, volume, pan, the time-pitch unit and the properties below; input
 * queues. The dispatch-queue forms exist for Swift only (a C block needs -fblocks and
 * libdispatch's headers): they are not declared, so a port that needs them fails to build rather
 * than failing at run time. Every call on a disposed queue or a buffer not its own is Apple's
 * error code, never a crash.
 */
#ifndef AudioToolbox_AudioQueue_h
#define AudioToolbox_AudioQueue_h

#include <CoreFoundation/CoreFoundation.h>
#include <CoreAudio/CoreAudioTypes.h>

CA_HEADER_BEGIN

/* What the functions return. */
CA_ENUM(OSStatus) {
    kAudioQueueErr_InvalidBuffer = -66687,        /* a buffer not of this queue, or freed */
    kAudioQueueErr_BufferEmpty = -66686,          /* enqueued with no bytes (and no packets) */
    kAudioQueueErr_DisposalPending = -66685,
    kAudioQueueErr_InvalidProperty = -66684,
    kAudioQueueErr_InvalidPropertySize = -66683,
    kAudioQueueErr_InvalidParameter = -66682,
    kAudioQueueErr_CannotStart = -66681,
    kAudioQueueErr_InvalidDevice = -66680,
    kAudioQueueErr_BufferInQueue = -66679,        /* freeing a buffer that is enqueued */
    kAudioQueueErr_InvalidRunState = -66678,
    kAudioQueueErr_InvalidQueueType = -66677,
    kAudioQueueErr_Permissions = -66676,
    kAudioQueueErr_InvalidPropertyValue = -66675,
    kAudioQueueErr_PrimeTimedOut = -66674,
    kAudioQueueErr_CodecNotFound = -66673,        /* a format no converter decodes */
    kAudioQueueErr_InvalidCodecAccess = -66672,
    kAudioQueueErr_QueueInvalidated = -66671,
    kAudioQueueErr_TooManyTaps = -66670,
    kAudioQueueErr_InvalidTapContext = -66669,
    kAudioQueueErr_RecordUnderrun = -66668,
    kAudioQueueErr_InvalidTapType = -66667,
    kAudioQueueErr_BufferEnqueuedTwice = -66666,
    kAudioQueueErr_CannotStartYet = -66665,
    kAudioQueueErr_EnqueueDuringReset = -66632,   /* enqueued from a callback during a reset or an immediate stop */
    kAudioQueueErr_InvalidOfflineMode = -66626    /* offline rendering without an offline render format */
};

/** A property of a queue. */
typedef UInt32 AudioQueuePropertyID;
/** A parameter of a queue. */
typedef UInt32 AudioQueueParameterID;
/** A parameter's value. */
typedef Float32 AudioQueueParameterValue;

/** An audio queue. Not a pointer to anything here: a handle that AudioQueueDispose leaves stale. */
typedef struct OpaqueAudioQueue *AudioQueueRef;

/** A buffer of a queue, made by AudioQueueAllocateBuffer (which sets the constant fields). */
typedef struct AudioQueueBuffer {
    const UInt32 mAudioDataBytesCapacity;
    void *CA_NONNULL const mAudioData;
    UInt32 mAudioDataByteSize;
    void *CA_NULLABLE mUserData;
    const UInt32 mPacketDescriptionCapacity;
    AudioStreamPacketDescription *const CA_NULLABLE mPacketDescriptions;
    UInt32 mPacketDescriptionCount;
} AudioQueueBuffer;
/** A pointer to a queue's buffer. */
typedef AudioQueueBuffer *AudioQueueBufferRef;

/** A parameter and its value. */
typedef struct AudioQueueParameterEvent {
    AudioQueueParameterID mID;
    AudioQueueParameterValue mValue;
} AudioQueueParameterEvent;

/** One channel's levels, 0 (silence) to 1 (full scale), or in decibels for CurrentLevelMeterDB. */
typedef struct AudioQueueLevelMeterState {
    Float32 mAveragePower;
    Float32 mPeakPower;
} AudioQueueLevelMeterState;

/** Called with a buffer the queue has finished with. */
typedef void (*AudioQueueOutputCallback)(void *CA_NULLABLE inUserData, AudioQueueRef CA_NONNULL inAQ, AudioQueueBufferRef CA_NONNULL inBuffer);
/** Called with a buffer an input queue has filled: its first frame's time (mSampleTime: frames of
    the queue's format since recording started), and for a format of varying packet sizes the
    packets' descriptions (also in the buffer's own, when it was allocated with room for them). */
typedef void (*AudioQueueInputCallback)(void *CA_NULLABLE inUserData, AudioQueueRef CA_NONNULL inAQ, AudioQueueBufferRef CA_NONNULL inBuffer,
                                        const AudioTimeStamp *CA_NONNULL inStartTime, UInt32 inNumberPacketDescriptions,
                                        const AudioStreamPacketDescription *CA_NULLABLE inPacketDescs);
/** Called when a property changes (kAudioQueueProperty_IsRunning). */
typedef void (*AudioQueuePropertyListenerProc)(void *CA_NULLABLE inUserData, AudioQueueRef CA_NONNULL inAQ, AudioQueuePropertyID inID);

/* The properties. The comment after each says its type and what Soundstage answers. */
CA_ENUM(AudioQueuePropertyID) {
    kAudioQueueProperty_IsRunning = CA_FOURCC('a', 'q', 'r', 'n'),               /* UInt32, get, listener */
    kAudioQueueDeviceProperty_SampleRate = CA_FOURCC('a', 'q', 's', 'r'),        /* Float64, get: the app's device's rate */
    kAudioQueueDeviceProperty_NumberChannels = CA_FOURCC('a', 'q', 'd', 'c'),    /* UInt32, get: its channels (an input's once started) */
    kAudioQueueProperty_CurrentDevice = CA_FOURCC('a', 'q', 'c', 'd'),           /* CFStringRef (yours to release), get; set: NULL or the same */
    kAudioQueueProperty_MagicCookie = CA_FOURCC('a', 'q', 'm', 'c'),             /* bytes, get/set: set before enqueuing */
    kAudioQueueProperty_MaximumOutputPacketSize = CA_FOURCC('x', 'o', 'p', 's'), /* UInt32, get */
    kAudioQueueProperty_StreamDescription = CA_FOURCC('a', 'q', 'f', 't'),       /* AudioStreamBasicDescription, get */
    kAudioQueueProperty_ChannelLayout = CA_FOURCC('a', 'q', 'c', 'l'),           /* AudioChannelLayout, get/set: in channel order */
    kAudioQueueProperty_EnableLevelMetering = CA_FOURCC('a', 'q', 'm', 'e'),     /* UInt32, get/set */
    kAudioQueueProperty_CurrentLevelMeter = CA_FOURCC('a', 'q', 'm', 'v'),       /* AudioQueueLevelMeterState per channel, get */
    kAudioQueueProperty_CurrentLevelMeterDB = CA_FOURCC('a', 'q', 'm', 'd'),     /* the same in decibels, get */
    kAudioQueueProperty_DecodeBufferSizeFrames = CA_FOURCC('d', 'c', 'b', 'f'),  /* UInt32, get/set: kept */
    kAudioQueueProperty_ConverterError = CA_FOURCC('q', 'c', 'v', 'e'),          /* UInt32 (an OSStatus), get */
    kAudioQueueProperty_EnableTimePitch = CA_FOURCC('q', '_', 't', 'p'),         /* UInt32, get/set before the first start */
    kAudioQueueProperty_TimePitchAlgorithm = CA_FOURCC('q', 't', 'p', 'a'),      /* UInt32 (below), get/set */
    kAudioQueueProperty_TimePitchBypass = CA_FOURCC('q', 't', 'p', 'b')          /* UInt32, get/set: 1 plays at rate 1, pitch 0 */
};
/* The time-pitch algorithms (kAudioQueueProperty_TimePitchAlgorithm). Spectral and time domain
   keep the pitch as PlayRate changes the speed (SoundTouch's time stretch here); Pitch moves the
   pitch under Spectral only; Varispeed changes speed and pitch together. */
CA_ENUM(UInt32) {
    kAudioQueueTimePitchAlgorithm_Spectral = CA_FOURCC('s', 'p', 'e', 'c'),
    kAudioQueueTimePitchAlgorithm_TimeDomain = CA_FOURCC('t', 'i', 'd', 'o'),
    kAudioQueueTimePitchAlgorithm_Varispeed = CA_FOURCC('v', 's', 'p', 'd'),
    kAudioQueueTimePitchAlgorithm_LowQualityZeroLatency = CA_FOURCC('l', 'q', 'z', 'l')
};

/* The parameters. */
CA_ENUM(AudioQueueParameterID) {
    kAudioQueueParam_Volume = 1,           /* 0...1, linear gain: applied */
    kAudioQueueParam_PlayRate = 2,         /* 0.5...2, heard with EnableTimePitch on a device (offline renders play at 1) */
    kAudioQueueParam_Pitch = 3,            /* -2400...2400 cents, heard with the Spectral algorithm on a device */
    kAudioQueueParam_VolumeRampTime = 4,   /* seconds over which a volume change ramps: applied */
    kAudioQueueParam_Pan = 13              /* -1 (left)...1 (right), equal power on stereo output: applied */
};

/** A new output queue playing packets of inFormat; inCallbackProc gets each buffer back on
    inCallbackRunLoop (NULL: the queue's own thread) in inCallbackRunLoopMode. inFlags must be 0. */
OSStatus AudioQueueNewOutput(const AudioStreamBasicDescription *CA_NULLABLE inFormat, AudioQueueOutputCallback CA_NULLABLE inCallbackProc,
                             void *CA_NULLABLE inUserData, CFRunLoopRef CA_NULLABLE inCallbackRunLoop,
                             CFStringRef CA_NULLABLE inCallbackRunLoopMode, UInt32 inFlags,
                             AudioQueueRef CA_NULLABLE *CA_NULLABLE outAQ);
/** A new input queue recording the app's input (the desktop server's default input; on a loopback
    device, its own mix) in inFormat: linear PCM or any format a converter encodes (AAC, Apple
    Lossless, IMA4, µ-law, A-law). inCallbackProc gets each filled buffer on inCallbackRunLoop
    (NULL: the capturing thread). inFlags must be 0. Recording needs a session of category record
    or play-and-record (AudioSession.h): otherwise AudioQueueStart is kAudioQueueErr_CannotStart. */
OSStatus AudioQueueNewInput(const AudioStreamBasicDescription *CA_NULLABLE inFormat, AudioQueueInputCallback CA_NULLABLE inCallbackProc,
                            void *CA_NULLABLE inUserData, CFRunLoopRef CA_NULLABLE inCallbackRunLoop,
                            CFStringRef CA_NULLABLE inCallbackRunLoopMode, UInt32 inFlags,
                            AudioQueueRef CA_NULLABLE *CA_NULLABLE outAQ);
/** Disposes of the queue and its buffers (at once, or once what is enqueued has played). */
OSStatus AudioQueueDispose(AudioQueueRef CA_NULLABLE inAQ, Boolean inImmediate);
/** A new buffer of inBufferByteSize bytes. */
OSStatus AudioQueueAllocateBuffer(AudioQueueRef CA_NULLABLE inAQ, UInt32 inBufferByteSize,
                                  AudioQueueBufferRef CA_NULLABLE *CA_NULLABLE outBuffer);
/** A new buffer with room for inNumberPacketDescriptions packet descriptions. */
OSStatus AudioQueueAllocateBufferWithPacketDescriptions(AudioQueueRef CA_NULLABLE inAQ, UInt32 inBufferByteSize,
                                                        UInt32 inNumberPacketDescriptions,
                                                        AudioQueueBufferRef CA_NULLABLE *CA_NULLABLE outBuffer);
/** Frees a buffer that is not enqueued. */
OSStatus AudioQueueFreeBuffer(AudioQueueRef CA_NULLABLE inAQ, AudioQueueBufferRef CA_NULLABLE inBuffer);
/** Enqueues a buffer's mAudioDataByteSize bytes; a variable-size format needs its packet
    descriptions (here or in the buffer's own). */
OSStatus AudioQueueEnqueueBuffer(AudioQueueRef CA_NULLABLE inAQ, AudioQueueBufferRef CA_NULLABLE inBuffer, UInt32 inNumPacketDescs,
                                 const AudioStreamPacketDescription *CA_NULLABLE inPacketDescs);
/** Enqueues a buffer as AudioQueueEnqueueBuffer does, with inTrimFramesAtStart and
    inTrimFramesAtEnd frames of its audio left out (a gapless file's priming and remainder),
    inParamValues (Volume, VolumeRampTime, Pan, PlayRate, Pitch) applied when its first frame is
    decoded, and inStartTime (mSampleTime on the queue's clock, as AudioQueueGetCurrentTime counts;
    NULL: after what is enqueued) before which silence plays. *outActualStartTime: the sample it is
    scheduled on (the time given, else where what is enqueued ends). Output queues only. */
OSStatus AudioQueueEnqueueBufferWithParameters(AudioQueueRef CA_NULLABLE inAQ, AudioQueueBufferRef CA_NULLABLE inBuffer,
                                               UInt32 inNumPacketDescs, const AudioStreamPacketDescription *CA_NULLABLE inPacketDescs,
                                               UInt32 inTrimFramesAtStart, UInt32 inTrimFramesAtEnd, UInt32 inNumParamValues,
                                               const AudioQueueParameterEvent *CA_NULLABLE inParamValues,
                                               const AudioTimeStamp *CA_NULLABLE inStartTime, AudioTimeStamp *CA_NULLABLE outActualStartTime);
/** Starts (inStartTime: NULL, as soon as possible). */
OSStatus AudioQueueStart(AudioQueueRef CA_NULLABLE inAQ, const AudioTimeStamp *CA_NULLABLE inStartTime);
/** Decodes ahead so a start plays at once; *outNumberOfFramesPrepared says how many frames are ready. */
OSStatus AudioQueuePrime(AudioQueueRef CA_NULLABLE inAQ, UInt32 inNumberOfFramesToPrepare, UInt32 *CA_NULLABLE outNumberOfFramesPrepared);
/** Stops at once (every enqueued buffer handed back), or once what is enqueued has played. */
OSStatus AudioQueueStop(AudioQueueRef CA_NULLABLE inAQ, Boolean inImmediate);
/** Pauses; AudioQueueStart resumes. */
OSStatus AudioQueuePause(AudioQueueRef CA_NULLABLE inAQ);
/** Makes sure what is enqueued plays to its end (the decoder's last frames included). */
OSStatus AudioQueueFlush(AudioQueueRef CA_NULLABLE inAQ);
/** Hands back every enqueued buffer and resets the decoder, leaving the queue running. */
OSStatus AudioQueueReset(AudioQueueRef CA_NULLABLE inAQ);
/** A parameter's value. */
OSStatus AudioQueueGetParameter(AudioQueueRef CA_NULLABLE inAQ, AudioQueueParameterID inParamID, AudioQueueParameterValue *CA_NULLABLE outValue);
/** Sets a parameter. */
OSStatus AudioQueueSetParameter(AudioQueueRef CA_NULLABLE inAQ, AudioQueueParameterID inParamID, AudioQueueParameterValue inValue);
/** Reads a property into outData (*ioDataSize bytes; set to the size written). */
OSStatus AudioQueueGetProperty(AudioQueueRef CA_NULLABLE inAQ, AudioQueuePropertyID inID, void *CA_NULLABLE outData,
                               UInt32 *CA_NULLABLE ioDataSize);
/** Sets a property. */
OSStatus AudioQueueSetProperty(AudioQueueRef CA_NULLABLE inAQ, AudioQueuePropertyID inID, const void *CA_NULLABLE inData, UInt32 inDataSize);
/** The size of a property's value. */
OSStatus AudioQueueGetPropertySize(AudioQueueRef CA_NULLABLE inAQ, AudioQueuePropertyID inID, UInt32 *CA_NULLABLE outDataSize);
/** Calls inProc when the property changes (kAudioQueueProperty_IsRunning), where the callback runs. */
OSStatus AudioQueueAddPropertyListener(AudioQueueRef CA_NULLABLE inAQ, AudioQueuePropertyID inID,
                                       AudioQueuePropertyListenerProc CA_NULLABLE inProc, void *CA_NULLABLE inUserData);
/** Removes a listener added with the same function and data. */
OSStatus AudioQueueRemovePropertyListener(AudioQueueRef CA_NULLABLE inAQ, AudioQueuePropertyID inID,
                                          AudioQueuePropertyListenerProc CA_NULLABLE inProc, void *CA_NULLABLE inUserData);
/** Makes the queue render offline into inFormat (linear PCM; NULL turns offline rendering off). */
OSStatus AudioQueueSetOfflineRenderFormat(AudioQueueRef CA_NULLABLE inAQ, const AudioStreamBasicDescription *CA_NULLABLE inFormat,
                                          const AudioChannelLayout *CA_NULLABLE inLayout);
/** Renders inNumberFrames frames of the offline render format into ioBuffer (a buffer of this
    queue), setting its mAudioDataByteSize; 0 bytes once a stopped queue has played everything. */
OSStatus AudioQueueOfflineRender(AudioQueueRef CA_NULLABLE inAQ, const AudioTimeStamp *CA_NULLABLE inTimestamp,
                                 AudioQueueBufferRef CA_NULLABLE ioBuffer, UInt32 inNumberFrames);
/** A timeline of the queue's clock, reporting whether it jumped (an interruption, a reset, a new run). */
typedef struct OpaqueAudioQueueTimeline *AudioQueueTimelineRef;
/** Makes the queue's timeline (one a queue). */
OSStatus AudioQueueCreateTimeline(AudioQueueRef CA_NULLABLE inAQ, AudioQueueTimelineRef CA_NULLABLE *CA_NULLABLE outTimeline);
/** Disposes of the queue's timeline. */
OSStatus AudioQueueDisposeTimeline(AudioQueueRef CA_NULLABLE inAQ, AudioQueueTimelineRef CA_NULLABLE inTimeline);
/** The queue's clock: mSampleTime counts frames of the queue's rate played since its start (0
    before it and after a stop). With a timeline, *outTimelineDiscontinuity says whether the clock
    jumped since the last call. */
OSStatus AudioQueueGetCurrentTime(AudioQueueRef CA_NULLABLE inAQ, AudioQueueTimelineRef CA_NULLABLE inTimeline,
                                  AudioTimeStamp *CA_NULLABLE outTimeStamp, Boolean *CA_NULLABLE outTimelineDiscontinuity);
/** The output device's clock now: mSampleTime in frames of the device's rate, mHostTime in
    nanoseconds of CLOCK_MONOTONIC (iOS: mach ticks). AudioQueueStart takes a time on it. */
OSStatus AudioQueueDeviceGetCurrentTime(AudioQueueRef CA_NULLABLE inAQ, AudioTimeStamp *CA_NULLABLE outTimeStamp);
/** inTime (a sample time or a host time of the device) with both filled in. */
OSStatus AudioQueueDeviceTranslateTime(AudioQueueRef CA_NULLABLE inAQ, const AudioTimeStamp *CA_NULLABLE inTime,
                                       AudioTimeStamp *CA_NULLABLE outTime);
/** The device time closest to *ioRequestedStartTime at which a start can happen (inFlags: 0). */
OSStatus AudioQueueDeviceGetNearestStartTime(AudioQueueRef CA_NULLABLE inAQ, AudioTimeStamp *CA_NULLABLE ioRequestedStartTime,
                                             UInt32 inFlags);

CA_HEADER_END

#endif /* AudioToolbox_AudioQueue_h */
