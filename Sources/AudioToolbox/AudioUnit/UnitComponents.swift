// The Audio Components Soundstage offers (AudioComponent.h): Apple's units a port reaches by
// description. An AudioComponent is a handle (a tag and the catalog's index), never a pointer.

/// What a unit does, by kind.
enum UnitKind: Equatable, Sendable {
    /// RemoteIO, VoiceProcessingIO, macOS's DefaultOutput, SystemOutput and HALOutput: the app's
    /// output device (element 0), and its input (element 1) where the unit has one.
    case deviceIO(hasInput: Bool)
    /// GenericOutput: pulled by the caller (offline rendering).
    case genericOutput
    case multiChannelMixer
    case converter
}

/// One component of the catalog.
struct UnitComponent: Sendable {
    let type: OSType
    let subType: OSType
    let name: String
    let kind: UnitKind
}

enum UnitComponents {
    /// Every component, in the order AudioComponentFindNext walks them.
    static let all: [UnitComponent] = [
        UnitComponent(type: kAudioUnitType_Output, subType: kAudioUnitSubType_RemoteIO, name: "Apple: AURemoteIO", kind: .deviceIO(hasInput: true)),
        UnitComponent(type: kAudioUnitType_Output, subType: kAudioUnitSubType_VoiceProcessingIO, name: "Apple: AUVoiceProcessor", kind: .deviceIO(hasInput: true)),
        UnitComponent(type: kAudioUnitType_Output, subType: kAudioUnitSubType_GenericOutput, name: "Apple: AUGenericOutput", kind: .genericOutput),
        UnitComponent(type: kAudioUnitType_Output, subType: kAudioUnitSubType_DefaultOutput, name: "Apple: AUDefaultOutput", kind: .deviceIO(hasInput: false)),
        UnitComponent(type: kAudioUnitType_Output, subType: kAudioUnitSubType_SystemOutput, name: "Apple: AUSystemOutput", kind: .deviceIO(hasInput: false)),
        UnitComponent(type: kAudioUnitType_Output, subType: kAudioUnitSubType_HALOutput, name: "Apple: AUHAL", kind: .deviceIO(hasInput: true)),
        UnitComponent(type: kAudioUnitType_Mixer, subType: kAudioUnitSubType_MultiChannelMixer, name: "Apple: AUMultiChannelMixer", kind: .multiChannelMixer),
        UnitComponent(type: kAudioUnitType_FormatConverter, subType: kAudioUnitSubType_AUConverter, name: "Apple: AUConverter", kind: .converter),
    ]

    /// The handles' tag (bits 48–55), as ``HandleTable``'s: no other handle is taken for one.
    private static let tag: UInt = 9

    /// The handle of component `index`.
    static func handle(_ index: Int) -> AudioComponent {
        OpaquePointer(bitPattern: tag << 48 | UInt(index + 1))!
    }

    /// The catalog index behind `handle`, or nil.
    static func index(_ handle: AudioComponent?) -> Int? {
        guard let handle else { return nil }
        let bits = UInt(bitPattern: handle)
        guard bits >> 48 == tag else { return nil }
        let index = Int(bits & 0xFFFF_FFFF) - 1
        return all.indices.contains(index) ? index : nil
    }

    /// Whether `component` matches `description` as Apple matches: a zero type, subtype or
    /// manufacturer matches any; the flags are compared under the mask.
    static func matches(_ component: UnitComponent, _ description: AudioComponentDescription) -> Bool {
        (description.componentType == 0 || description.componentType == component.type)
            && (description.componentSubType == 0 || description.componentSubType == component.subType)
            && (description.componentManufacturer == 0 || description.componentManufacturer == kAudioUnitManufacturer_Apple)
            && description.componentFlags & description.componentFlagsMask & ~AudioComponentFlags.sandboxSafe.rawValue == 0
    }

    /// Component `index`'s description, as AudioComponentGetDescription gives it.
    static func description(_ index: Int) -> AudioComponentDescription {
        AudioComponentDescription(componentType: all[index].type, componentSubType: all[index].subType,
                                  componentManufacturer: kAudioUnitManufacturer_Apple,
                                  componentFlags: AudioComponentFlags.sandboxSafe.rawValue, componentFlagsMask: 0)
    }

    /// The version every component reports (AudioComponentGetVersion): Soundstage's, as 0xMMMMmmbb.
    static let version: UInt32 = 0x0001_0000
}
