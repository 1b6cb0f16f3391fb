#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif

/// glibc's allocator knobs, for a long-running daemon: OpenAL Soft allocates some megabytes of
/// voices per context, and a daemon makes and frees contexts as clients load and unload scenes.
/// Left alone, glibc keeps that memory (its dynamic mmap threshold moves such blocks into the
/// heap, where freeing fragments it), so the daemon's memory would not return to where it was.
/// (Swift's Glibc module declares neither `mallopt` nor `malloc_trim`: they are looked up.)
public enum Allocator {
    private typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
    private typealias MallocTrim = @convention(c) (Int) -> Int32

    private static let mallopt: Mallopt? = dlsym(nil, "mallopt").map { unsafeBitCast($0, to: Mallopt.self) }
    private static let mallocTrim: MallocTrim? = dlsym(nil, "malloc_trim").map { unsafeBitCast($0, to: MallocTrim.self) }

    /// Serves every block of 256 KiB or more with its own mapping, returned to the system when
    /// freed (`mallopt(M_MMAP_THRESHOLD)`; setting it also stops glibc moving the threshold).
    /// A process-wide choice: `soundstage serve` makes it at start; a game embedding the server
    /// decides for itself.
    public static func mapLargeBlocks() {
        let mmapThreshold: Int32 = -3     // M_MMAP_THRESHOLD
        let arenaMax: Int32 = -8          // M_ARENA_MAX
        _ = mallopt?(mmapThreshold, 256 << 10)
        _ = mallopt?(arenaMax, 2)
    }

    /// Gives freed memory at the top of the heaps back to the system (`malloc_trim(0)`).
    static func returnFreeMemory() { _ = mallocTrim?(0) }
}
