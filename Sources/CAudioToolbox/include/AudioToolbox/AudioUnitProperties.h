/*
 * AudioToolbox/AudioUnitProperties.h — the properties of audio units (AudioUnitGetProperty,
 * AudioUnitSetProperty, AUComponent.h): their scopes, the general properties every unit may have,
 * those of the output, mixer, spatial mixer, converter and player units, and the structures their
 * values are. Written for Soundstage from Apple's published documentation; no Apple header was
 * copied. Values are Apple's.
 *
 * The comment after a property says the type of its value and its usual scope. A unit answers
 * kAudioUnitErr_InvalidProperty for a property it does not have, kAudioUnitErr_InvalidScope or
 * kAudioUnitErr_InvalidElement for a scope or element it lacks, and
 * kAudioUnitErr_InvalidPropertyValue for a value of the wrong size or out of range. Not declared:
 * the properties of unit views, plug-in migration, MIDI mappings and sample-bank instruments
 * (macOS hosting and the sampler's), which a port has no use for on Linux.
 *
 * Swift: scopes import as AudioUnitScope, properties as AudioUnitPropertyID, so
 * AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &asbd, size)
 * needs no conversions; the named enums and option sets import as Apple's do
 * (AUSpatializationAlgorithm.spatializationAlgorithm_HRTF, AudioUnitParameterOptions.flag_IsWritable).
 * kRenderQuality_*, kAudioUnitClumpID_System and kAudioUnitParameterName_Full are Int, as on iOS.
 */
#ifndef AudioToolbox_AudioUnitProperties_h
#define AudioToolbox_AudioUnitProperties_h

#include <CoreFoundation/CoreFoundation.h>
#include <CoreAudio/CoreAudioTypes.h>
#include <AudioToolbox/AUComponent.h>

CA_HEADER_BEGIN

/* ---- Scopes ----------------------------------------------------------------------------------- */

CA_ENUM(AudioUnitScope) {
    kAudioUnitScope_Global = 0,      /* the unit as a whole (element 0) */
    kAudioUnitScope_Input = 1,       /* an input bus */
    kAudioUnitScope_Output = 2,      /* an output bus */
    kAudioUnitScope_Group = 3,       /* an instrument's MIDI channel */
    kAudioUnitScope_Part = 4,        /* a multitimbral instrument's part */
    kAudioUnitScope_Note = 5,        /* a playing note */
    kAudioUnitScope_Layer = 6,
    kAudioUnitScope_LayerItem = 7
};

/* ---- The general properties ------------------------------------------------------------------- */

