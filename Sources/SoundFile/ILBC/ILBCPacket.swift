/// Checks on coded iLBC packets, for every path that takes them from outside (a CAF file's
/// packets, a converter's input) before a decoder sees them.
public enum ILBCPacket {
    /// Refuses a packet that is not a well-formed frame of `mode`.
    ///
    /// - Throws: `.corruptData` when its size is not ``ILBCMode/bytesPerFrame``, its last bit
    ///   marks it lost, its start sub-block is out of range or a codebook index is past its
    ///   codebook.
    public static func validate(_ bytes: some Collection<UInt8>, mode: ILBCMode) throws {
        _ = try ILBCFrameParameters.unpack(bytes, mode: mode)
    }
}
