// What every example program shares: choosing a device, and driving a game loop either in real
// time on the sound card or offline into a WAV file.
import Foundation
import Soundstage

/// The project's generated sounds (`assets/sounds/NAME`), found from this file's location.
public func asset(_ name: String) -> String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("assets/sounds").appendingPathComponent(name).path
}

/// Runs an example: opens the best output (the desktop server, else the sound card; with
/// `--render [FILE]` or with neither, a loopback renderer), lets `setUp` build the scene, then calls the returned `tick`
/// with the time in seconds 60 times a second for `seconds` — like a game loop.
public func runExample(_ name: String, seconds: Double, about: String,
                       setUp: (Device) throws -> (Double) -> Void) {
    let arguments = Array(CommandLine.arguments.dropFirst())
    var renderPath: String? = nil
    if let index = arguments.firstIndex(of: "--render") {
        renderPath = index + 1 < arguments.count ? arguments[index + 1] : "\(name).wav"
    }
    do {
        if renderPath == nil,
           let device = try? Soundstage.silencingStandardError({ try Device.openOutput(desktop: DesktopOutputOptions(applicationName: name)) }) {
            defer { device.close() }
            let tick = try setUp(device)
            print("\(about) (\(Int(seconds)) s)")
            let start = Date()
            while true {
                let t = Date().timeIntervalSince(start)
                if t >= seconds { break }
                tick(t)
                usleep(16_000)
            }
            return
        }
        let path = renderPath ?? "\(name).wav"
        if renderPath == nil {
            FileHandle.standardError.write(Data("\(name): no audio output device; rendering to \(path) instead\n".utf8))
        }
        let device = try Device.loopback()
        defer { device.close() }
        let tick = try setUp(device)
        let writer = try SoundFileWriter(path: path, format: .wavPCM16, sampleRate: device.sampleRate, channels: 2)
        let frame = device.sampleRate / 60
        for step in 0..<Int(seconds * 60) {
            tick(Double(step) / 60)
            try writer.write(try device.render(frames: frame))
        }
        try writer.finish()
        print("\(about): rendered \(Int(seconds)) s to \(path)")
    } catch {
        FileHandle.standardError.write(Data("\(name): \(error)\n".utf8))
        exit(1)
    }
}
