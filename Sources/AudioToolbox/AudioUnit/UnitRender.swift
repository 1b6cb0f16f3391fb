import Dispatch
import SoundFile
#if canImport(Glibc)
import Glibc
#endif

// How a unit renders (AudioUnitRender, and the device's pull of a running output unit): its
// render notifications around the work; the work pulls each input element from its render
// callback or connected unit, in that input's format, converts it to Float32 planes at the unit's
// output rate and channels (a resampler where the rates differ), and makes the output element's
// frames from them: a copy for output units and the converter, a mix for the mixer.

/// The render notifications' flags for each side of a render.
private let preRender = AudioUnitRenderActionFlags.unitRenderAction_PreRender
private let postRender = AudioUnitRenderActionFlags.unitRenderAction_PostRender
private let postRenderError = AudioUnitRenderActionFlags.unitRenderAction_PostRenderError
private let outputIsSilence = AudioUnitRenderActionFlags.unitRenderAction_OutputIsSilence

/// One input element's pull: the list handed to its source, the source's frames as planes, and a
/// resampler when the source's rate is not the unit's.
final class InputAdapter {
    private var list: OwnedBufferList?
    private let raw = PlaneBuffer(channels: 2, capacity: 512)
    private var resampler: Resampler?
    private var resampling: (from: Double, to: Double, channels: Int)?
    private var pending = FrameQueue(channels: 0)
    private var made = FrameQueue(channels: 0)
    /// The source's sample time (its own rate), for the time stamps it is handed.
    var sampleTime: Double = 0

    /// Forgets what is held (AudioUnitReset, a format change).
    func reset() {
        resampler = nil
        resampling = nil
        sampleTime = 0
    }

    /// Makes `frames` frames at `rate` into `out` (`channels` planes) from `source`, whose frames
    /// come in `format`, at most `slice` at a time.
    func pull(_ source: UnitInputSource, format: UnitFormat, bus: UInt32, frames: Int, rate: Double, channels: Int,
              slice: Int, into out: PlaneBuffer) throws(UnitStatus) {
        out.reserve(channels: channels, frames: frames)
        if format.rate == rate {
            var done = 0
            while done < frames {
                let count = min(slice, frames - done)
                try fetch(source, format: format, bus: bus, frames: count)
                Self.map(raw, channels: format.channels, into: out, channels: channels, frames: count, at: done)
                done += count
            }
            return
        }
        if resampling.map({ $0.from != format.rate || $0.to != rate || $0.channels != format.channels }) ?? true {
            resampler = Resampler(inRate: format.rate, outRate: rate, channels: format.channels,
                                  design: ResamplerDesign(zeroCrossings: 16, attenuation: 100, linear: false))
            resampling = (format.rate, rate, format.channels)
            pending = FrameQueue(channels: format.channels)
            made = FrameQueue(channels: format.channels)
        }
        guard let resampler else { return }
        while made.count < frames {
            let needed = max(1, min(slice, resampler.inputNeeded(forOutput: frames - made.count)))
            try fetch(source, format: format, bus: bus, frames: needed)
            pending.append(frames: needed) { channel, target in
                let plane = raw.plane(channel)
                for frame in 0..<needed { target[frame] = Double(plane[frame]) }
            }
            resampler.append(&pending, frames: needed)
            resampler.produce(maximum: frames - made.count, into: &made)
        }
        raw.reserve(channels: format.channels, frames: frames)
        for channel in 0..<format.channels {
            let plane = raw.plane(channel)
            made.withFront(channel: channel) { samples in
                for frame in 0..<frames { plane[frame] = Float(samples[frame]) }
            }
        }
        made.consume(frames)
        Self.map(raw, channels: format.channels, into: out, channels: channels, frames: frames, at: 0)
    }

    /// Asks `source` for `frames` frames into `raw` (one plane a channel of `format`).
    private func fetch(_ source: UnitInputSource, format: UnitFormat, bus: UInt32, frames: Int) throws(UnitStatus) {
        if list == nil { list = OwnedBufferList(format: format, frames: frames) }
        guard let list else { return }
        list.prepare(format: format, frames: frames)
        raw.reserve(channels: format.channels, frames: frames)
        var flags = AudioUnitRenderActionFlags()
        var stamp = AudioTimeStamp()
        stamp.mSampleTime = sampleTime
        stamp.mHostTime = DispatchTime.now().uptimeNanoseconds
        stamp.mFlags = [.sampleTimeValid, .hostTimeValid]
        sampleTime += Double(frames)
        switch source {
        case .callback(let callback):
            let status = callback(&flags, &stamp, bus, UInt32(frames), list.list)
            guard status == noErr else { throw UnitStatus(status: status) }
        case .connection(let handle, let sourceBus):
            guard let unit = AudioUnitTable.table.object(handle) else { throw .noConnection }
            try unit.render(flags: &flags, timeStamp: &stamp, bus: sourceBus, frames: frames, into: list.list)
        }
        // What the source left in the list must still describe the frames asked for.
        if flags.contains(outputIsSilence) || !format.fits(list.list, frames: frames) {
            raw.clear(channels: format.channels, frames: frames)
        } else {
            format.read(list.list, frames: frames, into: raw)
        }
    }

