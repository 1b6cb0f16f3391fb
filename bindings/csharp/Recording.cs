// Soundstage for C#: recording inputs of the desktop server, enumerations, and the rest of
// system sounds, sessions, scene files, the daemon client and buffers.
using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;

namespace Soundstage
{
    /// <summary>What a finished recording holds.</summary>
    public struct Recording
    {
        /// <summary>Frames.</summary>
        public long Frames;
        /// <summary>Hz.</summary>
        public int SampleRate;
        /// <summary>Channels.</summary>
        public int Channels;
        /// <summary>Seconds.</summary>
        public double Duration;
        /// <summary>Why it ended.</summary>
        public RecordingEnd End;
        internal static Recording From(Native.Recording r) { return new Recording { Frames = r.Frames, SampleRate = r.SampleRate, Channels = r.Channels, Duration = r.Duration, End = (RecordingEnd)r.End }; }
    }

    /// <summary>A name and a description from an enumeration.</summary>
    public struct NamedDevice
    {
        /// <summary>What the open and record calls take.</summary>
        public string Name;
        /// <summary>For people; may be null.</summary>
        public string Description;
    }

    internal static partial class Callbacks
    {
        internal static readonly Native.RecorderCallback RecordingEnded = (IntPtr r, ref Native.Recording recording, IntPtr key) =>
        {
            var result = Recording.From(recording);
            Guard(() => { var f = Find<Action<Recording>>(key); if (f != null) f(result); });
        };
        internal static readonly Native.AttentionCallback Attention = (r, id, key) => Guard(() => { var f = Find<Action<uint>>(key); if (f != null) f(id); });
    }

    /// <summary>A recorder of an input of the desktop server to a file.</summary>
    public sealed class Recorder : NativeObject<RecorderHandle>
    {
        Recorder(IntPtr raw) : base(new RecorderHandle(raw)) { }

        /// <summary>A recorder to `path` (nothing opened yet); input null: the default input; under `session` (may be null)
        /// it records only in the record categories while active; `ended` (may be null) runs once when it ends.</summary>
        public static Recorder Create(string path, FileFormat format = FileFormat.WavPcm16, string input = null, Session session = null, Action<Recording> ended = null)
        {
            var settings = new Native.RecorderSettings();
            SoundstageException.Check(Native.ss_recorder_settings_init(ref settings));
            settings.Format = (int)format;
            settings.Input = input == null ? IntPtr.Zero : Marshal.StringToHGlobalAnsi(input);
            IntPtr key = ended == null ? IntPtr.Zero : Callbacks.Register(ended);
            try
            {
                IntPtr raw;
                int result = session == null
                    ? Native.ss_recorder_create(path, ref settings, IntPtr.Zero, ended == null ? null : Callbacks.RecordingEnded, key, out raw)
                    : Native.ss_recorder_create(path, ref settings, session.Handle, ended == null ? null : Callbacks.RecordingEnded, key, out raw);
                if (result != 0 && ended != null) Callbacks.Unregister(key);
                SoundstageException.Check(result);
                var recorder = new Recorder(raw);
                if (ended != null) recorder.Adopt("ended", key);
                return recorder;
            }
            finally { if (settings.Input != IntPtr.Zero) Marshal.FreeHGlobal(settings.Input); }
        }

