// Soundstage for C#: positional audio for Linux games, through P/Invoke on libsoundstage.so.0.
// Handles are SafeHandles (Dispose, or `using`, destroys them; the finalizer does if you forget);
// a failed call throws SoundstageException with the result code and the library's message;
// callbacks are ordinary C# delegates, kept alive for as long as they are registered.
// Build: mcs -target:library -out:Soundstage.dll bindings/csharp/*.cs (bindings/csharp/README.md).
using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;
using System.Threading;

namespace Soundstage
{
#pragma warning disable 1591 // enum members are the header's constants, documented in soundstage.h
    /// <summary>The header's result codes (ss_result).</summary>
    public enum Result
    {
        Ok = 0, NullArgument = -1, InvalidHandle = -2, StaleHandle = -3, WrongHandleKind = -4, NotFinite = -5,
        OutOfRange = -6, InvalidArgument = -7, InvalidState = -8, OutOfHandles = -9, BufferTooSmall = -10,
        NotFound = -20, PermissionDenied = -21, UnsupportedFormat = -22, CorruptData = -23, IO = -24, TooLarge = -25,
        NoOutputDevice = -26, ExtensionMissing = -27, OpenAL = -28, ExceededMaximumDuration = -29,
        UnknownSoundId = -30, SessionNotActive = -31, SessionUnavailable = -32, InvalidScene = -33,
        SourceBudgetExhausted = -34, VoiceLimitReached = -35, AudioServer = -36, NoInputDevice = -37,
        CategoryForbids = -38, Released = -39, Daemon = -40, Connection = -41, CodecUnavailable = -42, Internal = -99
    }

    /// <summary>Speaker layouts.</summary>
    public enum ChannelLayout { Mono = 1, Stereo = 2, Quad = 4, Surround51 = 6, Surround61 = 7, Surround71 = 8 }
    /// <summary>File formats for rendering and recording.</summary>
    public enum FileFormat { WavPcm16, WavPcm24, WavFloat32, Flac, OggVorbis, Opus, Mp3, CafPcm16, AiffPcm16, M4aAac, M4aAlac, CafIlbc }
    /// <summary>Which output Device.OpenOutput uses.</summary>
    public enum Backend { Automatic, Desktop, OpenAL }
    /// <summary>Playback states.</summary>
    public enum SourceState { Initial, Playing, Paused, Stopped }
    /// <summary>How a system sound's play ended.</summary>
    public enum SoundOutcome { Finished, Replaced, Coalesced, Silenced, Disposed, Failed }
    /// <summary>Session categories (as AVAudioSession's).</summary>
    public enum Category { Ambient, SoloAmbient, Playback, PlayAndRecord, Record, AudioProcessing }
    /// <summary>Session options.</summary>
    [Flags] public enum SessionOptions { None = 0, MixWithOthers = 1, DuckOthers = 2 }
    /// <summary>What kind of device.</summary>
    public enum DeviceKind { OpenAL, Loopback, Desktop }
    /// <summary>Distance models (as OpenAL's).</summary>
    public enum DistanceModel { None, Inverse, InverseClamped, Linear, LinearClamped, Exponent, ExponentClamped }
    /// <summary>What a voice limit does when one more source of its kind plays.</summary>
    public enum StealPolicy { Oldest, Quietest, Farthest, None }
    /// <summary>What the voice manager did to a source.</summary>
    public enum VoiceEventKind { Stolen, Virtualized, Realized }
    /// <summary>Why the output changed.</summary>
    public enum RouteReason { OldDeviceUnavailable, NewDeviceAvailable, Override, CategoryChange, OutputMoved }
    /// <summary>What the desktop server did to a desktop device's stream.</summary>
    public enum OutputEventKind { PauseRequested, ResumeRequested, VolumeChanged, Underrun, ServerLost, ServerReconnected }
    /// <summary>Recorder states.</summary>
    public enum RecorderState { Idle, Prepared, Recording, Paused, Finished }
    /// <summary>Why a recording ended.</summary>
    public enum RecordingEnd { Stopped, DurationReached, InputLost, WriteFailed }
    /// <summary>What happened to a session.</summary>
    public enum SessionEventKind { Activated, Deactivated, InterruptionBegan, InterruptionEnded, Ducked, Unducked }

#pragma warning restore 1591