    /// Copies `frames` frames of `from` (`inChannels`) to `out` (`outChannels`) at `offset`: the
    /// same count copies, mono goes to every channel, many to mono are averaged, otherwise the
    /// channels both have are copied and the rest are silent.
    static func map(_ from: PlaneBuffer, channels inChannels: Int, into out: PlaneBuffer, channels outChannels: Int,
                    frames: Int, at offset: Int) {
        for channel in 0..<outChannels {
            let target = out.plane(channel) + offset
            if inChannels == outChannels || (inChannels > 1 && outChannels > 1) {
                if channel < inChannels {
                    target.update(from: from.plane(channel), count: frames)
                } else {
                    target.update(repeating: 0, count: frames)
                }
            } else if inChannels == 1 {
                target.update(from: from.plane(0), count: frames)
            } else {
                let scale = 1 / Float(inChannels)
                for frame in 0..<frames {
                    var sum: Float = 0
                    for source in 0..<inChannels { sum += from.plane(source)[frame] }
                    target[frame] = sum * scale
                }
            }
        }
    }
}

/// A mixer's last levels, linear (power as RMS), by input bus and for the output.
struct UnitMeters {
    var inputs: [(average: Float, peak: Float)] = []
    var output: (average: Float, peak: Float) = (0, 0)
}

extension AudioUnitObject {
    /// What a render needs of the unit's state, taken under the lock.
    private struct RenderPlan {
        var sources: [UnitInputSource?]
        var inputFormats: [UnitFormat]
        var output: UnitFormat
        var notifies: [UnitCallback<AURenderCallback>]
        var parameters: [[AudioUnitParameterID: AudioUnitParameterValue]]
        var outputVolume: Float
        var meterInputs: [Bool]
        var meterOutput: Bool
        var slice: Int
    }

    /// AudioUnitRender: `frames` frames of output element `bus` into `ioData` (a NULL buffer's
    /// data is the unit's own), with the render notifications around it. (Not inlined: the C
    /// function and a connected unit's pull share one copy.)
    @inline(never)
    func render(flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>?, timeStamp: UnsafePointer<AudioTimeStamp>,
                bus: UInt32, frames: Int, into ioData: UnsafeMutablePointer<AudioBufferList>) throws(UnitStatus) {
        if isDeviceIO && bus == 1 {
            try renderInput(frames: frames, into: ioData)
            return
        }
        var plan = try lock.withTypedLock { () throws(UnitStatus) -> RenderPlan in
            guard !disposed else { throw .parameter }
            guard initialized else { throw .uninitialized }
            guard bus == 0, !outputs.isEmpty else { throw .invalidElement }
            guard frames > 0 else { throw .parameter }
            guard frames <= Int(maximumFramesPerSlice) else { throw .tooManyFramesToProcess }
            guard outputs[0].format.fits(ioData, frames: frames, allowNilData: true) else { throw .parameter }
            return makePlan()
        }
        resolveSourceFormats(&plan)
        try renderGate.withLock { () throws(UnitStatus) in
            // Disposed while this render waited for the gate: a disposal that has returned is
            // followed by no callback.
            guard !lock.withLock({ disposed }) else { throw .parameter }
            // A render of this unit's output inside its own render (a callback rendering its own
            // unit's element 0): refused, not an endless recursion.
            guard renderDepth == 0 else { throw .cannotDoInCurrentContext }
            renderDepth += 1
            defer { renderDepth -= 1 }
            // A NULL buffer gets the unit's own memory, as on iOS.
            if UnsafeMutableAudioBufferListPointer(ioData).contains(where: { $0.mData == nil }) {
                if outputList == nil { outputList = OwnedBufferList(format: plan.output, frames: frames) }
                outputList!.prepare(format: plan.output, frames: frames)
                let own = UnsafeMutableAudioBufferListPointer(outputList!.list)
                let given = UnsafeMutableAudioBufferListPointer(ioData)
                for index in 0..<given.count where given[index].mData == nil { given[index].mData = own[index].mData }
            }
            try renderLocked(plan, flags: flags, timeStamp: timeStamp, frames: frames, into: ioData)
        }
    }

