#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif
import NumberText

/// Per-channel level over time, and an SVG picture of it: a reader can *see* a sound move from
/// ear to ear.
public struct LevelPlot: Sendable {
    /// RMS level in dBFS of each channel in each window; `levels[channel][window]`.
    public let levels: [[Double]]
    /// Window length in seconds.
    public let window: Double
    /// Quietest level drawn (dBFS).
    public let floor: Double

    /// Measures `audio` in windows of `window` seconds.
    public init(_ audio: AudioBuffer, window: Double = 0.05, floor: Double = -60) {
        self.window = window
        self.floor = floor
        let size = max(1, Int(window * Double(audio.sampleRate)))
        let windows = (audio.frames + size - 1) / size
        var levels = [[Double]](repeating: [Double](repeating: floor, count: windows), count: audio.channels)
        audio.samples.withUnsafeBufferPointer { samples in
            for w in 0..<windows {
                let start = w * size, end = min(audio.frames, start + size)
                for c in 0..<audio.channels {
                    var sum = 0.0
                    for f in start..<end { let v = Double(samples[f * audio.channels + c]); sum += v * v }
                    let rms = (sum / Double(max(1, end - start))).squareRoot()
                    levels[c][w] = max(floor, rms > 0 ? 20 * log10(rms) : floor)
                }
            }
        }
        self.levels = levels
    }

    /// Names for the channels of common layouts.
    static func channelNames(_ count: Int) -> [String] {
        switch count {
        case 1: ["mono"]
        case 2: ["left", "right"]
        case 4: ["front left", "front right", "back left", "back right"]
        case 6: ["front left", "front right", "centre", "LFE", "side left", "side right"]
        default: (0..<count).map { "channel \($0)" }
        }
    }

    /// The plot as an SVG document (`width` × `height` pixels), with a time axis, a dB axis and a
    /// legend.
    public func svg(title: String, width: Int = 800, height: Int = 260) -> String {
        let colors = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#7f7f7f"]
        let left = 50.0, right = Double(width) - 10, top = 30.0, bottom = Double(height) - 30
        let count = levels.first?.count ?? 0
        let duration = Double(count) * window
        func x(_ t: Double) -> Double { left + (right - left) * (duration > 0 ? t / duration : 0) }
        func y(_ db: Double) -> Double { top + (bottom - top) * (db / floor) }
        var out = """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" viewBox="0 0 \(width) \(height)" font-family="sans-serif" font-size="11">
        <rect width="100%" height="100%" fill="white"/>
        <text x="\(left)" y="18" font-size="13">\(escape(title))</text>

        """
        for db in stride(from: 0.0, through: floor, by: -20) {
            out += "<line x1=\"\(left)\" y1=\"\(f(y(db)))\" x2=\"\(right)\" y2=\"\(f(y(db)))\" stroke=\"#ddd\"/>"
            out += "<text x=\"\(left - 6)\" y=\"\(f(y(db) + 4))\" text-anchor=\"end\">\(Int(db)) dB</text>\n"
        }
        let step = duration > 20 ? 5.0 : (duration > 5 ? 1.0 : 0.5)
        for t in stride(from: 0.0, through: duration, by: step) {
            out += "<line x1=\"\(f(x(t)))\" y1=\"\(bottom)\" x2=\"\(f(x(t)))\" y2=\"\(bottom + 4)\" stroke=\"#333\"/>"
            out += "<text x=\"\(f(x(t)))\" y=\"\(bottom + 16)\" text-anchor=\"middle\">\(step < 1 ? t.fixed(1) : String(Int(t))) s</text>\n"
        }
        out += "<line x1=\"\(left)\" y1=\"\(bottom)\" x2=\"\(right)\" y2=\"\(bottom)\" stroke=\"#333\"/>\n"
        let names = Self.channelNames(levels.count)
        for (c, channel) in levels.enumerated() {
            let points = channel.enumerated().map { "\(f(x((Double($0.offset) + 0.5) * window))),\(f(y($0.element)))" }
            let color = colors[c % colors.count]
            out += "<polyline fill=\"none\" stroke=\"\(color)\" stroke-width=\"1.5\" points=\"\(points.joined(separator: " "))\"/>\n"
            out += "<text x=\"\(f(right - 110))\" y=\"\(f(top + 14 * Double(c) + 4))\" fill=\"\(color)\">\(escape(names[c]))</text>\n"
        }
        return out + "</svg>\n"
    }

    private func f(_ value: Double) -> String { value.fixed(1) }

    private func escape(_ text: String) -> String {
        text.replacing("&", with: "&amp;").replacing("<", with: "&lt;").replacing(">", with: "&gt;")
    }
}
