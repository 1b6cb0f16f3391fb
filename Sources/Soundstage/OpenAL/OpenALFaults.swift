import COpenAL
import Synchronization

/// The fake side of the OpenAL layer: errors a test makes the layer report as OpenAL would,
/// to reach paths a loopback device never takes (`AL_OUT_OF_MEMORY` from `alGenSources` or
/// `alBufferData`, `ALC_INVALID_DEVICE` from `alcCreateContext` or `alcRenderSamplesSOFT`).
///
/// A refused call is not made at all — a real refusal creates nothing either — and the layer
/// turns the error into what the engine makes of a real one: ``ALCalls/call(_:_:)``,
/// ``OpenAL/alc(_:_:_:)`` and ``OpenAL/createContext(on:_:for:around:)`` throw it. (Calls made
/// through ``ALCalls/must(_:_:)`` are not faulted: their failures are counted process-wide, and
/// other tests assert that count stays zero.)
///
/// Faults apply only to calls made inside ``injecting(_:_:)``, on the task (or thread) that
/// runs it: tests running in parallel do not see each other's faults. Outside any plan the
/// layer pays one relaxed atomic load per call.
enum OpenALFaults {
    /// One call to refuse: `function` as the layer names it (e.g. `"alGenSources"`), the error to
    /// report, how many matching calls to let through first, and how many to refuse.
    struct Fault: Sendable {
        let function: String
        let error: Int32
        var skip = 0
        var times = 1
    }

    /// The faults in force inside one ``injecting(_:_:)``, and how many calls they refused.
    final class Plan: Sendable {
        private let state: Mutex<(faults: [Fault], refused: [String])>

        init(_ faults: [Fault]) { state = Mutex((faults, [])) }

        /// The functions refused so far, in order.
        var refused: [String] { state.withLock { $0.refused } }

        /// The error to report for a call to `function`, if a fault takes it.
        fileprivate func take(_ function: String) -> Int32? {
            state.withLock { state in
                guard let index = state.faults.firstIndex(where: { $0.function == function && $0.times > 0 }) else { return nil }
                if state.faults[index].skip > 0 {
                    state.faults[index].skip -= 1
                    return nil
                }
                state.faults[index].times -= 1
                state.refused.append(function)
                return state.faults[index].error
            }
        }
    }

    @TaskLocal private static var plan: Plan?
    /// How many plans are in force anywhere: zero keeps the real path to one load and a branch.
    private static let plansInForce = Atomic<Int>(0)

    /// Runs `body` with `faults` in force for the calls it makes on this task; returns its result
    /// and the plan (to check that the faults were reached).
    static func injecting<R>(_ faults: [Fault], _ body: () throws -> R) rethrows -> (R, Plan) {
        let plan = Plan(faults)
        plansInForce.add(1, ordering: .relaxed)
        defer { plansInForce.subtract(1, ordering: .relaxed) }
        let result = try $plan.withValue(plan) { try body() }
        return (result, plan)
    }

    /// The error a fault makes OpenAL report for `function` instead of making the call, if any.
    @inline(__always)
    static func refusal(_ function: StaticString) -> Int32? {
        guard _slowPath(plansInForce.load(ordering: .relaxed) > 0) else { return nil }
        return plan?.take("\(function)")
    }
}
