// Soundstage for C#: what a device's output does — desktop options, status, rest, drain, the
// live view, route and output events, metering and levels.
using System;
using System.Runtime.InteropServices;
using System.Text;

namespace Soundstage
{
    /// <summary>Options of the desktop output; null or 0 fields keep the library's defaults.</summary>
    public sealed class DesktopOptions
    {
        /// <summary>Shown by the desktop's mixer; default: the process name.</summary>
        public string ApplicationName;
        /// <summary>Default: the application name.</summary>
        public string ApplicationId;
        /// <summary>Default: the application name.</summary>
        public string StreamName;
        /// <summary>media.role: "game" (default), "event", "music", "phone".</summary>
        public string Role;
        /// <summary>Target latency in seconds, 0.005 ... 0.5; 0: 0.020.</summary>
        public double Latency;
        /// <summary>Server address; null: the default server.</summary>
        public string Server;
        /// <summary>Sink name; null: follow the default sink.</summary>
        public string Sink;
        /// <summary>Mix rate; 0: 48000.</summary>
        public int SampleRate;
        /// <summary>Speaker layout; null: stereo.</summary>
        public ChannelLayout? Layout;
        /// <summary>Binaural mixing; null: OpenAL decides.</summary>
        public bool? Hrtf;
        /// <summary>Seconds of silence before the output rests (0: never); null: 2.</summary>
        public double? IdleTimeout;
    }

    /// <summary>The state of a device's output.</summary>
    public struct OutputStatus
    {
        /// <summary>"desktop", "openal" or "loopback".</summary>
        public string Backend;
        /// <summary>The server's name, or "".</summary>
        public string Server;
        /// <summary>The sink played to, or "".</summary>
        public string Sink;
        /// <summary>Seconds; -1 when not applicable.</summary>
        public double TargetLatency;
        /// <summary>Seconds as the server reports it; -1 when unknown.</summary>
        public double Latency;
        /// <summary>Underruns so far.</summary>
        public int Underruns;
        /// <summary>The user's volume of the stream, 0 ... 1.</summary>
        public float Volume;
        /// <summary>Muted by the user.</summary>
        public bool Muted;
        /// <summary>Corked by the server (e.g. a phone call).</summary>
        public bool Paused;
        /// <summary>Whether the server is connected.</summary>
        public bool Connected;
    }

    /// <summary>An output event of a desktop device.</summary>
    public sealed class OutputEventArgs : EventArgs
    {
        /// <summary>What happened.</summary>
        public OutputEventKind Kind { get; internal set; }
        /// <summary>For VolumeChanged: 0 ... 1.</summary>
        public float Volume { get; internal set; }
        /// <summary>For VolumeChanged.</summary>
        public bool Muted { get; internal set; }
        /// <summary>For Underrun: how many so far.</summary>
        public int Underruns { get; internal set; }
        /// <summary>For ServerLost: why, or null.</summary>
        public string Reason { get; internal set; }
    }

    /// <summary>A meter's levels since the last reading, per channel, in dBFS (-160 = silence).</summary>
    public struct Levels
    {
        /// <summary>Frames measured since the last reading.</summary>
        public int Frames;
        /// <summary>RMS power per channel (empty when nothing was metered).</summary>
        public float[] AveragePower;
        /// <summary>Peak power per channel.</summary>
        public float[] PeakPower;

        internal static Native.Levels Empty() { return new Native.Levels { AveragePower = new float[8], PeakPower = new float[8] }; }
        internal static Levels From(Native.Levels raw)
        {
            int channels = Math.Max(0, Math.Min(8, raw.Channels));
            var levels = new Levels { Frames = raw.Frames, AveragePower = new float[channels], PeakPower = new float[channels] };
            Array.Copy(raw.AveragePower, levels.AveragePower, channels);
            Array.Copy(raw.PeakPower, levels.PeakPower, channels);
            return levels;
        }
    }

    internal static partial class Callbacks
    {
        internal static readonly Native.RouteCallback RouteChanged = (d, reason, previous, output, key) => Guard(() =>
        {
            var f = Find<Action<RouteReason, string, string>>(key);
            if (f != null) f((RouteReason)reason, Marshal.PtrToStringAnsi(previous), Marshal.PtrToStringAnsi(output));
        });
        internal static readonly Native.OutputCallback OutputChanged = (IntPtr d, ref Native.OutputEvent e, IntPtr key) =>
        {
            var args = new OutputEventArgs { Kind = (OutputEventKind)e.Kind, Volume = e.Volume, Muted = e.Muted != 0, Underruns = e.Underruns, Reason = Marshal.PtrToStringAnsi(e.Reason) };
            Guard(() => { var f = Find<Action<OutputEventArgs>>(key); if (f != null) f(args); });
        };
    }

    public sealed partial class Device
    {
        /// <summary>Opens the best output there is, with the desktop output's options.</summary>
        public static Device OpenOutput(Backend backend, DesktopOptions options)
        {
            var raw = new Native.DesktopOptions();
            SoundstageException.Check(Native.ss_desktop_options_init(ref raw));
            var strings = new IntPtr[6];
            try
            {
                raw.ApplicationName = strings[0] = Text(options.ApplicationName);
                raw.ApplicationId = strings[1] = Text(options.ApplicationId);
                raw.StreamName = strings[2] = Text(options.StreamName);
                raw.Role = strings[3] = Text(options.Role);
                raw.Server = strings[4] = Text(options.Server);
                raw.Sink = strings[5] = Text(options.Sink);
                if (options.Latency != 0) raw.Latency = options.Latency;
                if (options.SampleRate != 0) raw.SampleRate = options.SampleRate;
                if (options.Layout.HasValue) raw.Layout = (int)options.Layout.Value;
                raw.Hrtf = options.Hrtf.HasValue ? (options.Hrtf.Value ? 1 : 0) : -1;
                if (options.IdleTimeout.HasValue) raw.IdleTimeout = options.IdleTimeout.Value;
                IntPtr device;
                SoundstageException.Check(Native.ss_device_open_output((int)backend, ref raw, out device));
                return new Device(device);
            }
            finally { foreach (var s in strings) if (s != IntPtr.Zero) Marshal.FreeHGlobal(s); }
        }

