// The raw P/Invoke declarations of libsoundstage (include/soundstage.h) that the Soundstage
// classes use. Handles are SafeHandles; callbacks are delegates of the header's signatures.
using System;
using System.Runtime.InteropServices;

namespace Soundstage
{
    /// <summary>The C API's functions, as declared in soundstage.h.</summary>
    internal static class Native
    {
        internal const string Library = "libsoundstage.so.0";

        [StructLayout(LayoutKind.Sequential)]
        internal struct Vec3 { public float X, Y, Z; }

        [StructLayout(LayoutKind.Sequential)]
        internal struct DeviceInfo { public int Kind, SampleRate, Channels, UpdateFrames, ReverbZones, HrtfEnabled; }

        [StructLayout(LayoutKind.Sequential)]
        internal struct BufferInfo { public long Frames; public int Channels, SampleRate; public double Duration; }

        [StructLayout(LayoutKind.Sequential)]
        internal struct MixRecording { public long Frames; public double Duration; public int Failed; }

        [StructLayout(LayoutKind.Sequential)]
        internal struct SessionState { public int Category, Options, Active, Interrupted, Ducked; }

        [StructLayout(LayoutKind.Sequential)]
        internal struct SessionEvent { public int Kind, Reason, ShouldResume; public float DuckGain; public double Time; }

        [StructLayout(LayoutKind.Sequential)]
        internal struct Levels
        {
            public int Channels, Frames;
            [MarshalAs(UnmanagedType.ByValArray, SizeConst = 8)] public float[] AveragePower;
            [MarshalAs(UnmanagedType.ByValArray, SizeConst = 8)] public float[] PeakPower;
        }

        [StructLayout(LayoutKind.Sequential)]
        internal struct DesktopOptions
        {
            public UIntPtr StructSize;
            public IntPtr ApplicationName, ApplicationId, StreamName, Role;
            public double Latency;
            public IntPtr Server, Sink;
            public int SampleRate, Layout, Hrtf, UpdateFrames, ReverbZones;
            public double IdleTimeout;
        }

        [StructLayout(LayoutKind.Sequential)]
        internal struct OutputStatus
        {
            [MarshalAs(UnmanagedType.ByValArray, SizeConst = 16)] public byte[] Backend;
            [MarshalAs(UnmanagedType.ByValArray, SizeConst = 128)] public byte[] Server;
            [MarshalAs(UnmanagedType.ByValArray, SizeConst = 128)] public byte[] Sink;
            public double TargetLatency, Latency;
            public int Underruns;
            public float Volume;
            public int Muted, Paused, Connected;
        }

        [StructLayout(LayoutKind.Sequential)]
        internal struct OutputEvent { public int Kind; public float Volume; public int Muted, Underruns; public IntPtr Reason; }

        [StructLayout(LayoutKind.Sequential)]
        internal struct StreamOptions { public UIntPtr StructSize; public double BufferDuration; public int BufferCount, Loops; public double LoopStart, LoopEnd; }

        [StructLayout(LayoutKind.Sequential)]
        internal struct ReverbRegion { public int Kind; public Vec3 Center; public float Radius; public Vec3 Min, Max; public float Fade; }

        [StructLayout(LayoutKind.Sequential)]
        internal struct VoiceStatistics
        {
            public int RealVoices, VirtualVoices;
            public long Steals, Virtualizations, Realizations, Rankings;
            public double LastRankingMicroseconds, PeakRankingMicroseconds, TotalRankingMicroseconds;
        }

        [StructLayout(LayoutKind.Sequential)]
        internal struct SoundRegistryOptions { public UIntPtr StructSize; public int MaxConcurrent; public double CoalescingWindow, MaximumDuration; public IntPtr Theme; }

        [StructLayout(LayoutKind.Sequential)]
        internal struct RecorderSettings { public UIntPtr StructSize; public int Format; public IntPtr Input; public int SampleRate, Channels; public IntPtr Server; }

        [StructLayout(LayoutKind.Sequential)]
        internal struct Recording { public long Frames; public int SampleRate, Channels; public double Duration; public int End; }

        [StructLayout(LayoutKind.Sequential)]
        internal struct LiveObjects { public int Devices, Contexts, Buffers, Sources, EffectSlots, Effects, Filters; }