        /// <summary>Opens the input and the file, so that Record starts at once.</summary>
        public void Prepare() { SoundstageException.Check(Native.ss_recorder_prepare(Handle)); }
        /// <summary>Starts or resumes recording.</summary>
        public void Record() { SoundstageException.Check(Native.ss_recorder_record(Handle)); }
        /// <summary>Records until `seconds` are in the file, then stops.</summary>
        public void Record(double seconds) { SoundstageException.Check(Native.ss_recorder_record_for(Handle, seconds)); }
        /// <summary>Pauses (the file stays open).</summary>
        public void Pause() { SoundstageException.Check(Native.ss_recorder_pause(Handle)); }
        /// <summary>Stops, completes the file, and returns what it holds.</summary>
        public Recording Stop() { Native.Recording r; SoundstageException.Check(Native.ss_recorder_stop(Handle, out r)); return Recording.From(r); }
        /// <summary>Its state.</summary>
        public RecorderState State { get { int s; SoundstageException.Check(Native.ss_recorder_get_state(Handle, out s)); return (RecorderState)s; } }
        /// <summary>Seconds recorded so far.</summary>
        public double CurrentTime { get { double t; SoundstageException.Check(Native.ss_recorder_get_current_time(Handle, out t)); return t; } }
        /// <summary>Meters the input (read Levels).</summary>
        public bool Metering
        {
            get { int m; SoundstageException.Check(Native.ss_recorder_is_metering(Handle, out m)); return m != 0; }
            set { SoundstageException.Check(Native.ss_recorder_set_metering(Handle, value ? 1 : 0)); }
        }
        /// <summary>The input's levels since the last reading.</summary>
        public Levels Levels { get { var r = Levels.Empty(); SoundstageException.Check(Native.ss_recorder_get_levels(Handle, ref r)); return Levels.From(r); } }
    }

    public static partial class Library
    {
        /// <summary>The library's version as major * 10000 + minor * 100 + patch.</summary>
        public static int VersionNumber { get { return Native.ss_version_number(); } }
        /// <summary>Live OpenAL objects of the process: devices, contexts, buffers, sources (for leak checks).</summary>
        public static int[] LiveOpenALObjects
        {
            get { Native.LiveObjects o; SoundstageException.Check(Native.ss_get_live_objects(out o)); return new[] { o.Devices, o.Contexts, o.Buffers, o.Sources, o.EffectSlots, o.Effects, o.Filters }; }
        }
        /// <summary>Whether the desktop server (null: the default) has a real input.</summary>
        public static bool CaptureAvailable(string server = null) { return Native.ss_capture_available(server) != 0; }
        /// <summary>OpenAL Soft's output devices (names for Device.OpenOpenAL).</summary>
        public static List<NamedDevice> OpenALOutputs() { return Collect(cb => Native.ss_enumerate_openal_outputs(cb, IntPtr.Zero)); }
        /// <summary>The desktop server's inputs: microphones and every sink's monitor.</summary>
        public static List<NamedDevice> Inputs(string server = null) { return Collect(cb => Native.ss_enumerate_inputs(server, cb, IntPtr.Zero)); }

        static List<NamedDevice> Collect(Func<Native.NameCallback, int> enumerate)
        {
            var names = new List<NamedDevice>();
            Native.NameCallback add = (name, description, user) =>
                names.Add(new NamedDevice { Name = Marshal.PtrToStringAnsi(name), Description = Marshal.PtrToStringAnsi(description) });
            SoundstageException.Check(enumerate(add));
            GC.KeepAlive(add); // called only during the enumeration, on this thread
            return names;
        }
    }

    public sealed partial class Device
    {
        /// <summary>A buffer from interleaved 16-bit samples.</summary>
        public Buffer CreateBuffer(short[] samples, int channels = 1, int sampleRate = 48000)
        {
            if (channels <= 0 || samples.Length % channels != 0) throw new ArgumentException("not a whole number of frames", "samples");
            IntPtr raw;
            SoundstageException.Check(Native.ss_buffer_create_pcm16(Handle, samples, new UIntPtr((ulong)(samples.Length / channels)), channels, sampleRate, out raw));
            return new Buffer(raw);
        }
        /// <summary>A registry of system sounds (maxConcurrent 1: a new sound replaces the one playing).</summary>
        public SoundRegistry CreateSoundRegistry(int maxConcurrent, double coalescingWindow = 0.08, double maximumDuration = 30, string theme = null)
        {
            var options = new Native.SoundRegistryOptions();
            SoundstageException.Check(Native.ss_sound_registry_options_init(ref options));
            options.MaxConcurrent = maxConcurrent;
            options.CoalescingWindow = coalescingWindow;
            options.MaximumDuration = maximumDuration;
            options.Theme = theme == null ? IntPtr.Zero : Marshal.StringToHGlobalAnsi(theme);
            try { IntPtr raw; SoundstageException.Check(Native.ss_sound_registry_create(Handle, ref options, out raw)); return new SoundRegistry(raw); }
            finally { if (options.Theme != IntPtr.Zero) Marshal.FreeHGlobal(options.Theme); }
        }
    }

