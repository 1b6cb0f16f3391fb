import Foundation
import SoundstageJSON

/// `soundstage-bench json`: what one parse costs with the own parser (`JSONValue(parsing:)`)
/// against Foundation's `JSONSerialization` and `JSONDecoder` (into the same `JSONValue`), on a
/// daemon request line and on the largest example scene file. Medians of 7 rounds, each timing
/// many parses of the same text; the ratio is Foundation's time over the own parser's.
func jsonBench() throws {
    let request = Data(#"{"id":4711,"command":"playSound","sound":"ui.click","gain":0.8,"position":[1.5,0,-2]}"#.utf8)
    let sceneURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Examples/scenes/headphones.json").standardizedFileURL
    let scene = try Data(contentsOf: sceneURL)
    let decoder = JSONDecoder()
    let parsers: [(String, (Data) throws -> Void)] = [
        ("own parser (JSONValue(parsing:))", { _ = try JSONValue(parsing: $0) }),
        ("JSONSerialization (to Any)", { _ = try JSONSerialization.jsonObject(with: $0) }),
        ("JSONDecoder into JSONValue", { _ = try decoder.decode(JSONValue.self, from: $0) }),
    ]
    for (name, text, count) in [("request line", request, 100_000), ("scene file headphones.json", scene, 5_000)] {
        var times = [[Double]](repeating: [], count: parsers.count)
        for _ in 0..<7 {
            for (index, parser) in parsers.enumerated() {
                let start = DispatchTime.now().uptimeNanoseconds
                for _ in 0..<count { try parser.1(text) }
                times[index].append(Double(DispatchTime.now().uptimeNanoseconds - start) / Double(count))
            }
        }
        let own = median(times[0])
        print("\(name) (\(text.count) bytes), µs per parse, medians of 7:")
        for (index, parser) in parsers.enumerated() {
            let time = median(times[index])
            let label = parser.0.padding(toLength: 34, withPad: " ", startingAt: 0)
            print("  \(label)" + String(format: "%8.2f µs   %.2f× the own parser", time / 1000, time / own))
        }
    }
}
