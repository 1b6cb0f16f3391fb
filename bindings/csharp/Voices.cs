// Soundstage for C#: reverb zones, voice limits, voice events, and the rest of scenes, sources
// and groups' properties.
using System;
using System.Runtime.InteropServices;

namespace Soundstage
{
    /// <summary>Where a reverb zone is heard fully; outside it fades out over Fade units.</summary>
    public struct Region
    {
        internal Native.ReverbRegion Raw;
        /// <summary>Everywhere.</summary>
        public static Region Everywhere { get { return new Region(); } }
        /// <summary>Within `radius` of `center`.</summary>
        public static Region Sphere(Vector3 center, float radius, float fade = 0)
        { return new Region { Raw = new Native.ReverbRegion { Kind = 1, Center = center.Raw, Radius = radius, Fade = fade } }; }
        /// <summary>Between `min` and `max`.</summary>
        public static Region Box(Vector3 min, Vector3 max, float fade = 0)
        { return new Region { Raw = new Native.ReverbRegion { Kind = 2, Min = min.Raw, Max = max.Raw, Fade = fade } }; }
        /// <summary>Everywhere, a sphere or a box.</summary>
        public RegionKind Kind { get { return (RegionKind)Raw.Kind; } }
        /// <summary>A sphere's centre.</summary>
        public Vector3 Center { get { return Vector3.From(Raw.Center); } }
        /// <summary>A sphere's radius.</summary>
        public float Radius { get { return Raw.Radius; } }
        /// <summary>A box's lowest corner.</summary>
        public Vector3 Min { get { return Vector3.From(Raw.Min); } }
        /// <summary>A box's highest corner.</summary>
        public Vector3 Max { get { return Vector3.From(Raw.Max); } }
        /// <summary>How far outside it the zone fades out.</summary>
        public float Fade { get { return Raw.Fade; } }
    }

    /// <summary>The shape of a Region.</summary>
    public enum RegionKind
    {
        /// <summary>Everywhere.</summary>
        Everywhere,
        /// <summary>Within Radius of Center.</summary>
        Sphere,
        /// <summary>Between Min and Max.</summary>
        Box
    }

    /// <summary>Counters of a scene's voice manager.</summary>
    public struct VoiceStatistics
    {
        /// <summary>Playing sources that hold a voice now.</summary>
        public int RealVoices;
        /// <summary>Playing sources without one.</summary>
        public int VirtualVoices;
        /// <summary>Sources stopped by voice limits.</summary>
        public long Steals;
        /// <summary>Times a source lost its voice.</summary>
        public long Virtualizations;
        /// <summary>Times a source got one back.</summary>
        public long Realizations;
        /// <summary>Engine updates that ranked the voices.</summary>
        public long Rankings;
        /// <summary>The last ranking's cost, microseconds.</summary>
        public double LastRankingMicroseconds;
    }

    /// <summary>A reverb zone (an EFX reverb heard where the listener is).</summary>
    public sealed class ReverbZone : NativeObject<ReverbZoneHandle>
    {
        internal ReverbZone(IntPtr raw) : base(new ReverbZoneHandle(raw)) { }
        /// <summary>The preset names ("cave", "castle-small-room", ...).</summary>
        public static string[] Presets
        {
            get
            {
                var names = new string[Native.ss_reverb_preset_count()];
                for (int i = 0; i < names.Length; i++) names[i] = Marshal.PtrToStringAnsi(Native.ss_reverb_preset_name(i));
                return names;
            }
        }
        /// <summary>Switches to another preset.</summary>
        public void SetPreset(string preset) { SoundstageException.Check(Native.ss_reverb_zone_set_preset(Handle, preset)); }
        /// <summary>Changes one reverb value, named as in scene files ("decayTime", ...).</summary>
        public void SetValue(string setting, float value) { SoundstageException.Check(Native.ss_reverb_zone_set_value(Handle, setting, value)); }
        /// <summary>The zone's gain, 0 ... 1.</summary>
        public float Gain
        {
            get { float g; SoundstageException.Check(Native.ss_reverb_zone_get_gain(Handle, out g)); return g; }
            set { SoundstageException.Check(Native.ss_reverb_zone_set_gain(Handle, value)); }
        }
        /// <summary>Where the zone is heard; setting it moves the zone.</summary>
        public Region Region
        {
            get { Native.ReverbRegion r; SoundstageException.Check(Native.ss_reverb_zone_get_region(Handle, out r)); return new Region { Raw = r }; }
            set { var r = value.Raw; SoundstageException.Check(Native.ss_reverb_zone_set_region(Handle, ref r)); }
        }
        /// <summary>One reverb value, named as for SetValue (after SetPreset, the new preset's).</summary>
        public float GetValue(string setting) { float v; SoundstageException.Check(Native.ss_reverb_zone_get_value(Handle, setting, out v)); return v; }
        /// <summary>How much of the zone the listener hears now, 0 ... 1.</summary>
        public float Weight { get { float w; SoundstageException.Check(Native.ss_reverb_zone_get_weight(Handle, out w)); return w; } }
    }

