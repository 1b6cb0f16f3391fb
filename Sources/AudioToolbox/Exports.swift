// `import AudioToolbox` gives Swift what it gives on iOS: Core Audio's C types and constants
// (from the C module CAudioToolbox, whose headers C and C++ ports include by Apple's paths) and
// the functions this module implements for C and Swift at once (`@c @implementation`).
@_exported import CAudioToolbox