    /// The render itself, with `renderGate` held: notifications, work, notifications.
    private func renderLocked(_ plan: RenderPlan, flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>?,
                              timeStamp: UnsafePointer<AudioTimeStamp>, frames: Int,
                              into ioData: UnsafeMutablePointer<AudioBufferList>) throws(UnitStatus) {
        var ownFlags = flags?.pointee ?? []
        for notify in plan.notifies {
            var notifyFlags = ownFlags.union(preRender)
            _ = notify(&notifyFlags, timeStamp, 0, UInt32(frames), ioData)
        }
        var failure: UnitStatus?
        do throws(UnitStatus) {
            try work(plan, frames: frames)
            plan.output.write(output, frames: frames, to: ioData)
        } catch {
            failure = error
            output.clear(channels: plan.output.channels, frames: frames)
            plan.output.write(output, frames: frames, to: ioData)
            ownFlags.insert(outputIsSilence)
        }
        outputSampleTime += Double(frames)
        for notify in plan.notifies {
            var notifyFlags = ownFlags.union(failure == nil ? postRender : [postRender, postRenderError])
            _ = notify(&notifyFlags, timeStamp, 0, UInt32(frames), ioData)
        }
        if let failure {
            lock.withLock { lastRenderError = failure.status }
            flags?.pointee = ownFlags
            throw failure
        }
    }

    /// The render's inputs and settings (the lock is held).
    private func makePlan() -> RenderPlan {
        let sources: [UnitInputSource?] = inputs.enumerated().map { index, element in
            if isDeviceIO && index == 1 { return nil }
            if let callback = element.callback { return .callback(callback) }
            if let connection = element.connection, let source = connection.sourceAudioUnit {
                return .connection(source, bus: connection.sourceOutputNumber)
            }
            return nil
        }
        // A connected input is read in its source's output format: resolved once the lock is
        // released (``resolveSourceFormats``), never with two units' locks held.
        let inputFormats = inputs.map(\.format)
        return RenderPlan(sources: sources, inputFormats: inputFormats, output: outputs[0].format, notifies: notifies,
                          parameters: inputs.map(\.parameters),
                          outputVolume: outputs[0].parameters[kMultiChannelMixerParam_Volume] ?? 1,
                          meterInputs: inputs.map(\.metering), meterOutput: outputs[0].metering,
                          slice: Int(maximumFramesPerSlice))
    }

    /// The plan's connected inputs in their sources' output formats (no lock of this unit held).
    private func resolveSourceFormats(_ plan: inout RenderPlan) {
        for (index, source) in plan.sources.enumerated() {
            guard case .connection(let handle, let bus)? = source, let unit = AudioUnitTable.table.object(handle), unit !== self else { continue }
            if let format = unit.lock.withLock({ Int(bus) < unit.outputs.count ? unit.outputs[Int(bus)].format : nil }) {
                plan.inputFormats[index] = format
            }
        }
    }

    /// Makes `frames` frames of output element 0 in `output` (`renderGate` held).
    private func work(_ plan: RenderPlan, frames: Int) throws(UnitStatus) {
        let channels = plan.output.channels
        let rate = plan.output.rate
        while adapters.count < plan.sources.count { adapters.append(InputAdapter()) }
        output.reserve(channels: channels, frames: frames)
        switch component.kind {
        case .multiChannelMixer:
            try mix(plan, frames: frames, channels: channels, rate: rate)
        default:
            guard let source = plan.sources.first ?? nil else { throw .noConnection }
            try adapters[0].pull(source, format: plan.inputFormats[0], bus: 0, frames: frames, rate: rate,
                                 channels: channels, slice: plan.slice, into: output)
        }
    }

    /// The multichannel mixer: each enabled input with a source, at its volume and pan, summed,
    /// then the output's volume.
    private func mix(_ plan: RenderPlan, frames: Int, channels: Int, rate: Double) throws(UnitStatus) {
        output.clear(channels: channels, frames: frames)
        if meters.inputs.count != plan.sources.count { meters.inputs = Array(repeating: (0, 0), count: plan.sources.count) }
        let bus = busPlanes
        for (index, source) in plan.sources.enumerated() {
            let parameters = plan.parameters[index]
            guard let source, (parameters[kMultiChannelMixerParam_Enable] ?? 1) != 0 else {
                meters.inputs[index] = (0, 0)
                continue
            }
            let format = plan.inputFormats[index]
            let busChannels = min(2, format.channels)
            try adapters[index].pull(source, format: format, bus: UInt32(index), frames: frames, rate: rate,
                                     channels: busChannels, slice: plan.slice, into: bus)
            if plan.meterInputs[index] { meters.inputs[index] = Self.levels(bus, channels: busChannels, frames: frames) }
            let volume = parameters[kMultiChannelMixerParam_Volume] ?? 1
            let pan = max(-1, min(1, parameters[kMultiChannelMixerParam_Pan] ?? 0))
            // Balance: the far side is attenuated linearly, the near side stays whole.
            let gains = (left: volume * min(1, 1 - pan), right: volume * min(1, 1 + pan))
            for channel in 0..<channels {
                let target = output.plane(channel)
                let from = bus.plane(busChannels == 1 ? 0 : min(channel, 1))
                let gain = channels == 1 ? volume : (channel == 0 ? gains.left : (channel == 1 ? gains.right : 0))
                guard gain != 0 else { continue }
                for frame in 0..<frames { target[frame] += from[frame] * gain }
            }
        }
        if plan.outputVolume != 1 {
            for channel in 0..<channels {
                let target = output.plane(channel)
                for frame in 0..<frames { target[frame] *= plan.outputVolume }
            }
        }
        if plan.meterOutput { meters.output = Self.levels(output, channels: channels, frames: frames) }
        if plan.meterOutput || plan.meterInputs.contains(true) {
            let taken = meters
            lock.withLock { publishedMeters = taken }
        }
    }

