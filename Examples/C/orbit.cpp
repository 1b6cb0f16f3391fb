// orbit (C++17): the orbit example through the C API from C++, with handles owned by RAII.
// It shows that soundstage.h is clean C++ (built with -std=c++17 -Wall -Wextra -Werror -pedantic).
//
//   c++ -std=c++17 orbit.cpp $(pkg-config --cflags --libs soundstage) -o orbit-cpp
//   ./orbit-cpp [--render FILE]
#include <soundstage.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

// Throws with the library's message when a call fails.
void check(ss_result result, const char *what) {
    if (result != SS_OK) throw std::runtime_error(std::string(what) + ": " + ss_error_message());
}

// A device owned by a unique_ptr: destroying it frees everything made on it.
struct DeviceDeleter {
    void operator()(ss_device *device) const { ss_device_destroy(device); }
};
using Device = std::unique_ptr<ss_device, DeviceDeleter>;

constexpr int seconds = 8;
constexpr double pi = 3.14159265358979323846;

}  // namespace

int main(int argc, char **argv) {
    const char *renderPath = argc == 3 && std::strcmp(argv[1], "--render") == 0 ? argv[2] : nullptr;
    if (argc != 1 && !renderPath) {
        std::fprintf(stderr, "usage: orbit-cpp [--render FILE]\n");
        return 64;
    }
    try {
        ss_device *raw = nullptr;
        if (!renderPath && ss_device_open_output(SS_BACKEND_AUTOMATIC, nullptr, &raw) != SS_OK) {
            std::fprintf(stderr, "orbit-cpp: no audio output device; rendering to orbit.wav instead\n");
            renderPath = "orbit.wav";
        }
        if (renderPath) check(ss_device_open_loopback(48000, SS_LAYOUT_STEREO, SS_OFF, -1, &raw), "loopback");
        Device device(raw);

        const char *assets = std::getenv("SOUNDSTAGE_ASSETS");
        std::string sound = std::string(assets ? assets : "assets/sounds") + "/bee.wav";
        ss_scene *scene = nullptr;
        ss_buffer *buffer = nullptr;
        ss_source *bee = nullptr;
        check(ss_scene_create(device.get(), 0, &scene), "scene");
        check(ss_buffer_load_file(device.get(), sound.c_str(), &buffer), "bee.wav");
        check(ss_source_create(scene, buffer, &bee), "source");
        check(ss_source_set_looping(bee, 1), "looping");
        check(ss_source_set_gain(bee, 0.8f), "gain");
        check(ss_source_play(bee), "play");

        auto move = [&](double t) {
            double angle = 2 * pi * t / 4;
            check(ss_source_set_position(bee, float(2 * std::sin(angle)), 0, float(-2 * std::cos(angle))), "position");
        };
        if (renderPath) {
            std::vector<float> frames(2 * 800);
            check(ss_device_start_recording_output(device.get(), renderPath, SS_FORMAT_WAV_PCM16), "file");
            for (int step = 0; step < seconds * 60; ++step) {
                move(step / 60.0);
                check(ss_device_render(device.get(), frames.data(), 800), "render");
            }
            check(ss_device_stop_recording_output(device.get(), nullptr), "file");
            std::printf("rendered %d s to %s\n", seconds, renderPath);
        } else {
            auto start = std::chrono::steady_clock::now();
            for (double t = 0; t < seconds;) {
                move(t);
                std::this_thread::sleep_for(std::chrono::milliseconds(16));
                t = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            }
        }
    } catch (const std::exception &error) {
        std::fprintf(stderr, "orbit-cpp: %s\n", error.what());
        return 1;
    }
    return 0;
}