CA_ENUM(AudioUnitPropertyID) {
    kAudioUnitProperty_ClassInfo = 0,                    /* CFPropertyListRef (the unit's state), global */
    kAudioUnitProperty_MakeConnection = 1,               /* AudioUnitConnection, input: pull this input from another unit */
    kAudioUnitProperty_SampleRate = 2,                   /* Float64, input or output */
    kAudioUnitProperty_ParameterList = 3,                /* AudioUnitParameterID[], any scope */
    kAudioUnitProperty_ParameterInfo = 4,                /* AudioUnitParameterInfo, any scope; the element is the parameter ID */
    kAudioUnitProperty_CPULoad = 6,                      /* Float64, 0...1, global */
    kAudioUnitProperty_StreamFormat = 8,                 /* AudioStreamBasicDescription, input or output */
    kAudioUnitProperty_ElementCount = 11,                /* UInt32, any scope: the number of buses */
    kAudioUnitProperty_Latency = 12,                     /* Float64 seconds, global */
    kAudioUnitProperty_SupportedNumChannels = 13,        /* AUChannelInfo[], global */
    kAudioUnitProperty_MaximumFramesPerSlice = 14,       /* UInt32, global: the most frames one render asks for */
    kAudioUnitProperty_ParameterValueStrings = 16,       /* CFArrayRef of CFStringRef, any scope; the element is the parameter ID */
    kAudioUnitProperty_AudioChannelLayout = 19,          /* AudioChannelLayout (variable size), input or output */
    kAudioUnitProperty_TailTime = 20,                    /* Float64 seconds, global */
    kAudioUnitProperty_BypassEffect = 21,                /* UInt32 (0 or 1), global */
    kAudioUnitProperty_LastRenderError = 22,             /* OSStatus, global: for the PostRenderError notification */
    kAudioUnitProperty_SetRenderCallback = 23,           /* AURenderCallbackStruct, input: the callback that supplies this input */
    kAudioUnitProperty_FactoryPresets = 24,              /* CFArrayRef of AUPreset, global */
    kAudioUnitProperty_ContextName = 25,                 /* CFStringRef, global */
    kAudioUnitProperty_RenderQuality = 26,               /* UInt32 (kRenderQuality_*), global */
    kAudioUnitProperty_HostCallbacks = 27,               /* host callbacks (a host's tempo and transport), global */
    kAudioUnitProperty_InPlaceProcessing = 29,           /* UInt32 (0 or 1), global */
    kAudioUnitProperty_ElementName = 30,                 /* CFStringRef, any scope */
    kAudioUnitProperty_SupportedChannelLayoutTags = 32,  /* AudioChannelLayoutTag[], input or output */
    kAudioUnitProperty_ParameterStringFromValue = 33,    /* AudioUnitParameterStringFromValue, any scope */
    kAudioUnitProperty_ParameterIDName = 34,             /* AudioUnitParameterNameInfo, any scope */
    kAudioUnitProperty_ParameterClumpName = 35,          /* AudioUnitParameterNameInfo (inID: a clump ID), any scope */
    kAudioUnitProperty_PresentPreset = 36,               /* AUPreset, global */
    kAudioUnitProperty_OfflineRender = 37,               /* UInt32 (0 or 1), global */
    kAudioUnitProperty_ParameterValueFromString = 38,    /* AudioUnitParameterValueFromString, any scope */
    kAudioUnitProperty_PresentationLatency = 40,         /* Float64 seconds, input or output */
    kAudioUnitProperty_DependentParameters = 45,         /* AUDependentParameter[], any scope */
    kAudioUnitProperty_MIDIOutputCallbackInfo = 47,      /* CFArrayRef of CFStringRef, global */
    kAudioUnitProperty_MIDIOutputCallback = 48,          /* MIDI output callback, global */
    kAudioUnitProperty_InputSamplesInOutput = 49,        /* input-to-output sample callback, global */
    kAudioUnitProperty_ClassInfoFromDocument = 50,       /* CFPropertyListRef, global */
    kAudioUnitProperty_ShouldAllocateBuffer = 51,        /* UInt32 (0 or 1), input or output */
    kAudioUnitProperty_FrequencyResponse = 52,           /* AudioUnitFrequencyResponseBin[kNumberOfResponseFrequencies], global */
    kAudioUnitProperty_ParameterHistoryInfo = 53,        /* AudioUnitParameterHistoryInfo, any scope */
    kAudioUnitProperty_NickName = 54,                    /* CFStringRef, global */
    kAudioUnitProperty_RequestViewController = 56,       /* a view request (version 3 units), global */
    kAudioUnitProperty_ParametersForOverview = 57,       /* AudioUnitParameter[], global */
    kAudioUnitProperty_SupportsMPE = 58,                 /* UInt32 (0 or 1), global */
    kAudioUnitProperty_RenderContextObserver = 60,       /* a render-context block, global */
    kAudioUnitProperty_LoadedOutOfProcess = 62,          /* UInt32 (0 or 1), global */
    /* Inter-app audio (iOS). */
    kAudioUnitProperty_RemoteControlEventListener = 100, /* a remote-control block, global */
    kAudioUnitProperty_IsInterAppConnected = 101,        /* UInt32 (0 or 1), global */
    kAudioUnitProperty_PeerURL = 102                     /* CFURLRef, global */
};

/** kAudioUnitProperty_MakeConnection's value: this unit's input destInputNumber pulls from output
    sourceOutputNumber of sourceAudioUnit (NULL: disconnects the input). */
typedef struct AudioUnitConnection {
    AudioUnit CA_NULLABLE sourceAudioUnit;
    UInt32 sourceOutputNumber;
    UInt32 destInputNumber;
} AudioUnitConnection;

/** One channel configuration a unit supports (kAudioUnitProperty_SupportedNumChannels): -1 means
    any number; -1 on both sides, as many outputs as inputs. */
