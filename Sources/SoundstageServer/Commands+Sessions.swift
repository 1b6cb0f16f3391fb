#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif
import NIOConcurrencyHelpers
import NIOCore
import Soundstage
import SoundstageScenes
import SoundstageProtocol

// The session command.
extension ClientConnection {
    // MARK: Sessions

    func session(_ request: ReceivedRequest) throws -> CommandResult {
        let args = try Arguments(request, for: .session)
        let session = try clientAudio().session
        let category = try args.json.choice(args[.category], "category", default: session.category)
        var options = session.options
        if let list = args[.options] {
            guard case let .array(items) = list else { throw args.fail("options: expected an array such as [\"mixWithOthers\"]") }
            options = []
            for (index, item) in items.enumerated() {
                switch item.stringValue {
                case "mixWithOthers": options.insert(.mixWithOthers)
                case "duckOthers": options.insert(.duckOthers)
                default: throw args.fail("options[\(index)]: expected \"mixWithOthers\" or \"duckOthers\", got \(item.encoded)")
                }
            }
        }
        let active = args[.active] == nil ? nil : try args.bool(.active)
        let notify = try args.bool(.notifyOthers, default: true)
        let resume = try args.bool(.resume, default: true)
        let interruption = try args.string(.interruption)
        if let interruption, interruption != "begin", interruption != "end" {
            throw args.fail("interruption: expected \"begin\" or \"end\", got \"\(interruption)\"")
        }
        if category != session.category || options != session.options {
            // A category applies at activation: an active session re-activates under the new one
            // (deactivated first, so others never see the new category half-applied).
            let reactivate = session.isActive && active != false
            if reactivate { try session.setActive(false, notifyOthersOnDeactivation: notify) }
            session.setCategory(category, options: options)
            if reactivate { try session.setActive(true) }
        }
        if let active { try session.setActive(active, notifyOthersOnDeactivation: notify) }
        if interruption == "begin" { session.beginInterruption() }
        if interruption == "end" { session.endInterruption(shouldResume: resume) }
        var names: [String] = []
        if session.options.contains(.mixWithOthers) { names.append("mixWithOthers") }
        if session.options.contains(.duckOthers) { names.append("duckOthers") }
        return .now(SessionAnswer(category: session.category.rawValue, options: names, active: session.isActive,
                                  interrupted: session.isInterrupted, ducked: session.isDucked).json)
    }
}
