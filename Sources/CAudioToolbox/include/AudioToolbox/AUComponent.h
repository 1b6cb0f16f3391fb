/*
 * AudioToolbox/AUComponent.h — Audio Unit Services: the audio unit (an instance of an audio
 * component, AudioComponent.h), the types and subtypes of Apple's units, and the calls every unit
 * answers: initialization, properties and their listeners, parameters, rendering and render
 * notifications. Written for Soundstage from Apple's published documentation; no Apple header was
 * copied. Values are Apple's.
 *
 * Every subtype Apple defines is declared, so code that names one compiles; AudioComponent.h says
 * which ones Soundstage instantiates. The properties are in AudioUnitProperties.h, the parameters
 * of Apple's units in AudioUnitParameters.h, starting and stopping an output unit in
 * AudioOutputUnit.h. The component-dispatch selectors and function-pointer types Apple declares
 * for writing units (AudioUnitRenderProc, kAudioUnitRenderSelect, ...) and AudioUnitProcess are
 * not: Soundstage hosts Apple's units, a port does not implement its own.
 *
 * Swift: the type, subtype and manufacturer constants are UInt32 (OSType), the error codes
 * OSStatus; AudioUnitRenderActionFlags is an OptionSet ([.unitRenderAction_PreRender], Apple's
 * spelling) and AUParameterEventType an enum (.parameterEvent_Immediate), as on iOS.
 */
#ifndef AudioToolbox_AUComponent_h
#define AudioToolbox_AUComponent_h

#include <CoreFoundation/CoreFoundation.h>
#include <CoreAudio/CoreAudioTypes.h>
#include <AudioToolbox/AudioComponent.h>

CA_HEADER_BEGIN

/** An audio unit: an instance of an audio component. */
typedef AudioComponentInstance AudioUnit;

/* ---- Unit types (AudioComponentDescription.componentType) ------------------------------------ */

CA_ENUM(UInt32) {
    kAudioUnitType_Output = CA_FOURCC('a', 'u', 'o', 'u'),            /* I/O with a device, or pulled by its caller */
    kAudioUnitType_MusicDevice = CA_FOURCC('a', 'u', 'm', 'u'),       /* an instrument played by MIDI */
    kAudioUnitType_MusicEffect = CA_FOURCC('a', 'u', 'm', 'f'),       /* an effect that also takes MIDI */
    kAudioUnitType_FormatConverter = CA_FOURCC('a', 'u', 'f', 'c'),   /* format, rate, time or pitch conversion */
    kAudioUnitType_Effect = CA_FOURCC('a', 'u', 'f', 'x'),
    kAudioUnitType_Mixer = CA_FOURCC('a', 'u', 'm', 'x'),
    kAudioUnitType_Panner = CA_FOURCC('a', 'u', 'p', 'n'),
    kAudioUnitType_Generator = CA_FOURCC('a', 'u', 'g', 'n'),         /* makes audio with no input (file players) */
    kAudioUnitType_OfflineEffect = CA_FOURCC('a', 'u', 'o', 'l'),
    kAudioUnitType_MIDIProcessor = CA_FOURCC('a', 'u', 'm', 'i'),
    /* Inter-app audio (iOS): units published by another app. */
    kAudioUnitType_RemoteEffect = CA_FOURCC('a', 'u', 'r', 'x'),
    kAudioUnitType_RemoteGenerator = CA_FOURCC('a', 'u', 'r', 'g'),
    kAudioUnitType_RemoteInstrument = CA_FOURCC('a', 'u', 'r', 'i'),
    kAudioUnitType_RemoteMusicEffect = CA_FOURCC('a', 'u', 'r', 'm')
};

/* The manufacturer of Apple's units (AudioComponentDescription.componentManufacturer). */
CA_ENUM(UInt32) {
    kAudioUnitManufacturer_Apple = CA_FOURCC('a', 'p', 'p', 'l')
};

