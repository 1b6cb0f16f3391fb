/// The start of a Core Audio Format file whose packets all have the same size and frame count
/// (IMA4, iLBC): the file header, `desc`, a `pakt` chunk stating the valid frames and the
/// last packet's padding, and the `data` chunk's header.
enum CAFHeader {
    /// The header for `frames` frames in packets of `framesPerPacket` frames and
    /// `bytesPerPacket` bytes of the four-character format `formatID`.
    static func constantBitRate(formatID: String, sampleRate: Int, channels: Int, bytesPerPacket: Int,
                                framesPerPacket: Int, frames: Int64) -> [UInt8] {
        var out: [UInt8] = []
        let packets = (frames + Int64(framesPerPacket) - 1) / Int64(framesPerPacket)
        out += Array("caff".utf8); out.appendBigEndian(UInt16(1)); out.appendBigEndian(UInt16(0))
        out += Array("desc".utf8); out.appendBigEndian(Int64(32))
        out.appendBigEndian(Double(sampleRate).bitPattern)
        out += Array(formatID.utf8)
        out.appendBigEndian(UInt32(0))
        out.appendBigEndian(UInt32(bytesPerPacket))
        out.appendBigEndian(UInt32(framesPerPacket))
        out.appendBigEndian(UInt32(channels))
        out.appendBigEndian(UInt32(0))
        out += Array("pakt".utf8); out.appendBigEndian(Int64(24))
        out.appendBigEndian(packets)
        out.appendBigEndian(frames)
        out.appendBigEndian(Int32(0))
        out.appendBigEndian(Int32(packets * Int64(framesPerPacket) - frames))
        out += Array("data".utf8)
        out.appendBigEndian(Int64(4) + packets * Int64(bytesPerPacket))
        out.appendBigEndian(UInt32(0)) // edit count
        return out
    }
}