    /// <summary>A cap on how many of its sources sound at once.</summary>
    public sealed class VoiceLimit : NativeObject<VoiceLimitHandle>
    {
        internal VoiceLimit(IntPtr raw) : base(new VoiceLimitHandle(raw)) { }
    }

    internal static partial class Callbacks
    {
        internal static readonly Native.VoiceCallback VoiceChanged = (scene, source, kind, key) => Guard(() =>
        {
            var f = Find<Action<IntPtr, VoiceEventKind>>(key);
            if (f != null) f(source, (VoiceEventKind)kind);
        });
    }

    public sealed partial class Scene
    {
        /// <summary>A source streaming the file at `path` (any length, bounded memory).</summary>
        public Source CreateStreamingSource(string path, bool loop = false, double loopStart = 0, double loopEnd = -1)
        {
            var options = new Native.StreamOptions();
            SoundstageException.Check(Native.ss_stream_options_init(ref options));
            options.Loops = loop ? 1 : 0;
            options.LoopStart = loopStart;
            options.LoopEnd = loopEnd;
            IntPtr raw;
            SoundstageException.Check(Native.ss_source_create_streaming(Handle, path, ref options, out raw));
            return new Source(raw);
        }
        /// <summary>A group under `parent`.</summary>
        public Group CreateGroup(string name, Group parent) { IntPtr raw; SoundstageException.Check(Native.ss_group_create(Handle, name, parent.Handle, out raw)); return new Group(raw); }
        /// <summary>A reverb zone running `preset`, heard in `region` at `gain`.</summary>
        public ReverbZone CreateReverbZone(string name, string preset, Region region, float gain = 1)
        {
            var r = region.Raw;
            IntPtr raw;
            SoundstageException.Check(Native.ss_reverb_zone_create(Handle, name, preset, ref r, gain, out raw));
            return new ReverbZone(raw);
        }
        /// <summary>A voice limit: at most `maxVoices` of its sources sound at once.</summary>
        public VoiceLimit CreateVoiceLimit(string name, int maxVoices, StealPolicy policy = StealPolicy.Oldest)
        { IntPtr raw; SoundstageException.Check(Native.ss_voice_limit_create(Handle, name, maxVoices, (int)policy, out raw)); return new VoiceLimit(raw); }