typedef struct AUChannelInfo {
    SInt16 inChannels;
    SInt16 outChannels;
} AUChannelInfo;

/** kAudioUnitProperty_SetRenderCallback's and kAudioOutputUnitProperty_SetInputCallback's value
    (inputProc NULL: removes the callback). */
typedef struct AURenderCallbackStruct {
    AURenderCallback CA_NULLABLE inputProc;
    void *CA_NULLABLE inputProcRefCon;
} AURenderCallbackStruct;

/** A preset (kAudioUnitProperty_PresentPreset, kAudioUnitProperty_FactoryPresets): factory presets
    have numbers from 0, user presets negative ones. */
typedef struct AUPreset {
    SInt32 presetNumber;
    CFStringRef CA_NULLABLE presetName;
} AUPreset;

/* kAudioUnitProperty_RenderQuality's values (Int in Swift: UInt32(kRenderQuality_High)). */
enum {
    kRenderQuality_Max = 127,
    kRenderQuality_High = 96,
    kRenderQuality_Medium = 64,
    kRenderQuality_Low = 32,
    kRenderQuality_Min = 0
};

/* How many bins kAudioUnitProperty_FrequencyResponse gives. */
enum {
    kNumberOfResponseFrequencies = 1024
};

/** One bin of kAudioUnitProperty_FrequencyResponse. */
typedef struct AudioUnitFrequencyResponseBin {
    Float64 mFrequency;    /* Hz (set by the caller) */
    Float64 mMagnitude;    /* linear gain at that frequency (set by the unit) */
} AudioUnitFrequencyResponseBin;

/** A parameter that another one changes (kAudioUnitProperty_DependentParameters). */
typedef struct AUDependentParameter {
    AudioUnitScope mScope;
    AudioUnitParameterID mParameterID;
} AUDependentParameter;

/** kAudioUnitProperty_ParameterHistoryInfo's value. */
typedef struct AudioUnitParameterHistoryInfo {
    Float32 updatesPerSecond;
    Float32 historyDurationInSeconds;
} AudioUnitParameterHistoryInfo;

/* ---- Parameter information (kAudioUnitProperty_ParameterInfo) --------------------------------- */

/** A parameter's unit of measure (Swift: .generic, .linearGain, .decibels, ...). */
typedef CA_NAMED_ENUM(UInt32, AudioUnitParameterUnit) {
    kAudioUnitParameterUnit_Generic = 0,
    kAudioUnitParameterUnit_Indexed = 1,              /* an index into kAudioUnitProperty_ParameterValueStrings */
    kAudioUnitParameterUnit_Boolean = 2,
    kAudioUnitParameterUnit_Percent = 3,
    kAudioUnitParameterUnit_Seconds = 4,
    kAudioUnitParameterUnit_SampleFrames = 5,
    kAudioUnitParameterUnit_Phase = 6,                /* radians, -pi...pi */
    kAudioUnitParameterUnit_Rate = 7,                 /* a factor: 1 is unchanged */
    kAudioUnitParameterUnit_Hertz = 8,
    kAudioUnitParameterUnit_Cents = 9,
    kAudioUnitParameterUnit_RelativeSemiTones = 10,
    kAudioUnitParameterUnit_MIDINoteNumber = 11,
    kAudioUnitParameterUnit_MIDIController = 12,
    kAudioUnitParameterUnit_Decibels = 13,
    kAudioUnitParameterUnit_LinearGain = 14,
    kAudioUnitParameterUnit_Degrees = 15,
    kAudioUnitParameterUnit_EqualPowerCrossfade = 16,
    kAudioUnitParameterUnit_MixerFaderCurve1 = 17,
    kAudioUnitParameterUnit_Pan = 18,                 /* -1 (left)...1 (right) */
    kAudioUnitParameterUnit_Meters = 19,
    kAudioUnitParameterUnit_AbsoluteCents = 20,
    kAudioUnitParameterUnit_Octaves = 21,
    kAudioUnitParameterUnit_BPM = 22,
    kAudioUnitParameterUnit_Beats = 23,
    kAudioUnitParameterUnit_Milliseconds = 24,
    kAudioUnitParameterUnit_Ratio = 25,
    kAudioUnitParameterUnit_CustomUnit = 26           /* unitName names it */
};

