/*
 * AudioToolbox/AudioUnitParameters.h — the parameters of Apple's mixer, converter and time-pitch
 * units, by ID (AudioUnitGetParameter, AudioUnitSetParameter, AUComponent.h). Written for
 * Soundstage from Apple's published documentation; no Apple header was copied. Values are Apple's.
 *
 * The comment after a parameter says its scope, unit, range and default. A level meter's ID is its
 * first channel's: ID + 1 reads the second channel (kMultiChannelMixerParam_PostAveragePower + 1
 * is the right channel), and metering must be on (kAudioUnitProperty_MeteringMode). The 3D mixer's
 * numbering is iOS's (macOS numbered its older 3D mixer's parameters differently). The parameters
 * of the effect units (filters, delay, reverb, dynamics, EQ) and of the sampler are not declared;
 * a unit lists its own with kAudioUnitProperty_ParameterList.
 *
 * Swift: each ID is an AudioUnitParameterID, as on iOS.
 */
#ifndef AudioToolbox_AudioUnitParameters_h
#define AudioToolbox_AudioUnitParameters_h

#include <AudioToolbox/AUComponent.h>

CA_HEADER_BEGIN

/* The multichannel mixer (kAudioUnitSubType_MultiChannelMixer). */
CA_ENUM(AudioUnitParameterID) {
    kMultiChannelMixerParam_Volume = 0,                /* input or output, linear gain, 0...1, 1 */
    kMultiChannelMixerParam_Enable = 1,                /* input, boolean, 0 or 1, 1 */
    kMultiChannelMixerParam_Pan = 2,                   /* input, pan, -1...1, 0 (not with a mono output) */
    kMultiChannelMixerParam_PreAveragePower = 1000,    /* input or output, decibels, read only: before the gain */
    kMultiChannelMixerParam_PrePeakHoldLevel = 2000,
    kMultiChannelMixerParam_PostAveragePower = 3000,   /* after the gain */
    kMultiChannelMixerParam_PostPeakHoldLevel = 4000
};

/* The spatial mixer (kAudioUnitSubType_SpatialMixer). */
CA_ENUM(AudioUnitParameterID) {
    kSpatialMixerParam_Azimuth = 0,                    /* input, degrees, -180...180, 0 */
    kSpatialMixerParam_Elevation = 1,                  /* input, degrees, -90...90, 0 */
    kSpatialMixerParam_Distance = 2,                   /* input, metres, 0...10000, 0 */
    kSpatialMixerParam_Gain = 3,                       /* input or output, decibels, -120...20, 0 */
    kSpatialMixerParam_PlaybackRate = 4,               /* input, rate, 0.5...2, 1 */
    kSpatialMixerParam_Enable = 5,                     /* input, boolean, 0 or 1, 1 */
    kSpatialMixerParam_MinGain = 6,                    /* input, linear gain, 0...10, 0 */
    kSpatialMixerParam_MaxGain = 7,                    /* input, linear gain, 0...10, 10 */
    kSpatialMixerParam_ReverbBlend = 8,                /* input, percent wet (equal power), 0...100, 30 */
    kSpatialMixerParam_GlobalReverbGain = 9,           /* global, decibels, -40...40, 0 */
    kSpatialMixerParam_OcclusionAttenuation = 10,      /* input, decibels at 5 kHz, -100...0, 0: before the reverb send */
    kSpatialMixerParam_ObstructionAttenuation = 11,    /* input, decibels at 5 kHz, -100...0, 0: the direct sound only */
    kSpatialMixerParam_HeadYaw = 19,                   /* global, degrees, -180...180, 0 */
    kSpatialMixerParam_HeadPitch = 20,                 /* global, degrees, -90...90, 0 */
    kSpatialMixerParam_HeadRoll = 21                   /* global, degrees, -180...180, 0 */
};

