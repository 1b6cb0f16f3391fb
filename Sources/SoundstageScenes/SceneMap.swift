#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif
import Soundstage
import NumberText

/// A scene's top-down map as an SVG picture: the paths its sources and its listener take over
/// the scene (sampled from their motions), where each source starts and ends, the listener's
/// facing, reverb zones and distance rings — the live view's map, for a whole render at once
/// (`soundstage render SCENE --map map.svg`).
///
/// The axes are the live view's: x to the right, −z (OpenAL's ahead) up, in metres.
public struct SceneMap {
    /// The scene drawn.
    public let description: SceneDescription
    /// Points per second along each path.
    public var samplesPerSecond = 50.0

    /// A map of `description`.
    public init(_ description: SceneDescription) { self.description = description }

    /// One source's or the listener's path: the positions it takes from `start` to `end`.
    public struct Path: Sendable, Equatable {
        /// The source's name, or `listener`.
        public var name: String
        /// The positions, at `samplesPerSecond` from its start to its end.
        public var points: [Vector3]
    }

    /// The paths drawn: the listener's first, then each positioned source's, over the times it plays.
    public var paths: [Path] {
        let duration = description.duration
        func sample(_ motion: Motion?, fixed: Vector3, from start: Double, to end: Double) -> [Vector3] {
            guard let motion else { return [fixed] }
            let count = max(2, Int(((end - start) * samplesPerSecond).rounded()) + 1)
            return (0..<count).map { motion.position(at: start + (end - start) * Double($0) / Double(count - 1)) }
        }
        var paths = [Path(name: "listener", points: sample(description.listener.path, fixed: description.listener.position, from: 0, to: duration))]
        for source in description.sources where !source.headRelative {
            let start = min(max(0, source.start), duration), end = min(source.stop ?? duration, duration)
            paths.append(Path(name: source.name, points: sample(source.path, fixed: source.position, from: start, to: max(start, end))))
        }
        return paths
    }

    /// The SVG picture, `size` pixels square.
    public func svg(title: String, size: Int = 720) -> String {
        let paths = self.paths
        let all = paths.flatMap(\.points) + description.reverbZones.flatMap(Self.corners)
        let xs = all.map { Double($0.x) }, zs = all.map { Double($0.z) }
        let span = max(2, (xs.max()! - xs.min()!), (zs.max()! - zs.min()!)) * 1.15
        let center = ((xs.max()! + xs.min()!) / 2, (zs.max()! + zs.min()!) / 2)
        let plot = Double(size - 60), scale = plot / span
        func point(_ v: Vector3) -> (Double, Double) {
            (30 + plot / 2 + (Double(v.x) - center.0) * scale, 40 + plot / 2 + (Double(v.z) - center.1) * scale)
        }
        func f(_ value: Double) -> String { value.fixed(1) }
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(size)" height="\(size + 20)" viewBox="0 0 \(size) \(size + 20)" \
            font-family="sans-serif" font-size="11">
            <rect width="100%" height="100%" fill="#14161a"/>
            <text x="12" y="22" fill="#d8dde6" font-size="14">\(Self.escape(title))</text>
            <text x="12" y="\(size + 12)" fill="#8a93a3">top-down: x to the right, −z (ahead) up; \
            rings every \(Self.ringStep(span)) m around the listener's start; ● start, ◆ end of each path</text>

            """
        // Distance rings around the listener's first position.
        let listenerStart = point(paths[0].points[0])
        let step = Self.ringStep(span)
        var radius = step
        while radius * scale < plot * 0.75 && radius / step <= 12 {
            svg += "<circle cx=\"\(f(listenerStart.0))\" cy=\"\(f(listenerStart.1))\" r=\"\(f(radius * scale))\" fill=\"none\" "
                + "stroke=\"#2a2f38\" stroke-dasharray=\"3 4\"/>\n"
            radius += step
        }
        for zone in description.reverbZones {
            switch zone.region {
            case .everywhere:
                continue
            case let .sphere(c, r, _):
                let p = point(c)
                svg += "<circle cx=\"\(f(p.0))\" cy=\"\(f(p.1))\" r=\"\(f(Double(r) * scale))\" fill=\"rgba(94,200,255,0.06)\" "
                    + "stroke=\"#5ec8ff\" stroke-dasharray=\"6 4\"/>\n"
                svg += "<text x=\"\(f(p.0 + 4))\" y=\"\(f(p.1 - 4))\" fill=\"#5ec8ff\">\(Self.escape(zone.name)) (\(Self.escape(zone.preset.name)))</text>\n"
            case let .box(low, high, _):
                let a = point(low), b = point(high)
                svg += "<rect x=\"\(f(min(a.0, b.0)))\" y=\"\(f(min(a.1, b.1)))\" width=\"\(f(abs(b.0 - a.0)))\" height=\"\(f(abs(b.1 - a.1)))\" "
                    + "fill=\"rgba(94,200,255,0.06)\" stroke=\"#5ec8ff\" stroke-dasharray=\"6 4\"/>\n"
                svg += "<text x=\"\(f(min(a.0, b.0) + 4))\" y=\"\(f(min(a.1, b.1) + 12))\" fill=\"#5ec8ff\">\(Self.escape(zone.name)) (\(Self.escape(zone.preset.name)))</text>\n"
            }
        }
        for (index, path) in paths.enumerated() {
            let color = index == 0 ? "#5ec8ff" : "hsl(\((index * 67) % 360),70%,60%)"
            let points = path.points.map(point)
            if points.count > 1 {
                svg += "<polyline class=\"path\" data-name=\"\(Self.escape(path.name))\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\" "
                    + "stroke-opacity=\"0.8\" points=\"\(points.map { "\(f($0.0)),\(f($0.1))" }.joined(separator: " "))\"/>\n"
            }
            let first = points[0], last = points[points.count - 1]
            if index == 0 {
                // The listener: an arrow at its start, turned to where it faces.
                let at = description.listener.at
                let yaw = atan2(Double(at.x), -Double(at.z)) * 180 / .pi
                svg += "<path d=\"M0,-11 L7,8 L0,4 L-7,8 Z\" fill=\"\(color)\" transform=\"translate(\(f(first.0)),\(f(first.1))) rotate(\(f(yaw)))\"/>\n"
            } else {
                svg += "<circle cx=\"\(f(first.0))\" cy=\"\(f(first.1))\" r=\"5\" fill=\"\(color)\"/>\n"
                if points.count > 1 {
                    svg += "<rect x=\"\(f(last.0 - 4))\" y=\"\(f(last.1 - 4))\" width=\"8\" height=\"8\" fill=\"\(color)\" "
                        + "transform=\"rotate(45 \(f(last.0)) \(f(last.1)))\"/>\n"
                }
            }
            svg += "<text x=\"\(f(first.0 + 8))\" y=\"\(f(first.1 - 8))\" fill=\"\(color)\">\(Self.escape(path.name))</text>\n"
        }
        return svg + "</svg>\n"
    }

    private static func corners(_ zone: ReverbZoneDescription) -> [Vector3] {
        switch zone.region {
        case .everywhere: return []
        case let .sphere(c, r, _): return [c - Vector3(r, 0, r), c + Vector3(r, 0, r)]
        case let .box(low, high, _): return [low, high]
        }
    }

    private static func ringStep(_ span: Double) -> Double {
        [0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000].first { span / $0 <= 8 } ?? 2_000
    }

    private static func escape(_ text: String) -> String {
        text.replacing("&", with: "&amp;").replacing("<", with: "&lt;").replacing(">", with: "&gt;")
            .replacing("\"", with: "&quot;")
    }
}