/** A parameter's flags (Swift: .flag_IsReadable, .flag_IsWritable, ...). The display flags
    (kAudioUnitParameterFlag_DisplayMask) say how a slider maps to the value. */
typedef CA_OPTIONS(UInt32, AudioUnitParameterOptions) {
    kAudioUnitParameterFlag_CFNameRelease = (1U << 4),            /* the caller releases cfNameString (and unitName) */
    kAudioUnitParameterFlag_OmitFromPresets = (1U << 13),
    kAudioUnitParameterFlag_PlotHistory = (1U << 14),
    kAudioUnitParameterFlag_MeterReadOnly = (1U << 15),           /* a meter: read only, changes by itself */
    kAudioUnitParameterFlag_DisplayMask = (7U << 16) | (1U << 22),
    kAudioUnitParameterFlag_DisplaySquareRoot = (1U << 16),
    kAudioUnitParameterFlag_DisplaySquared = (2U << 16),
    kAudioUnitParameterFlag_DisplayCubed = (3U << 16),
    kAudioUnitParameterFlag_DisplayCubeRoot = (4U << 16),
    kAudioUnitParameterFlag_DisplayExponential = (5U << 16),
    kAudioUnitParameterFlag_HasClump = (1U << 20),                /* clumpID is set */
    kAudioUnitParameterFlag_ValuesHaveStrings = (1U << 21),       /* kAudioUnitProperty_ParameterStringFromValue works */
    kAudioUnitParameterFlag_DisplayLogarithmic = (1U << 22),
    kAudioUnitParameterFlag_IsHighResolution = (1U << 23),
    kAudioUnitParameterFlag_NonRealTime = (1U << 24),             /* not to be changed while rendering */
    kAudioUnitParameterFlag_CanRamp = (1U << 25),                 /* takes kParameterEvent_Ramped events */
    kAudioUnitParameterFlag_ExpertMode = (1U << 26),
    kAudioUnitParameterFlag_HasCFNameString = (1U << 27),         /* cfNameString is set */
    kAudioUnitParameterFlag_IsGlobalMeta = (1U << 28),
    kAudioUnitParameterFlag_IsElementMeta = (1U << 29),
    kAudioUnitParameterFlag_IsReadable = (1U << 30),
    kAudioUnitParameterFlag_IsWritable = (1U << 31)
};

/** What kAudioUnitProperty_ParameterInfo says of a parameter. */
typedef struct AudioUnitParameterInfo {
    char name[52];                              /* a C string; prefer cfNameString */
    CFStringRef CA_NULLABLE unitName;           /* for kAudioUnitParameterUnit_CustomUnit */
    UInt32 clumpID;                             /* with kAudioUnitParameterFlag_HasClump */
    CFStringRef CA_NULLABLE cfNameString;       /* with kAudioUnitParameterFlag_HasCFNameString */
    AudioUnitParameterUnit unit;
    AudioUnitParameterValue minValue;
    AudioUnitParameterValue maxValue;
    AudioUnitParameterValue defaultValue;
    AudioUnitParameterOptions flags;
} AudioUnitParameterInfo;

/* The clump of a unit's system parameters (Int in Swift). */
enum {
    kAudioUnitClumpID_System = 0
};

/* AudioUnitParameterNameInfo.inDesiredLength for the whole name (Int in Swift). */
enum {
    kAudioUnitParameterName_Full = -1
};

/** kAudioUnitProperty_ParameterIDName's and kAudioUnitProperty_ParameterClumpName's value: the
    caller sets inID and inDesiredLength, the unit outName (the caller releases it). */
typedef struct AudioUnitParameterNameInfo {
    AudioUnitParameterID inID;
    SInt32 inDesiredLength;
    CFStringRef CA_NULLABLE outName;
} AudioUnitParameterNameInfo;
typedef AudioUnitParameterNameInfo AudioUnitParameterIDName;

/** kAudioUnitProperty_ParameterStringFromValue's value (inValue NULL: the current value). */
typedef struct AudioUnitParameterStringFromValue {
    AudioUnitParameterID inParamID;
    const AudioUnitParameterValue *CA_NULLABLE inValue;
    CFStringRef CA_NULLABLE outString;
} AudioUnitParameterStringFromValue;

