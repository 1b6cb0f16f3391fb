import CSoundstage
import Soundstage
import SoundFile

extension Buffer: HandleObject {
    /// A buffer handle only holds a reference: sources that play it keep it alive.
    func handleDestroyed() {}
}

@inline(__always)
func withBuffer<R>(_ handle: OpaquePointer?, _ body: (Buffer) throws -> R) throws -> R {
    try HandleTable.shared.with(handle, .buffer, as: Buffer.self, body)
}

/// Channel counts OpenAL can upload.
private let bufferChannels: Set<Int> = [1, 2, 4, 6, 7, 8]

/// Checks a raw PCM buffer's shape against the device's decode limit (as much audio as a file
/// may decode to, ss_device_set_max_decoded_bytes); returns the sample count.
private func pcmShape(_ device: OpaquePointer?, _ frames: Int, _ channels: Int32,
                      _ sampleRate: Int32) throws -> (count: Int, channels: Int, rate: Int) {
    let channels = try checked(channels, 1...8, "channels")
    guard bufferChannels.contains(channels) else {
        throw CAPIError(SS_ERROR_INVALID_ARGUMENT, "channels = \(channels) (must be 1, 2, 4, 6, 7 or 8)")
    }
    let rate = try checked(sampleRate, 1_000...384_000, "sample_rate")
    let frames = try checked(frames, 1...(1 << 31), "frames")
    let limit = try withDevice(device) { $0.device.maxDecodedBytes }
    guard frames * channels <= limit / MemoryLayout<Float>.size else {
        throw CAPIError(SS_ERROR_TOO_LARGE, "\(frames) frames of \(channels) channels are more than the device's \(limit) bytes "
                        + "(ss_device_set_max_decoded_bytes); stream long audio from a file")
    }
    return (frames * channels, channels, rate)
}

@c @implementation
public func ss_buffer_load_file(_ device: OpaquePointer?, _ path: UnsafePointer<CChar>?,
                                _ out: UnsafeMutablePointer<OpaquePointer?>?) -> ss_result {
    capi {
        let out = try require(out, "out_buffer")
        let path = try string(path, "path")
        let buffer = try withDevice(device) { try $0.device.buffer(file: path) }
        try publish(buffer, .buffer, parent: device, to: out)
    }
}

@c @implementation
public func ss_buffer_load_memory(_ device: OpaquePointer?, _ data: UnsafeRawPointer?, _ size: Int, _ name: UnsafePointer<CChar>?,
                                  _ out: UnsafeMutablePointer<OpaquePointer?>?) -> ss_result {
    capi {
        let out = try require(out, "out_buffer")
        guard let data else { throw CAPIError.null("data") }
        let size = try checked(size, 1...(1 << 30), "size")
        let label = optionalString(name) ?? "<memory>"
        let bytes = Array(UnsafeRawBufferPointer(start: data, count: size))
        let buffer = try withDevice(device) { c in
            let file = try SoundFile(data: bytes, name: label)
            let maxFrames = c.device.maxDecodedBytes / (4 * max(1, file.format.channels))
            let audio = try file.readAll(maxFrames: maxFrames + 1)
            guard audio.frames <= maxFrames else {
                throw CAPIError(SS_ERROR_TOO_LARGE, "\(label): decodes to more than \(c.device.maxDecodedBytes) bytes; stream it from a file instead")
            }
            return try c.device.makeBuffer(audio, name: label)
        }
        try publish(buffer, .buffer, parent: device, to: out)
    }
}

/// Makes a buffer of `frames` frames of `channels` interleaved samples at `samples`, converted
/// to floats by `convert` (which throws for a sample it refuses), and publishes it.
private func makePCMBuffer<Sample>(_ device: OpaquePointer?, _ samples: UnsafePointer<Sample>?, _ frames: Int,
                                   _ channels: Int32, _ sampleRate: Int32, _ out: UnsafeMutablePointer<OpaquePointer?>?,
                                   convert: (UnsafeBufferPointer<Sample>) throws -> [Float]) throws {
    let out = try require(out, "out_buffer")
    guard let samples else { throw CAPIError.null("samples") }
    let shape = try pcmShape(device, frames, channels, sampleRate)
    let floats = try convert(UnsafeBufferPointer(start: samples, count: shape.count))
    let audio = AudioBuffer(samples: floats, channels: shape.channels, sampleRate: shape.rate)
    let buffer = try withDevice(device) { try $0.device.makeBuffer(audio) }
    try publish(buffer, .buffer, parent: device, to: out)
}

@c @implementation
public func ss_buffer_create_pcm(_ device: OpaquePointer?, _ samples: UnsafePointer<Float>?, _ frames: Int, _ channels: Int32,
                                 _ sampleRate: Int32, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> ss_result {
    capi {
        try makePCMBuffer(device, samples, frames, channels, sampleRate, out) { samples in
            if let bad = PlayableSamples.firstUnplayable(samples) {
                guard let index = samples.firstIndex(where: { !$0.isFinite }) else {
                    throw CAPIError(SS_ERROR_OUT_OF_RANGE, "sample \(bad.index) is \(bad.value): samples must be within "
                                    + "±\(Int(PlayableSamples.maximumMagnitude))")
                }
                throw CAPIError(SS_ERROR_NOT_FINITE, "sample \(index) is \(samples[index]): samples must be finite")
            }
            return Array(samples)
        }
    }
}

@c @implementation
public func ss_buffer_create_pcm16(_ device: OpaquePointer?, _ samples: UnsafePointer<Int16>?, _ frames: Int, _ channels: Int32,
                                   _ sampleRate: Int32, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> ss_result {
    capi {
        try makePCMBuffer(device, samples, frames, channels, sampleRate, out) { samples in samples.map { Float($0) / 32768 } }
    }
}

@c @implementation
public func ss_buffer_destroy(_ buffer: OpaquePointer?) -> ss_result {
    capi { try HandleTable.shared.destroy(buffer, kind: .buffer) }
}

@c @implementation
public func ss_buffer_get_info(_ buffer: OpaquePointer?, _ out: UnsafeMutablePointer<ss_buffer_info>?) -> ss_result {
    capi {
        let out = try require(out)
        out.pointee = try withBuffer(buffer) { b in
            ss_buffer_info(frames: Int64(b.frames), channels: Int32(b.channels), sample_rate: Int32(b.sampleRate), duration: b.duration)
        }
    }
}
