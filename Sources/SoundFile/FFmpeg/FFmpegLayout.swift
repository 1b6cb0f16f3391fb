/// Where the few FFmpeg struct fields Soundstage reads directly live, for the ABI of FFmpeg 5.1,
/// 6 and 7 (libavformat 59–61), read from their public headers. Everything else goes through
/// functions and AVOptions.
///
/// The fields used are stable across those versions except `AVStream`'s, which moved twice:
/// FFmpeg 6 put an `AVClass` pointer first, and FFmpeg 7 moved `codecpar` up. Rather than trust
/// the version number, ``AVStreamLayout/locate(_:index:codecID:)`` checks a candidate layout
/// against the stream in hand (its index, its codec parameters' media type and codec), and a
/// file whose stream matches none is refused with an error, never read at a wrong offset.
enum FFmpegLayout {
    // AVFormatContext: av_class, iformat, oformat, priv_data, pb, ctx_flags, nb_streams, streams.
    static let formatContextPB = 32
    static let formatContextStreamCount = 44
    static let formatContextStreams = 48

    // AVIOContext: av_class, buffer.
    static let ioContextBuffer = 8

    // AVPacket: buf, pts, dts, data, size, stream_index, flags, side_data, side_data_elems, duration.
    static let packetPTS = 8
    static let packetData = 24
    static let packetSize = 32
    static let packetStreamIndex = 36
    static let packetDuration = 64

    // AVFrame: data[8], linesize[8], extended_data, width, height, nb_samples, format.
    static let frameData = 0
    static let frameLinesize = 64
    static let frameExtendedData = 96
    static let frameSampleCount = 112
    static let frameFormat = 116
    // ... key_frame, pict_type, sample_aspect_ratio, pts (libavutil 57–59).
    static let framePTS = 136

    // AVCodec: name, long_name, type, id.
    static let codecID = 20

    // AVCodecParameters: codec_type, codec_id, codec_tag, extradata, extradata_size (the same
    // from FFmpeg 5.1 to 7).
    static let parametersMediaType = 0
    static let parametersCodecID = 4
    static let parametersExtradata = 16
    static let parametersExtradataSize = 24
    /// `AV_INPUT_BUFFER_PADDING_SIZE`: zero bytes FFmpeg wants after extradata and packet data.
    static let inputPadding = 64

    // AVChannelLayout: order, nb_channels, ... (24 bytes).
    static let channelLayoutSize = 24
    static let channelLayoutCount = 4

    /// `AV_NOPTS_VALUE`.
    static let noTimestamp = Int64.min
    /// `AVMEDIA_TYPE_AUDIO`.
    static let mediaTypeAudio: Int32 = 1
    /// `AV_PKT_DATA_SKIP_SAMPLES`: le32 samples to skip at the start, le32 to discard at the end.
    static let sideDataSkipSamples: Int32 = 11

    /// Where an `AVStream`'s fields are.
    struct AVStreamLayout {
        let index: Int
        let codecParameters: Int
        let timeBase: Int
        let duration: Int
        let frameCount: Int

        /// FFmpeg 5.1 (libavformat 59).
        static let ffmpeg5 = AVStreamLayout(index: 0, codecParameters: 208, timeBase: 16, duration: 32, frameCount: 40)
        /// FFmpeg 6 (libavformat 60): an `AVClass *` first, `codecpar` still near the end.
        static let ffmpeg6 = AVStreamLayout(index: 8, codecParameters: 216, timeBase: 24, duration: 40, frameCount: 48)
        /// FFmpeg 7 (libavformat 61): `codecpar` right after `id`.
        static let ffmpeg7 = AVStreamLayout(index: 8, codecParameters: 16, timeBase: 32, duration: 48, frameCount: 56)

        /// The candidates for a libavformat major version, the likeliest first.
        static func candidates(formatMajor: Int) -> [AVStreamLayout] {
            switch formatMajor {
            case ...59: [.ffmpeg5, .ffmpeg7, .ffmpeg6]
            case 60: [.ffmpeg6, .ffmpeg7, .ffmpeg5]
            default: [.ffmpeg7, .ffmpeg6, .ffmpeg5]
            }
        }

        /// The layout that `stream` (the `index`th stream, an audio stream of codec `codecID`)
        /// agrees with, among the candidates for `formatMajor`.
        static func locate(_ stream: UnsafeMutableRawPointer, index: Int32, codecID: Int32, formatMajor: Int) -> AVStreamLayout? {
            candidates(formatMajor: formatMajor).first { layout in
                guard stream.load(fromByteOffset: layout.index, as: Int32.self) == index,
                      let parameters = stream.load(fromByteOffset: layout.codecParameters, as: UnsafeRawPointer?.self),
                      parameters.load(fromByteOffset: FFmpegLayout.parametersMediaType, as: Int32.self) == FFmpegLayout.mediaTypeAudio,
                      parameters.load(fromByteOffset: FFmpegLayout.parametersCodecID, as: Int32.self) == codecID else { return false }
                let base = stream.load(fromByteOffset: layout.timeBase, as: (Int32, Int32).self)
                return base.0 > 0 && base.1 > 0
            }
        }
    }
}