    /// <summary>A position, velocity or direction (OpenAL's axes: +x right, +y up, -z ahead).</summary>
    public struct Vector3
    {
        /// <summary>Right.</summary>
        public float X;
        /// <summary>Up.</summary>
        public float Y;
        /// <summary>Towards the listener's back.</summary>
        public float Z;
        /// <summary>The vector (x, y, z).</summary>
        public Vector3(float x, float y, float z) { X = x; Y = y; Z = z; }
        internal Native.Vec3 Raw { get { return new Native.Vec3 { X = X, Y = Y, Z = Z }; } }
        internal static Vector3 From(Native.Vec3 v) { return new Vector3(v.X, v.Y, v.Z); }
        /// <summary>"(x, y, z)".</summary>
        public override string ToString() { return "(" + X + ", " + Y + ", " + Z + ")"; }
    }

    /// <summary>A session event.</summary>
    public sealed class SessionEventArgs : EventArgs
    {
        /// <summary>What happened.</summary>
        public SessionEventKind Kind { get; internal set; }
        /// <summary>For InterruptionEnded: whether what played resumed.</summary>
        public bool ShouldResume { get; internal set; }
        /// <summary>For Ducked: the duck gain.</summary>
        public float DuckGain { get; internal set; }
    }

    /// <summary>A call of libsoundstage failed: the code and the library's message.</summary>
    public class SoundstageException : Exception
    {
        /// <summary>Why it failed.</summary>
        public Result Code { get; private set; }
        /// <summary>The code's name in the header ("SS_ERROR_NOT_FOUND").</summary>
        public string CodeName { get { return Marshal.PtrToStringAnsi(Native.ss_result_name((int)Code)); } }
        internal SoundstageException(Result code, string message) : base(message) { Code = code; }

        /// <summary>Throws the error of a failed call, with the calling thread's message.</summary>
        internal static void Check(int result)
        {
            if (result != 0)
                throw new SoundstageException((Result)result, Marshal.PtrToStringAnsi(Native.ss_error_message()) ?? "");
        }
    }

    /// <summary>A handle of the library; releasing it calls its destroy function.</summary>
    public abstract class SoundstageHandle : SafeHandle
    {
        internal SoundstageHandle(IntPtr raw) : base(IntPtr.Zero, true) { SetHandle(raw); }
        /// <summary>Whether the handle is NULL.</summary>
        public override bool IsInvalid { get { return handle == IntPtr.Zero; } }
        /// <summary>The destroy call; a stale handle (its parent went first) is not an error here.</summary>
        protected override bool ReleaseHandle() { Destroy(handle); return true; }
        internal abstract void Destroy(IntPtr raw);
    }

#pragma warning disable 1591 // the handle kinds are internal in all but name
    public sealed class DeviceHandle : SoundstageHandle { internal DeviceHandle(IntPtr r) : base(r) { } internal override void Destroy(IntPtr r) { Native.ss_device_destroy(r); } }
    public sealed class SceneHandle : SoundstageHandle { internal SceneHandle(IntPtr r) : base(r) { } internal override void Destroy(IntPtr r) { Native.ss_scene_destroy(r); } }
    public sealed class BufferHandle : SoundstageHandle { internal BufferHandle(IntPtr r) : base(r) { } internal override void Destroy(IntPtr r) { Native.ss_buffer_destroy(r); } }
    public sealed class SourceHandle : SoundstageHandle { internal SourceHandle(IntPtr r) : base(r) { } internal override void Destroy(IntPtr r) { Native.ss_source_destroy(r); } }
    public sealed class GroupHandle : SoundstageHandle { internal GroupHandle(IntPtr r) : base(r) { } internal override void Destroy(IntPtr r) { Native.ss_group_destroy(r); } }
    public sealed class SoundRegistryHandle : SoundstageHandle { internal SoundRegistryHandle(IntPtr r) : base(r) { } internal override void Destroy(IntPtr r) { Native.ss_sound_registry_destroy(r); } }
    public sealed class SessionHandle : SoundstageHandle { internal SessionHandle(IntPtr r) : base(r) { } internal override void Destroy(IntPtr r) { Native.ss_session_destroy(r); } }
    public sealed class SceneFileHandle : SoundstageHandle { internal SceneFileHandle(IntPtr r) : base(r) { } internal override void Destroy(IntPtr r) { Native.ss_scene_file_destroy(r); } }
    public sealed class ClientHandle : SoundstageHandle { internal ClientHandle(IntPtr r) : base(r) { } internal override void Destroy(IntPtr r) { Native.ss_client_destroy(r); } }
    public sealed class ReverbZoneHandle : SoundstageHandle { internal ReverbZoneHandle(IntPtr r) : base(r) { } internal override void Destroy(IntPtr r) { Native.ss_reverb_zone_destroy(r); } }
    public sealed class VoiceLimitHandle : SoundstageHandle { internal VoiceLimitHandle(IntPtr r) : base(r) { } internal override void Destroy(IntPtr r) { Native.ss_voice_limit_destroy(r); } }
    public sealed class RecorderHandle : SoundstageHandle { internal RecorderHandle(IntPtr r) : base(r) { } internal override void Destroy(IntPtr r) { Native.ss_recorder_destroy(r); } }
#pragma warning restore 1591

