// Games that import Soundstage also get SoundFile's types (AudioBuffer, SoundFile,
// SoundstageError, ...), which the engine's API uses.
@_exported import SoundFile