/* ---- Apple's units (AudioComponentDescription.componentSubType) ------------------------------ */

/* Output units (kAudioUnitType_Output). */
CA_ENUM(UInt32) {
    kAudioUnitSubType_GenericOutput = CA_FOURCC('g', 'e', 'n', 'r'),       /* no device: the caller pulls with AudioUnitRender */
    kAudioUnitSubType_VoiceProcessingIO = CA_FOURCC('v', 'p', 'i', 'o'),   /* RemoteIO with echo cancellation */
    kAudioUnitSubType_HALOutput = CA_FOURCC('a', 'h', 'a', 'l'),           /* macOS: a chosen device */
    kAudioUnitSubType_DefaultOutput = CA_FOURCC('d', 'e', 'f', ' '),       /* macOS: the default output device */
    kAudioUnitSubType_SystemOutput = CA_FOURCC('s', 'y', 's', ' '),        /* macOS: the alert sound's device */
    kAudioUnitSubType_RemoteIO = CA_FOURCC('r', 'i', 'o', 'c')             /* iOS: the device's output (element 0) and input (element 1) */
};

/* Instruments (kAudioUnitType_MusicDevice). */
CA_ENUM(UInt32) {
    kAudioUnitSubType_DLSSynth = CA_FOURCC('d', 'l', 's', ' '),            /* macOS */
    kAudioUnitSubType_Sampler = CA_FOURCC('s', 'a', 'm', 'p'),
    kAudioUnitSubType_MIDISynth = CA_FOURCC('m', 's', 'y', 'n')
};

/* Converters (kAudioUnitType_FormatConverter). */
CA_ENUM(UInt32) {
    kAudioUnitSubType_AUConverter = CA_FOURCC('c', 'o', 'n', 'v'),         /* linear PCM format and sample rate */
    kAudioUnitSubType_Varispeed = CA_FOURCC('v', 'a', 'r', 'i'),           /* rate and pitch together */
    kAudioUnitSubType_DeferredRenderer = CA_FOURCC('d', 'e', 'f', 'r'),
    kAudioUnitSubType_Splitter = CA_FOURCC('s', 'p', 'l', 't'),
    kAudioUnitSubType_MultiSplitter = CA_FOURCC('m', 's', 'p', 'l'),
    kAudioUnitSubType_Merger = CA_FOURCC('m', 'e', 'r', 'g'),
    kAudioUnitSubType_NewTimePitch = CA_FOURCC('n', 'u', 't', 'p'),        /* rate and pitch apart */
    kAudioUnitSubType_AUiPodTimeOther = CA_FOURCC('i', 'p', 't', 'o'),
    kAudioUnitSubType_RoundTripAAC = CA_FOURCC('r', 'a', 'a', 'c'),
    kAudioUnitSubType_AUiPodTime = CA_FOURCC('i', 'p', 't', 'm'),          /* iOS, deprecated */
    kAudioUnitSubType_TimePitch = CA_FOURCC('t', 'm', 'p', 't')            /* macOS */
};

