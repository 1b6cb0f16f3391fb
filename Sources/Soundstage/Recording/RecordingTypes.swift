#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif
import SoundFile

extension AudioRecorder {
    /// What to record from and how to write it.
    public struct Settings: Sendable, Equatable {
        /// The file format (any writable one: WAV, AIFF, CAF, FLAC, Ogg Vorbis, Opus, MP3, W64,
        /// and through FFmpeg AAC or ALAC in M4A ...). iLBC in CAF (``OutputFormat/cafILBC``) is
        /// recorded at 8 kHz mono whatever ``sampleRate`` and ``channels`` say: the server converts.
        public var format: OutputFormat
        /// Bits per second for AAC (``OutputFormat/m4aAAC``); nil for 128 000. For iLBC, above
        /// 14 000 picks 20 ms frames (else 30 ms). Other formats ignore it.
        public var bitRate: Int?
        /// The input to record, by the server's name (``AudioInput/name``, e.g. a microphone, or
        /// `A.monitor` for what sink `A` plays); nil for the server's default input, followed if
        /// the default changes. A named input is never left: if it vanishes, the recording ends.
        public var input: String?
        /// Frames per second of the file; nil for the input's own rate (the server converts).
        public var sampleRate: Int?
        /// Channels of the file; nil for the input's own count.
        public var channels: Int?
        /// The server to record on, in libpulse's syntax; nil for libpulse's default.
        public var server: String?
        /// `application.name` the server shows for the recording.
        public var applicationName: String

        /// 16-bit WAV from the default input at its own rate and channel count.
        public init(format: OutputFormat = .wavPCM16, input: String? = nil, sampleRate: Int? = nil, channels: Int? = nil,
                    server: String? = nil, applicationName: String = ProcessInfo.processInfo.processName, bitRate: Int? = nil) {
            self.format = format
            self.bitRate = bitRate
            self.input = input
            self.sampleRate = sampleRate
            self.channels = channels
            self.server = server
            self.applicationName = applicationName
        }
    }

    /// Where a recorder is.
    public enum State: String, Sendable, Equatable {
        /// Created: nothing opened yet.
        case idle
        /// Input and file open (``prepareToRecord()``), not recording yet.
        case prepared
        /// Recording.
        case recording
        /// Paused by ``pause()`` or by an interruption of its session.
        case paused
        /// Finished: the file is complete (see ``AudioRecorder/result``).
        case finished
    }

    /// Why a recording ended.
    public enum FinishReason: Sendable, Equatable {
        /// ``stop()`` was called.
        case stopped
        /// The duration given to ``record(forDuration:)`` was reached.
        case durationReached
        /// The input went away (unplugged, its module unloaded, the server stopped); the file
        /// holds everything recorded before.
        case inputLost(String)
        /// Writing failed (the disk is full, the file too large); the file holds everything
        /// written before.
        case writeFailed(SoundstageError)
    }

    /// A finished recording.
    public struct Result: Sendable, Equatable {
        /// The file written.
        public var path: String
        /// Frames in the file.
        public var frames: Int
        /// Frames per second of the file.
        public var sampleRate: Int
        /// Channels of the file.
        public var channels: Int
        /// Why it ended.
        public var reason: FinishReason
        /// Set when the file itself could not be completed (then nothing is at ``path``).
        public var fileError: SoundstageError?

        /// Seconds in the file.
        public var duration: Double { sampleRate > 0 ? Double(frames) / Double(sampleRate) : 0 }
        /// Whether it ended as asked (stopped or at its duration) with the file complete.
        public var isSuccess: Bool {
            guard fileError == nil else { return false }
            switch reason {
            case .stopped, .durationReached: return true
            case .inputLost, .writeFailed: return false
            }
        }
    }
}
