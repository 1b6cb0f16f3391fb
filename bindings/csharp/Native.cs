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
        [DllImport(Library)] internal static extern int ss_group_fade(GroupHandle group, float gain, double seconds, int stopAtEnd, GroupCallback callback, IntPtr userData);

        [DllImport(Library)] internal static extern int ss_sound_registry_create(DeviceHandle device, IntPtr options, out IntPtr registry);
        [DllImport(Library)] internal static extern int ss_sound_registry_destroy(IntPtr registry);
        [DllImport(Library)] internal static extern int ss_sound_register_file(SoundRegistryHandle registry, string path, out uint id);
        [DllImport(Library)] internal static extern int ss_sound_register_event(SoundRegistryHandle registry, string eventName, out uint id);
        [DllImport(Library)] internal static extern int ss_sound_dispose(SoundRegistryHandle registry, uint id);
        [DllImport(Library)] internal static extern int ss_sound_play(SoundRegistryHandle registry, uint id, SoundCallback callback, IntPtr userData);
        [DllImport(Library)] internal static extern int ss_sound_play_event(SoundRegistryHandle registry, string eventName, int alert, SoundCallback callback, IntPtr userData);
        [DllImport(Library)] internal static extern int ss_sound_registry_set_volume(SoundRegistryHandle registry, float volume);
        [DllImport(Library)] internal static extern int ss_sound_registry_set_enabled(SoundRegistryHandle registry, int enabled);

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
    }
}