    /// RMS and peak over the first `channels` planes of `planes`.
    private static func levels(_ planes: PlaneBuffer, channels: Int, frames: Int) -> (average: Float, peak: Float) {
        var sum: Double = 0
        var peak: Float = 0
        for channel in 0..<channels {
            let plane = planes.plane(channel)
            for frame in 0..<frames {
                sum += Double(plane[frame] * plane[frame])
                peak = max(peak, abs(plane[frame]))
            }
        }
        return (Float((sum / Double(max(1, channels * frames))).squareRoot()), peak)
    }

    /// AudioUnitRender on a device unit's element 1: the recorded input (not yet offered: silence
    /// and `kAudioUnitErr_NoConnection` unless input is enabled).
    private func renderInput(frames: Int, into ioData: UnsafeMutablePointer<AudioBufferList>) throws(UnitStatus) {
        let format = try lock.withTypedLock { () throws(UnitStatus) -> UnitFormat in
            guard !disposed else { throw .parameter }
            guard initialized else { throw .uninitialized }
            guard inputEnabled, outputs.count > 1 else { throw .noConnection }
            guard frames > 0, frames <= Int(maximumFramesPerSlice) else { throw .tooManyFramesToProcess }
            guard outputs[1].format.fits(ioData, frames: frames) else { throw .parameter }
            return outputs[1].format
        }
        renderGate.withLock {
            let planes = PlaneBuffer(channels: format.channels, capacity: frames)
            deviceRun?.takeInput(into: planes, channels: format.channels, frames: frames)
            format.write(planes, frames: frames, to: ioData)
        }
    }

    /// Renders `frames` frames of output element 0 as planes at the output's format, for the
    /// device (`renderGate` is taken): the same work and notifications as AudioUnitRender.
    func renderForDevice(frames: Int, list: OwnedBufferList) -> UnitFormat? {
        guard var plan = lock.withLock({ () -> RenderPlan? in
            guard !disposed, initialized, isRunning else { return nil }
            return makePlan()
        }) else { return nil }
        resolveSourceFormats(&plan)
        return renderGate.withLock { () -> UnitFormat? in
            // Stopped or disposed while this render waited for the gate: no callback after either returned.
            guard lock.withLock({ !disposed && isRunning }), renderDepth == 0 else { return nil }
            renderDepth += 1
            defer { renderDepth -= 1 }
            list.prepare(format: plan.output, frames: frames)
            var stamp = AudioTimeStamp()
            stamp.mSampleTime = outputSampleTime
            stamp.mHostTime = DispatchTime.now().uptimeNanoseconds
            stamp.mFlags = [.sampleTimeValid, .hostTimeValid]
            var flags = AudioUnitRenderActionFlags()
            let began = DispatchTime.now().uptimeNanoseconds
            do throws(UnitStatus) {
                try renderLocked(plan, flags: &flags, timeStamp: &stamp, frames: frames, into: list.list)
            } catch {
                // The error is the unit's LastRenderError; the device hears silence for it.
            }
            let spent = DispatchTime.now().uptimeNanoseconds - began
            lock.withLock {
                renderNanoseconds += spent
                renderedSeconds += Double(frames) / plan.output.rate
            }
            return plan.output
        }
    }

    /// The share of the audio's time the unit's renders on the device took since last asked
    /// (0...1; the lock is held): AUGraphGetCPULoad.
    func takeCPULoad() -> Float {
        defer {
            renderNanoseconds = 0
            renderedSeconds = 0
        }
        guard renderedSeconds > 0 else { return 0 }
        let load = Float(min(1, Double(renderNanoseconds) / 1e9 / renderedSeconds))
        maximumLoad = max(maximumLoad, load)
        return load
    }

    /// Forgets the render's state (AudioUnitReset).
    func resetRender() {
        renderGate.withLock {
            for adapter in adapters { adapter.reset() }
            meters = UnitMeters()
        }
        lock.withLock { publishedMeters = UnitMeters() }
    }
}