    /// <summary>
    /// Where registered delegates live. The library carries a key as user_data, never a pointer
    /// to a delegate: a callback racing with a Dispose finds the key gone and does nothing. The
    /// native entry points are static delegates, alive as long as the program.
    /// </summary>
    internal static partial class Callbacks
    {
        static readonly Dictionary<long, Delegate> table = new Dictionary<long, Delegate>();
        static long next;

        internal static IntPtr Register(Delegate function)
        {
            lock (table) { long key = ++next; table[key] = function; return new IntPtr(key); }
        }
        internal static void Unregister(IntPtr key)
        {
            lock (table) table.Remove(key.ToInt64());
        }
        internal static T Find<T>(IntPtr key) where T : class
        {
            lock (table) { Delegate d; return table.TryGetValue(key.ToInt64(), out d) ? d as T : null; }
        }
        internal static T Take<T>(IntPtr key) where T : class
        {
            lock (table) { Delegate d; if (!table.TryGetValue(key.ToInt64(), out d)) return null; table.Remove(key.ToInt64()); return d as T; }
        }
        /// <summary>Runs a callback body; an exception is reported, never thrown into the library's thread.</summary>
        internal static void Guard(Action body)
        {
            try { body(); }
            catch (Exception e) { Console.Error.WriteLine("soundstage: a callback threw " + e.GetType().Name + ": " + e.Message); }
        }

        internal static readonly Native.SourceCallback SourceCompleted = (s, key) => Guard(() => { var f = Find<Action>(key); if (f != null) f(); });
        internal static readonly Native.GroupCallback FadeEnded = (g, key) => Guard(() => { var f = Take<Action>(key); if (f != null) f(); });
        internal static readonly Native.SoundCallback SoundEnded = (r, id, outcome, key) => Guard(() => { var f = Take<Action<uint, SoundOutcome>>(key); if (f != null) f(id, (SoundOutcome)outcome); });
        internal static readonly Native.SessionCallback SessionChanged = (IntPtr s, ref Native.SessionEvent e, IntPtr key) =>
        {
            var args = new SessionEventArgs { Kind = (SessionEventKind)e.Kind, ShouldResume = e.ShouldResume != 0, DuckGain = e.DuckGain };
            Guard(() => { var f = Find<Action<SessionEventArgs>>(key); if (f != null) f(args); });
        };
        internal static readonly Native.ClientCallback ClientCompleted = (c, id, outcome, key) => Guard(() => { var f = Find<Action<uint, SoundOutcome>>(key); if (f != null) f(id, (SoundOutcome)outcome); });
    }

    /// <summary>An object of the library: disposing it destroys its handle.</summary>
    public abstract class NativeObject<THandle> : IDisposable where THandle : SoundstageHandle
    {
        readonly Dictionary<string, IntPtr> callbacks = new Dictionary<string, IntPtr>();
        /// <summary>The SafeHandle.</summary>
        public THandle Handle { get; private set; }
        internal NativeObject(THandle handle) { Handle = handle; }
        /// <summary>Destroys the handle. Disposing a device destroys what was made on it: their calls then throw with Result.StaleHandle.</summary>
        public void Dispose()
        {
            Handle.Dispose();
            lock (callbacks) { foreach (var key in callbacks.Values) Callbacks.Unregister(key); callbacks.Clear(); }
        }
        internal void Adopt(string kind, IntPtr key) { lock (callbacks) callbacks[kind] = key; }
        internal IntPtr Keep(string kind, Delegate function)
        {
            IntPtr key = function == null ? IntPtr.Zero : Callbacks.Register(function);
            lock (callbacks)
            {
                IntPtr old;
                if (callbacks.TryGetValue(kind, out old)) Callbacks.Unregister(old);
                if (function == null) callbacks.Remove(kind); else callbacks[kind] = key;
            }
            return key;
        }
    }