        static IntPtr Text(string s) { return s == null ? IntPtr.Zero : Marshal.StringToHGlobalAnsi(s); }

        /// <summary>Opens OpenAL Soft's own output (name null: the default; hrtf null: OpenAL decides; reverbZones -1: 4).</summary>
        public static Device OpenOpenAL(string name = null, bool? hrtf = null, int reverbZones = -1)
        {
            IntPtr raw;
            SoundstageException.Check(Native.ss_device_open_openal(name, hrtf.HasValue ? (hrtf.Value ? 1 : 0) : -1, reverbZones, out raw));
            return new Device(raw);
        }

        /// <summary>What kind of device.</summary>
        public DeviceKind Kind { get { Native.DeviceInfo i; SoundstageException.Check(Native.ss_device_get_info(Handle, out i)); return (DeviceKind)i.Kind; } }
        /// <summary>Whether it mixes binaurally.</summary>
        public bool Hrtf { get { Native.DeviceInfo i; SoundstageException.Check(Native.ss_device_get_info(Handle, out i)); return i.HrtfEnabled != 0; } }
        /// <summary>Limits how much audio LoadBuffer decodes (bytes of float samples); default 512 MiB.</summary>
        public void SetMaxDecodedBytes(long bytes) { SoundstageException.Check(Native.ss_device_set_max_decoded_bytes(Handle, new UIntPtr((ulong)bytes))); }
        /// <summary>The decode limit of SetMaxDecodedBytes, in bytes.</summary>
        public long MaxDecodedBytes { get { UIntPtr b; SoundstageException.Check(Native.ss_device_get_max_decoded_bytes(Handle, out b)); return (long)b.ToUInt64(); } }
        /// <summary>Forgets LoadBuffer's file cache.</summary>
        public void EvictCachedBuffers() { SoundstageException.Check(Native.ss_device_evict_cached_buffers(Handle)); }

        /// <summary>The output's state.</summary>
        public OutputStatus OutputStatus
        {
            get
            {
                Native.OutputStatus r;
                SoundstageException.Check(Native.ss_device_get_output_status(Handle, out r));
                return new OutputStatus { Backend = Field(r.Backend), Server = Field(r.Server), Sink = Field(r.Sink), TargetLatency = r.TargetLatency, Latency = r.Latency, Underruns = r.Underruns, Volume = r.Volume, Muted = r.Muted != 0, Paused = r.Paused != 0, Connected = r.Connected != 0 };
            }
        }

        static string Field(byte[] bytes)
        {
            int length = Array.IndexOf(bytes, (byte)0);
            return Encoding.UTF8.GetString(bytes, 0, length < 0 ? bytes.Length : length);
        }

        /// <summary>Whether the output rests now because nothing plays.</summary>
        public bool Resting { get { int resting, rests; SoundstageException.Check(Native.ss_device_get_output_rest(Handle, out resting, out rests)); return resting != 0; } }
        /// <summary>How many times the output has rested since it opened.</summary>
        public int Rests { get { int resting, rests; SoundstageException.Check(Native.ss_device_get_output_rest(Handle, out resting, out rests)); return rests; } }
        /// <summary>Waits until everything mixed so far reached the output (Result.InvalidState when `timeout` seconds ran out).</summary>
        public void Drain(double timeout) { SoundstageException.Check(Native.ss_device_drain(Handle, timeout)); }

        /// <summary>Starts the live view of the mix on 127.0.0.1:`port` (0: any); returns its URL.</summary>
        public string StartLiveView(int port = 0)
        {
            var url = new byte[256];
            SoundstageException.Check(Native.ss_device_start_live_view(Handle, port, url, new UIntPtr((ulong)url.Length)));
            return Field(url);
        }
        /// <summary>Stops the live view, if there is one.</summary>
        public void StopLiveView() { SoundstageException.Check(Native.ss_device_stop_live_view(Handle)); }

        /// <summary>Called (reason, previous output, output) when the output changes, on a thread of the library. null removes it.</summary>
        public Action<RouteReason, string, string> RouteChanged
        {
            set { IntPtr key = Keep("route", value); SoundstageException.Check(Native.ss_device_set_route_callback(Handle, value == null ? null : Callbacks.RouteChanged, key)); }
        }
        /// <summary>Called with what the desktop server does to the stream, on the output thread. null removes it.</summary>
        public Action<OutputEventArgs> OutputChanged
        {
            set { IntPtr key = Keep("output", value); SoundstageException.Check(Native.ss_device_set_output_callback(Handle, value == null ? null : Callbacks.OutputChanged, key)); }
        }

        /// <summary>Meters the output (read OutputLevels).</summary>
        public bool OutputMetering
        {
            get { int m; SoundstageException.Check(Native.ss_device_is_output_metering(Handle, out m)); return m != 0; }
            set { SoundstageException.Check(Native.ss_device_set_output_metering(Handle, value ? 1 : 0)); }
        }
        /// <summary>The output's levels since the last reading.</summary>
        public Levels OutputLevels { get { var r = Levels.Empty(); SoundstageException.Check(Native.ss_device_get_output_levels(Handle, ref r)); return Levels.From(r); } }
    }
}