/** kAudioUnitProperty_ParameterValueFromString's value. */
typedef struct AudioUnitParameterValueFromString {
    AudioUnitParameterID inParamID;
    CFStringRef CA_NULLABLE inString;
    AudioUnitParameterValue outValue;
} AudioUnitParameterValueFromString;

/* ---- Output units (AudioOutputUnit.h) --------------------------------------------------------- */

CA_ENUM(AudioUnitPropertyID) {
    kAudioOutputUnitProperty_CurrentDevice = 2000,             /* AudioObjectID (UInt32), global: macOS's device */
    kAudioOutputUnitProperty_IsRunning = 2001,                 /* UInt32 (0 or 1), global, read only; listeners hear starts and stops */
    kAudioOutputUnitProperty_ChannelMap = 2002,                /* SInt32[], input or output: device channel per unit channel (-1: none) */
    kAudioOutputUnitProperty_EnableIO = 2003,                  /* UInt32 (0 or 1): input element 1 is the input, output element 0 the output */
    kAudioOutputUnitProperty_StartTime = 2004,                 /* AudioOutputUnitStartAtTimeParams, global */
    kAudioOutputUnitProperty_SetInputCallback = 2005,          /* AURenderCallbackStruct, global: called when input is ready */
    kAudioOutputUnitProperty_HasIO = 2006,                     /* UInt32 (0 or 1), input or output, read only */
    kAudioOutputUnitProperty_StartTimestampsAtZero = 2007,     /* UInt32 (0 or 1), global */
    kAudioOutputUnitProperty_MIDICallbacks = 2010,             /* inter-app audio (iOS) */
    kAudioOutputUnitProperty_HostReceivesRemoteControlEvents = 2011,
    kAudioOutputUnitProperty_RemoteControlToHost = 2012,
    kAudioOutputUnitProperty_HostTransportState = 2013,
    kAudioOutputUnitProperty_NodeComponentDescription = 2014,
    kAudioOutputUnitProperty_OSWorkgroup = 2015                /* the render thread's workgroup, global */
};

/** kAudioOutputUnitProperty_StartTime's value: when the next AudioOutputUnitStart starts. */
typedef struct AudioOutputUnitStartAtTimeParams {
    AudioTimeStamp mTimestamp;    /* a time of the device */
    UInt32 mFlags;                /* 0 */
} AudioOutputUnitStartAtTimeParams;

/* The voice-processing I/O unit (kAudioUnitSubType_VoiceProcessingIO). */
CA_ENUM(AudioUnitPropertyID) {
    kAUVoiceIOProperty_BypassVoiceProcessing = 2100,     /* UInt32 (0 or 1), global */
    kAUVoiceIOProperty_VoiceProcessingEnableAGC = 2101,  /* UInt32 (0 or 1), global: automatic gain control */
    kAUVoiceIOProperty_MuteOutput = 2104                 /* UInt32 (0 or 1), global */
};

/* The voice-processing unit's own error. */
CA_ENUM(OSStatus) {
    kAUVoiceIOErr_UnexpectedNumberOfInputChannels = -66784
};

/* The N-band equalizer (kAudioUnitSubType_NBandEQ). */
CA_ENUM(AudioUnitPropertyID) {
    kAUNBandEQProperty_NumberOfBands = 2200,       /* UInt32, global */
    kAUNBandEQProperty_MaxNumberOfBands = 2201,    /* UInt32, global, read only */
    kAUNBandEQProperty_BiquadCoefficients = 2203   /* Float64, five per band, global, read only */
};

/* ---- Mixers ----------------------------------------------------------------------------------- */

CA_ENUM(AudioUnitPropertyID) {
    kAudioUnitProperty_MeteringMode = 3007,          /* UInt32 (0 or 1), input or output: turns the level parameters on */
    kAudioUnitProperty_MatrixLevels = 3006,          /* Float32[] (the matrix mixer's gains, by input and output channel), global */
    kAudioUnitProperty_MatrixDimensions = 3009,      /* UInt32[2] (input and output channels), global, read only */
    kAudioUnitProperty_MeterClipping = 3011,         /* AudioUnitMeterClipping, input or output */
    kAudioUnitProperty_InputAnchorTimeStamp = 3016   /* AudioTimeStamp, input */
};