    /// <summary>An output or an offline renderer.</summary>
    public sealed partial class Device : NativeObject<DeviceHandle>
    {
        Device(IntPtr raw) : base(new DeviceHandle(raw)) { }

        /// <summary>Opens the best output there is (throws Result.NoOutputDevice when nothing opens: render instead).</summary>
        public static Device OpenOutput(Backend backend = Backend.Automatic)
        {
            IntPtr raw;
            SoundstageException.Check(Native.ss_device_open_output((int)backend, IntPtr.Zero, out raw));
            return new Device(raw);
        }

        /// <summary>Opens an offline renderer: Render mixes into your memory, deterministically.</summary>
        public static Device OpenLoopback(int sampleRate = 48000, ChannelLayout layout = ChannelLayout.Stereo)
        {
            IntPtr raw;
            SoundstageException.Check(Native.ss_device_open_loopback(sampleRate, (int)layout, 0, -1, out raw));
            return new Device(raw);
        }

        /// <summary>Channels of a frame.</summary>
        public int Channels { get { Native.DeviceInfo i; SoundstageException.Check(Native.ss_device_get_info(Handle, out i)); return i.Channels; } }
        /// <summary>The mix rate in Hz.</summary>
        public int SampleRate { get { Native.DeviceInfo i; SoundstageException.Check(Native.ss_device_get_info(Handle, out i)); return i.SampleRate; } }

        /// <summary>Loopback devices: mixes samples.Length / Channels frames of interleaved floats into `samples`.
        /// Completion callbacks of sources ending in this mix run inside this call, on this thread.</summary>
        public void Render(float[] samples)
        {
            int channels = Channels;
            if (samples.Length % channels != 0) throw new ArgumentException("not a whole number of " + channels + "-channel frames", "samples");
            SoundstageException.Check(Native.ss_device_render(Handle, samples, new UIntPtr((ulong)(samples.Length / channels))));
        }

        /// <summary>Loopback devices: mixes `frames` frames and returns them, interleaved.</summary>
        public float[] Render(int frames) { var s = new float[frames * Channels]; Render(s); return s; }

        /// <summary>Loopback devices: mixes `seconds` of audio into a file.</summary>
        public void RenderToFile(double seconds, string path, FileFormat format = FileFormat.WavPcm16)
        { SoundstageException.Check(Native.ss_device_render_to_file(Handle, seconds, path, (int)format)); }

        /// <summary>The mix clock in seconds.</summary>
        public double MixTime { get { double t; SoundstageException.Check(Native.ss_device_get_mix_time(Handle, out t)); return t; } }
        /// <summary>Mixed chunks that held NaN or infinity (0 when healthy).</summary>
        public long NonFiniteMixCount { get { long n; SoundstageException.Check(Native.ss_device_get_non_finite_mix_count(Handle, out n)); return n; } }

        /// <summary>Starts writing exactly the mix the device sends out to a file.</summary>
        public void StartRecordingOutput(string path, FileFormat format = FileFormat.WavPcm16)
        { SoundstageException.Check(Native.ss_device_start_recording_output(Handle, path, (int)format)); }
        /// <summary>Stops the mix recording; returns the frames written.</summary>
        public long StopRecordingOutput() { Native.MixRecording r; SoundstageException.Check(Native.ss_device_stop_recording_output(Handle, out r)); return r.Frames; }

