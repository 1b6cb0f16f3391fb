// What every Apple-named function does at its C boundary: run its body and return the OSStatus
// it threw (noErr when it returned). Each header family throws its own error type (FileStatus,
// FormatStatus, ConverterStatus, ExtStatus, ...), whose static members name its codes.

/// An OSStatus on its way out of an Apple-named call.
protocol StatusError: Error {
    /// The code the C function returns.
    var status: OSStatus { get }
}

/// Runs `body`, turning what it throws into its OSStatus (noErr when it returns).
func osStatus<E: StatusError>(_ body: () throws(E) -> Void) -> OSStatus {
    do {
        try body()
        return noErr
    } catch {
        return error.status
    }
}
