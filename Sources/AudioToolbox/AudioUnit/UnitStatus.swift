// Audio Unit Services' and AUGraph's error codes on their way out (AUComponent.h, AUGraph.h).

/// An Audio Unit or AUGraph error on its way out.
struct UnitStatus: StatusError, Equatable {
    /// The code the C function returns.
    let status: OSStatus

    /// `kAudio_ParamError` (−50): a NULL pointer, a stale or disposed unit, graph or component.
    static let parameter = UnitStatus(status: kAudio_ParamError)
    static let invalidProperty = UnitStatus(status: kAudioUnitErr_InvalidProperty)
    static let invalidParameter = UnitStatus(status: kAudioUnitErr_InvalidParameter)
    static let invalidElement = UnitStatus(status: kAudioUnitErr_InvalidElement)
    static let invalidScope = UnitStatus(status: kAudioUnitErr_InvalidScope)
    static let noConnection = UnitStatus(status: kAudioUnitErr_NoConnection)
    static let failedInitialization = UnitStatus(status: kAudioUnitErr_FailedInitialization)
    static let tooManyFramesToProcess = UnitStatus(status: kAudioUnitErr_TooManyFramesToProcess)
    static let formatNotSupported = UnitStatus(status: kAudioUnitErr_FormatNotSupported)
    static let uninitialized = UnitStatus(status: kAudioUnitErr_Uninitialized)
    static let propertyNotWritable = UnitStatus(status: kAudioUnitErr_PropertyNotWritable)
    static let cannotDoInCurrentContext = UnitStatus(status: kAudioUnitErr_CannotDoInCurrentContext)
    static let invalidPropertyValue = UnitStatus(status: kAudioUnitErr_InvalidPropertyValue)
    static let initialized = UnitStatus(status: kAudioUnitErr_Initialized)
    static let invalidParameterValue = UnitStatus(status: kAudioUnitErr_InvalidParameterValue)
    static let nodeNotFound = UnitStatus(status: kAUGraphErr_NodeNotFound)
    static let invalidConnection = UnitStatus(status: kAUGraphErr_InvalidConnection)
    static let outputNode = UnitStatus(status: kAUGraphErr_OutputNodeErr)
    static let graphContext = UnitStatus(status: kAUGraphErr_CannotDoInCurrentContext)
    static let invalidAudioUnit = UnitStatus(status: kAUGraphErr_InvalidAudioUnit)
}