/** kAudioUnitProperty_MeterClipping's value: the peak since the last read, and whether an infinity
    or a NaN was seen. */
typedef struct AudioUnitMeterClipping {
    Float32 peakValueSinceLastCall;
    Boolean sawInfinity;
    Boolean sawNotANumber;
} AudioUnitMeterClipping;

/* The spatial mixer (kAudioUnitSubType_SpatialMixer); the reverb properties also apply to the
   instruments. */
CA_ENUM(AudioUnitPropertyID) {
    kAudioUnitProperty_ReverbRoomType = 10,                         /* UInt32 (AUReverbRoomType), global */
    kAudioUnitProperty_UsesInternalReverb = 1005,                   /* UInt32 (0 or 1), global */
    kAudioUnitProperty_SpatializationAlgorithm = 3000,              /* UInt32 (AUSpatializationAlgorithm), input */
    kAudioUnitProperty_SpatialMixerRenderingFlags = 3003,           /* UInt32 (AUSpatialMixerRenderingFlags), input */
    kAudioUnitProperty_SpatialMixerSourceMode = 3005,               /* UInt32 (AUSpatialMixerSourceMode), input */
    kAudioUnitProperty_SpatialMixerDistanceParams = 3010,           /* MixerDistanceParams, input */
    kAudioUnitProperty_SpatialMixerAttenuationCurve = 3013,         /* UInt32 (AUSpatialMixerAttenuationCurve), input */
    kAudioUnitProperty_SpatialMixerOutputType = 3100,               /* UInt32 (AUSpatialMixerOutputType), global */
    kAudioUnitProperty_SpatialMixerPointSourceInHeadMode = 3103     /* UInt32 (AUSpatialMixerPointSourceInHeadMode) */
};

/** How the spatial mixer places an input (Swift: .spatializationAlgorithm_HRTF, ...). */
typedef CA_NAMED_ENUM(UInt32, AUSpatializationAlgorithm) {
    kSpatializationAlgorithm_EqualPowerPanning = 0,
    kSpatializationAlgorithm_SphericalHead = 1,
    kSpatializationAlgorithm_HRTF = 2,
    kSpatializationAlgorithm_SoundField = 3,
    kSpatializationAlgorithm_VectorBasedPanning = 4,
    kSpatializationAlgorithm_StereoPassThrough = 5,   /* a stereo input as it is */
    kSpatializationAlgorithm_HRTFHQ = 6,
    kSpatializationAlgorithm_UseOutputType = 7        /* chosen by kAudioUnitProperty_SpatialMixerOutputType */
};

/** What the spatial mixer does with an input (kAudioUnitProperty_SpatialMixerSourceMode). */
typedef CA_NAMED_ENUM(UInt32, AUSpatialMixerSourceMode) {
    kSpatialMixerSourceMode_SpatializeIfMono = 0,
    kSpatialMixerSourceMode_Bypass = 1,
    kSpatialMixerSourceMode_PointSource = 2,
    kSpatialMixerSourceMode_AmbienceBed = 3
};

/** The room of the built-in reverb (kAudioUnitProperty_ReverbRoomType). */
typedef CA_NAMED_ENUM(UInt32, AUReverbRoomType) {
    kReverbRoomType_SmallRoom = 0,
    kReverbRoomType_MediumRoom = 1,
    kReverbRoomType_LargeRoom = 2,
    kReverbRoomType_MediumHall = 3,
    kReverbRoomType_LargeHall = 4,
    kReverbRoomType_Plate = 5,
    kReverbRoomType_MediumChamber = 6,
    kReverbRoomType_LargeChamber = 7,
    kReverbRoomType_Cathedral = 8,
    kReverbRoomType_LargeRoom2 = 9,
    kReverbRoomType_MediumHall2 = 10,
    kReverbRoomType_MediumHall3 = 11,
    kReverbRoomType_LargeHall2 = 12
};

