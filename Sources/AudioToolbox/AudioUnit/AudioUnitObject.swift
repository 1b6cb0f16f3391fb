import NIOConcurrencyHelpers
#if canImport(Glibc)
import Glibc
#endif

// An Audio Unit instance (AudioComponentInstanceNew): its elements in each scope, their formats,
// render callbacks and connections, its parameters, listeners and render notifications. The
// state is under `lock`, never held while a program's callback runs; a render holds `renderGate`
// (recursive: a render callback may render its own unit's other element, aurioTouch's pattern),
// so a stop or a disposal from another thread returns only once no callback of the unit runs.

/// A program's C callback and its context pointer.
struct UnitCallback<Function>: @unchecked Sendable {
    // @unchecked: the function and its context are the program's, called as C would call them.
    let function: Function
    let context: UnsafeMutableRawPointer?
}

/// A render callback as C calls it: its context may be NULL (Apple's Swift type says it is not).
private typealias RenderFunction = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<AudioUnitRenderActionFlags>,
                                                   UnsafePointer<AudioTimeStamp>, UInt32, UInt32,
                                                   UnsafeMutablePointer<AudioBufferList>?) -> OSStatus
/// A property listener as C calls it.
private typealias ListenerFunction = @convention(c) (UnsafeMutableRawPointer?, AudioUnit, AudioUnitPropertyID,
                                                     AudioUnitScope, AudioUnitElement) -> Void

extension UnitCallback where Function == AURenderCallback {
    /// Calls the program's render callback (or render notification) with its context.
    func callAsFunction(_ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>, _ timeStamp: UnsafePointer<AudioTimeStamp>,
                        _ bus: UInt32, _ frames: UInt32, _ data: UnsafeMutablePointer<AudioBufferList>?) -> OSStatus {
        unsafeBitCast(function, to: RenderFunction.self)(context, flags, timeStamp, bus, frames, data)
    }
}

extension UnitCallback where Function == AudioUnitPropertyListenerProc {
    /// Calls the program's property listener with its context.
    func callAsFunction(_ unit: AudioUnit, _ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement) {
        unsafeBitCast(function, to: ListenerFunction.self)(context, unit, id, scope, element)
    }
}

/// Where an input element's audio comes from.
enum UnitInputSource {
    case callback(UnitCallback<AURenderCallback>)
    case connection(AudioUnit, bus: UInt32)
}

/// One element (bus) of a scope.
struct UnitElement {
    var format: UnitFormat
    /// Input elements: a render callback (SetRenderCallback) or a connection (MakeConnection).
    var callback: UnitCallback<AURenderCallback>?
    var connection: AudioUnitConnection?
    var parameters: [AudioUnitParameterID: AudioUnitParameterValue] = [:]
    var shouldAllocate = true
    var metering = false
}

/// A unit instance. Its handle is an ``AudioUnitTable`` handle.
final class AudioUnitObject: @unchecked Sendable {
    // @unchecked: the mutable state is under `lock`; the render's own scratch (adapters, planes,
    // lists) under `renderGate`.
    let component: UnitComponent
    let componentIndex: Int
    /// The handle the program holds (set once, right after the table gives it).
    var handle: AudioUnit!

    let lock = NIOLock()
    let renderGate = RecursiveMutex()

    // Under `lock`.
    var initialized = false
    var disposed = false
    var inputs: [UnitElement]
    var outputs: [UnitElement]
    var global: [AudioUnitParameterID: AudioUnitParameterValue] = [:]
    var maximumFramesPerSlice: UInt32 = 1156
    var renderQuality: UInt32 = 127
    var listeners: [(id: AudioUnitPropertyID, callback: UnitCallback<AudioUnitPropertyListenerProc>)] = []
    var notifies: [UnitCallback<AURenderCallback>] = []
    var lastRenderError: OSStatus = noErr
    /// Output units: EnableIO (output on element 0, input on element 1), the input callback,
    /// whether it runs on the device, timestamps from zero.
    var outputEnabled = true
    var inputEnabled = false
    var inputCallback: UnitCallback<AURenderCallback>?
    var isRunning = false
    var startTimestampsAtZero = true
    var deviceRun: UnitDeviceRun?
    /// Render time and audio time rendered on the device (AUGraphGetCPULoad), since last asked.
    var renderNanoseconds: UInt64 = 0
    var renderedSeconds: Double = 0
    var maximumLoad: Float = 0
    /// The mixer's meters as the last render left them (what AudioUnitGetParameter reads).
    var publishedMeters = UnitMeters()

