import NIOConcurrencyHelpers

/// Something the device's render adds into its mix after OpenAL's own: a Core Audio output unit
/// (RemoteIO), whose render callback makes samples on the rendering thread, in step with the mix,
/// so they reach the ear as soon as a source's play would.
package protocol MixInput: AnyObject, Sendable {
    /// Adds `frames` frames to `mix` (interleaved, `channels` channels, the device's rate), on the
    /// rendering thread, once an update's chunk is mixed. What it adds must be finite.
    func add(into mix: UnsafeMutablePointer<Float>, frames: Int, channels: Int)
}

/// The mix inputs of a device (``Device/addMixInput(_:)``).
struct MixInputs {
    var inputs: [any MixInput] = []
}

extension Device {
    /// Mixes `input` into this device's output from the next chunk on, until ``removeMixInput(_:)``.
    /// A device Soundstage renders only (desktop, loopback): OpenAL mixes an ``Kind/output``
    /// device itself. While any input is added, a desktop output does not rest.
    package func addMixInput(_ input: any MixInput) throws(SoundstageError) {
        guard kind != .output else {
            throw SoundstageError(.invalidState, "this device is mixed by OpenAL itself: only a desktop or loopback device takes a mix input")
        }
        mixInputs.withLockedValue { state in
            guard !state.inputs.contains(where: { $0 === input }) else { return }
            state.inputs.append(input)
            hasMixInputs.store(true, ordering: .releasing)
        }
        noteActivity()
    }

    /// Stops mixing an input ``addMixInput(_:)`` added (it may be mixing now, on the rendering thread).
    package func removeMixInput(_ input: any MixInput) {
        mixInputs.withLockedValue { state in
            state.inputs.removeAll { $0 === input }
            if state.inputs.isEmpty { hasMixInputs.store(false, ordering: .releasing) }
        }
    }

    /// Adds every mix input into one mixed chunk (the rendering thread, under the render lock).
    func addMixInputs(into mixed: UnsafeMutableBufferPointer<Float>, channels: Int) {
        guard hasMixInputs.load(ordering: .acquiring), let base = mixed.baseAddress else { return }
        // The list as it is (a retained copy: an input removed meanwhile finishes this chunk).
        let inputs = mixInputs.withLockedValue { $0.inputs }
        for input in inputs { input.add(into: base, frames: mixed.count / channels, channels: channels) }
    }
}