        /// <summary>Decodes a sound file into a buffer (cached by path).</summary>
        public Buffer LoadBuffer(string path) { IntPtr raw; SoundstageException.Check(Native.ss_buffer_load_file(Handle, path, out raw)); return new Buffer(raw); }
        /// <summary>Decodes a whole sound file held in memory.</summary>
        public Buffer LoadBuffer(byte[] data, string name = null) { IntPtr raw; SoundstageException.Check(Native.ss_buffer_load_memory(Handle, data, new UIntPtr((ulong)data.Length), name, out raw)); return new Buffer(raw); }
        /// <summary>A buffer from interleaved float samples (NaN, infinite or huge samples are refused).</summary>
        public Buffer CreateBuffer(float[] samples, int channels = 1, int sampleRate = 48000)
        {
            if (channels <= 0 || samples.Length % channels != 0) throw new ArgumentException("not a whole number of frames", "samples");
            IntPtr raw;
            SoundstageException.Check(Native.ss_buffer_create_pcm(Handle, samples, new UIntPtr((ulong)(samples.Length / channels)), channels, sampleRate, out raw));
            return new Buffer(raw);
        }
        /// <summary>A new scene (sourceBudget: sources playing at once; 0: 256).</summary>
        public Scene CreateScene(int sourceBudget = 0) { IntPtr raw; SoundstageException.Check(Native.ss_scene_create(Handle, sourceBudget, out raw)); return new Scene(raw); }
        /// <summary>A registry of short system sounds with the default options.</summary>
        public SoundRegistry CreateSoundRegistry() { IntPtr raw; SoundstageException.Check(Native.ss_sound_registry_create(Handle, IntPtr.Zero, out raw)); return new SoundRegistry(raw); }
        /// <summary>A new (inactive) session.</summary>
        public Session CreateSession(Category category, SessionOptions options = SessionOptions.None) { IntPtr raw; SoundstageException.Check(Native.ss_session_create(Handle, (int)category, (int)options, out raw)); return new Session(raw); }
        /// <summary>Loads and validates a scene file (Result.InvalidScene says where it is malformed).</summary>
        public SceneFile LoadSceneFile(string path) { IntPtr raw; SoundstageException.Check(Native.ss_scene_file_load(Handle, path, out raw)); return new SceneFile(raw); }
    }

    /// <summary>Decoded audio shared by sources (mono: positioned in 3D).</summary>
    public sealed partial class Buffer : NativeObject<BufferHandle>
    {
        internal Buffer(IntPtr raw) : base(new BufferHandle(raw)) { }
        /// <summary>Seconds.</summary>
        public double Duration { get { Native.BufferInfo i; SoundstageException.Check(Native.ss_buffer_get_info(Handle, out i)); return i.Duration; } }
        /// <summary>Channels per frame.</summary>
        public int Channels { get { Native.BufferInfo i; SoundstageException.Check(Native.ss_buffer_get_info(Handle, out i)); return i.Channels; } }
    }

    /// <summary>A listener and sources.</summary>
    public sealed partial class Scene : NativeObject<SceneHandle>
    {
        internal Scene(IntPtr raw) : base(new SceneHandle(raw)) { }
        /// <summary>A source playing `buffer` (null: none yet).</summary>
        public Source CreateSource(Buffer buffer = null)
        {
            IntPtr raw;
            SoundstageException.Check(buffer == null ? Native.ss_source_create(Handle, IntPtr.Zero, out raw) : Native.ss_source_create(Handle, buffer.Handle, out raw));
            return new Source(raw);
        }
        /// <summary>A group (bus) of sources.</summary>
        public Group CreateGroup(string name) { IntPtr raw; SoundstageException.Check(Native.ss_group_create(Handle, name, IntPtr.Zero, out raw)); return new Group(raw); }
        /// <summary>The listener's position.</summary>
        public Vector3 ListenerPosition
        {
            get { Native.Vec3 v; SoundstageException.Check(Native.ss_listener_get_position(Handle, out v)); return Vector3.From(v); }
            set { SoundstageException.Check(Native.ss_listener_set_position(Handle, value.Raw)); }
        }
        /// <summary>Where the listener looks and which way is up.</summary>
        public void SetListenerOrientation(Vector3 at, Vector3 up) { SoundstageException.Check(Native.ss_listener_set_orientation(Handle, at.Raw, up.Raw)); }
        /// <summary>The scene's master gain, >= 0.</summary>
        public float ListenerGain
        {
            get { float g; SoundstageException.Check(Native.ss_listener_get_gain(Handle, out g)); return g; }
            set { SoundstageException.Check(Native.ss_listener_set_gain(Handle, value)); }
        }
        /// <summary>Values the scene's objects refused (NaN, out of range).</summary>
        public long RefusedValueCount { get { long n; SoundstageException.Check(Native.ss_scene_get_refused_value_count(Handle, out n)); return n; } }
        /// <summary>Runs `changes` as one batch: its changes and plays land in the same mixer update.</summary>
        public void Batch(Action changes)
        {
            SoundstageException.Check(Native.ss_scene_begin_batch(Handle));
            try { changes(); }
            finally { SoundstageException.Check(Native.ss_scene_end_batch(Handle)); }
        }
    }