        /// <summary>The distance model.</summary>
        public DistanceModel DistanceModel
        {
            get { int m; SoundstageException.Check(Native.ss_scene_get_distance_model(Handle, out m)); return (DistanceModel)m; }
            set { SoundstageException.Check(Native.ss_scene_set_distance_model(Handle, (int)value)); }
        }
        /// <summary>Doppler factor, >= 0.</summary>
        public float DopplerFactor
        {
            get { float f; SoundstageException.Check(Native.ss_scene_get_doppler_factor(Handle, out f)); return f; }
            set { SoundstageException.Check(Native.ss_scene_set_doppler_factor(Handle, value)); }
        }
        /// <summary>Speed of sound, > 0.</summary>
        public float SpeedOfSound
        {
            get { float s; SoundstageException.Check(Native.ss_scene_get_speed_of_sound(Handle, out s)); return s; }
            set { SoundstageException.Check(Native.ss_scene_set_speed_of_sound(Handle, value)); }
        }
        /// <summary>Sources playing or paused now.</summary>
        public int ActiveSourceCount { get { int n; SoundstageException.Check(Native.ss_scene_get_active_source_count(Handle, out n)); return n; } }
        /// <summary>The listener's velocity, for Doppler.</summary>
        public Vector3 ListenerVelocity
        {
            get { Native.Vec3 v; SoundstageException.Check(Native.ss_listener_get_velocity(Handle, out v)); return Vector3.From(v); }
            set { SoundstageException.Check(Native.ss_listener_set_velocity(Handle, value.Raw)); }
        }
        /// <summary>Where the listener looks.</summary>
        public Vector3 ListenerAt { get { Native.Vec3 at, up; SoundstageException.Check(Native.ss_listener_get_orientation(Handle, out at, out up)); return Vector3.From(at); } }
        /// <summary>Which way is up for the listener.</summary>
        public Vector3 ListenerUp { get { Native.Vec3 at, up; SoundstageException.Check(Native.ss_listener_get_orientation(Handle, out at, out up)); return Vector3.From(up); } }
        /// <summary>Starts `sources` on the same sample at `time` on the device's mix clock.</summary>
        public void PlayAt(double time, params Source[] sources)
        {
            var handles = new IntPtr[sources.Length];
            for (int i = 0; i < sources.Length; i++) handles[i] = sources[i].Handle.DangerousGetHandle();
            SoundstageException.Check(Native.ss_scene_play_at(Handle, handles, new UIntPtr((ulong)handles.Length), time));
            GC.KeepAlive(sources);
        }
        /// <summary>Fades `incoming` up from 0 while `outgoing` fades down and stops.</summary>
        public void Crossfade(Source outgoing, Source incoming, double seconds) { SoundstageException.Check(Native.ss_scene_crossfade(Handle, outgoing.Handle, incoming.Handle, seconds)); }
        /// <summary>Ducks `target` to `gain` while anything in `trigger` sounds.</summary>
        public void AddDucking(Group target, Group trigger, float gain, double attack, double release) { SoundstageException.Check(Native.ss_scene_add_ducking(Handle, target.Handle, trigger.Handle, gain, attack, release)); }
        /// <summary>Meters the scene (read Levels).</summary>
        public bool Metering
        {
            get { int m; SoundstageException.Check(Native.ss_scene_is_metering(Handle, out m)); return m != 0; }
            set { SoundstageException.Check(Native.ss_scene_set_metering(Handle, value ? 1 : 0)); }
        }
        /// <summary>The scene's levels since the last reading.</summary>
        public Levels Levels { get { var r = Levels.Empty(); SoundstageException.Check(Native.ss_scene_get_levels(Handle, ref r)); return Levels.From(r); } }
        /// <summary>Lets any number of sources play, the most important holding voices.</summary>
        public bool VirtualizesVoices
        {
            get { int v; SoundstageException.Check(Native.ss_scene_get_virtualizes_voices(Handle, out v)); return v != 0; }
            set { SoundstageException.Check(Native.ss_scene_set_virtualizes_voices(Handle, value ? 1 : 0)); if (!value) Keep("voice", null); }
        }
        /// <summary>Called (source handle, kind) for each voice event; compare the handle with Source.Handle.DangerousGetHandle(). Needs VirtualizesVoices. null removes it.</summary>
        public Action<IntPtr, VoiceEventKind> VoiceChanged
        {
            set { IntPtr key = Keep("voice", value); SoundstageException.Check(Native.ss_scene_set_voice_callback(Handle, value == null ? null : Callbacks.VoiceChanged, key)); }
        }
        /// <summary>The voice manager's counters.</summary>
        public VoiceStatistics VoiceStatistics
        {
            get
            {
                Native.VoiceStatistics r;
                SoundstageException.Check(Native.ss_scene_get_voice_statistics(Handle, out r));
                return new VoiceStatistics { RealVoices = r.RealVoices, VirtualVoices = r.VirtualVoices, Steals = r.Steals, Virtualizations = r.Virtualizations, Realizations = r.Realizations, Rankings = r.Rankings, LastRankingMicroseconds = r.LastRankingMicroseconds };
            }
        }
    }

