// iOS Swift code writes `url as CFURL` with a Foundation URL and `"name" as CFString` with a String:
// on Apple's systems those casts bridge to Core Foundation objects. Linux's Swift has no such
// bridging, so here CFURL *is* URL and CFString *is* String, and the functions iOS code calls with
// them have Swift overloads taking those types. The C functions (which take the C objects, imported
// as the classes CFURLObject and CFStringObject) are still there for code holding C objects.
// docs/audiotoolbox.md explains the choice.
import FoundationEssentials

/// Core Foundation's URL in Swift: Foundation's `URL`, so iOS code's `url as CFURL` compiles
/// unchanged. The C type `CFURLRef` imports as the class `CFURLObject`.
public typealias CFURL = URL

/// Core Foundation's string in Swift: `String`, so iOS code's `"name" as CFString` compiles
/// unchanged. The C type `CFStringRef` imports as the class `CFStringObject`.
public typealias CFString = String

/// Opens the file at a file URL for reading, as iOS Swift code calls it with `url as CFURL`
/// (the Swift face of `AudioFileOpenURL`; the same codes). A URL that is not a file's is
/// `kAudio_BadFilePathError`.
public func AudioFileOpenURL(_ inFileRef: CFURL, _ inPermissions: AudioFilePermissions, _ inFileTypeHint: AudioFileTypeID,
                             _ outAudioFile: UnsafeMutablePointer<AudioFileID?>) -> OSStatus {
    osStatus { () throws(FileStatus) in
        outAudioFile.pointee = nil
        guard inFileRef.isFileURL else { throw .badFilePath }
        try openAudioFile(path: inFileRef.path(percentEncoded: false), permissions: inPermissions, outAudioFile)
    }
}

/// Creates a file at a file URL, as iOS Swift code calls `AudioFileCreateWithURL` with
/// `url as CFURL` (the same codes as from C). A URL that is not a file's is `kAudio_BadFilePathError`.
public func AudioFileCreateWithURL(_ inFileRef: CFURL, _ inFileType: AudioFileTypeID,
                                   _ inFormat: UnsafePointer<AudioStreamBasicDescription>, _ inFlags: AudioFileFlags,
                                   _ outAudioFile: UnsafeMutablePointer<AudioFileID?>) -> OSStatus {
    osStatus { () throws(FileStatus) in
        outAudioFile.pointee = nil
        guard inFileRef.isFileURL else { throw .badFilePath }
        try createAudioFile(path: inFileRef.path(percentEncoded: false), type: inFileType, format: inFormat, flags: inFlags,
                            outAudioFile)
    }
}

/// Registers the sound file at a file URL, as iOS Swift code calls
/// `AudioServicesCreateSystemSoundID` with `url as CFURL` (the same codes as from C). A URL that
/// is not a file's is `kAudioServicesSystemSoundUnspecifiedError`.
@discardableResult
public func AudioServicesCreateSystemSoundID(_ inFileURL: CFURL, _ outSystemSoundID: UnsafeMutablePointer<SystemSoundID>) -> OSStatus {
    osStatus { () throws(SystemSoundStatus) in
        guard inFileURL.isFileURL else { throw .unspecified }
        outSystemSoundID.pointee = try SystemSoundServices.shared.create(path: inFileURL.path(percentEncoded: false))
    }
}

/// Opens the file at a file URL to read through Extended Audio File Services, as iOS Swift code
/// calls `ExtAudioFileOpenURL` with `url as CFURL` (the same codes as from C). A URL that is not a
/// file's is `kAudio_BadFilePathError`.
public func ExtAudioFileOpenURL(_ inURL: CFURL, _ outExtAudioFile: UnsafeMutablePointer<ExtAudioFileRef?>) -> OSStatus {
    osStatus { () throws(ExtStatus) in
        outExtAudioFile.pointee = nil
        guard inURL.isFileURL else { throw ExtStatus(kAudio_BadFilePathError) }
        try openExtAudioFile(path: inURL.path(percentEncoded: false), outExtAudioFile)
    }
}

/// Creates a file at a file URL to write through Extended Audio File Services, as iOS Swift code
/// calls `ExtAudioFileCreateWithURL` with `url as CFURL` (the same codes as from C). A URL that is
/// not a file's is `kAudio_BadFilePathError`.
public func ExtAudioFileCreateWithURL(_ inURL: CFURL, _ inFileType: AudioFileTypeID,
                                      _ inStreamDesc: UnsafePointer<AudioStreamBasicDescription>,
                                      _ inChannelLayout: UnsafePointer<AudioChannelLayout>?, _ inFlags: UInt32,
                                      _ outExtAudioFile: UnsafeMutablePointer<ExtAudioFileRef?>) -> OSStatus {
    osStatus { () throws(ExtStatus) in
        outExtAudioFile.pointee = nil
        guard inURL.isFileURL else { throw ExtStatus(kAudio_BadFilePathError) }
        try createExtAudioFile(path: inURL.path(percentEncoded: false), type: inFileType, format: inStreamDesc,
                               layout: inChannelLayout, flags: inFlags, outExtAudioFile)
    }
}