        [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
        internal delegate void RouteCallback(IntPtr device, int reason, IntPtr previousOutput, IntPtr output, IntPtr userData);
        [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
        internal delegate void OutputCallback(IntPtr device, ref OutputEvent outputEvent, IntPtr userData);
        [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
        internal delegate void VoiceCallback(IntPtr scene, IntPtr source, int kind, IntPtr userData);
        [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
        internal delegate void AttentionCallback(IntPtr registry, uint id, IntPtr userData);
        [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
        internal delegate void RecorderCallback(IntPtr recorder, ref Recording recording, IntPtr userData);
        [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
        internal delegate void NameCallback(IntPtr name, IntPtr description, IntPtr userData);

        [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
        internal delegate void SourceCallback(IntPtr source, IntPtr userData);
        [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
        internal delegate void GroupCallback(IntPtr group, IntPtr userData);
        [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
        internal delegate void SoundCallback(IntPtr registry, uint id, int outcome, IntPtr userData);
        [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
        internal delegate void SessionCallback(IntPtr session, ref SessionEvent sessionEvent, IntPtr userData);
        [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
        internal delegate void ClientCallback(IntPtr client, uint id, int outcome, IntPtr userData);

        [DllImport(Library)] internal static extern IntPtr ss_version();
        [DllImport(Library)] internal static extern int ss_version_number();
        [DllImport(Library)] internal static extern IntPtr ss_error_message();
        [DllImport(Library)] internal static extern IntPtr ss_result_name(int result);
        [DllImport(Library)] internal static extern UIntPtr ss_live_handles();
        [DllImport(Library)] internal static extern void ss_thread_detach();

        [DllImport(Library)] internal static extern int ss_device_open_output(int backend, IntPtr options, out IntPtr device);
        [DllImport(Library)] internal static extern int ss_device_open_loopback(int sampleRate, int layout, int hrtf, int reverbZones, out IntPtr device);
        [DllImport(Library)] internal static extern int ss_device_destroy(IntPtr device);
        [DllImport(Library)] internal static extern int ss_device_get_info(DeviceHandle device, out DeviceInfo info);
        [DllImport(Library)] internal static extern int ss_device_render(DeviceHandle device, [Out] float[] samples, UIntPtr frames);
        [DllImport(Library)] internal static extern int ss_device_render_to_file(DeviceHandle device, double seconds, string path, int format);
        [DllImport(Library)] internal static extern int ss_device_get_mix_time(DeviceHandle device, out double seconds);
        [DllImport(Library)] internal static extern int ss_device_get_non_finite_mix_count(DeviceHandle device, out long count);
        [DllImport(Library)] internal static extern int ss_device_start_recording_output(DeviceHandle device, string path, int format);
        [DllImport(Library)] internal static extern int ss_device_stop_recording_output(DeviceHandle device, out MixRecording recording);
        [DllImport(Library)] internal static extern int ss_device_set_output_metering(DeviceHandle device, int enabled);
        [DllImport(Library)] internal static extern int ss_device_is_output_metering(DeviceHandle device, out int metering);
        [DllImport(Library)] internal static extern int ss_device_get_output_levels(DeviceHandle device, ref Levels levels);

        [DllImport(Library)] internal static extern int ss_scene_create(DeviceHandle device, int sourceBudget, out IntPtr scene);
        [DllImport(Library)] internal static extern int ss_scene_destroy(IntPtr scene);
        [DllImport(Library)] internal static extern int ss_listener_set_position(SceneHandle scene, Vec3 position);
        [DllImport(Library)] internal static extern int ss_listener_get_position(SceneHandle scene, out Vec3 position);
        [DllImport(Library)] internal static extern int ss_listener_set_orientation(SceneHandle scene, Vec3 at, Vec3 up);
        [DllImport(Library)] internal static extern int ss_listener_set_gain(SceneHandle scene, float gain);
        [DllImport(Library)] internal static extern int ss_listener_get_gain(SceneHandle scene, out float gain);
        [DllImport(Library)] internal static extern int ss_scene_begin_batch(SceneHandle scene);
        [DllImport(Library)] internal static extern int ss_scene_end_batch(SceneHandle scene);
        [DllImport(Library)] internal static extern int ss_scene_get_refused_value_count(SceneHandle scene, out long count);

        [DllImport(Library)] internal static extern int ss_buffer_load_file(DeviceHandle device, string path, out IntPtr buffer);
        [DllImport(Library)] internal static extern int ss_buffer_load_memory(DeviceHandle device, byte[] data, UIntPtr size, string name, out IntPtr buffer);
        [DllImport(Library)] internal static extern int ss_buffer_create_pcm(DeviceHandle device, float[] samples, UIntPtr frames, int channels, int sampleRate, out IntPtr buffer);
        [DllImport(Library)] internal static extern int ss_buffer_destroy(IntPtr buffer);
        [DllImport(Library)] internal static extern int ss_buffer_get_info(BufferHandle buffer, out BufferInfo info);

        [DllImport(Library)] internal static extern int ss_source_create(SceneHandle scene, BufferHandle buffer, out IntPtr source);
        [DllImport(Library)] internal static extern int ss_source_create(SceneHandle scene, IntPtr noBuffer, out IntPtr source);
        [DllImport(Library)] internal static extern int ss_source_destroy(IntPtr source);
        [DllImport(Library)] internal static extern int ss_source_set_float(SourceHandle source, int property, float value);
        [DllImport(Library)] internal static extern int ss_source_get_float(SourceHandle source, int property, out float value);
        [DllImport(Library)] internal static extern int ss_source_set_vec3(SourceHandle source, int property, Vec3 value);
        [DllImport(Library)] internal static extern int ss_source_get_vec3(SourceHandle source, int property, out Vec3 value);
        [DllImport(Library)] internal static extern int ss_source_set_looping(SourceHandle source, int looping);
        [DllImport(Library)] internal static extern int ss_source_is_looping(SourceHandle source, out int looping);
        [DllImport(Library)] internal static extern int ss_source_play(SourceHandle source);
        [DllImport(Library)] internal static extern int ss_source_pause(SourceHandle source);
        [DllImport(Library)] internal static extern int ss_source_stop(SourceHandle source);
        [DllImport(Library)] internal static extern int ss_source_seek(SourceHandle source, double seconds);
        [DllImport(Library)] internal static extern int ss_source_get_state(SourceHandle source, out int state);
        [DllImport(Library)] internal static extern int ss_source_get_offset(SourceHandle source, out double seconds);
        [DllImport(Library)] internal static extern int ss_source_set_completion_callback(SourceHandle source, SourceCallback callback, IntPtr userData);
        [DllImport(Library)] internal static extern int ss_source_fade(SourceHandle source, float level, double seconds, int stopAtEnd);
        [DllImport(Library)] internal static extern int ss_source_set_group(SourceHandle source, GroupHandle group);

        [DllImport(Library)] internal static extern int ss_group_create(SceneHandle scene, string name, IntPtr parent, out IntPtr group);
        [DllImport(Library)] internal static extern int ss_group_destroy(IntPtr group);
        [DllImport(Library)] internal static extern int ss_group_set_gain(GroupHandle group, float gain);
        [DllImport(Library)] internal static extern int ss_group_get_gain(GroupHandle group, out float gain);
        [DllImport(Library)] internal static extern int ss_group_set_muted(GroupHandle group, int muted);
        [DllImport(Library)] internal static extern int ss_group_is_muted(GroupHandle group, out int muted);
        [DllImport(Library)] internal static extern int ss_group_fade(GroupHandle group, float gain, double seconds, int stopAtEnd, GroupCallback callback, IntPtr userData);

        [DllImport(Library)] internal static extern int ss_sound_registry_create(DeviceHandle device, IntPtr options, out IntPtr registry);
        [DllImport(Library)] internal static extern int ss_sound_registry_destroy(IntPtr registry);
        [DllImport(Library)] internal static extern int ss_sound_register_file(SoundRegistryHandle registry, string path, out uint id);
        [DllImport(Library)] internal static extern int ss_sound_register_event(SoundRegistryHandle registry, string eventName, out uint id);
        [DllImport(Library)] internal static extern int ss_sound_dispose(SoundRegistryHandle registry, uint id);
        [DllImport(Library)] internal static extern int ss_sound_play(SoundRegistryHandle registry, uint id, SoundCallback callback, IntPtr userData);
        [DllImport(Library)] internal static extern int ss_sound_play_event(SoundRegistryHandle registry, string eventName, int alert, SoundCallback callback, IntPtr userData);
        [DllImport(Library)] internal static extern int ss_sound_registry_set_volume(SoundRegistryHandle registry, float volume);
        [DllImport(Library)] internal static extern int ss_sound_registry_get_volume(SoundRegistryHandle registry, out float volume);
        [DllImport(Library)] internal static extern int ss_sound_registry_set_enabled(SoundRegistryHandle registry, int enabled);
        [DllImport(Library)] internal static extern int ss_sound_registry_is_enabled(SoundRegistryHandle registry, out int enabled);

        [DllImport(Library)] internal static extern int ss_session_create(DeviceHandle device, int category, int options, out IntPtr session);
        [DllImport(Library)] internal static extern int ss_session_destroy(IntPtr session);
        [DllImport(Library)] internal static extern int ss_session_set_category(SessionHandle session, int category, int options);
        [DllImport(Library)] internal static extern int ss_session_set_active(SessionHandle session, int active);
        [DllImport(Library)] internal static extern int ss_session_attach_scene(SessionHandle session, SceneHandle scene);
        [DllImport(Library)] internal static extern int ss_session_begin_interruption(SessionHandle session);
        [DllImport(Library)] internal static extern int ss_session_end_interruption(SessionHandle session, int shouldResume);
        [DllImport(Library)] internal static extern int ss_session_get_state(SessionHandle session, out SessionState state);
        [DllImport(Library)] internal static extern int ss_session_set_callback(SessionHandle session, SessionCallback callback, IntPtr userData);

        [DllImport(Library)] internal static extern int ss_scene_file_load(DeviceHandle device, string path, out IntPtr file);
        [DllImport(Library)] internal static extern int ss_scene_file_destroy(IntPtr file);
        [DllImport(Library)] internal static extern int ss_scene_file_get_duration(SceneFileHandle file, out double seconds);
        [DllImport(Library)] internal static extern int ss_scene_file_render(SceneFileHandle file, string path, int format);
        [DllImport(Library)] internal static extern int ss_scene_file_play(SceneFileHandle file);

        [DllImport(Library)] internal static extern int ss_client_connect(string socketPath, out IntPtr client);
        [DllImport(Library)] internal static extern int ss_client_destroy(IntPtr client);
        [DllImport(Library)] internal static extern int ss_client_play_event(ClientHandle client, string eventName, int alert, out uint id);
        [DllImport(Library)] internal static extern int ss_client_play_file(ClientHandle client, string path, int alert, out uint id);
        [DllImport(Library)] internal static extern int ss_client_set_completion_callback(ClientHandle client, ClientCallback callback, IntPtr userData);
        [DllImport(Library)] internal static extern int ss_get_live_objects(out LiveObjects objects);
        [DllImport(Library)] internal static extern int ss_desktop_options_init(ref DesktopOptions options);
        [DllImport(Library)] internal static extern int ss_device_open_output(int backend, ref DesktopOptions options, out IntPtr device);
        [DllImport(Library)] internal static extern int ss_device_open_openal(string name, int hrtf, int reverbZones, out IntPtr device);
        [DllImport(Library)] internal static extern int ss_device_set_max_decoded_bytes(DeviceHandle device, UIntPtr bytes);
        [DllImport(Library)] internal static extern int ss_device_get_max_decoded_bytes(DeviceHandle device, out UIntPtr bytes);
        [DllImport(Library)] internal static extern int ss_device_evict_cached_buffers(DeviceHandle device);
        [DllImport(Library)] internal static extern int ss_device_get_output_status(DeviceHandle device, out OutputStatus status);
        [DllImport(Library)] internal static extern int ss_device_get_output_rest(DeviceHandle device, out int resting, out int rests);
        [DllImport(Library)] internal static extern int ss_device_drain(DeviceHandle device, double timeout);
        [DllImport(Library)] internal static extern int ss_device_start_live_view(DeviceHandle device, int port, byte[] url, UIntPtr urlSize);
        [DllImport(Library)] internal static extern int ss_device_stop_live_view(DeviceHandle device);
        [DllImport(Library)] internal static extern int ss_device_set_route_callback(DeviceHandle device, RouteCallback callback, IntPtr userData);
        [DllImport(Library)] internal static extern int ss_device_set_output_callback(DeviceHandle device, OutputCallback callback, IntPtr userData);

        [DllImport(Library)] internal static extern int ss_scene_set_distance_model(SceneHandle scene, int model);
        [DllImport(Library)] internal static extern int ss_scene_get_distance_model(SceneHandle scene, out int model);
        [DllImport(Library)] internal static extern int ss_scene_set_doppler_factor(SceneHandle scene, float factor);
        [DllImport(Library)] internal static extern int ss_scene_get_doppler_factor(SceneHandle scene, out float factor);
        [DllImport(Library)] internal static extern int ss_scene_set_speed_of_sound(SceneHandle scene, float speed);
        [DllImport(Library)] internal static extern int ss_scene_get_speed_of_sound(SceneHandle scene, out float speed);
        [DllImport(Library)] internal static extern int ss_scene_get_active_source_count(SceneHandle scene, out int count);
        [DllImport(Library)] internal static extern int ss_listener_set_velocity(SceneHandle scene, Vec3 velocity);
        [DllImport(Library)] internal static extern int ss_listener_get_velocity(SceneHandle scene, out Vec3 velocity);
        [DllImport(Library)] internal static extern int ss_listener_get_orientation(SceneHandle scene, out Vec3 at, out Vec3 up);
        [DllImport(Library)] internal static extern int ss_scene_play_at(SceneHandle scene, IntPtr[] sources, UIntPtr count, double time);
        [DllImport(Library)] internal static extern int ss_scene_crossfade(SceneHandle scene, SourceHandle outgoing, SourceHandle incoming, double seconds);
        [DllImport(Library)] internal static extern int ss_scene_set_metering(SceneHandle scene, int enabled);
        [DllImport(Library)] internal static extern int ss_scene_is_metering(SceneHandle scene, out int metering);
        [DllImport(Library)] internal static extern int ss_scene_get_levels(SceneHandle scene, ref Levels levels);
        [DllImport(Library)] internal static extern int ss_scene_add_ducking(SceneHandle scene, GroupHandle target, GroupHandle trigger, float gain, double attack, double release);
        [DllImport(Library)] internal static extern int ss_scene_set_virtualizes_voices(SceneHandle scene, int enabled);
        [DllImport(Library)] internal static extern int ss_scene_get_virtualizes_voices(SceneHandle scene, out int enabled);
        [DllImport(Library)] internal static extern int ss_scene_set_voice_callback(SceneHandle scene, VoiceCallback callback, IntPtr userData);
        [DllImport(Library)] internal static extern int ss_scene_get_voice_statistics(SceneHandle scene, out VoiceStatistics statistics);

        [DllImport(Library)] internal static extern int ss_buffer_create_pcm16(DeviceHandle device, short[] samples, UIntPtr frames, int channels, int sampleRate, out IntPtr buffer);

        [DllImport(Library)] internal static extern int ss_stream_options_init(ref StreamOptions options);
        [DllImport(Library)] internal static extern int ss_source_create_streaming(SceneHandle scene, string path, ref StreamOptions options, out IntPtr source);
        [DllImport(Library)] internal static extern int ss_source_set_position(SourceHandle source, float x, float y, float z);
        [DllImport(Library)] internal static extern int ss_source_set_velocity(SourceHandle source, float x, float y, float z);
        [DllImport(Library)] internal static extern int ss_source_set_gain(SourceHandle source, float gain);
        [DllImport(Library)] internal static extern int ss_source_set_pitch(SourceHandle source, float pitch);
        [DllImport(Library)] internal static extern int ss_source_set_head_relative(SourceHandle source, int relative);
        [DllImport(Library)] internal static extern int ss_source_is_head_relative(SourceHandle source, out int relative);
        [DllImport(Library)] internal static extern int ss_source_set_repeat_count(SourceHandle source, int repeats);
        [DllImport(Library)] internal static extern int ss_source_get_repeat_count(SourceHandle source, out int repeats);
        [DllImport(Library)] internal static extern int ss_source_set_buffer(SourceHandle source, BufferHandle buffer);
        [DllImport(Library)] internal static extern int ss_source_set_buffer(SourceHandle source, IntPtr noBuffer);
        [DllImport(Library)] internal static extern int ss_source_rewind(SourceHandle source);
        [DllImport(Library)] internal static extern int ss_source_get_audibility(SourceHandle source, out float audibility);
        [DllImport(Library)] internal static extern int ss_source_set_group(SourceHandle source, IntPtr noGroup);
        [DllImport(Library)] internal static extern int ss_source_set_metering(SourceHandle source, int enabled);
        [DllImport(Library)] internal static extern int ss_source_is_metering(SourceHandle source, out int metering);
        [DllImport(Library)] internal static extern int ss_source_get_levels(SourceHandle source, ref Levels levels);
        [DllImport(Library)] internal static extern int ss_source_get_underrun_count(SourceHandle source, out int count);
        [DllImport(Library)] internal static extern int ss_source_set_zone_send(SourceHandle source, ReverbZoneHandle zone, float level);
        [DllImport(Library)] internal static extern int ss_source_get_zone_send(SourceHandle source, ReverbZoneHandle zone, out float level);
        [DllImport(Library)] internal static extern int ss_source_set_voice_limit(SourceHandle source, VoiceLimitHandle limit);
        [DllImport(Library)] internal static extern int ss_source_set_voice_limit(SourceHandle source, IntPtr noLimit);
        [DllImport(Library)] internal static extern int ss_source_set_priority(SourceHandle source, int priority);
        [DllImport(Library)] internal static extern int ss_source_get_priority(SourceHandle source, out int priority);
        [DllImport(Library)] internal static extern int ss_source_is_virtual(SourceHandle source, out int isVirtual);

        [DllImport(Library)] internal static extern int ss_group_create(SceneHandle scene, string name, GroupHandle parent, out IntPtr group);
        [DllImport(Library)] internal static extern int ss_group_set_pitch(GroupHandle group, float pitch);
        [DllImport(Library)] internal static extern int ss_group_get_pitch(GroupHandle group, out float pitch);
        [DllImport(Library)] internal static extern int ss_group_pause(GroupHandle group);
        [DllImport(Library)] internal static extern int ss_group_resume(GroupHandle group);
        [DllImport(Library)] internal static extern int ss_group_is_paused(GroupHandle group, out int paused);
        [DllImport(Library)] internal static extern int ss_group_set_metering(GroupHandle group, int enabled);
        [DllImport(Library)] internal static extern int ss_group_is_metering(GroupHandle group, out int metering);
        [DllImport(Library)] internal static extern int ss_group_get_levels(GroupHandle group, ref Levels levels);

        [DllImport(Library)] internal static extern int ss_reverb_preset_count();
        [DllImport(Library)] internal static extern IntPtr ss_reverb_preset_name(int index);
        [DllImport(Library)] internal static extern int ss_reverb_zone_create(SceneHandle scene, string name, string preset, ref ReverbRegion region, float gain, out IntPtr zone);
        [DllImport(Library)] internal static extern int ss_reverb_zone_destroy(IntPtr zone);
        [DllImport(Library)] internal static extern int ss_reverb_zone_set_preset(ReverbZoneHandle zone, string preset);
        [DllImport(Library)] internal static extern int ss_reverb_zone_set_value(ReverbZoneHandle zone, string setting, float value);
        [DllImport(Library)] internal static extern int ss_reverb_zone_get_value(ReverbZoneHandle zone, string setting, out float value);
        [DllImport(Library)] internal static extern int ss_reverb_zone_set_gain(ReverbZoneHandle zone, float gain);
        [DllImport(Library)] internal static extern int ss_reverb_zone_get_gain(ReverbZoneHandle zone, out float gain);
        [DllImport(Library)] internal static extern int ss_reverb_zone_set_region(ReverbZoneHandle zone, ref ReverbRegion region);
        [DllImport(Library)] internal static extern int ss_reverb_zone_get_region(ReverbZoneHandle zone, out ReverbRegion region);
        [DllImport(Library)] internal static extern int ss_reverb_zone_get_weight(ReverbZoneHandle zone, out float weight);

        [DllImport(Library)] internal static extern int ss_voice_limit_create(SceneHandle scene, string name, int maxVoices, int policy, out IntPtr limit);
        [DllImport(Library)] internal static extern int ss_voice_limit_destroy(IntPtr limit);

        [DllImport(Library)] internal static extern int ss_sound_registry_options_init(ref SoundRegistryOptions options);
        [DllImport(Library)] internal static extern int ss_sound_registry_create(DeviceHandle device, ref SoundRegistryOptions options, out IntPtr registry);
        [DllImport(Library)] internal static extern int ss_sound_register_memory(SoundRegistryHandle registry, byte[] data, UIntPtr size, string name, out uint id);
        [DllImport(Library)] internal static extern int ss_sound_play_alert(SoundRegistryHandle registry, uint id, SoundCallback callback, IntPtr userData);
        [DllImport(Library)] internal static extern int ss_sound_play_file(SoundRegistryHandle registry, string path, int alert, SoundCallback callback, IntPtr userData);
        [DllImport(Library)] internal static extern int ss_sound_registry_set_attention_callback(SoundRegistryHandle registry, AttentionCallback callback, IntPtr userData);
        [DllImport(Library)] internal static extern int ss_session_attach_registry(SessionHandle session, SoundRegistryHandle registry);

        [DllImport(Library)] internal static extern int ss_recorder_settings_init(ref RecorderSettings settings);
        [DllImport(Library)] internal static extern int ss_recorder_create(string path, ref RecorderSettings settings, SessionHandle session, RecorderCallback callback, IntPtr userData, out IntPtr recorder);
        [DllImport(Library)] internal static extern int ss_recorder_create(string path, ref RecorderSettings settings, IntPtr noSession, RecorderCallback callback, IntPtr userData, out IntPtr recorder);
        [DllImport(Library)] internal static extern int ss_recorder_destroy(IntPtr recorder);
        [DllImport(Library)] internal static extern int ss_recorder_prepare(RecorderHandle recorder);
        [DllImport(Library)] internal static extern int ss_recorder_record(RecorderHandle recorder);
        [DllImport(Library)] internal static extern int ss_recorder_record_for(RecorderHandle recorder, double seconds);
        [DllImport(Library)] internal static extern int ss_recorder_pause(RecorderHandle recorder);
        [DllImport(Library)] internal static extern int ss_recorder_stop(RecorderHandle recorder, out Recording recording);
        [DllImport(Library)] internal static extern int ss_recorder_get_state(RecorderHandle recorder, out int state);
        [DllImport(Library)] internal static extern int ss_recorder_get_current_time(RecorderHandle recorder, out double seconds);
        [DllImport(Library)] internal static extern int ss_recorder_set_metering(RecorderHandle recorder, int enabled);
        [DllImport(Library)] internal static extern int ss_recorder_is_metering(RecorderHandle recorder, out int metering);
        [DllImport(Library)] internal static extern int ss_recorder_get_levels(RecorderHandle recorder, ref Levels levels);
        [DllImport(Library)] internal static extern int ss_capture_available(string server);
        [DllImport(Library)] internal static extern int ss_enumerate_openal_outputs(NameCallback callback, IntPtr userData);
        [DllImport(Library)] internal static extern int ss_enumerate_inputs(string server, NameCallback callback, IntPtr userData);

        [DllImport(Library)] internal static extern int ss_scene_file_advance(SceneFileHandle file, double seconds);
        [DllImport(Library)] internal static extern int ss_scene_file_get_source(SceneFileHandle file, string name, out IntPtr source);

        [DllImport(Library)] internal static extern int ss_client_play_id(ClientHandle client, uint id, int alert);
        [DllImport(Library)] internal static extern int ss_client_register_file(ClientHandle client, string path, out uint id);
        [DllImport(Library)] internal static extern int ss_client_register_event(ClientHandle client, string eventName, out uint id);
        [DllImport(Library)] internal static extern int ss_client_dispose(ClientHandle client, uint id);
    }
}
