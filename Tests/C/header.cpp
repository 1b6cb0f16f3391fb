// The header compiled as C++17 with every warning an error: it must be clean C++ (extern "C",
// no C-only constructs), and its types usable as C++ types.
#include <soundstage.h>

#include <type_traits>

static_assert(std::is_trivially_copyable<ss_vec3>::value, "ss_vec3 is plain data");
static_assert(std::is_trivially_copyable<ss_levels>::value, "ss_levels is plain data");
static_assert(sizeof(ss_result) == sizeof(int), "results are int-sized");
static_assert(SS_VERSION_NUMBER == SS_VERSION_MAJOR * 10000 + SS_VERSION_MINOR * 100 + SS_VERSION_PATCH, "version");

namespace {
void on_complete(ss_source *, void *) {}
}

int main() {
    ss_device *device = nullptr;
    if (ss_device_open_loopback(48000, SS_LAYOUT_STEREO, SS_OFF, -1, &device) != SS_OK) return 1;
    ss_scene *scene = nullptr;
    ss_source *source = nullptr;
    ss_vec3 position = {1, 0, -1};
    bool ok = ss_scene_create(device, 0, &scene) == SS_OK && ss_source_create(scene, nullptr, &source) == SS_OK
        && ss_source_set_vec3(source, SS_SOURCE_POSITION, position) == SS_OK
        && ss_source_set_completion_callback(source, on_complete, nullptr) == SS_OK;
    ss_device_destroy(device);
    return ok ? 0 : 1;
}