    public sealed partial class Source
    {
        /// <summary>The least gain distance may give, 0 ... 1.</summary>
        public float MinGain { get { return GetFloat(2); } set { SetFloat(2, value); } }
        /// <summary>The most gain distance may give, 0 ... 1.</summary>
        public float MaxGain { get { return GetFloat(3); } set { SetFloat(3, value); } }
        /// <summary>Distance at which the gain is unchanged.</summary>
        public float ReferenceDistance { get { return GetFloat(4); } set { SetFloat(4, value); } }
        /// <summary>Distance beyond which it gets no quieter.</summary>
        public float MaxDistance { get { return GetFloat(5); } set { SetFloat(5, value); } }
        /// <summary>How fast it fades with distance.</summary>
        public float RolloffFactor { get { return GetFloat(6); } set { SetFloat(6, value); } }
        /// <summary>Inner cone angle, degrees.</summary>
        public float ConeInnerAngle { get { return GetFloat(7); } set { SetFloat(7, value); } }
        /// <summary>Outer cone angle, degrees.</summary>
        public float ConeOuterAngle { get { return GetFloat(8); } set { SetFloat(8, value); } }
        /// <summary>Gain outside the outer cone.</summary>
        public float ConeOuterGain { get { return GetFloat(9); } set { SetFloat(9, value); } }
        /// <summary>Occlusion in dB, -100 ... 0.</summary>
        public float Occlusion { get { return GetFloat(10); } set { SetFloat(10, value); } }
        /// <summary>Obstruction in dB, -100 ... 0.</summary>
        public float Obstruction { get { return GetFloat(11); } set { SetFloat(11, value); } }
        /// <summary>Air absorption factor, 0 ... 10.</summary>
        public float AirAbsorption { get { return GetFloat(12); } set { SetFloat(12, value); } }
        /// <summary>How much reaches every reverb zone, 0 ... 1.</summary>
        public float ReverbSend { get { return GetFloat(13); } set { SetFloat(13, value); } }
        /// <summary>Where it faces; zero means omnidirectional.</summary>
        public Vector3 Direction { get { return GetVec(2); } set { SetVec(2, value); } }
        /// <summary>Moves it (one call per frame, without a Vector3).</summary>
        public void SetPosition(float x, float y, float z) { SoundstageException.Check(Native.ss_source_set_position(Handle, x, y, z)); }
        /// <summary>Sets its velocity.</summary>
        public void SetVelocity(float x, float y, float z) { SoundstageException.Check(Native.ss_source_set_velocity(Handle, x, y, z)); }
        /// <summary>Whether position, velocity and direction are relative to the listener.</summary>
        public bool HeadRelative
        {
            get { int v; SoundstageException.Check(Native.ss_source_is_head_relative(Handle, out v)); return v != 0; }
            set { SoundstageException.Check(Native.ss_source_set_head_relative(Handle, value ? 1 : 0)); }
        }
        /// <summary>Extra gapless plays after the first (from the next play).</summary>
        public int RepeatCount
        {
            get { int n; SoundstageException.Check(Native.ss_source_get_repeat_count(Handle, out n)); return n; }
            set { SoundstageException.Check(Native.ss_source_set_repeat_count(Handle, value)); }
        }
        /// <summary>Changes the buffer (stops it first); null for none.</summary>
        public Buffer Buffer { set { SoundstageException.Check(value == null ? Native.ss_source_set_buffer(Handle, IntPtr.Zero) : Native.ss_source_set_buffer(Handle, value.Handle)); } }
        /// <summary>Stops it and puts it back at its start.</summary>
        public void Rewind() { SoundstageException.Check(Native.ss_source_rewind(Handle)); }
        /// <summary>How loud it reaches the listener now.</summary>
        public float Audibility { get { float a; SoundstageException.Check(Native.ss_source_get_audibility(Handle, out a)); return a; } }
        /// <summary>Takes it out of its group.</summary>
        public void LeaveGroup() { SoundstageException.Check(Native.ss_source_set_group(Handle, IntPtr.Zero)); }
        /// <summary>Its send to one zone, 0 ... 1; a negative level removes the override.</summary>
        public void SetZoneSend(ReverbZone zone, float level) { SoundstageException.Check(Native.ss_source_set_zone_send(Handle, zone.Handle, level)); }
        /// <summary>Its send to one zone: its override, else ReverbSend.</summary>
        public float GetZoneSend(ReverbZone zone) { float l; SoundstageException.Check(Native.ss_source_get_zone_send(Handle, zone.Handle, out l)); return l; }
        /// <summary>Puts it under a voice limit (null: none).</summary>
        public VoiceLimit VoiceLimit { set { SoundstageException.Check(value == null ? Native.ss_source_set_voice_limit(Handle, IntPtr.Zero) : Native.ss_source_set_voice_limit(Handle, value.Handle)); } }
        /// <summary>-1,000,000 ... 1,000,000; higher wins a voice.</summary>
        public int Priority
        {
            get { int p; SoundstageException.Check(Native.ss_source_get_priority(Handle, out p)); return p; }
            set { SoundstageException.Check(Native.ss_source_set_priority(Handle, value)); }
        }
        /// <summary>Whether it plays virtually now.</summary>
        public bool IsVirtual { get { int v; SoundstageException.Check(Native.ss_source_is_virtual(Handle, out v)); return v != 0; } }
        /// <summary>Meters it (read Levels).</summary>
        public bool Metering
        {
            get { int m; SoundstageException.Check(Native.ss_source_is_metering(Handle, out m)); return m != 0; }
            set { SoundstageException.Check(Native.ss_source_set_metering(Handle, value ? 1 : 0)); }
        }
        /// <summary>Its levels since the last reading.</summary>
        public Levels Levels { get { var r = Levels.Empty(); SoundstageException.Check(Native.ss_source_get_levels(Handle, ref r)); return Levels.From(r); } }
        /// <summary>Streaming sources: how often the queue ran dry.</summary>
        public int UnderrunCount { get { int n; SoundstageException.Check(Native.ss_source_get_underrun_count(Handle, out n)); return n; } }
    }