/* Effects (kAudioUnitType_Effect). */
CA_ENUM(UInt32) {
    kAudioUnitSubType_PeakLimiter = CA_FOURCC('l', 'm', 't', 'r'),
    kAudioUnitSubType_DynamicsProcessor = CA_FOURCC('d', 'c', 'm', 'p'),
    kAudioUnitSubType_LowPassFilter = CA_FOURCC('l', 'p', 'a', 's'),
    kAudioUnitSubType_HighPassFilter = CA_FOURCC('h', 'p', 'a', 's'),
    kAudioUnitSubType_BandPassFilter = CA_FOURCC('b', 'p', 'a', 's'),
    kAudioUnitSubType_HighShelfFilter = CA_FOURCC('h', 's', 'h', 'f'),
    kAudioUnitSubType_LowShelfFilter = CA_FOURCC('l', 's', 'h', 'f'),
    kAudioUnitSubType_ParametricEQ = CA_FOURCC('p', 'm', 'e', 'q'),
    kAudioUnitSubType_Distortion = CA_FOURCC('d', 'i', 's', 't'),
    kAudioUnitSubType_Delay = CA_FOURCC('d', 'e', 'l', 'y'),
    kAudioUnitSubType_SampleDelay = CA_FOURCC('s', 'd', 'l', 'y'),
    kAudioUnitSubType_NBandEQ = CA_FOURCC('n', 'b', 'e', 'q'),
    kAudioUnitSubType_Reverb2 = CA_FOURCC('r', 'v', 'b', '2'),
    kAudioUnitSubType_AUiPodEQ = CA_FOURCC('i', 'p', 'e', 'q'),            /* iOS: the Music app's equalizer presets */
    kAudioUnitSubType_GraphicEQ = CA_FOURCC('g', 'r', 'e', 'q'),           /* macOS */
    kAudioUnitSubType_MultiBandCompressor = CA_FOURCC('m', 'c', 'm', 'p'), /* macOS */
    kAudioUnitSubType_MatrixReverb = CA_FOURCC('m', 'r', 'e', 'v'),        /* macOS */
    kAudioUnitSubType_Pitch = CA_FOURCC('t', 'm', 'p', 't'),               /* macOS (kAudioUnitSubType_TimePitch's code) */
    kAudioUnitSubType_AUFilter = CA_FOURCC('f', 'i', 'l', 't'),            /* macOS */
    kAudioUnitSubType_NetSend = CA_FOURCC('n', 's', 'n', 'd'),             /* macOS */
    kAudioUnitSubType_RogerBeep = CA_FOURCC('r', 'o', 'g', 'r')            /* macOS */
};

/* Mixers (kAudioUnitType_Mixer). */
CA_ENUM(UInt32) {
    kAudioUnitSubType_MultiChannelMixer = CA_FOURCC('m', 'c', 'm', 'x'),   /* input buses mixed to one output, volume and pan each */
    kAudioUnitSubType_MatrixMixer = CA_FOURCC('m', 'x', 'm', 'x'),
    kAudioUnitSubType_SpatialMixer = CA_FOURCC('3', 'd', 'e', 'm'),        /* positions mono inputs in 3D */
    kAudioUnitSubType_AU3DMixerEmbedded = CA_FOURCC('3', 'd', 'e', 'm'),   /* iOS's older name of the spatial mixer */
    kAudioUnitSubType_StereoMixer = CA_FOURCC('s', 'm', 'x', 'r'),         /* macOS */
    kAudioUnitSubType_3DMixer = CA_FOURCC('3', 'd', 'm', 'x')              /* macOS, no longer supported there */
};

/* Panners (kAudioUnitType_Panner; macOS). */
CA_ENUM(UInt32) {
    kAudioUnitSubType_SphericalHeadPanner = CA_FOURCC('s', 'p', 'h', 'r'),
    kAudioUnitSubType_VectorPanner = CA_FOURCC('v', 'b', 'a', 's'),
    kAudioUnitSubType_SoundFieldPanner = CA_FOURCC('a', 'm', 'b', 'i'),
    kAudioUnitSubType_HRTFPanner = CA_FOURCC('h', 'r', 't', 'f')
};

/* Generators (kAudioUnitType_Generator). */
CA_ENUM(UInt32) {
    kAudioUnitSubType_NetReceive = CA_FOURCC('n', 'r', 'c', 'v'),          /* macOS */
    kAudioUnitSubType_ScheduledSoundPlayer = CA_FOURCC('s', 's', 'p', 'l'),
    kAudioUnitSubType_AudioFilePlayer = CA_FOURCC('a', 'f', 'p', 'l')
};

/* ---- Rendering -------------------------------------------------------------------------------- */

