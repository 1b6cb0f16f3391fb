import ArgumentParser
import Foundation
import Soundstage

/// `soundstage info`: OpenAL version and renderer, devices, extensions, HRTFs, source limit.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show OpenAL's version, output devices, extensions, HRTFs and the source limit.")

    @Flag(name: .long, help: "Print JSON instead of text.")
    var json = false

    struct Report: Codable {
        var outputDevices: [String]
        var defaultOutputDevice: String?
        var defaultOutputOpens: Bool
        var defaultOutputError: String?
        var output: DeviceInfo?
        var loopback: DeviceInfo
    }

    func run() throws {
        try reportingErrors {
            var report = Report(outputDevices: Device.outputDeviceNames(), defaultOutputDevice: Device.defaultOutputDeviceName(),
                                defaultOutputOpens: false, defaultOutputError: nil, output: nil,
                                loopback: try Self.loopbackInfo())
            do {
                let device = try Device.openDefault(quietly: true)
                report.output = try device.info
                report.defaultOutputOpens = true
                device.close()
            } catch let error as SoundstageError {
                report.defaultOutputError = error.message
            }
            if json {
                try Terminal.printJSON(report)
            } else {
                printText(report)
            }
        }
    }

    private static func loopbackInfo() throws -> DeviceInfo {
        let device = try Device.loopback()
        defer { device.close() }
        return try device.info
    }

    private func printText(_ report: Report) {
        let l = report.loopback
        print("OpenAL:         \(l.version) (\(l.renderer), \(l.vendor))")
        print("Output devices: \(report.outputDevices.isEmpty ? "none" : report.outputDevices.joined(separator: ", "))")
        if let output = report.output {
            print("Default output: \(output.name), \(output.sampleRate) Hz, \(output.updateFrames) frames per update, "
                  + "HRTF \(output.hrtfStatus), up to \(output.sourceLimit) sources per scene")
        } else {
            print("Default output: cannot be opened — \(report.defaultOutputError ?? "unknown reason")")
        }
        print("Loopback:       \(l.sampleRate) Hz \(l.layout), HRTF \(l.hrtfStatus), up to \(l.sourceLimit) sources per scene by default")
        print("HRTFs:          \(l.hrtfNames.isEmpty ? "none" : l.hrtfNames.joined(separator: ", "))")
        print("ALC extensions: \(l.deviceExtensions.joined(separator: " "))")
        print("AL extensions:  \(l.extensions.joined(separator: " "))")
    }
}