/// A file URL for a POSIX path, as iOS Swift code calls `CFURLCreateWithFileSystemPath` with
/// `path as CFString`; nil for another path style or an empty path.
public func CFURLCreateWithFileSystemPath(_ allocator: CFAllocator?, _ filePath: CFString, _ pathStyle: CFURLPathStyle,
                                          _ isDirectory: Bool) -> CFURL? {
    guard pathStyle == .cfurlposixPathStyle, !filePath.isEmpty else { return nil }
    return URL(fileURLWithPath: absolutePath(filePath), isDirectory: isDirectory)
}

/// A resource beside the executable (see `CFBundleCopyResourceURL` in CoreFoundation/CFBundle.h),
/// as iOS Swift code calls it with `"name" as CFString`; nil when the file does not exist.
public func CFBundleCopyResourceURL(_ bundle: CFBundle?, _ resourceName: CFString?, _ resourceType: CFString?,
                                    _ subDirName: CFString?) -> CFURL? {
    guard let bundle, let resourceName,
          let storage = Unmanaged<AnyObject>.passUnretained(bundle).takeUnretainedValue() as? CFBundleStorage,
          let path = storage.resource(name: resourceName, type: resourceType, subdirectory: subDirName) else { return nil }
    return URL(fileURLWithPath: path, isDirectory: false)
}

/// A run loop mode, as iOS Swift code names one (`CFRunLoopMode.defaultMode`, `.commonModes`); its
/// raw value is the mode's name, a `CFString` (a `String` here).
public struct CFRunLoopMode: RawRepresentable, Hashable, Sendable {
    /// The mode's name.
    public var rawValue: CFString
    /// The mode named `rawValue`.
    public init(rawValue: CFString) { self.rawValue = rawValue }
    /// The mode named `rawValue`.
    public init(_ rawValue: CFString) { self.rawValue = rawValue }
    /// `kCFRunLoopDefaultMode`.
    public static let defaultMode = CFRunLoopMode("kCFRunLoopDefaultMode")
    /// `kCFRunLoopCommonModes`: a callback registered here runs in the default mode.
    public static let commonModes = CFRunLoopMode("kCFRunLoopCommonModes")
}

/// Runs the calling thread's run loop in `mode`, as iOS Swift code calls it
/// (`CFRunLoopRunInMode(.defaultMode, 0.25, false)`); see CoreFoundation/CFRunLoop.h.
@discardableResult
public func CFRunLoopRunInMode(_ mode: CFRunLoopMode!, _ seconds: CFTimeInterval, _ returnAfterSourceHandled: Bool) -> CFRunLoopRunResult {
    CFRunLoopStorage.current.run(mode: (mode ?? .defaultMode).rawValue, seconds: seconds,
                                 returnAfterSourceHandled: returnAfterSourceHandled)
}

/// Queues `block` to run on `rl`'s thread when it runs `mode` (`CFRunLoopPerformBlock`, with the
/// mode's name as iOS code passes `CFRunLoopMode.commonModes.rawValue`). A NULL loop or block is ignored.
public func CFRunLoopPerformBlock(_ rl: CFRunLoop!, _ mode: CFString!, _ block: (() -> Void)!) {
    guard let rl, let block,
          let storage = Unmanaged<AnyObject>.passUnretained(rl).takeUnretainedValue() as? CFRunLoopStorage else { return }
    storage.perform(in: mode ?? CFRunLoopMode.defaultMode.rawValue, block)
}

/// `CFRunLoopPerformBlock` with a `CFRunLoopMode`.
public func CFRunLoopPerformBlock(_ rl: CFRunLoop!, _ mode: CFRunLoopMode, _ block: (() -> Void)!) {
    CFRunLoopPerformBlock(rl, mode.rawValue, block)
}