/** What a render call or a render notification is about (Swift: .unitRenderAction_PreRender, ...). */
typedef CA_OPTIONS(UInt32, AudioUnitRenderActionFlags) {
    kAudioUnitRenderAction_PreRender = (1U << 2),             /* a notification before the unit renders */
    kAudioUnitRenderAction_PostRender = (1U << 3),            /* a notification after it rendered */
    kAudioUnitRenderAction_OutputIsSilence = (1U << 4),       /* the buffers hold only zeros (a hint; they must be zeros) */
    kAudioOfflineUnitRenderAction_Preflight = (1U << 5),      /* offline units: the pass before rendering */
    kAudioOfflineUnitRenderAction_Render = (1U << 6),         /* offline units: rendering */
    kAudioOfflineUnitRenderAction_Complete = (1U << 7),       /* offline units: the pass is done */
    kAudioUnitRenderAction_PostRenderError = (1U << 8),       /* with PostRender: rendering failed (LastRenderError says why) */
    kAudioUnitRenderAction_DoNotCheckRenderArgs = (1U << 9)   /* skip the checks of the render call's arguments */
};

/* ---- What the functions return ---------------------------------------------------------------- */

CA_ENUM(OSStatus) {
    kAudioUnitErr_InvalidProperty = -10879,           /* a property the unit does not have */
    kAudioUnitErr_InvalidParameter = -10878,          /* a parameter the unit does not have */
    kAudioUnitErr_InvalidElement = -10877,            /* an element past the scope's count */
    kAudioUnitErr_NoConnection = -10876,              /* an input with nothing to pull from */
    kAudioUnitErr_FailedInitialization = -10875,
    kAudioUnitErr_TooManyFramesToProcess = -10874,    /* more frames than kAudioUnitProperty_MaximumFramesPerSlice */
    kAudioUnitErr_IllegalInstrument = -10873,
    kAudioUnitErr_InstrumentTypeNotFound = -10872,
    kAudioUnitErr_InvalidFile = -10871,
    kAudioUnitErr_UnknownFileType = -10870,
    kAudioUnitErr_FileNotSpecified = -10869,
    kAudioUnitErr_FormatNotSupported = -10868,        /* a stream format the unit does not take */
    kAudioUnitErr_Uninitialized = -10867,             /* rendering before AudioUnitInitialize */
    kAudioUnitErr_InvalidScope = -10866,
    kAudioUnitErr_PropertyNotWritable = -10865,
    kAudioUnitErr_CannotDoInCurrentContext = -10863,  /* not now (on the render thread, or while initialized); try later */
    kAudioUnitErr_InvalidPropertyValue = -10851,      /* a value out of range, or of the wrong size */
    kAudioUnitErr_PropertyNotInUse = -10850,
    kAudioUnitErr_Initialized = -10849,               /* a change only an uninitialized unit takes */
    kAudioUnitErr_InvalidOfflineRender = -10848,
    kAudioUnitErr_Unauthorized = -10847,
    kAudioUnitErr_MIDIOutputBufferFull = -66753,
    kAudioUnitErr_RenderTimeout = -66745,
    kAudioUnitErr_ExtensionNotFound = -66744,
    kAudioUnitErr_InvalidParameterValue = -66743,
    kAudioUnitErr_InvalidFilePath = -66742,
    kAudioUnitErr_MissingKey = -66741,
    kAudioUnitErr_ComponentManagerNotSupported = -66740,
    kAudioUnitErr_MultipleVoiceProcessors = -66635    /* a second voice-processing unit doing I/O */
};

/* ---- Properties and parameters ---------------------------------------------------------------- */

/** A property of a unit (AudioUnitProperties.h lists them). */
typedef UInt32 AudioUnitPropertyID;
/** A part of a unit a property or parameter applies to: kAudioUnitScope_Global, _Input, _Output, ... */
typedef UInt32 AudioUnitScope;
/** An element (a bus) of a scope, numbered from 0. */
typedef UInt32 AudioUnitElement;
/** A parameter of a unit (AudioUnitParameters.h lists Apple's). */
typedef UInt32 AudioUnitParameterID;
/** A parameter's value. */
typedef Float32 AudioUnitParameterValue;