    /// <summary>A sound in a scene.</summary>
    public sealed partial class Source : NativeObject<SourceHandle>
    {
        internal Source(IntPtr raw) : base(new SourceHandle(raw)) { }
        float GetFloat(int p) { float v; SoundstageException.Check(Native.ss_source_get_float(Handle, p, out v)); return v; }
        void SetFloat(int p, float v) { SoundstageException.Check(Native.ss_source_set_float(Handle, p, v)); }
        Vector3 GetVec(int p) { Native.Vec3 v; SoundstageException.Check(Native.ss_source_get_vec3(Handle, p, out v)); return Vector3.From(v); }
        void SetVec(int p, Vector3 v) { SoundstageException.Check(Native.ss_source_set_vec3(Handle, p, v.Raw)); }

        /// <summary>Gain, >= 0 (default 1).</summary>
        public float Gain { get { return GetFloat(0); } set { SetFloat(0, value); } }
        /// <summary>Pitch, > 0 (2 doubles the frequency).</summary>
        public float Pitch { get { return GetFloat(1); } set { SetFloat(1, value); } }
        /// <summary>Position in metres (per frame).</summary>
        public Vector3 Position { get { return GetVec(0); } set { SetVec(0, value); } }
        /// <summary>Velocity, for Doppler.</summary>
        public Vector3 Velocity { get { return GetVec(1); } set { SetVec(1, value); } }
        /// <summary>Whether it loops forever.</summary>
        public bool Looping
        {
            get { int v; SoundstageException.Check(Native.ss_source_is_looping(Handle, out v)); return v != 0; }
            set { SoundstageException.Check(Native.ss_source_set_looping(Handle, value ? 1 : 0)); }
        }
        /// <summary>Its playback state.</summary>
        public SourceState State { get { int s; SoundstageException.Check(Native.ss_source_get_state(Handle, out s)); return (SourceState)s; } }
        /// <summary>The play position in seconds (setting it seeks).</summary>
        public double Offset
        {
            get { double t; SoundstageException.Check(Native.ss_source_get_offset(Handle, out t)); return t; }
            set { SoundstageException.Check(Native.ss_source_seek(Handle, value)); }
        }
        /// <summary>Starts, resumes or restarts it.</summary>
        public void Play() { SoundstageException.Check(Native.ss_source_play(Handle)); }
        /// <summary>Pauses it.</summary>
        public void Pause() { SoundstageException.Check(Native.ss_source_pause(Handle)); }
        /// <summary>Stops it (Completed is not raised).</summary>
        public void Stop() { SoundstageException.Check(Native.ss_source_stop(Handle)); }
        /// <summary>Fades its level to `level` over `seconds`.</summary>
        public void Fade(float level, double seconds, bool stopAtEnd = false) { SoundstageException.Check(Native.ss_source_fade(Handle, level, seconds, stopAtEnd ? 1 : 0)); }
        /// <summary>Puts it in a group.</summary>
        public void SetGroup(Group group) { SoundstageException.Check(Native.ss_source_set_group(Handle, group.Handle)); }
        /// <summary>Called each time it plays to its end: inside Device.Render on a loopback device, on the update thread on an output. null removes it.</summary>
        public Action Completed
        {
            set
            {
                IntPtr key = Keep("completed", value);
                SoundstageException.Check(Native.ss_source_set_completion_callback(Handle, value == null ? null : Callbacks.SourceCompleted, key));
            }
        }
    }