/* The 3D mixer: the spatial mixer by its older names (kAudioUnitSubType_AU3DMixerEmbedded). */
CA_ENUM(AudioUnitParameterID) {
    k3DMixerParam_Azimuth = 0,                         /* input, degrees, -180...180, 0 */
    k3DMixerParam_Elevation = 1,                       /* input, degrees, -90...90, 0 */
    k3DMixerParam_Distance = 2,                        /* input, metres, 0...10000, 0 */
    k3DMixerParam_Gain = 3,                            /* input or output, decibels, -120...20, 0 */
    k3DMixerParam_PlaybackRate = 4,                    /* input, rate, 0.5...2, 1 */
    k3DMixerParam_Enable = 5,                          /* input, boolean, 0 or 1 (iOS's; k3DMixerParam_BusEnable) */
    k3DMixerParam_MinGain = 6,                         /* input, linear gain, 0...1 (iOS's) */
    k3DMixerParam_MaxGain = 7,                         /* input, linear gain, 0...1 (iOS's) */
    k3DMixerParam_ReverbBlend = 8,                     /* input, percent wet, 0...100 (iOS's) */
    k3DMixerParam_GlobalReverbGain = 9,                /* global, decibels, -40...40 (iOS's) */
    k3DMixerParam_OcclusionAttenuation = 10,           /* input, decibels, -100...0 (iOS's) */
    k3DMixerParam_ObstructionAttenuation = 11,         /* input, decibels, -100...0 (iOS's) */
    k3DMixerParam_BusEnable = 20,                      /* input, boolean, 0 or 1 */
    k3DMixerParam_MinGainInDecibels = 21,              /* input, decibels, -120...20 */
    k3DMixerParam_MaxGainInDecibels = 22,              /* input, decibels, -120...20 */
    k3DMixerParam_DryWetReverbBlend = 23,              /* input, percent wet, 0...100 */
    k3DMixerParam_GlobalReverbGainInDecibels = 24,     /* global, decibels, -40...40 */
    k3DMixerParam_OcclusionAttenuationInDecibels = 25, /* input, decibels, -100...0 */
    k3DMixerParam_ObstructionAttenuationInDecibels = 26, /* input, decibels, -100...0 */
    k3DMixerParam_PreAveragePower = 1000,              /* input or output, decibels, read only */
    k3DMixerParam_PrePeakHoldLevel = 2000,
    k3DMixerParam_PostAveragePower = 3000,
    k3DMixerParam_PostPeakHoldLevel = 4000
};

/* The matrix mixer (kAudioUnitSubType_MatrixMixer). */
CA_ENUM(AudioUnitParameterID) {
    kMatrixMixerParam_Volume = 0,
    kMatrixMixerParam_Enable = 1,
    kMatrixMixerParam_PreAveragePower = 1000,          /* decibels, read only */
    kMatrixMixerParam_PrePeakHoldLevel = 2000,
    kMatrixMixerParam_PostAveragePower = 3000,
    kMatrixMixerParam_PostPeakHoldLevel = 4000,
    kMatrixMixerParam_PreAveragePowerLinear = 5000,    /* linear, read only */
    kMatrixMixerParam_PrePeakHoldLevelLinear = 6000,
    kMatrixMixerParam_PostAveragePowerLinear = 7000,
    kMatrixMixerParam_PostPeakHoldLevelLinear = 8000
};

/* macOS's device output units (kAudioUnitSubType_HALOutput, _DefaultOutput, _SystemOutput). */
CA_ENUM(AudioUnitParameterID) {
    kHALOutputParam_Volume = 14                        /* global, linear gain, 0...1, 1 */
};

/* The varispeed unit (kAudioUnitSubType_Varispeed): rate and pitch change together. */
CA_ENUM(AudioUnitParameterID) {
    kVarispeedParam_PlaybackRate = 0,                  /* global, rate, 0.25...4, 1 */
    kVarispeedParam_PlaybackCents = 1                  /* global, cents, -2400...2400, 0 */
};

/* macOS's time-pitch units (kAudioUnitSubType_TimePitch, kAudioUnitSubType_Pitch). */
CA_ENUM(AudioUnitParameterID) {
    kTimePitchParam_Rate = 0,
    kTimePitchParam_Pitch = 1,
    kTimePitchParam_EffectBlend = 2                    /* kAudioUnitSubType_Pitch only */
};

/* The time-pitch unit (kAudioUnitSubType_NewTimePitch): rate and pitch apart. */
CA_ENUM(AudioUnitParameterID) {
    kNewTimePitchParam_Rate = 0,                       /* global, rate, 1/32...32, 1 */
    kNewTimePitchParam_Pitch = 1,                      /* global, cents, -2400...2400 */
    kNewTimePitchParam_Smoothness = 4,                 /* global, generic, 3...32, 8: more is smoother and costlier */
    kNewTimePitchParam_Overlap = 4,                    /* kNewTimePitchParam_Smoothness's older name */
    kNewTimePitchParam_EnableSpectralCoherence = 6,    /* global, boolean, 0 or 1, 1 */
    kNewTimePitchParam_EnablePeakLocking = 6,          /* kNewTimePitchParam_EnableSpectralCoherence's older name */
    kNewTimePitchParam_EnableTransientPreservation = 7 /* global, boolean, 0 or 1, 1 */
};

CA_HEADER_END

#endif /* AudioToolbox_AudioUnitParameters_h */
