import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif
import Soundstage
import NumberText

/// `soundstage info`: the output in use and its latency, OpenAL version and renderer, devices,
/// extensions, HRTFs, source limit.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show the output in use and its latency, OpenAL's version, output devices, extensions, HRTFs and the source limit.")

    @Flag(name: .long, help: "Print JSON instead of text.")
    var json = false

    @OptionGroup var outputOptions: OutputOptions

    struct Report: Codable {
        var outputDevices: [String]
        var defaultOutputDevice: String?
        var defaultOutputOpens: Bool
        var defaultOutputError: String?
        var output: DeviceInfo?
        var outputStatus: OutputStatus?
        var loopback: DeviceInfo
    }

    func run() throws {
        try reportingErrors {
            var report = Report(outputDevices: Device.outputDeviceNames(), defaultOutputDevice: Device.defaultOutputDeviceName(),
                                defaultOutputOpens: false, defaultOutputError: nil, output: nil, outputStatus: nil,
                                loopback: try Self.loopbackInfo())
            do {
                let device = try outputOptions.open(role: .game)
                report.output = try device.info
                // Let the stream run a moment so the server's latency figure is measured, not estimated.
                // Read the latency once the stream plays (an idle sink may take a moment to start pulling).
                if device.kind == .desktop {
                    let start = Date()
                    while device.mixTime < 0.1, Date().timeIntervalSince(start) < 3 { usleep(10_000) }
                }
                report.outputStatus = device.outputStatus
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

    private static func milliseconds(_ seconds: Double?) -> String {
        seconds.map { "\(($0 * 1_000).fixed(1)) ms" } ?? "unknown"
    }

    private func printText(_ report: Report) {
        let l = report.loopback
        print("OpenAL:         \(l.version) (\(l.renderer), \(l.vendor))")
        print("Output devices: \(report.outputDevices.isEmpty ? "none" : report.outputDevices.joined(separator: ", "))")
        if let output = report.output, let status = report.outputStatus {
            let backend = status.backend == "desktop" ? "Soundstage's own stream on the desktop server" : "OpenAL Soft's own output"
            print("Output:         \(backend): \(output.name)")
            print("Latency:        \(Self.milliseconds(status.latency)) reported by the output"
                  + (status.targetLatency.map { " (target \(Self.milliseconds($0)))" } ?? ""))
            print("Output format:  \(output.sampleRate) Hz \(output.layout), \(output.updateFrames) frames per update, "
                  + "HRTF \(output.hrtfStatus), up to \(output.sourceLimit) sources per scene")
        } else {
            print("Output:         none can be opened — \(report.defaultOutputError ?? "unknown reason"); commands render to files")
        }
        print("Loopback:       \(l.sampleRate) Hz \(l.layout), HRTF \(l.hrtfStatus), up to \(l.sourceLimit) sources per scene by default")
        print("Inputs:         " + (l.captureAvailable ? "a real input exists (soundstage record --list-inputs)"
                                                      : "none (no desktop server, or only monitors of its sinks)"))
        print("HRTFs:          \(l.hrtfNames.isEmpty ? "none" : l.hrtfNames.joined(separator: ", "))")
        print("ALC extensions: \(l.deviceExtensions.joined(separator: " "))")
        print("AL extensions:  \(l.extensions.joined(separator: " "))")
    }
}