/** How gain falls with distance (kAudioUnitProperty_SpatialMixerAttenuationCurve). */
typedef CA_NAMED_ENUM(UInt32, AUSpatialMixerAttenuationCurve) {
    kSpatialMixerAttenuationCurve_Power = 0,
    kSpatialMixerAttenuationCurve_Exponential = 1,
    kSpatialMixerAttenuationCurve_Inverse = 2,
    kSpatialMixerAttenuationCurve_Linear = 3
};

/** The distance attenuation of an input (kAudioUnitProperty_SpatialMixerDistanceParams,
    kAudioUnitProperty_3DMixerDistanceParams): none nearer than mReferenceDistance, no more beyond
    mMaxDistance, and never more than mMaxAttenuation decibels. */
typedef struct MixerDistanceParams {
    Float32 mReferenceDistance;   /* metres */
    Float32 mMaxDistance;         /* metres */
    Float32 mMaxAttenuation;      /* decibels */
} MixerDistanceParams;

/** kAudioUnitProperty_SpatialMixerRenderingFlags' value (Swift: .spatialMixerRenderingFlags_InterAuralDelay, ...). */
typedef CA_OPTIONS(UInt32, AUSpatialMixerRenderingFlags) {
    kSpatialMixerRenderingFlags_InterAuralDelay = (1U << 0),
    kSpatialMixerRenderingFlags_DistanceAttenuation = (1U << 2)
};

/** What the spatial mixer renders for (kAudioUnitProperty_SpatialMixerOutputType). */
typedef CA_NAMED_ENUM(UInt32, AUSpatialMixerOutputType) {
    kSpatialMixerOutputType_Headphones = 1,
    kSpatialMixerOutputType_BuiltInSpeakers = 2,
    kSpatialMixerOutputType_ExternalSpeakers = 3
};

/** How a point source inside the listener's head is rendered. */
typedef CA_NAMED_ENUM(UInt32, AUSpatialMixerPointSourceInHeadMode) {
    kSpatialMixerPointSourceInHeadMode_Mono = 0,
    kSpatialMixerPointSourceInHeadMode_Bypass = 1
};

/* The 3D mixer's properties, the spatial mixer's older names (iOS's kAudioUnitSubType_AU3DMixerEmbedded). */
CA_ENUM(AudioUnitPropertyID) {
    kAudioUnitProperty_3DMixerDistanceParams = 3010,     /* MixerDistanceParams, input */
    kAudioUnitProperty_3DMixerAttenuationCurve = 3013,   /* UInt32 (AU3DMixerAttenuationCurve), input */
    kAudioUnitProperty_DopplerShift = 3002,
    kAudioUnitProperty_3DMixerRenderingFlags = 3003,     /* UInt32 (AU3DMixerRenderingFlags), input */
    kAudioUnitProperty_3DMixerDistanceAtten = 3004,
    kAudioUnitProperty_ReverbPreset = 3012
};

/** kAudioUnitProperty_3DMixerRenderingFlags' value (Swift: .k3DMixerRenderingFlags_InterAuralDelay, ...). */
typedef CA_OPTIONS(UInt32, AU3DMixerRenderingFlags) {
    k3DMixerRenderingFlags_InterAuralDelay = (1U << 0),
    k3DMixerRenderingFlags_DopplerShift = (1U << 1),
    k3DMixerRenderingFlags_DistanceAttenuation = (1U << 2),
    k3DMixerRenderingFlags_DistanceFilter = (1U << 3),
    k3DMixerRenderingFlags_DistanceDiffusion = (1U << 4),
    k3DMixerRenderingFlags_LinearDistanceAttenuation = (1U << 5),
    k3DMixerRenderingFlags_ConstantReverbBlend = (1U << 6)
};

/** kAudioUnitProperty_3DMixerAttenuationCurve's value. */
typedef CA_NAMED_ENUM(UInt32, AU3DMixerAttenuationCurve) {
    k3DMixerAttenuationCurve_Power = 0,
    k3DMixerAttenuationCurve_Exponential = 1,
    k3DMixerAttenuationCurve_Inverse = 2,
    k3DMixerAttenuationCurve_Linear = 3
};

/* ---- The format converter (kAudioUnitSubType_AUConverter) ------------------------------------- */

CA_ENUM(AudioUnitPropertyID) {
    kAudioUnitProperty_SampleRateConverterComplexity = 3014   /* UInt32 (below), global */
};

