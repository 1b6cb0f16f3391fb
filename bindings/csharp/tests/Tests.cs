// The C# binding heard on the loopback renderer, from Mono: each test prints ok/FAIL, and the
// program exits 1 if any failed. Run by scripts/test-bindings.sh:
//   mcs -out:tests.exe tests/Tests.cs *.cs && mono tests.exe ASSETS_DIR
using System;
using System.Collections.Generic;
using System.Threading;
using Soundstage;

static class Tests
{
    static string assets = "assets/sounds";
    static int passed, failed;

    static void Check(bool condition, string what) { if (!condition) throw new Exception("expected: " + what); }

    static float[] Tone(double seconds)
    {
        var samples = new float[(int)(seconds * 48000)];
        for (int i = 0; i < samples.Length; i++) samples[i] = (float)(0.5 * Math.Sin(2 * Math.PI * 440 * i / 48000.0));
        return samples;
    }

    static double Rms(float[] interleaved, int channel, int fromFrame)
    {
        double sum = 0; int n = 0;
        for (int f = fromFrame; f < interleaved.Length / 2; f++) { sum += interleaved[2 * f + channel] * (double)interleaved[2 * f + channel]; n++; }
        return Math.Sqrt(sum / Math.Max(1, n));
    }

    static void Run(string name, Action test)
    {
        try { test(); Console.WriteLine("ok   " + name); passed++; }
        catch (Exception e) { Console.WriteLine("FAIL " + name + ": " + e.GetType().Name + ": " + e.Message); failed++; }
    }

