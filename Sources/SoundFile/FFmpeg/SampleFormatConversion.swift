import SoundstageErrors

/// FFmpeg's decoded sample formats (`enum AVSampleFormat`) to Soundstage's interleaved floats.
enum SampleFormatConversion {
    // AV_SAMPLE_FMT_*: packed U8, S16, S32, FLT, DBL, then the planar ones, then S64.
    static let u8: Int32 = 0, s16: Int32 = 1, s32: Int32 = 2, flt: Int32 = 3, dbl: Int32 = 4
    static let u8p: Int32 = 5, s16p: Int32 = 6, s32p: Int32 = 7, fltp: Int32 = 8, dblp: Int32 = 9

    /// Writes frames `range` of a decoded frame (`planes`: its `extended_data`) to `destination`,
    /// interleaved, as floats in -1...1.
    static func interleave(planes: UnsafeMutablePointer<UnsafeMutableRawPointer?>, format: Int32, channels: Int,
                           range: Range<Int>, into destination: UnsafeMutablePointer<Float>, subject: String) throws {
        let planar = format >= u8p && format <= dblp
        let packedFormat = planar ? format - u8p : format
        for channel in 0..<channels {
            guard let plane = planes[planar ? channel : 0] else {
                throw SoundstageError(.corruptData, "the decoder returned a frame without channel \(channel)", subject: subject)
            }
            let stride = planar ? 1 : channels
            let offset = planar ? 0 : channel
            var out = destination + channel
            for frame in range {
                let index = frame * stride + offset
                let value: Float
                switch packedFormat {
                case flt: value = plane.load(fromByteOffset: index * 4, as: Float.self)
                case s16: value = Float(plane.load(fromByteOffset: index * 2, as: Int16.self)) / 32_768
                case s32: value = Float(Double(plane.load(fromByteOffset: index * 4, as: Int32.self)) / 2_147_483_648)
                case dbl: value = Float(plane.load(fromByteOffset: index * 8, as: Double.self))
                case u8: value = (Float(plane.load(fromByteOffset: index, as: UInt8.self)) - 128) / 128
                default:
                    throw SoundstageError(.unsupportedFormat, "the decoder returns samples in FFmpeg format \(format), "
                                          + "which Soundstage does not convert", subject: subject)
                }
                out.pointee = value
                out += channels
            }
        }
    }
}
