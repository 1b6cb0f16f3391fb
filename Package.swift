// swift-tools-version: 6.2
import PackageDescription

/// Settings every Swift target shares: Swift 6 language mode is the tools default;
/// warnings are errors everywhere (no `unsafeFlags`, so games can depend on the package).
let strict: [SwiftSetting] = [
    .treatAllWarnings(as: .error),
]

let package = Package(
    name: "Soundstage",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Soundstage", targets: ["Soundstage"]),
        .library(name: "SoundstageScenes", targets: ["SoundstageScenes"]),
        .library(name: "SoundFile", targets: ["SoundFile"]),
        .library(name: "SoundstageServer", targets: ["SoundstageServer"]),
        .library(name: "SoundstageClient", targets: ["SoundstageClient"]),
        .executable(name: "soundstage", targets: ["SoundstageCLI"]),
        // The C API: libSoundstageC.so, installed as libsoundstage.so.0 by scripts/install.sh
        // (which links the Swift runtime in statically and exports only the ss_ symbols).
        .library(name: "SoundstageC", type: .dynamic, targets: ["SoundstageC"]),
        // The iOS names (AVAudioSession, AVAudioPlayer, AVAudioRecorder, System Sound Services,
        // the C Audio Session API) over Soundstage, for porting an iOS game's audio code.
        .library(name: "SoundstageCompat", targets: ["SoundstageCompat"]),
        // Core Audio's C interfaces by Apple's names (issue 46): `import AudioToolbox` in Swift,
        // `#include <AudioToolbox/AudioToolbox.h>` in C and C++ (docs/audiotoolbox.md).
        .library(name: "AudioToolbox", targets: ["AudioToolbox"]),
        // OpenAL as iOS Swift code imports it: `import OpenAL` (OpenAL Soft, Apple's extensions,
        // the routed names; docs/audiotoolbox.md, "OpenAL's Apple extensions").
        .library(name: "OpenAL", targets: ["OpenAL"]),
        // The live view: the mix in a browser (SwiftNIO HTTP and WebSocket).
        .library(name: "SoundstageLiveView", targets: ["SoundstageLiveView"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    ],
    targets: [
        .systemLibrary(
            name: "COpenAL",
            pkgConfig: "openal",
            providers: [.apt(["libopenal-dev"])]
        ),
        .systemLibrary(
            name: "CSndFile",
            pkgConfig: "sndfile",
            providers: [.apt(["libsndfile1-dev"])]
        ),
        .systemLibrary(
            name: "CPulse",
            providers: [.apt(["libpulse-dev"])]
        ),
        // Numbers as text without Foundation's internationalization (String(format:) pulls in ICU).
        .target(
            name: "NumberText",
            swiftSettings: strict
        ),
        // The one error type and its codes, shared by the engine, the daemon and the client
        // (which links neither libsndfile nor OpenAL).
        .target(
            name: "SoundstageErrors",
            swiftSettings: strict
        ),
        // The one thing about loading FFmpeg that Swift cannot spell: its log callback takes a va_list.
        .target(
            name: "CFFmpegSupport",
            path: "Sources/CFFmpegSupport"
        ),
        .target(
            name: "SoundFile",
            dependencies: ["CSndFile", "CFFmpegSupport", "SoundstageErrors", "NumberText",
                           .product(name: "NIOConcurrencyHelpers", package: "swift-nio")],
            swiftSettings: strict
        ),
        .target(
            name: "SoundstageJSON",
            swiftSettings: strict
        ),
        .target(
            name: "SoundstageProtocol",
            dependencies: ["SoundstageJSON", "SoundstageErrors", .product(name: "NIOCore", package: "swift-nio")],
            swiftSettings: strict
        ),
        .target(
            name: "SoundstageServer",
            dependencies: [
                "Soundstage", "SoundstageScenes", "SoundstageProtocol",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "SoundstageClient",
            dependencies: [
                "SoundstageProtocol",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "Soundstage",
            dependencies: [
                "COpenAL", "CPulse", "SoundFile",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "SoundstageScenes",
            dependencies: ["Soundstage", "SoundstageJSON", "NumberText"],
            swiftSettings: strict
        ),
        // include/soundstage.h (the C API's contract) and the C parts of the API: the thread's
        // last error and refusal flag, result names.
        .target(
            name: "CSoundstage",
            path: "Sources/CSoundstage"
        ),
        // The C API's implementation: every function is `@c @implementation`, so the compiler
        // checks each one against its declaration in include/soundstage.h.
        .target(
            name: "SoundstageC",
            dependencies: ["CSoundstage", "Soundstage", "SoundstageScenes", "SoundstageClient", "SoundstageProtocol",
                           "SoundFile", "SoundstageErrors", "SoundstageLiveView", "AudioToolbox", .product(name: "NIOConcurrencyHelpers", package: "swift-nio")],
            swiftSettings: strict
        ),
        // Apple's Core Audio C headers, written from Apple's documentation: MacTypes.h,
        // TargetConditionals.h, CoreAudio/CoreAudioTypes.h, AudioToolbox/*.h.
        .target(
            name: "CAudioToolbox",
            path: "Sources/CAudioToolbox"
        ),
        // Their functions, implemented in Swift with `@c @implementation` for C and Swift at once.
        .target(
            name: "AudioToolbox",
            dependencies: ["CAudioToolbox", "COpenAL", "SoundFile", "Soundstage", .product(name: "NIOConcurrencyHelpers", package: "swift-nio")],
            swiftSettings: strict
        ),
        .target(name: "OpenAL", dependencies: ["AudioToolbox"], swiftSettings: strict),
        .target(
            name: "SoundstageCompat",
            dependencies: ["Soundstage", "AudioToolbox", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        .target(
            name: "SoundstageLiveView",
            dependencies: ["Soundstage", "NumberText",
                           .product(name: "NIOCore", package: "swift-nio"),
                           .product(name: "NIOPosix", package: "swift-nio"),
                           .product(name: "NIOHTTP1", package: "swift-nio"),
                           .product(name: "NIOWebSocket", package: "swift-nio"),
                           .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                           .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "SoundstageCLI",
            dependencies: [
                "Soundstage", "SoundstageScenes", "SoundstageServer", "SoundstageClient", "SoundstageProtocol", "SoundstageLiveView", "NumberText",
                "AudioToolbox", "SoundstageErrors",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "soundstage-bench",
            dependencies: ["Soundstage", "COpenAL", "TestSupport", "SoundstageServer", "SoundstageClient", "SoundstageJSON", "SoundstageLiveView",
                           "CSoundstage", "SoundstageC", "AudioToolbox", "SoundFile",
                           .product(name: "NIOConcurrencyHelpers", package: "swift-nio")],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "soundstage-assets",
            dependencies: ["SoundFile"],
            swiftSettings: strict
        ),
        .target(
            name: "ExampleSupport",
            dependencies: ["Soundstage"],
            path: "Examples/Support",
            swiftSettings: strict
        ),
        .executableTarget(name: "orbit", dependencies: ["ExampleSupport", "Soundstage"], path: "Examples/Orbit", swiftSettings: strict),
        .executableTarget(name: "walk-past", dependencies: ["ExampleSupport", "Soundstage"], path: "Examples/WalkPast", swiftSettings: strict),
        .executableTarget(name: "car-pass", dependencies: ["ExampleSupport", "Soundstage"], path: "Examples/CarPass", swiftSettings: strict),
        .executableTarget(name: "two-scenes", dependencies: ["ExampleSupport", "Soundstage"], path: "Examples/TwoScenes", swiftSettings: strict),
        .executableTarget(name: "interruptions", dependencies: ["ExampleSupport", "Soundstage"], path: "Examples/Interruptions", swiftSettings: strict),
        // The README's and docs/getting-started.md's Swift programs, byte for byte (CLITests.DocumentationTests
        // checks that they are, and runs them): the build is what compiles those code blocks.
        .executableTarget(name: "hello", dependencies: ["Soundstage"], path: "Examples/Hello", swiftSettings: strict),
        .executableTarget(name: "first-program", dependencies: ["Soundstage"], path: "Examples/FirstProgram", swiftSettings: strict),
        // Test helpers (signals, the throw-away audio servers, child processes), a Sources target
        // as NIOTestUtils is: the tests and soundstage-bench share it.
        .target(
            name: "TestSupport",
            dependencies: ["SoundFile", "SoundstageJSON", .product(name: "NIOConcurrencyHelpers", package: "swift-nio")],
            path: "Sources/TestSupport",
            swiftSettings: strict
        ),
        .testTarget(
            name: "SoundFileTests",
            dependencies: ["SoundFile", "TestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "SoundstageTests",
            dependencies: ["Soundstage", "SoundstageScenes", "COpenAL", "TestSupport",
                           .product(name: "NIOConcurrencyHelpers", package: "swift-nio")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ServerTests",
            dependencies: ["Soundstage", "SoundstageServer", "SoundstageClient", "SoundstageProtocol", "TestSupport",
                           .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                           .product(name: "Logging", package: "swift-log"),
                           .product(name: "InMemoryLogging", package: "swift-log")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "DesktopTests",
            dependencies: ["Soundstage", "SoundstageServer", "TestSupport", "CSoundstage", "SoundstageC", .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                           .product(name: "Logging", package: "swift-log"), .product(name: "InMemoryLogging", package: "swift-log")],
            swiftSettings: strict
        ),
        // The C API from Swift, so the ThreadSanitizer pass checks the handle table (the C tests
        // themselves are Tests/C, run by scripts/test-c.sh).
        .testTarget(
            name: "CAPITests",
            dependencies: ["CSoundstage", "SoundstageC", .product(name: "NIOConcurrencyHelpers", package: "swift-nio")],
            swiftSettings: strict
        ),
        // iOS audio code in the commonest open-source styles, compiled as such code is: in Swift 5
        // mode (as most iOS projects in the open are), unchanged but for `import SoundstageCompat`
        // (Core Audio's C interfaces and OpenAL: `import AudioToolbox`, `import OpenAL`, as on iOS).
        .target(
            name: "CompatPrograms",
            dependencies: ["SoundstageCompat", "OpenAL"],
            path: "Tests/CompatTests/Programs",
            swiftSettings: [.swiftLanguageMode(.v5), .treatAllWarnings(as: .error)]
        ),
        // Programs written as an iOS developer writes them, against SoundstageCompat.
        .testTarget(
            name: "CompatTests",
            dependencies: ["SoundstageCompat", "Soundstage", "SoundFile", "COpenAL", "TestSupport", "CompatPrograms"],
            exclude: ["OpenALEngine", "OpenALGame", "OpenALOrbit", "Programs"],
            swiftSettings: strict
        ),
        // An iOS OpenAL game with its interruption listener, run by CompatTests as a process of
        // its own (OpenAL Soft picks its backend once per process, before any test server exists).
        .executableTarget(
            name: "compat-openal-game",
            dependencies: ["SoundstageCompat", "OpenAL"],
            path: "Tests/CompatTests/OpenALGame",
            swiftSettings: strict
        ),
        // The SoundEngine of Apple's sample games in Swift (static buffers, the mixer rate, a
        // streamed queue, an interruption listener; heard on PulseAudio through a call) and the
        // Core Audio books' OpenAL orbit in Swift (a file loaded through Extended Audio File
        // Services, a source moved round the listener on the main run loop), processes of their own
        // for the same reason; CompatTests plays it on OpenAL Soft's wave writer. Swift 5 mode, as iOS code is.
        .executableTarget(
            name: "compat-openal-engine",
            dependencies: ["OpenAL"],
            path: "Tests/CompatTests/OpenALEngine",
            swiftSettings: [.swiftLanguageMode(.v5), .treatAllWarnings(as: .error)]
        ),
        .executableTarget(
            name: "compat-openal-orbit",
            dependencies: ["OpenAL"],
            path: "Tests/CompatTests/OpenALOrbit",
            swiftSettings: [.swiftLanguageMode(.v5), .treatAllWarnings(as: .error)]
        ),
        .testTarget(
            name: "LiveViewTests",
            dependencies: ["SoundstageLiveView", "Soundstage", "SoundstageScenes", "TestSupport",
                           .product(name: "NIOConcurrencyHelpers", package: "swift-nio")],
            swiftSettings: strict
        ),
        // Coverage-guided fuzz targets (issue 35). Built plainly they replay inputs (the corpus and
        // the regressions, as tests); scripts/fuzz.sh builds them with -DFUZZING and libFuzzer.
        .target(name: "FuzzSupport", path: "Tests/Fuzz/Support", swiftSettings: strict),
        .executableTarget(name: "fuzz-capi", dependencies: ["FuzzSupport", "CSoundstage", "SoundstageC", "AudioToolbox", "CAudioToolbox"],
                          path: "Tests/Fuzz/CAPISequence", swiftSettings: strict),
        .executableTarget(name: "fuzz-scene-file", dependencies: ["FuzzSupport", "Soundstage", "SoundstageScenes"],
                          path: "Tests/Fuzz/SceneFile", swiftSettings: strict),
        .executableTarget(name: "fuzz-daemon-request", dependencies: ["FuzzSupport", "Soundstage", "SoundstageServer", "SoundstageJSON"],
                          path: "Tests/Fuzz/DaemonRequest", swiftSettings: strict),
        .executableTarget(name: "fuzz-sound-file", dependencies: ["FuzzSupport", "SoundFile", "Soundstage"],
                          path: "Tests/Fuzz/SoundFileData", swiftSettings: strict),
        .executableTarget(name: "fuzz-json", dependencies: ["FuzzSupport", "SoundstageJSON"],
                          path: "Tests/Fuzz/JSON", swiftSettings: strict),
        .executableTarget(name: "fuzz-audio-file", dependencies: ["FuzzSupport", "AudioToolbox"],
                          path: "Tests/Fuzz/AudioFile", swiftSettings: strict),
        // Audio Format Services and Core Audio's types as iOS code calls them, from Swift, and the
        // C program Tests/C/audio_format.c compiled as C99 and C++17 against libSoundstageC.so.
        .testTarget(
            name: "AudioToolboxTests",
            dependencies: ["AudioToolbox", "COpenAL", "SoundFile", "TestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "NumberTextTests",
            dependencies: ["NumberText"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "CLITests",
            dependencies: ["SoundFile", "TestSupport", "AudioToolbox"],
            swiftSettings: strict
        ),
    ]
)