    public sealed partial class Group
    {
        /// <summary>Pitch, > 0: multiplies down the tree.</summary>
        public float Pitch
        {
            get { float p; SoundstageException.Check(Native.ss_group_get_pitch(Handle, out p)); return p; }
            set { SoundstageException.Check(Native.ss_group_set_pitch(Handle, value)); }
        }
        /// <summary>Pauses exactly what plays in it and its children.</summary>
        public void Pause() { SoundstageException.Check(Native.ss_group_pause(Handle)); }
        /// <summary>Resumes what Pause paused.</summary>
        public void Resume() { SoundstageException.Check(Native.ss_group_resume(Handle)); }
        /// <summary>Whether paused.</summary>
        public bool Paused { get { int p; SoundstageException.Check(Native.ss_group_is_paused(Handle, out p)); return p != 0; } }
        /// <summary>Meters it (read Levels).</summary>
        public bool Metering
        {
            get { int m; SoundstageException.Check(Native.ss_group_is_metering(Handle, out m)); return m != 0; }
            set { SoundstageException.Check(Native.ss_group_set_metering(Handle, value ? 1 : 0)); }
        }
        /// <summary>Its levels since the last reading.</summary>
        public Levels Levels { get { var r = Levels.Empty(); SoundstageException.Check(Native.ss_group_get_levels(Handle, ref r)); return Levels.From(r); } }
    }
}
