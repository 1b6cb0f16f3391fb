import Dispatch

// AudioQueueNewOutputWithDispatchQueue and AudioQueueNewInputWithDispatchQueue, for Swift: the
// program's block runs on the dispatch queue it names, as on iOS. C and C++ have no form of them
// here (a C block needs clang's -fblocks, the blocks runtime and libdispatch's headers, which a
// Linux C program rarely has): they use AudioQueueNewOutput and AudioQueueNewInput.

/// An output queue's callback as a block: the queue and the buffer it has finished with.
public typealias AudioQueueOutputCallbackBlock = (AudioQueueRef, AudioQueueBufferRef) -> Void

/// An input queue's callback as a block: the queue, the filled buffer, its start time and its
/// packets' descriptions.
public typealias AudioQueueInputCallbackBlock = (AudioQueueRef, AudioQueueBufferRef, UnsafePointer<AudioTimeStamp>, UInt32,
                                                 UnsafePointer<AudioStreamPacketDescription>?) -> Void

/// A block, kept by its queue, that the C trampolines below call.
private final class CallbackBlock<Block> {
    let block: Block
    init(_ block: Block) { self.block = block }
}

/// Makes an output queue whose callback is `inCallbackBlock`, run on `inCallbackDispatchQueue`
/// (its IsRunning listeners too). Otherwise as ``AudioQueueNewOutput``.
public func AudioQueueNewOutputWithDispatchQueue(_ outAQ: UnsafeMutablePointer<AudioQueueRef?>,
                                                 _ inFormat: UnsafePointer<AudioStreamBasicDescription>, _ inFlags: UInt32,
                                                 _ inCallbackDispatchQueue: DispatchQueue,
                                                 _ inCallbackBlock: @escaping AudioQueueOutputCallbackBlock) -> OSStatus {
    let box = CallbackBlock(inCallbackBlock)
    let status = _AudioQueueNewOutput(inFormat, { userData, queue, buffer in
        Unmanaged<CallbackBlock<AudioQueueOutputCallbackBlock>>.fromOpaque(userData!).takeUnretainedValue().block(queue, buffer)
    }, Unmanaged.passUnretained(box).toOpaque(), nil, nil, inFlags, outAQ, dispatch: inCallbackDispatchQueue)
    if status == noErr, let handle = outAQ.pointee, let queue = AudioQueueTable.table.object(handle) {
        queue.lock.withLock { queue.block = box }
    }
    return status
}

/// Makes an input queue whose callback is `inCallbackBlock`, run on `inCallbackDispatchQueue`
/// (its IsRunning listeners too). Otherwise as ``AudioQueueNewInput``.
public func AudioQueueNewInputWithDispatchQueue(_ outAQ: UnsafeMutablePointer<AudioQueueRef?>,
                                                _ inFormat: UnsafePointer<AudioStreamBasicDescription>, _ inFlags: UInt32,
                                                _ inCallbackDispatchQueue: DispatchQueue,
                                                _ inCallbackBlock: @escaping AudioQueueInputCallbackBlock) -> OSStatus {
    let box = CallbackBlock(inCallbackBlock)
    let status = _AudioQueueNewInput(inFormat, { userData, queue, buffer, time, count, descriptions in
        Unmanaged<CallbackBlock<AudioQueueInputCallbackBlock>>.fromOpaque(userData!).takeUnretainedValue().block(queue, buffer, time, count,
                                                                                                                   descriptions)
    }, Unmanaged.passUnretained(box).toOpaque(), nil, nil, inFlags, outAQ, dispatch: inCallbackDispatchQueue)
    if status == noErr, let handle = outAQ.pointee, let queue = AudioQueueTable.table.object(handle) {
        queue.lock.withLock { queue.block = box }
    }
    return status
}