    static int Main(string[] args)
    {
        if (args.Length > 0) assets = args[0];

        Run("a source on the right is heard on the right", () =>
        {
            using (var device = Device.OpenLoopback())
            {
                var scene = device.CreateScene();
                var source = scene.CreateSource(device.CreateBuffer(Tone(1)));
                source.Looping = true;
                source.Position = new Vector3(2, 0, 0);
                source.Play();
                var mix = device.Render(4800);
                Check(Rms(mix, 1, 480) > 0.1 && Rms(mix, 1, 480) > 2 * Rms(mix, 0, 480), "right louder");
                source.Position = new Vector3(-2, 0, 0);
                device.Render(2400);
                mix = device.Render(4800);
                Check(Rms(mix, 0, 0) > 2 * Rms(mix, 1, 0), "left louder after the move");
            }
        });

        Run("Completed is raised once, inside Render, when the sound ends", () =>
        {
            using (var device = Device.OpenLoopback())
            {
                var source = device.CreateScene().CreateSource(device.CreateBuffer(Tone(0.1)));
                int calls = 0, thread = -1;
                source.Completed = () => { calls++; thread = Thread.CurrentThread.ManagedThreadId; };
                source.Play();
                device.Render(2400);
                Check(calls == 0 && source.State == SourceState.Playing, "still playing at 0.05 s");
                GC.Collect(); GC.WaitForPendingFinalizers(); // the delegate must survive a collection
                device.Render(9600);
                Check(calls == 1, "called once (" + calls + ")");
                Check(thread == Thread.CurrentThread.ManagedThreadId, "on the rendering thread");
                Check(source.State == SourceState.Stopped, "stopped");
            }
        });

        Run("a bad file throws SoundstageException with the code and message", () =>
        {
            using (var device = Device.OpenLoopback())
            {
                try { device.LoadBuffer("/nonexistent/bee.wav"); throw new Exception("no exception"); }
                catch (SoundstageException e)
                {
                    Check(e.Code == Result.NotFound, "NotFound, not " + e.Code);
                    Check(e.CodeName == "SS_ERROR_NOT_FOUND" && e.Message.Contains("bee.wav"), "named: " + e.Message);
                }
                try { device.LoadBuffer(System.Text.Encoding.ASCII.GetBytes("not a sound file, just words"), "notes.txt"); throw new Exception("no exception"); }
                catch (SoundstageException e) { Check(e.Code == Result.UnsupportedFormat || e.Code == Result.CorruptData, "refused: " + e.Code); }
            }
        });

        Run("NaN is refused and the property kept", () =>
        {
            using (var device = Device.OpenLoopback())
            {
                var scene = device.CreateScene();
                var source = scene.CreateSource();
                source.Gain = 0.5f;
                try { source.Gain = float.NaN; throw new Exception("no exception"); }
                catch (SoundstageException e) { Check(e.Code == Result.NotFinite, "NotFinite"); }
                Check(source.Gain == 0.5f && scene.RefusedValueCount == 1, "kept and counted");
            }
        });

        Run("objects outliving their device throw StaleHandle; disposed ones ObjectDisposed", () =>
        {
            var device = Device.OpenLoopback();
            var scene = device.CreateScene();
            var source = scene.CreateSource(device.CreateBuffer(Tone(0.1)));
            device.Dispose();
            try { source.Play(); throw new Exception("no exception"); }
            catch (SoundstageException e) { Check(e.Code == Result.StaleHandle, "StaleHandle, not " + e.Code); }
            source.Dispose();
            source.Dispose();
            try { source.Play(); throw new Exception("no exception"); }
            catch (ObjectDisposedException) { }
            scene.Dispose();
        });

        Run("a group fade calls back once and stops its sources", () =>
        {
            using (var device = Device.OpenLoopback())
            {
                var scene = device.CreateScene();
                var music = scene.CreateGroup("music");
                var source = scene.CreateSource(device.CreateBuffer(Tone(1)));
                source.Looping = true;
                source.SetGroup(music);
                source.Play();
                int ended = 0;
                music.Fade(0, 0.2, true, () => ended++);
                GC.Collect(); GC.WaitForPendingFinalizers();
                device.Render(24000);
                Check(ended == 1 && source.State == SourceState.Stopped && music.Gain == 0, "faded once (" + ended + ")");
            }
        });

        Run("a system sound reports how it ended", () =>
        {
            using (var device = Device.OpenLoopback())
            using (var registry = device.CreateSoundRegistry())
            {
                uint click = registry.RegisterFile(assets + "/click.wav");
                var outcomes = new List<SoundOutcome>();
                registry.Play(click, (id, how) => outcomes.Add(how));
                device.Render(48000);
                Check(outcomes.Count == 1 && outcomes[0] == SoundOutcome.Finished, "finished");
                registry.Enabled = false;
                try { registry.Play(click, (id, how) => outcomes.Add(how)); } catch (SoundstageException) { }
                Check(outcomes.Count == 2 && outcomes[1] == SoundOutcome.Silenced, "silenced");
            }
        });

        Run("a session interruption silences and resumes", () =>
        {
            using (var device = Device.OpenLoopback())
            {
                var scene = device.CreateScene();
                var session = device.CreateSession(Category.Playback);
                var kinds = new List<SessionEventKind>();
                session.Changed = e => kinds.Add(e.Kind);
                session.Attach(scene);
                session.Active = true;
                var source = scene.CreateSource(device.CreateBuffer(Tone(2)));
                source.Play();
                device.Render(4800);
                session.BeginInterruption();
                Check(Rms(device.Render(4800), 0, 960) < 1e-4 && session.Interrupted, "silent while interrupted");
                session.EndInterruption(true);
                Check(Rms(device.Render(4800), 0, 960) > 0.1, "heard again");
                Check(kinds.Contains(SessionEventKind.InterruptionBegan) && kinds.Contains(SessionEventKind.InterruptionEnded), "events");
            }
        });

        Run("a batch starts a chord on one sample", () =>
        {
            float[] chord, single;
            using (var device = Device.OpenLoopback())
            {
                var scene = device.CreateScene();
                var buffer = device.CreateBuffer(Tone(1));
                Source a = scene.CreateSource(buffer), b = scene.CreateSource(buffer);
                device.Render(100);
                scene.Batch(() => { a.Play(); device.Render(480); b.Play(); });
                chord = device.Render(4800);
            }
            using (var device = Device.OpenLoopback())
            {
                var alone = device.CreateScene().CreateSource(device.CreateBuffer(Tone(1)));
                device.Render(580);
                alone.Play();
                single = device.Render(4800);
            }
            double worst = 0;
            for (int i = 0; i < chord.Length; i++) worst = Math.Max(worst, Math.Abs(chord[i] - 2 * single[i]));
            Check(worst < 1e-3 && Rms(single, 0, 0) > 0.1, "twice the tone, in phase (worst " + worst + ")");
        });

        Run("no handle is left after every object is disposed", () =>
        {
            long before = Library.LiveHandles;
            using (var device = Device.OpenLoopback())
            using (var scene = device.CreateScene())
            using (var buffer = device.CreateBuffer(Tone(0.1)))
            using (var source = scene.CreateSource(buffer)) { source.Play(); device.Render(480); }
            Check(Library.LiveHandles == before, "live handles back to " + before + " (" + Library.LiveHandles + ")");
            Check(Library.Version.StartsWith("0."), "a version");
        });

        Run("a reverb zone is heard fully inside its sphere and not outside", () =>
        {
            using (var device = Device.OpenLoopback())
            {
                var scene = device.CreateScene();
                Check(Array.IndexOf(ReverbZone.Presets, "cave") >= 0, "the cave preset");
                var zone = scene.CreateReverbZone("hall", "cave", Region.Sphere(new Vector3(0, 0, 0), 5, 1));
                device.Render(960);
                Check(Math.Abs(zone.Weight - 1) < 1e-6, "inside: weight 1 (" + zone.Weight + ")");
                scene.ListenerPosition = new Vector3(100, 0, 0);
                device.Render(960);
                Check(zone.Weight < 1e-6, "outside: weight 0 (" + zone.Weight + ")");
            }
        });

        Run("a full voice limit steals the oldest, or refuses the next play without stealing", () =>
        {
            using (var device = Device.OpenLoopback())
            {
                var scene = device.CreateScene();
                var buffer = device.CreateBuffer(Tone(1));
                scene.VirtualizesVoices = true; // voice limits belong to the voice manager
                var stolen = new List<IntPtr>();
                scene.VoiceChanged = (source, kind) => { if (kind == VoiceEventKind.Stolen) stolen.Add(source); };
                var steps = scene.CreateVoiceLimit("steps", 1, StealPolicy.Oldest);
                Source first = scene.CreateSource(buffer), second = scene.CreateSource(buffer);
                first.VoiceLimit = steps;
                second.VoiceLimit = steps;
                first.Play();
                device.Render(960);
                second.Play();
                Check(stolen.Count == 1 && stolen[0] == first.Handle.DangerousGetHandle(), "the oldest stolen, reported");
                var limit = scene.CreateVoiceLimit("footsteps", 1, StealPolicy.None);
                Source a = scene.CreateSource(buffer), b = scene.CreateSource(buffer);
                a.VoiceLimit = limit;
                b.VoiceLimit = limit;
                a.Play();
                try { b.Play(); throw new Exception("no exception"); }
                catch (SoundstageException e) { Check(e.Code == Result.VoiceLimitReached, "VoiceLimitReached, not " + e.Code); }
            }
        });

        Run("a metered source reports its level", () =>
        {
            using (var device = Device.OpenLoopback())
            {
                var source = device.CreateScene().CreateSource(device.CreateBuffer(Tone(1)));
                source.Metering = true;
                source.Play();
                device.Render(9600);
                var levels = source.Levels;
                Check(levels.Frames > 0 && levels.PeakPower.Length == 1 && levels.PeakPower[0] > -12, "a peak near -6 dBFS (" + (levels.PeakPower.Length > 0 ? levels.PeakPower[0] : float.NaN) + ")");
            }
        });

        Run("a streaming source plays a file from disk", () =>
        {
            using (var device = Device.OpenLoopback())
            {
                var source = device.CreateScene().CreateStreamingSource(assets + "/ambience.ogg", loop: true);
                source.Play();
                var mix = device.Render(24000);
                Check(Rms(mix, 0, 4800) > 0.001 && source.State == SourceState.Playing, "heard and playing");
            }
        });

        // Issue 45: properties read the library, not the binding's memory of the last value set.
        Run("properties read what a C caller set on the same handle, and what a fade left", () =>
        {
            using (var device = Device.OpenLoopback())
            {
                var scene = device.CreateScene();
                var group = scene.CreateGroup("music");
                var source = scene.CreateSource(device.CreateBuffer(Tone(0.1)));
                var zone = scene.CreateReverbZone("hall", "generic", Region.Everywhere, 0.5f);
                var registry = device.CreateSoundRegistry();
                Check(!group.Muted && group.Pitch == 1 && !group.Metering, "a group's defaults");
                Check(registry.Volume == 1 && registry.Enabled, "a registry's defaults");
                Check(Native.ss_group_set_muted(group.Handle, 1) == 0 && Native.ss_group_set_pitch(group.Handle, 2) == 0
                      && Native.ss_group_set_metering(group.Handle, 1) == 0, "C calls on the group");
                Check(Native.ss_sound_registry_set_volume(registry.Handle, 0.25f) == 0
                      && Native.ss_sound_registry_set_enabled(registry.Handle, 0) == 0, "C calls on the registry");
                Check(Native.ss_scene_set_metering(scene.Handle, 1) == 0 && Native.ss_scene_set_virtualizes_voices(scene.Handle, 1) == 0
                      && Native.ss_scene_set_doppler_factor(scene.Handle, 2.5f) == 0 && Native.ss_scene_set_speed_of_sound(scene.Handle, 100) == 0
                      && Native.ss_listener_set_velocity(scene.Handle, new Vector3(1, -2, 3).Raw) == 0, "C calls on the scene");
                Check(Native.ss_source_set_metering(source.Handle, 1) == 0 && Native.ss_source_set_priority(source.Handle, -42) == 0
                      && Native.ss_source_set_repeat_count(source.Handle, 3) == 0
                      && Native.ss_source_set_zone_send(source.Handle, zone.Handle, 0.5f) == 0, "C calls on the source");
                var sphere = Region.Sphere(new Vector3(1, 2, 3), 4, 1).Raw;
                Check(Native.ss_reverb_zone_set_gain(zone.Handle, 0.75f) == 0 && Native.ss_reverb_zone_set_region(zone.Handle, ref sphere) == 0, "C calls on the zone");
                Check(Native.ss_device_set_output_metering(device.Handle, 1) == 0
                      && Native.ss_device_set_max_decoded_bytes(device.Handle, new UIntPtr(1000000)) == 0, "C calls on the device");
                Check(group.Muted && group.Pitch == 2 && group.Metering, "the group reads the C caller's values");
                Check(registry.Volume == 0.25f && !registry.Enabled, "the registry reads the C caller's values");
                Check(scene.Metering && scene.VirtualizesVoices && scene.DopplerFactor == 2.5f && scene.SpeedOfSound == 100, "the scene reads the C caller's values");
                Check(scene.ListenerVelocity.Equals(new Vector3(1, -2, 3)), "the listener's velocity");
                Check(source.Metering && source.Priority == -42 && source.RepeatCount == 3 && source.GetZoneSend(zone) == 0.5f, "the source reads the C caller's values");
                var region = zone.Region;
                Check(zone.Gain == 0.75f && region.Kind == RegionKind.Sphere && region.Center.Equals(new Vector3(1, 2, 3))
                      && region.Radius == 4 && region.Fade == 1, "the zone reads the C caller's values");
                Check(Math.Abs(zone.GetValue("decayTime") - 1.49f) < 1e-6, "a reverb value");
                Check(device.OutputMetering && device.MaxDecodedBytes == 1000000, "the device reads the C caller's values");
                group.Fade(0.25f, 0.05);
                device.Render(4800);
                Check(group.Gain == 0.25f, "the gain a fade left");
                device.Dispose();
                try { var muted = group.Muted; throw new Exception("expected StaleHandle, read " + muted); }
                catch (SoundstageException e) { Check(e.Code == Result.StaleHandle, "StaleHandle after the device"); }
            }
        });

        Console.WriteLine("C#: " + passed + " passed, " + failed + " failed");
        return failed == 0 ? 0 : 1;
    }
}
