#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif
import NIOConcurrencyHelpers

/// Resolves freedesktop event names (`message-new-instant`, `dialog-error`) to sound files,
/// following the XDG Sound Theme specification.
///
/// Lookup, for the event name and then each shorter name made by dropping the last
/// dash-separated part (`dialog-error-serious` → `dialog-error` → `dialog`):
/// for each theme of the chain — the chosen theme, the themes it `Inherits` (depth first, from
/// `index.theme`), then `freedesktop`, then Soundstage's own fallback theme — for each of the
/// theme's directories whose `OutputProfile` is the wanted profile (then `stereo`), for each
/// locale variant (`de_DE.UTF-8@euro` → `de_DE@euro`, `de_DE`, `de@euro`, `de`) and finally no
/// locale, for each base directory (`$XDG_DATA_HOME/sounds`, then each of `$XDG_DATA_DIRS`
/// `/sounds`): the first of `NAME.disabled`, `NAME.oga`, `NAME.ogg`, `NAME.wav` that exists wins.
/// A `.disabled` file means "this theme wants silence for the event". Results are cached.
public struct SoundTheme: Sendable {
    /// A lookup's result.
    public enum Resolution: Sendable, Equatable {
        /// The sound file to play.
        case file(String)
        /// The theme disables the event; the path of the `.disabled` marker.
        case disabled(String)
    }

    /// The theme asked for.
    public let name: String
    /// Base directories, in search order (each holds theme directories).
    public let baseDirectories: [String]
    /// Locale variants, most specific first.
    public let locales: [String]
    /// The output profile (`stereo`, `5.1`, ...).
    public let profile: String
    private let cache = NIOLockedValueBox<[String: Resolution?]>([:])

    /// The name of Soundstage's own fallback theme (in `assets/sound-theme`), searched last.
    public static let fallbackThemeName = "soundstage-fallback"