/** How a scheduled parameter change happens (Swift: .parameterEvent_Immediate, .parameterEvent_Ramped). */
typedef CA_NAMED_ENUM(UInt32, AUParameterEventType) {
    kParameterEvent_Immediate = 1,   /* at once, at a frame of the next render */
    kParameterEvent_Ramped = 2       /* linearly, from one value to another over some frames */
};

/** A scheduled change of a parameter (AudioUnitScheduleParameters): eventType says which member of
    eventValues holds it. Offsets are frames into the next render call. */
typedef struct AudioUnitParameterEvent {
    AudioUnitScope scope;
    AudioUnitElement element;
    AudioUnitParameterID parameter;
    AUParameterEventType eventType;
    union {
        struct {
            SInt32 startBufferOffset;            /* may be negative: a ramp that began in an earlier render */
            UInt32 durationInFrames;
            AudioUnitParameterValue startValue;
            AudioUnitParameterValue endValue;
        } ramp;
        struct {
            UInt32 bufferOffset;
            AudioUnitParameterValue value;
        } immediate;
    } eventValues;
} AudioUnitParameterEvent;

/** A parameter of a particular unit, scope and element. */
typedef struct AudioUnitParameter {
    AudioUnit CA_NULLABLE mAudioUnit;
    AudioUnitParameterID mParameterID;
    AudioUnitScope mScope;
    AudioUnitElement mElement;
} AudioUnitParameter;

/** A property of a particular unit, scope and element. */
typedef struct AudioUnitProperty {
    AudioUnit CA_NULLABLE mAudioUnit;
    AudioUnitPropertyID mPropertyID;
    AudioUnitScope mScope;
    AudioUnitElement mElement;
} AudioUnitProperty;

/**
 * A render callback: as an input callback (kAudioUnitProperty_SetRenderCallback,
 * kAudioOutputUnitProperty_SetInputCallback) it fills ioData with inNumberFrames frames for bus
 * inBusNumber; as a render notification (AudioUnitAddRenderNotify) it is called before and after
 * the unit renders, *ioActionFlags saying which. An I/O unit's input callback
 * (kAudioOutputUnitProperty_SetInputCallback) is given a NULL ioData: it calls AudioUnitRender on
 * element 1 itself to fetch the input. It runs on the render thread: no locks,
 * no allocation, no waiting. With Apple's nullability: in Swift inRefCon arrives as an
 * UnsafeMutableRawPointer (not an optional), ioData as an optional.
 */
typedef OSStatus (*AURenderCallback)(void *CA_NONNULL inRefCon, AudioUnitRenderActionFlags *CA_NONNULL ioActionFlags,
                                     const AudioTimeStamp *CA_NONNULL inTimeStamp, UInt32 inBusNumber, UInt32 inNumberFrames,
                                     AudioBufferList *CA_NULLABLE ioData);

/** Called when a property changes (AudioUnitAddPropertyListener), on the thread that changed it. */
typedef void (*AudioUnitPropertyListenerProc)(void *CA_NONNULL inRefCon, AudioUnit CA_NONNULL inUnit, AudioUnitPropertyID inID,
                                              AudioUnitScope inScope, AudioUnitElement inElement);

/* ---- The calls -------------------------------------------------------------------------------- */

/** Prepares the unit to render (allocates what its formats need); most formats are set before. */
OSStatus AudioUnitInitialize(AudioUnit CA_NULLABLE inUnit);
/** Undoes AudioUnitInitialize (an output unit stops first). */
OSStatus AudioUnitUninitialize(AudioUnit CA_NULLABLE inUnit);
/** A property's size and whether it can be set (either pointer may be NULL). */
OSStatus AudioUnitGetPropertyInfo(AudioUnit CA_NULLABLE inUnit, AudioUnitPropertyID inID, AudioUnitScope inScope,
                                  AudioUnitElement inElement, UInt32 *CA_NULLABLE outDataSize, Boolean *CA_NULLABLE outWritable);
