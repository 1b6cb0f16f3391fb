import Dispatch

// Where a C listener or completion of the Audio Session and System Sound APIs runs: on the run
// loop the caller named (when its thread runs it, CFRunLoopRunInMode), or, for a NULL run loop,
// on Soundstage's own thread as the event happens (iOS's NULL is the main run loop, which a Linux
// game does not run; docs/audiotoolbox.md).

/// A caller's callback: a C function, its client data and the run loop to call it on.
struct CCallback<Function>: @unchecked Sendable {
    // @unchecked: the function and client data are the caller's, called as C would call them; the
    // run loop is thread-safe.
    let function: Function
    let clientData: UnsafeMutableRawPointer?
    let loop: CFRunLoopStorage?
    let mode: String
    /// A dispatch queue to run it on instead (the …WithDispatchQueue forms of Swift blocks).
    var dispatch: DispatchQueue?

    /// `runLoop` and `mode` as C passes them (CFRunLoopRef and CFStringRef, NULL allowed).
    init(_ function: Function, _ clientData: UnsafeMutableRawPointer?, runLoop: UnsafeRawPointer?, mode: UnsafeRawPointer?) {
        self.function = function
        self.clientData = clientData
        loop = cfObject(runLoop) as? CFRunLoopStorage
        self.mode = cfString(mode) ?? CFRunLoopStorage.defaultMode
    }

    /// The same run loop and mode as `other` (the session's property listeners run where its
    /// interruption listener does).
    init(_ function: Function, _ clientData: UnsafeMutableRawPointer?, loop: CFRunLoopStorage?, mode: String) {
        self.function = function
        self.clientData = clientData
        self.loop = loop
        self.mode = mode
    }

    /// Whether `other` is the same function with the same client data.
    func isSame(as other: CCallback<Function>) -> Bool {
        unsafeBitCast(function, to: UnsafeRawPointer.self) == unsafeBitCast(other.function, to: UnsafeRawPointer.self)
            && clientData == other.clientData
    }

    /// Runs `body` where the caller asked.
    func deliver(_ body: @escaping @Sendable () -> Void) {
        if let dispatch {
            dispatch.async(execute: body)
        } else if let loop {
            loop.perform(in: mode, body)
        } else {
            body()
        }
    }

    /// Keeps the run loop waiting for this callback (CFRunLoopRunInMode does not finish early).
    func attach() { loop?.attachSource(in: mode) }
    /// The end of `attach()`.
    func detach() { loop?.detachSource(in: mode) }
}
