// orbit (C#): a bee circles your head, once every 4 seconds — the orbit example through the C#
// binding (bindings/csharp). `--render FILE` writes the same bytes as Examples/C/orbit.c.
//
//   mcs -out:orbit.exe Examples/csharp/Orbit.cs bindings/csharp/*.cs
//   mono orbit.exe                 # plays on the desktop server or the sound card
//   mono orbit.exe --render FILE   # renders the same 8 s offline to a WAV file
//
// The sound is assets/sounds/bee.wav, or $SOUNDSTAGE_ASSETS/bee.wav.
using System;
using System.Diagnostics;
using System.Threading;
using Soundstage;

static class Orbit
{
    const int Seconds = 8, TicksPerSecond = 60;

    // Where the bee is at `t` seconds; its velocity follows the motion (for Doppler).
    static void Tick(Source bee, double t, ref float? previousX, ref float previousZ)
    {
        double angle = 2 * Math.PI * t / 4;
        float x = (float)(2 * Math.Sin(angle)), z = (float)(-2 * Math.Cos(angle));
        if (previousX.HasValue) bee.Velocity = new Vector3((float)(x - previousX.Value) * 60, 0, (float)(z - previousZ) * 60);
        bee.Position = new Vector3(x, 0, z);
        previousX = x;
        previousZ = z;
    }

    static int Main(string[] args)
    {
        string renderPath = null;
        if (args.Length == 2 && args[0] == "--render") renderPath = args[1];
        else if (args.Length != 0) { Console.Error.WriteLine("usage: orbit [--render FILE]"); return 64; }
        string assets = Environment.GetEnvironmentVariable("SOUNDSTAGE_ASSETS") ?? "assets/sounds";
        try
        {
            Device device = null;
            if (renderPath == null)
            {
                try { device = Device.OpenOutput(); }
                catch (SoundstageException e)
                {
                    Console.Error.WriteLine("orbit: no audio output device (" + e.Message + "); rendering to orbit.wav instead");
                    renderPath = "orbit.wav";
                }
            }
            using (device = device ?? Device.OpenLoopback(48000, ChannelLayout.Stereo))
            {
                var scene = device.CreateScene();
                var bee = scene.CreateSource(device.LoadBuffer(assets + "/bee.wav"));
                bee.Looping = true;
                bee.Gain = 0.8f;
                bee.Play();
                float? previousX = null;
                float previousZ = 0;
                if (renderPath != null)
                {
                    // Offline: tick, then mix a tick's worth of frames; the mix recorder writes what is mixed.
                    var frames = new float[2 * 800];
                    device.StartRecordingOutput(renderPath);
                    for (int step = 0; step < Seconds * TicksPerSecond; step++)
                    {
                        Tick(bee, (double)step / TicksPerSecond, ref previousX, ref previousZ);
                        device.Render(frames);
                    }
                    device.StopRecordingOutput();
                    Console.WriteLine("A bee circles your head, once every 4 seconds: rendered " + Seconds + " s to " + renderPath);
                }
                else
                {
                    Console.WriteLine("A bee circles your head, once every 4 seconds (" + Seconds + " s)");
                    var clock = Stopwatch.StartNew();
                    while (clock.Elapsed.TotalSeconds < Seconds)
                    {
                        Tick(bee, clock.Elapsed.TotalSeconds, ref previousX, ref previousZ);
                        Thread.Sleep(16);
                    }
                }
            }
            return 0;
        }
        catch (SoundstageException e)
        {
            Console.Error.WriteLine("orbit: " + e.Message + " (" + e.CodeName + ")");
            return 1;
        }
    }
}