/// `AudioFileGetProperty` for `kAudioFilePropertyInfoDictionary` as iOS Swift code calls it with
/// `var info: CFDictionary?` and `&info` (the variable owns the new dictionary). Other properties:
/// `kAudioFileUnsupportedPropertyError` (they are not dictionaries).
public func AudioFileGetProperty(_ inAudioFile: AudioFileID, _ inPropertyID: AudioFilePropertyID,
                                 _ ioDataSize: UnsafeMutablePointer<UInt32>, _ outPropertyData: UnsafeMutablePointer<CFDictionary?>) -> OSStatus {
    guard inPropertyID == kAudioFilePropertyInfoDictionary else { return kAudioFileUnsupportedPropertyError }
    var pointer: UnsafeRawPointer?
    let status = AudioFileGetProperty(inAudioFile, inPropertyID, ioDataSize, &pointer)
    if status == noErr, let pointer {
        outPropertyData.pointee = Unmanaged<CFDictionary>.fromOpaque(pointer).takeRetainedValue()
    }
    return status
}

/// `AudioFileStreamGetProperty` for `kAudioFileStreamProperty_InfoDictionary` as iOS Swift code
/// calls it with `var info: CFDictionary?` and `&info` (the variable owns the new dictionary).
/// Other properties: `kAudioFileStreamError_UnsupportedProperty` (they are not dictionaries).
public func AudioFileStreamGetProperty(_ inAudioFileStream: AudioFileStreamID, _ inPropertyID: AudioFileStreamPropertyID,
                                       _ ioPropertyDataSize: UnsafeMutablePointer<UInt32>,
                                       _ outPropertyData: UnsafeMutablePointer<CFDictionary?>) -> OSStatus {
    guard inPropertyID == kAudioFileStreamProperty_InfoDictionary else { return kAudioFileStreamError_UnsupportedProperty }
    var pointer: UnsafeRawPointer?
    let status = AudioFileStreamGetProperty(inAudioFileStream, inPropertyID, ioPropertyDataSize, &pointer)
    if status == noErr, let pointer {
        outPropertyData.pointee = Unmanaged<CFDictionary>.fromOpaque(pointer).takeRetainedValue()
    }
    return status
}

/// A run loop and a mode's name as iOS Swift code passes them (`CFRunLoopGetCurrent()`,
/// `CFRunLoopMode.commonModes.rawValue`), as the C functions take them; `body` gets both pointers.
private func withRunLoop<T>(_ runLoop: CFRunLoop?, _ mode: CFString, _ body: (UnsafeRawPointer?, UnsafeRawPointer?) -> T) -> T {
    let name = CFStringStorage(mode)
    return withExtendedLifetime((runLoop, name)) {
        body(runLoop.map { UnsafeRawPointer(Unmanaged.passUnretained($0).toOpaque()) }, cfUnretained(name))
    }
}

/// `AudioQueueNewOutput` with the run loop mode as iOS Swift code names it
/// (`CFRunLoopMode.commonModes.rawValue`); with `nil` for the mode, the C function is called.
@discardableResult
public func AudioQueueNewOutput(_ inFormat: UnsafePointer<AudioStreamBasicDescription>, _ inCallbackProc: AudioQueueOutputCallback,
                                _ inUserData: UnsafeMutableRawPointer?, _ inCallbackRunLoop: CFRunLoop?, _ inCallbackRunLoopMode: CFString,
                                _ inFlags: UInt32, _ outAQ: UnsafeMutablePointer<AudioQueueRef?>) -> OSStatus {
    withRunLoop(inCallbackRunLoop, inCallbackRunLoopMode) {
        _AudioQueueNewOutput(inFormat, inCallbackProc, inUserData, $0, $1, inFlags, outAQ)
    }
}

/// `AudioSessionInitialize` with the run loop mode as iOS Swift code names it.
@discardableResult
public func AudioSessionInitialize(_ inRunLoop: CFRunLoop?, _ inRunLoopMode: CFString,
                                   _ inInterruptionListener: AudioSessionInterruptionListener?, _ inClientData: UnsafeMutableRawPointer?) -> OSStatus {
    withRunLoop(inRunLoop, inRunLoopMode) { _AudioSessionInitialize($0, $1, inInterruptionListener, inClientData) }
}

/// `AudioServicesAddSystemSoundCompletion` with the run loop mode as iOS Swift code names it.
@discardableResult
public func AudioServicesAddSystemSoundCompletion(_ inSystemSoundID: SystemSoundID, _ inRunLoop: CFRunLoop?, _ inRunLoopMode: CFString,
                                                  _ inCompletionRoutine: AudioServicesSystemSoundCompletionProc,
                                                  _ inClientData: UnsafeMutableRawPointer?) -> OSStatus {
    withRunLoop(inRunLoop, inRunLoopMode) { _AudioServicesAddSystemSoundCompletion(inSystemSoundID, $0, $1, inCompletionRoutine, inClientData) }
}
