// ALC_EXT_MAC_OSX's mixer output rate (OpenAL/oalMacOSX_OALExtensions.h), and the alcCreateContext
// of <OpenAL/alc.h> that applies it. On Apple's systems the rate is the 3D mixer's; here it is the
// ALC_FREQUENCY of the contexts created afterwards, added to their attributes when they name none
// (OpenAL Soft then mixes, and for a playback device reopens its output, at that rate: the rate is
// the device's, so it is every context's on that device). A context made before keeps its rate.
import COpenAL
import NIOConcurrencyHelpers

/// The rate alcMacOSXMixerOutputRate set (0: none set).
private let mixerOutputRate = NIOLockedValueBox<ALdouble>(0)

/// The rates OpenAL Soft 1.19.1 mixes at: its MIN_OUTPUT_RATE to the highest rate it is tested at.
private let mixerRates: ClosedRange<ALdouble> = 8_000...192_000

/// `alcMacOSXMixerOutputRate`: contexts created afterwards mix at `value` Hz; NaN, infinite or
/// out of 8,000…192,000 is `ALC_INVALID_VALUE` for `alcGetError(NULL)` and changes nothing.
@c @implementation
public func alcMacOSXMixerOutputRate(_ value: ALdouble) {
    guard mixerRates.contains(value) else {
        recordALCInvalidValue()
        return
    }
    mixerOutputRate.withLockedValue { $0 = value }
}

/// `alcMacOSXGetMixerOutputRate`: the rate last set, 0 before any.
@c @implementation
public func alcMacOSXGetMixerOutputRate() -> ALdouble {
    mixerOutputRate.withLockedValue { $0 }
}

/// `alcCreateContext` through <OpenAL/alc.h>: OpenAL Soft's, with `ALC_FREQUENCY` = the mixer
/// output rate added when a rate was set and `attrlist` names no `ALC_FREQUENCY`. The audio
/// system is attached to the main run loop from then on, as on a Mac.
@c @implementation
public func soundstage_alcCreateContext(_ device: OpaquePointer!, _ attrlist: UnsafePointer<ALCint>!) -> OpaquePointer! {
    CFRunLoopStorage.attachAudioSystem()
    let rate = alcMacOSXGetMixerOutputRate()
    guard rate > 0 else { return COpenAL.alcCreateContext(device, attrlist) }
    var attributes: [ALCint] = []
    if let attrlist {
        var index = 0
        while attrlist[index] != 0 {
            if attrlist[index] == ALC_FREQUENCY { return COpenAL.alcCreateContext(device, attrlist) }
            attributes += [attrlist[index], attrlist[index + 1]]
            index += 2
        }
    }
    attributes += [ALC_FREQUENCY, ALCint(rate.rounded()), 0]
    return COpenAL.alcCreateContext(device, attributes)
}