    public sealed partial class Buffer
    {
        /// <summary>Frames.</summary>
        public long Frames { get { Native.BufferInfo i; SoundstageException.Check(Native.ss_buffer_get_info(Handle, out i)); return i.Frames; } }
        /// <summary>Hz.</summary>
        public int SampleRate { get { Native.BufferInfo i; SoundstageException.Check(Native.ss_buffer_get_info(Handle, out i)); return i.SampleRate; } }
    }

    public sealed partial class SoundRegistry
    {
        /// <summary>Registers a sound file held in memory; returns its id.</summary>
        public uint Register(byte[] data, string name = null) { uint id; SoundstageException.Check(Native.ss_sound_register_memory(Handle, data, new UIntPtr((ulong)data.Length), name, out id)); return id; }
        /// <summary>Plays a registered sound as an alert (the attention callback runs too).</summary>
        public void PlayAlert(uint id, Action<uint, SoundOutcome> then = null)
        {
            IntPtr key = then == null ? IntPtr.Zero : Callbacks.Register(then);
            int result = Native.ss_sound_play_alert(Handle, id, then == null ? null : Callbacks.SoundEnded, key);
            if (result != 0 && then != null) Callbacks.Unregister(key);
            SoundstageException.Check(result);
        }
        /// <summary>Plays a sound file (registered on first use).</summary>
        public void PlayFile(string path, bool alert = false, Action<uint, SoundOutcome> then = null)
        {
            IntPtr key = then == null ? IntPtr.Zero : Callbacks.Register(then);
            int result = Native.ss_sound_play_file(Handle, path, alert ? 1 : 0, then == null ? null : Callbacks.SoundEnded, key);
            if (result != 0 && then != null) Callbacks.Unregister(key);
            SoundstageException.Check(result);
        }
        /// <summary>Called (id) when an alert plays, on the thread that played it. null removes it.</summary>
        public Action<uint> Attention
        {
            set { IntPtr key = Keep("attention", value); SoundstageException.Check(Native.ss_sound_registry_set_attention_callback(Handle, value == null ? null : Callbacks.Attention, key)); }
        }
    }

    public sealed partial class Session
    {
        /// <summary>Puts a system-sound registry under the session.</summary>
        public void Attach(SoundRegistry registry) { SoundstageException.Check(Native.ss_session_attach_registry(Handle, registry.Handle)); }
        /// <summary>Whether another session ducks it.</summary>
        public bool Ducked { get { Native.SessionState s; SoundstageException.Check(Native.ss_session_get_state(Handle, out s)); return s.Ducked != 0; } }
        /// <summary>Its category.</summary>
        public Category Category { get { Native.SessionState s; SoundstageException.Check(Native.ss_session_get_state(Handle, out s)); return (Category)s.Category; } }
    }

    public sealed partial class SceneFile
    {
        /// <summary>Moves everything to `seconds`, for driving it yourself.</summary>
        public void Advance(double seconds) { SoundstageException.Check(Native.ss_scene_file_advance(Handle, seconds)); }
        /// <summary>The scene's source named `name` (disposing it stops that source).</summary>
        public Source Source(string name) { IntPtr raw; SoundstageException.Check(Native.ss_scene_file_get_source(Handle, name, out raw)); return new Source(raw); }
    }

    public sealed partial class Client
    {
        /// <summary>Plays a sound registered with the daemon.</summary>
        public void PlayId(uint id, bool alert = false) { SoundstageException.Check(Native.ss_client_play_id(Handle, id, alert ? 1 : 0)); }
        /// <summary>Registers a sound file with the daemon; returns its id.</summary>
        public uint RegisterFile(string path) { uint id; SoundstageException.Check(Native.ss_client_register_file(Handle, path, out id)); return id; }
        /// <summary>Registers a sound-theme event with the daemon; returns its id.</summary>
        public uint RegisterEvent(string name) { uint id; SoundstageException.Check(Native.ss_client_register_event(Handle, name, out id)); return id; }
        /// <summary>Frees a sound registered with the daemon.</summary>
        public void Dispose(uint id) { SoundstageException.Check(Native.ss_client_dispose(Handle, id)); }
    }
}
