/*
 * Found by the capi fuzzer (2026-11-26), not yet worked around: OpenAL Soft 1.19.1's reverb
 * (AL_EFFECT_REVERB and AL_EFFECT_EAXREVERB) crashes in alcRenderSamplesSOFT when a loopback
 * device is rendered in calls of fewer than 128 frames that are not a multiple of 4 while the
 * reverb cross-fades (the first 128 frames after a slot gets the effect or its density, diffusion
 * or decay change): ReverbState_process rounds its inner steps down to multiples of 4 only when
 * they are not a call's last step, so the fade's count goes out of step with the SIMD mixers.
 * Raw OpenAL, no Soundstage involved:
 *
 *   cc openal-reverb-odd-render-size.c -lopenal -o repro && ./repro 95 1   # SIGSEGV
 *   ./repro 96 1 ; ./repro 95 0                                            # fine
 *
 * In the sweep 1..300 (600 calls each) every crashing size was < 128 and not a multiple of 4.
 * The input beside this file is the fuzzer's program (ss_device_render of 58 then 96 frames...
 * on a device whose scene has a reverb zone); replay: .build/debug/fuzz-capi FILE
 */
#define AL_ALEXT_PROTOTYPES
#include <AL/al.h>
#include <AL/alc.h>
#include <AL/alext.h>
#include <AL/efx.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
    int n = atoi(argv[1]), withSlot = atoi(argv[2]), type = argc > 3 ? atoi(argv[3]) : AL_EFFECT_EAXREVERB;
    static float out[48000 * 2];
    ALCdevice *d = alcLoopbackOpenDeviceSOFT(NULL);
    ALCint attrs[] = {ALC_FORMAT_CHANNELS_SOFT, ALC_STEREO_SOFT, ALC_FORMAT_TYPE_SOFT, ALC_FLOAT_SOFT, ALC_FREQUENCY, 48000, ALC_HRTF_SOFT, ALC_FALSE, ALC_MAX_AUXILIARY_SENDS, 4, 0};
    ALCcontext *c = alcCreateContext(d, attrs);
    alcMakeContextCurrent(c);
    if (withSlot) {
        ALuint slot, effect;
        alGenAuxiliaryEffectSlots(1, &slot); alGenEffects(1, &effect);
        alEffecti(effect, AL_EFFECT_TYPE, type);
        alAuxiliaryEffectSloti(slot, AL_EFFECTSLOT_EFFECT, effect);
    }
    for (int i = 0; i < 600; i++) alcRenderSamplesSOFT(d, out, n);
    printf("ok %d err %x\n", n, alGetError());
    return 0;
}