    /// A theme from the environment: `$XDG_DATA_HOME`, `$XDG_DATA_DIRS`, the locale from
    /// `LC_ALL`/`LC_MESSAGES`/`LANG`, plus Soundstage's fallback theme directory.
    public init(name: String = "freedesktop", profile: String = "stereo",
                environment: [String: String] = ProcessInfo.processInfo.environment) {
        let home = environment["HOME"] ?? Self.passwordDatabaseHome()
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "\(home)/.local/share"
        let dataDirs = (environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share")
            .split(separator: ":").map(String.init)
        let locale = environment["LC_ALL"].flatMap { $0.isEmpty ? nil : $0 }
            ?? environment["LC_MESSAGES"].flatMap { $0.isEmpty ? nil : $0 } ?? environment["LANG"] ?? "C"
        self.init(name: name, baseDirectories: ([dataHome] + dataDirs).map { "\($0)/sounds" } + [Self.fallbackDirectory(environment)],
                  locale: locale, profile: profile)
    }

    /// A theme over explicit base directories (for tests and embedding).
    public init(name: String, baseDirectories: [String], locale: String = "C", profile: String = "stereo") {
        self.name = name
        self.baseDirectories = baseDirectories
        self.locales = Self.variants(of: locale)
        self.profile = profile
    }

    /// Where Soundstage's fallback theme lives: `$SOUNDSTAGE_DATA_DIR/sound-theme`, else the
    /// package's `assets/sound-theme`.
    static func fallbackDirectory(_ environment: [String: String]) -> String {
        if let dir = environment["SOUNDSTAGE_DATA_DIR"], !dir.isEmpty { return "\(dir)/sound-theme" }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("assets/sound-theme").path
    }

    /// The locale variants searched for `locale` (exposed for tests).
    public static func variantsForTesting(_ locale: String) -> [String] { variants(of: locale) }

    /// `de_DE.UTF-8@euro` → [`de_DE@euro`, `de_DE`, `de@euro`, `de`]; `C`/`POSIX` → [].
    static func variants(of locale: String) -> [String] {
        guard !locale.isEmpty, locale != "C", locale != "POSIX", !locale.hasPrefix("C.") else { return [] }
        var rest = Substring(locale)
        var modifier: Substring?
        if let at = rest.firstIndex(of: "@") { modifier = rest[rest.index(after: at)...]; rest = rest[..<at] }
        if let dot = rest.firstIndex(of: ".") { rest = rest[..<dot] }
        let language = rest.split(separator: "_").first.map(String.init) ?? String(rest)
        var out: [String] = []
        for base in [String(rest), language] {
            if let modifier { out.append("\(base)@\(modifier)") }
            out.append(base)
        }
        var seen: Set<String> = []
        return out.filter { seen.insert($0).inserted }
    }

    /// The theme chain: this theme, what it inherits (depth first), `freedesktop`, the fallback.
    public var chain: [String] {
        var order: [String] = []
        func visit(_ theme: String) {
            guard !order.contains(theme), order.count < 32 else { return }
            order.append(theme)
            for parent in index(of: theme)?.inherits ?? [] { visit(parent) }
        }
        visit(name)
        for last in ["freedesktop", Self.fallbackThemeName] where !order.contains(last) { order.append(last) }
        return order
    }

    /// The file (or `.disabled` marker) for `event`, or nil when no theme has it.
    public func resolve(_ event: String) -> Resolution? {
        if let cached = cache.withLockedValue({ $0[event] }) { return cached }
        let result = lookup(event)
        cache.withLockedValue { $0[event] = result }
        return result
    }

    /// Every event name the chain provides (without `.disabled` ones), sorted.
    public func eventNames() -> [String] {
        var names: Set<String> = []
        for theme in chain {
            for directory in directories(of: theme) {
                for base in baseDirectories {
                    for locale in locales + [""] {
                        let dir = [base, theme, directory, locale].filter { !$0.isEmpty }.joined(separator: "/")
                        for file in (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [] {
                            for ext in [".oga", ".ogg", ".wav"] where file.hasSuffix(ext) {
                                names.insert(String(file.dropLast(ext.count)))
                            }
                        }
                    }
                }
            }
        }
        return names.filter { if case .disabled? = resolve($0) { return false } else { return true } }.sorted()
    }

    private func lookup(_ event: String) -> Resolution? {
        var candidate = Substring(event)
        let themes = chain
        while !candidate.isEmpty {
            for theme in themes {
                if let found = lookup(String(candidate), in: theme) { return found }
            }
            guard let dash = candidate.lastIndex(of: "-") else { break }
            candidate = candidate[..<dash]
        }
        return nil
    }

    private func lookup(_ sound: String, in theme: String) -> Resolution? {
        let fm = FileManager.default
        for directory in directories(of: theme) {
            for locale in locales + [""] {
                for base in baseDirectories {
                    let dir = [base, theme, directory, locale].filter { !$0.isEmpty }.joined(separator: "/")
                    if fm.fileExists(atPath: "\(dir)/\(sound).disabled") { return .disabled("\(dir)/\(sound).disabled") }
                    for ext in ["oga", "ogg", "wav"] where fm.fileExists(atPath: "\(dir)/\(sound).\(ext)") {
                        return .file("\(dir)/\(sound).\(ext)")
                    }
                }
            }
        }
        return nil
    }

    /// The theme's directories for the profile (then `stereo`, then any without a profile).
    private func directories(of theme: String) -> [String] {
        guard let index = index(of: theme) else { return ["stereo"] }
        var result: [String] = []
        for wanted in [profile, "stereo"] {
            for (directory, directoryProfile) in index.directories where directoryProfile == wanted && !result.contains(directory) {
                result.append(directory)
            }
        }
        for (directory, directoryProfile) in index.directories where directoryProfile == nil && !result.contains(directory) {
            result.append(directory)
        }
        return result
    }

    private struct Index {
        var inherits: [String] = []
        var directories: [(String, String?)] = []
    }

    /// The first `index.theme` of `theme` along the base directories.
    private func index(of theme: String) -> Index? {
        for base in baseDirectories {
            guard let text = try? String(contentsOfFile: "\(base)/\(theme)/index.theme", encoding: .utf8) else { continue }
            var sections: [String: [String: String]] = [:]
            var current = ""
            for raw in text.split(whereSeparator: \.isNewline) {
                let line = raw.trimmingWhitespace()
                if line.isEmpty || line.hasPrefix("#") { continue }
                if line.hasPrefix("["), line.hasSuffix("]") { current = String(line.dropFirst().dropLast()); continue }
                guard let eq = line.firstIndex(of: "=") else { continue }
                sections[current, default: [:]][line[..<eq].trimmingWhitespace()] =
                    line[line.index(after: eq)...].trimmingWhitespace()
            }
            let main = sections["Sound Theme"] ?? [:]
            func list(_ value: String?) -> [String] {
                (value ?? "").split(separator: ",").map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
            }
            return Index(inherits: list(main["Inherits"]),
                         directories: list(main["Directories"]).map { ($0, sections[$0]?["OutputProfile"]) })
        }
        return nil
    }
}

extension SoundTheme {
    /// The user's home directory from the password database, for when `HOME` is unset.
    static func passwordDatabaseHome() -> String {
        guard let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir else { return "/" }
        return String(cString: directory)
    }
}

private extension StringProtocol {
    /// The text without the spaces and tabs around it (an index.theme line or value).
    func trimmingWhitespace() -> String {
        guard let first = firstIndex(where: { !$0.isWhitespace }),
              let last = lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(self[first...last])
    }
}