/** Reads a property into outData (*ioDataSize bytes of room; set to the size written). */
OSStatus AudioUnitGetProperty(AudioUnit CA_NULLABLE inUnit, AudioUnitPropertyID inID, AudioUnitScope inScope,
                              AudioUnitElement inElement, void *CA_NULLABLE outData, UInt32 *CA_NULLABLE ioDataSize);
/** Sets a property (inData NULL clears it, where the property can be cleared). */
OSStatus AudioUnitSetProperty(AudioUnit CA_NULLABLE inUnit, AudioUnitPropertyID inID, AudioUnitScope inScope,
                              AudioUnitElement inElement, const void *CA_NULLABLE inData, UInt32 inDataSize);
/** Calls inProc whenever the property changes, in any scope or element. */
OSStatus AudioUnitAddPropertyListener(AudioUnit CA_NULLABLE inUnit, AudioUnitPropertyID inID,
                                      AudioUnitPropertyListenerProc CA_NULLABLE inProc, void *CA_NULLABLE inProcUserData);
/** Removes a listener added with the same function and user data. */
OSStatus AudioUnitRemovePropertyListenerWithUserData(AudioUnit CA_NULLABLE inUnit, AudioUnitPropertyID inID,
                                                     AudioUnitPropertyListenerProc CA_NULLABLE inProc,
                                                     void *CA_NULLABLE inProcUserData);
/** Calls inProc before and after every render of the unit (on the render thread). */
OSStatus AudioUnitAddRenderNotify(AudioUnit CA_NULLABLE inUnit, AURenderCallback CA_NULLABLE inProc, void *CA_NULLABLE inProcUserData);
/** Removes a render notification added with the same function and user data. */
OSStatus AudioUnitRemoveRenderNotify(AudioUnit CA_NULLABLE inUnit, AURenderCallback CA_NULLABLE inProc, void *CA_NULLABLE inProcUserData);
/** A parameter's current value. */
OSStatus AudioUnitGetParameter(AudioUnit CA_NULLABLE inUnit, AudioUnitParameterID inID, AudioUnitScope inScope,
                               AudioUnitElement inElement, AudioUnitParameterValue *CA_NULLABLE outValue);
/** Sets a parameter, from frame inBufferOffsetInFrames of the next render (0: at once). */
OSStatus AudioUnitSetParameter(AudioUnit CA_NULLABLE inUnit, AudioUnitParameterID inID, AudioUnitScope inScope,
                               AudioUnitElement inElement, AudioUnitParameterValue inValue, UInt32 inBufferOffsetInFrames);
/** Schedules inNumParamEvents parameter changes for the next render. */
OSStatus AudioUnitScheduleParameters(AudioUnit CA_NULLABLE inUnit, const AudioUnitParameterEvent *CA_NULLABLE inParameterEvent,
                                     UInt32 inNumParamEvents);
/** Renders inNumberFrames frames of output bus inOutputBusNumber into ioData, pulling the unit's
    inputs. A buffer whose mData is NULL is given the unit's own memory. */
OSStatus AudioUnitRender(AudioUnit CA_NULLABLE inUnit, AudioUnitRenderActionFlags *CA_NULLABLE ioActionFlags,
                         const AudioTimeStamp *CA_NULLABLE inTimeStamp, UInt32 inOutputBusNumber, UInt32 inNumberFrames,
                         AudioBufferList *CA_NULLABLE ioData);
/** Clears the unit's state (delay lines, tails, smoothing) without changing its settings. */
OSStatus AudioUnitReset(AudioUnit CA_NULLABLE inUnit, AudioUnitScope inScope, AudioUnitElement inElement);

CA_HEADER_END

#endif /* AudioToolbox_AUComponent_h */
