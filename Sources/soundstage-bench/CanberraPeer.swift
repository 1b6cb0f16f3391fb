import Foundation
import TestSupport

/// libcanberra's `ca_context_play` as a baseline: a small C program compiled in the benchmark's
/// run (only when `cc` and libcanberra-dev are there), on libcanberra's own PulseAudio backend
/// (`libcanberra-pulse`), played warm (one context, a line on stdin per play) or cold (`--once
/// FILE`: a new process per play).
struct CanberraPeer {
    /// The compiled peer.
    let path: String

    private static let source = """
        #include <canberra.h>
        #include <stdio.h>
        #include <stdlib.h>
        #include <string.h>
        #include <unistd.h>

        int main(int argc, char **argv) {
            ca_context *context;
            if (ca_context_create(&context) != CA_SUCCESS) return 1;
            ca_context_change_props(context, CA_PROP_APPLICATION_NAME, "canberra-peer", NULL);
            /* Its own PulseAudio backend (libcanberra-pulse), not ALSA's pulse plugin, a slower path. */
            if (ca_context_set_driver(context, "pulse") != CA_SUCCESS) return 4;
            if (ca_context_open(context) != CA_SUCCESS) return 2;
            if (argc > 2 && strcmp(argv[1], "--once") == 0) {
                int result = ca_context_play(context, 0, CA_PROP_MEDIA_FILENAME, argv[2], NULL);
                usleep(300000);
                ca_context_destroy(context);
                return result == CA_SUCCESS ? 0 : 3;
            }
            const char *file = getenv("SOUNDSTAGE_CLICK");
            char line[64];
            while (fgets(line, sizeof line, stdin)) ca_context_play(context, 1, CA_PROP_MEDIA_FILENAME, file, NULL);
            ca_context_destroy(context);
            return 0;
        }
        """

    /// Compiles the peer into `directory`; nil when libcanberra-dev or a C compiler is missing.
    static func build(in directory: String) throws -> CanberraPeer? {
        guard FileManager.default.fileExists(atPath: "/usr/include/canberra.h"),
              let cc = ["/usr/bin/cc", "/usr/bin/gcc", "/usr/bin/clang"].first(where: FileManager.default.isExecutableFile) else { return nil }
        let file = "\(directory)/canberra-peer.c", binary = "\(directory)/canberra-peer"
        try source.write(toFile: file, atomically: true, encoding: .utf8)
        let (status, output) = try ChildProcess.run(cc, ["-O2", "-o", binary, file, "-lcanberra"],
                                                    environment: ProcessInfo.processInfo.environment)
        guard status == 0 else {
            print("  (could not build the libcanberra peer: \(output))")
            return nil
        }
        return CanberraPeer(path: binary)
    }

    /// Starts a warm peer.
    func start(environment: [String: String]) throws -> Warm {
        var fds: [Int32] = [0, 0]
        guard ChildProcess.makePipe(&fds) else { throw AudioServerFixture.Unavailable(description: "pipe failed") }
        let process = try ChildProcess(path, [], environment: environment, stdin: fds[0])
        close(fds[0])
        usleep(300_000)   // let it connect
        return Warm(process: process, input: fds[1])
    }

    /// A running peer that plays the click for every line it reads.
    struct Warm {
        let process: ChildProcess
        let input: Int32

        func play() {
            _ = "play\n".withCString { write(input, $0, 5) }
        }

        func stop() {
            close(input)
            process.wait()
        }
    }
}
