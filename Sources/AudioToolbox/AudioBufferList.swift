#if canImport(Glibc)
import Glibc
#endif

// What iOS's CoreAudio Swift overlay adds to AudioBufferList and AudioBuffer, with its names:
// a buffer list of any length as a collection of its buffers, its allocation, and buffer
// pointers over a buffer's data. Swift code that handles non-interleaved audio uses them.

extension AudioBufferList {
    /// The bytes a buffer list of `maximumBuffers` buffers takes.
    public static func sizeInBytes(maximumBuffers: Int) -> Int {
        precondition(maximumBuffers >= 1, "AudioBufferList should contain at least one AudioBuffer")
        return MemoryLayout<AudioBufferList>.size + (maximumBuffers - 1) * MemoryLayout<AudioBuffer>.stride
    }

    /// A new buffer list with room for `maximumBuffers` buffers, that many counted, each empty.
    /// It is `malloc`'d, as on iOS: free it with `free(list.unsafeMutablePointer)`.
    public static func allocate(maximumBuffers: Int) -> UnsafeMutableAudioBufferListPointer {
        let size = sizeInBytes(maximumBuffers: maximumBuffers)
        guard let raw = calloc(1, size) else { fatalError("AudioBufferList.allocate: out of memory for \(maximumBuffers) buffers") }
        let list = raw.bindMemory(to: AudioBufferList.self, capacity: 1)
        list.pointee.mNumberBuffers = UInt32(maximumBuffers)
        return UnsafeMutableAudioBufferListPointer(list)
    }
}

/// A pointer to an AudioBufferList seen as a collection of its `mNumberBuffers` buffers (iOS's
/// CoreAudio overlay). Setting ``count`` sets `mNumberBuffers`; the list must have room for it.
public struct UnsafeMutableAudioBufferListPointer {
    /// The list.
    public var unsafeMutablePointer: UnsafeMutablePointer<AudioBufferList>

    /// The list, read only.
    public var unsafePointer: UnsafePointer<AudioBufferList> { UnsafePointer(unsafeMutablePointer) }

    public init(_ p: UnsafeMutablePointer<AudioBufferList>) { unsafeMutablePointer = p }

    public init?(_ p: UnsafeMutablePointer<AudioBufferList>?) {
        guard let p else { return nil }
        unsafeMutablePointer = p
    }

    /// `mNumberBuffers`.
    public var count: Int {
        get { Int(unsafeMutablePointer.pointee.mNumberBuffers) }
        nonmutating set { unsafeMutablePointer.pointee.mNumberBuffers = UInt32(newValue) }
    }

    private var buffers: UnsafeMutablePointer<AudioBuffer> {
        UnsafeMutableRawPointer(unsafeMutablePointer).advanced(by: MemoryLayout<AudioBufferList>.offset(of: \AudioBufferList.mBuffers)!)
            .assumingMemoryBound(to: AudioBuffer.self)
    }
}

extension UnsafeMutableAudioBufferListPointer: MutableCollection, RandomAccessCollection {
    public typealias Index = Int

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    /// The buffer at `index` (0 ..< count).
    public subscript(index: Int) -> AudioBuffer {
        get {
            precondition(index >= 0 && index < count, "subscript index out of range")
            return buffers[index]
        }
        nonmutating set {
            precondition(index >= 0 && index < count, "subscript index out of range")
            buffers[index] = newValue
        }
    }
}

extension AudioBuffer {
    /// A buffer over `typedBuffer`'s memory holding `numberOfChannels` interleaved channels.
    public init<Element>(_ typedBuffer: UnsafeMutableBufferPointer<Element>, numberOfChannels: Int) {
        self.init(mNumberChannels: UInt32(numberOfChannels),
                  mDataByteSize: UInt32(typedBuffer.count * MemoryLayout<Element>.stride),
                  mData: UnsafeMutableRawPointer(typedBuffer.baseAddress))
    }
}

extension UnsafeBufferPointer {
    /// The buffer's data as elements (`mDataByteSize / MemoryLayout<Element>.stride` of them).
    public init(_ audioBuffer: AudioBuffer) {
        self.init(start: audioBuffer.mData?.assumingMemoryBound(to: Element.self),
                  count: Int(audioBuffer.mDataByteSize) / MemoryLayout<Element>.stride)
    }
}

extension UnsafeMutableBufferPointer {
    /// The buffer's data as elements (`mDataByteSize / MemoryLayout<Element>.stride` of them).
    public init(_ audioBuffer: AudioBuffer) {
        self.init(start: audioBuffer.mData?.assumingMemoryBound(to: Element.self),
                  count: Int(audioBuffer.mDataByteSize) / MemoryLayout<Element>.stride)
    }
}

extension UnsafeRawBufferPointer {
    /// The buffer's bytes.
    public init(_ audioBuffer: AudioBuffer) {
        self.init(start: audioBuffer.mData, count: Int(audioBuffer.mDataByteSize))
    }
}

extension UnsafeMutableRawBufferPointer {
    /// The buffer's bytes.
    public init(_ audioBuffer: AudioBuffer) {
        self.init(start: audioBuffer.mData, count: Int(audioBuffer.mDataByteSize))
    }
}