    /// <summary>A group (bus) of sources.</summary>
    public sealed partial class Group : NativeObject<GroupHandle>
    {
        internal Group(IntPtr raw) : base(new GroupHandle(raw)) { }
        /// <summary>Gain, >= 0.</summary>
        public float Gain
        {
            get { float g; SoundstageException.Check(Native.ss_group_get_gain(Handle, out g)); return g; }
            set { SoundstageException.Check(Native.ss_group_set_gain(Handle, value)); }
        }
        /// <summary>Whether it is muted (its own flag, not its parents'); setting it mutes or unmutes it.</summary>
        public bool Muted
        {
            get { int m; SoundstageException.Check(Native.ss_group_is_muted(Handle, out m)); return m != 0; }
            set { SoundstageException.Check(Native.ss_group_set_muted(Handle, value ? 1 : 0)); }
        }
        /// <summary>Moves its gain over `seconds`; `then` (may be null) runs once at the end.</summary>
        public void Fade(float gain, double seconds, bool stopAtEnd = false, Action then = null)
        {
            IntPtr key = then == null ? IntPtr.Zero : Callbacks.Register(then);
            int result = Native.ss_group_fade(Handle, gain, seconds, stopAtEnd ? 1 : 0, then == null ? null : Callbacks.FadeEnded, key);
            if (result != 0 && then != null) Callbacks.Unregister(key);
            SoundstageException.Check(result);
        }
    }

    /// <summary>Short system sounds played at once by id, event name or file.</summary>
    public sealed partial class SoundRegistry : NativeObject<SoundRegistryHandle>
    {
        internal SoundRegistry(IntPtr raw) : base(new SoundRegistryHandle(raw)) { }
        /// <summary>Registers a sound file; returns its id.</summary>
        public uint RegisterFile(string path) { uint id; SoundstageException.Check(Native.ss_sound_register_file(Handle, path, out id)); return id; }
        /// <summary>Registers a freedesktop sound-theme event; returns its id.</summary>
        public uint RegisterEvent(string name) { uint id; SoundstageException.Check(Native.ss_sound_register_event(Handle, name, out id)); return id; }
        /// <summary>Frees a registered sound.</summary>
        public void Dispose(uint id) { SoundstageException.Check(Native.ss_sound_dispose(Handle, id)); }
        /// <summary>Plays a registered sound; `then(id, outcome)` (may be null) runs exactly once when it ends.</summary>
        public void Play(uint id, Action<uint, SoundOutcome> then = null)
        {
            IntPtr key = then == null ? IntPtr.Zero : Callbacks.Register(then);
            int result = Native.ss_sound_play(Handle, id, then == null ? null : Callbacks.SoundEnded, key);
            if (result != 0 && then != null) Callbacks.Unregister(key);
            SoundstageException.Check(result);
        }
        /// <summary>Plays a sound-theme event by name.</summary>
        public void PlayEvent(string name, bool alert = false, Action<uint, SoundOutcome> then = null)
        {
            IntPtr key = then == null ? IntPtr.Zero : Callbacks.Register(then);
            int result = Native.ss_sound_play_event(Handle, name, alert ? 1 : 0, then == null ? null : Callbacks.SoundEnded, key);
            if (result != 0 && then != null) Callbacks.Unregister(key);
            SoundstageException.Check(result);
        }
        /// <summary>Volume, 0 ... 1.</summary>
        public float Volume
        {
            get { float v; SoundstageException.Check(Native.ss_sound_registry_get_volume(Handle, out v)); return v; }
            set { SoundstageException.Check(Native.ss_sound_registry_set_volume(Handle, value)); }
        }
        /// <summary>False: plays end Silenced.</summary>
        public bool Enabled
        {
            get { int e; SoundstageException.Check(Native.ss_sound_registry_is_enabled(Handle, out e)); return e != 0; }
            set { SoundstageException.Check(Native.ss_sound_registry_set_enabled(Handle, value ? 1 : 0)); }
        }
    }