    // Under `renderGate`.
    var adapters: [InputAdapter] = []
    let output = PlaneBuffer(channels: 2, capacity: 1156)
    /// The mixer's one input bus at a time.
    let busPlanes = PlaneBuffer(channels: 2, capacity: 1156)
    var outputList: OwnedBufferList?
    /// The mixer's meters: the last render's power and peak (linear) by input bus, and the output's.
    var meters = UnitMeters()
    var outputSampleTime: Double = 0
    /// Renders of element 0 in progress on the gate's thread (0 or 1: a second is refused).
    var renderDepth = 0

    init(componentIndex: Int, hardwareRate: Double, hardwareChannels: Int) {
        self.componentIndex = componentIndex
        component = UnitComponents.all[componentIndex]
        let hardware = UnitFormat(canonicalRate: hardwareRate, channels: hardwareChannels)
        let stereo44 = UnitFormat(canonicalRate: 44_100, channels: 2)
        switch component.kind {
        case .deviceIO(let hasInput):
            // Element 0 plays (client format in, the hardware's out); element 1 records (the
            // hardware's in, client format out). The client sides start as the hardware's.
            let input = UnitFormat(canonicalRate: hardwareRate, channels: 1)
            inputs = [UnitElement(format: hardware)] + (hasInput ? [UnitElement(format: input)] : [])
            outputs = [UnitElement(format: hardware)] + (hasInput ? [UnitElement(format: input)] : [])
        case .genericOutput, .converter:
            inputs = [UnitElement(format: stereo44)]
            outputs = [UnitElement(format: stereo44)]
        case .multiChannelMixer:
            inputs = Array(repeating: UnitElement(format: stereo44), count: 8)
            outputs = [UnitElement(format: stereo44)]
        }
    }

    /// The elements of `scope` (nil for a scope the unit does not have).
    func elements(_ scope: AudioUnitScope) -> [UnitElement]? {
        switch scope {
        case kAudioUnitScope_Input: return inputs
        case kAudioUnitScope_Output: return outputs
        default: return nil
        }
    }

    /// Changes element `element` of `scope` (the lock is held): `kAudioUnitErr_InvalidScope` or
    /// `kAudioUnitErr_InvalidElement` when there is none.
    func modify<R>(_ scope: AudioUnitScope, _ element: AudioUnitElement,
                   _ body: (inout UnitElement) throws(UnitStatus) -> R) throws(UnitStatus) -> R {
        switch scope {
        case kAudioUnitScope_Input:
            guard Int(element) < inputs.count else { throw .invalidElement }
            return try body(&inputs[Int(element)])
        case kAudioUnitScope_Output:
            guard Int(element) < outputs.count else { throw .invalidElement }
            return try body(&outputs[Int(element)])
        default:
            throw .invalidScope
        }
    }

    /// Whether this is a device I/O unit (RemoteIO and its kin).
    var isDeviceIO: Bool {
        if case .deviceIO = component.kind { return true }
        return false
    }

    /// Whether it is any output unit (device I/O or generic).
    var isOutputUnit: Bool { component.type == kAudioUnitType_Output }

    /// The property listeners for `id` (the lock is held), to call once it is released.
    func listeners(for id: AudioUnitPropertyID) -> [UnitCallback<AudioUnitPropertyListenerProc>] {
        listeners.filter { $0.id == id }.map(\.callback)
    }

    /// Calls `told` for `id` in `scope` and `element` (no lock held).
    func announce(_ told: [UnitCallback<AudioUnitPropertyListenerProc>], _ id: AudioUnitPropertyID,
                  _ scope: AudioUnitScope, _ element: AudioUnitElement) {
        for listener in told { listener(handle, id, scope, element) }
    }
}

/// A recursive pthread mutex: a unit's render gate.
final class RecursiveMutex: @unchecked Sendable {
    // @unchecked: a pthread mutex is made for threads.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func withLock<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}

/// The live units, by AudioUnit (a ``HandleTable``, tag 7).
enum AudioUnitTable {
    static let table = HandleTable<AudioUnitObject>(tag: 7)

    /// How many units are live (for tests: nothing leaks).
    static var liveCount: Int { table.count }

    /// The unit behind `handle`, not disposed.
    static func unit(_ handle: AudioUnit?) throws(UnitStatus) -> AudioUnitObject {
        guard let handle, let unit = table.object(handle) else { throw .parameter }
        return unit
    }
}
