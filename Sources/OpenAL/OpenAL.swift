// `import OpenAL`, as iOS Swift code says it: OpenAL 1.1 (OpenAL Soft's library and headers) with
// Apple's extensions (alBufferDataStatic, the mixer output rate, ASA) and the names Soundstage
// routes (alcGetProcAddress, alcCreateContext, ...; AudioToolbox's SwiftNames.swift). Everything
// comes from AudioToolbox, which re-exports the OpenAL headers: this module only gives it
// OpenAL's name, so the import line of a ported file stays as it was.
@_exported import AudioToolbox