CA_ENUM(UInt32) {
    kAudioUnitSampleRateConverterComplexity_Linear = CA_FOURCC('l', 'i', 'n', 'e'),
    kAudioUnitSampleRateConverterComplexity_Normal = CA_FOURCC('n', 'o', 'r', 'm'),
    kAudioUnitSampleRateConverterComplexity_Mastering = CA_FOURCC('b', 'a', 't', 's')
};

/* ---- The players (kAudioUnitSubType_ScheduledSoundPlayer, kAudioUnitSubType_AudioFilePlayer) -- */

CA_ENUM(AudioUnitPropertyID) {
    kAudioUnitProperty_ScheduleAudioSlice = 3300,             /* ScheduledAudioSlice, global */
    kAudioUnitProperty_ScheduleStartTimeStamp = 3301,         /* AudioTimeStamp, global: when playing starts */
    kAudioUnitProperty_CurrentPlayTime = 3302,                /* AudioTimeStamp, global, read only */
    kAudioUnitProperty_ScheduledFileIDs = 3310,               /* AudioFileID[], global */
    kAudioUnitProperty_ScheduledFileRegion = 3311,            /* ScheduledAudioFileRegion, global */
    kAudioUnitProperty_ScheduledFilePrime = 3312,             /* UInt32 (frames to read ahead; 0: the default), global */
    kAudioUnitProperty_ScheduledFileBufferSizeFrames = 3313,  /* UInt32, global */
    kAudioUnitProperty_ScheduledFileNumberBuffers = 3314      /* UInt32, global */
};

/** The state of a scheduled slice (Swift: .scheduledAudioSliceFlag_Complete, ...). */
typedef CA_OPTIONS(UInt32, AUScheduledAudioSliceFlags) {
    kScheduledAudioSliceFlag_Complete = 0x01,
    kScheduledAudioSliceFlag_BeganToRender = 0x02,
    kScheduledAudioSliceFlag_BeganToRenderLate = 0x04,
    kScheduledAudioSliceFlag_Loop = 0x08,
    kScheduledAudioSliceFlag_Interrupt = 0x10,
    kScheduledAudioSliceFlag_InterruptAtLoop = 0x20
};

typedef struct ScheduledAudioSlice ScheduledAudioSlice;
/** Called when a scheduled slice has played (or was dropped). */
typedef void (*ScheduledAudioSliceCompletionProc)(void *CA_NULLABLE userData, ScheduledAudioSlice *CA_NONNULL bufferList);

/** A buffer of audio the scheduled sound player plays at mTimeStamp (mSampleTime on the player's
    timeline). The caller keeps it, and its buffer list, until the completion. */
struct ScheduledAudioSlice {
    AudioTimeStamp mTimeStamp;
    ScheduledAudioSliceCompletionProc CA_NULLABLE mCompletionProc;
    void *CA_NULLABLE mCompletionProcUserData;
    AUScheduledAudioSliceFlags mFlags;
    UInt32 mReserved;
    void *CA_NULLABLE mReserved2;
    UInt32 mNumberFrames;
    AudioBufferList *CA_NONNULL mBufferList;
};

typedef struct ScheduledAudioFileRegion ScheduledAudioFileRegion;
/** Called when a scheduled file region has been read (result: noErr or why it stopped). */
typedef void (*ScheduledAudioFileRegionCompletionProc)(void *CA_NULLABLE userData, ScheduledAudioFileRegion *CA_NONNULL fileRegion,
                                                        OSStatus result);

/** A region of a file (one of kAudioUnitProperty_ScheduledFileIDs) the file player plays at
    mTimeStamp: mFramesToPlay frames from mStartFrame, then mLoopCount more times. */
struct ScheduledAudioFileRegion {
    AudioTimeStamp mTimeStamp;
    ScheduledAudioFileRegionCompletionProc CA_NULLABLE mCompletionProc;
    void *CA_NULLABLE mCompletionProcUserData;
    struct OpaqueAudioFileID *CA_NONNULL mAudioFile;   /* an AudioFileID (AudioFile.h) */
    UInt32 mLoopCount;
    SInt64 mStartFrame;
    UInt32 mFramesToPlay;
};

CA_HEADER_END

#endif /* AudioToolbox_AudioUnitProperties_h */