    /// <summary>An audio session: a category, activation and interruptions.</summary>
    public sealed partial class Session : NativeObject<SessionHandle>
    {
        internal Session(IntPtr raw) : base(new SessionHandle(raw)) { }
        /// <summary>Whether active: attached scenes sound only while it is.</summary>
        public bool Active
        {
            get { Native.SessionState s; SoundstageException.Check(Native.ss_session_get_state(Handle, out s)); return s.Active != 0; }
            set { SoundstageException.Check(Native.ss_session_set_active(Handle, value ? 1 : 0)); }
        }
        /// <summary>Whether interrupted.</summary>
        public bool Interrupted { get { Native.SessionState s; SoundstageException.Check(Native.ss_session_get_state(Handle, out s)); return s.Interrupted != 0; } }
        /// <summary>Changes the category.</summary>
        public void SetCategory(Category category, SessionOptions options = SessionOptions.None) { SoundstageException.Check(Native.ss_session_set_category(Handle, (int)category, (int)options)); }
        /// <summary>Puts a scene under the session.</summary>
        public void Attach(Scene scene) { SoundstageException.Check(Native.ss_session_attach_scene(Handle, scene.Handle)); }
        /// <summary>Interrupts it (as a phone call would): what plays pauses.</summary>
        public void BeginInterruption() { SoundstageException.Check(Native.ss_session_begin_interruption(Handle)); }
        /// <summary>Ends an interruption; with `shouldResume` what played resumes.</summary>
        public void EndInterruption(bool shouldResume = true) { SoundstageException.Check(Native.ss_session_end_interruption(Handle, shouldResume ? 1 : 0)); }
        /// <summary>Called for each event, on the thread whose call caused it. null removes it.</summary>
        public Action<SessionEventArgs> Changed
        {
            set
            {
                IntPtr key = Keep("changed", value);
                SoundstageException.Check(Native.ss_session_set_callback(Handle, value == null ? null : Callbacks.SessionChanged, key));
            }
        }
    }

    /// <summary>A loaded scene file.</summary>
    public sealed partial class SceneFile : NativeObject<SceneFileHandle>
    {
        internal SceneFile(IntPtr raw) : base(new SceneFileHandle(raw)) { }
        /// <summary>The scene's length in seconds.</summary>
        public double Duration { get { double d; SoundstageException.Check(Native.ss_scene_file_get_duration(Handle, out d)); return d; } }
        /// <summary>Loopback devices: renders the whole scene to a file.</summary>
        public void Render(string path, FileFormat format = FileFormat.WavPcm16) { SoundstageException.Check(Native.ss_scene_file_render(Handle, path, (int)format)); }
        /// <summary>Output devices: plays the whole scene; blocks until it ends.</summary>
        public void Play() { SoundstageException.Check(Native.ss_scene_file_play(Handle)); }
    }

    /// <summary>A connection to the Soundstage daemon (`soundstage serve`).</summary>
    public sealed partial class Client : NativeObject<ClientHandle>
    {
        Client(IntPtr raw) : base(new ClientHandle(raw)) { }
        /// <summary>Connects (socket null: $XDG_RUNTIME_DIR/soundstage/socket); Result.Connection when none listens.</summary>
        public static Client Connect(string socket = null) { IntPtr raw; SoundstageException.Check(Native.ss_client_connect(socket, out raw)); return new Client(raw); }
        /// <summary>Plays a sound-theme event through the daemon; returns the sound's id.</summary>
        public uint PlayEvent(string name, bool alert = false) { uint id; SoundstageException.Check(Native.ss_client_play_event(Handle, name, alert ? 1 : 0, out id)); return id; }
        /// <summary>Plays a sound file (read by the daemon); returns the sound's id.</summary>
        public uint PlayFile(string path, bool alert = false) { uint id; SoundstageException.Check(Native.ss_client_play_file(Handle, path, alert ? 1 : 0, out id)); return id; }
        /// <summary>Called (id, outcome) when a sound this client played ends, on a thread of the client's.</summary>
        public Action<uint, SoundOutcome> Completed
        {
            set
            {
                IntPtr key = Keep("completed", value);
                SoundstageException.Check(Native.ss_client_set_completion_callback(Handle, value == null ? null : Callbacks.ClientCompleted, key));
            }
        }
    }

    /// <summary>The library as a whole.</summary>
    public static partial class Library
    {
        /// <summary>The library's version, "MAJOR.MINOR.PATCH".</summary>
        public static string Version { get { return Marshal.PtrToStringAnsi(Native.ss_version()); } }
        /// <summary>Handles alive, for leak checks.</summary>
        public static long LiveHandles { get { return (long)Native.ss_live_handles().ToUInt64(); } }
        /// <summary>Call on a thread of yours that used the library, before it ends.</summary>
        public static void ThreadDetach() { Native.ss_thread_detach(); }
    }
}
