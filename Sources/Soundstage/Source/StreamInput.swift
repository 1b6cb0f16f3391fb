#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif
import SoundFile

/// Streaming sources that read audio as it arrives — from a pipe, a socket, standard input —
/// rather than from a file that can seek.
extension Scene {
    /// A streaming source reading audio as it arrives on `descriptor` — a pipe, a socket, standard
    /// input — for the formats that can be parsed front to back (WAV, AU, AIFF, W64, FLAC, Ogg,
    /// MP3). The descriptor is duplicated, so the caller keeps (and closes) its own. Such a source
    /// plays once, from its start: it cannot loop, seek, replay, or move to another device.
    /// Reading the header waits for the writer's first bytes, so create it off the frame loop;
    /// after that, a decoder thread of its own reads the rest, and a writer that stalls only
    /// starves this source (it underruns and plays on when audio comes). From a Foundation
    /// `FileHandle`, pass its `fileDescriptor`.
    ///
    /// - Throws: `.unsupportedFormat` naming a format that needs seeking (CAF) or that is not
    ///   audio; `.invalidArgument` for looping options; `.io` if the descriptor cannot be duplicated.
    public func makeStreamingSource(reading descriptor: Int32, name: String = "<stream>",
                                    options: StreamOptions = StreamOptions()) throws -> Source {
        let own = fcntl(descriptor, F_DUPFD_CLOEXEC, 0)
        guard own >= 0 else {
            throw SoundstageError(.io, "cannot use descriptor \(descriptor)", subject: name, cause: .posix(function: "fcntl", errno: errno))
        }
        let file = try SoundFile(streamingFrom: own, name: name)
        return Source(scene: self, stream: try AudioStream(path: name, options: options, opened: file))
    }
}
