import Foundation

/// A thread of a process (this one by default), found by name: its CPU time and context
/// switches, from /proc.
public struct ThreadActivity {
    let directory: String

    /// The first thread called `name` in process `pid` (this process by default), if there is one.
    /// (Tests running beside each other may have threads of the same name: prefer ``init(thread:in:)``.)
    public init?(named name: String, in pid: pid_t? = nil) {
        let process = pid.map { "/proc/\($0)/task" } ?? "/proc/self/task"
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: process)) ?? []
        guard let task = tasks.first(where: {
            (try? String(contentsOfFile: "\(process)/\($0)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) == name
        }) else { return nil }
        directory = "\(process)/\(task)"
    }

    /// The IDs of the threads called `name` in process `pid` (this process by default).
    public static func threadIDs(named name: String, in pid: pid_t? = nil) -> Set<Int32> {
        let process = pid.map { "/proc/\($0)/task" } ?? "/proc/self/task"
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: process)) ?? []
        return Set(tasks.filter {
            (try? String(contentsOfFile: "\(process)/\($0)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) == name
        }.compactMap { Int32($0) })
    }

    /// Thread `id` of process `pid` (this process by default), if it runs.
    public init?(thread id: Int32, in pid: pid_t? = nil) {
        let directory = "/proc/\(pid ?? getpid())/task/\(id)"
        guard FileManager.default.fileExists(atPath: directory) else { return nil }
        self.directory = directory
    }

    /// CPU seconds (schedstat) and voluntary plus involuntary context switches so far.
    public func sample() -> (cpu: Double, switches: Int) {
        let schedstat = (try? String(contentsOfFile: "\(directory)/schedstat", encoding: .utf8)) ?? "0"
        let cpu = Double(schedstat.split(separator: " ").first.flatMap { Int($0) } ?? 0) / 1e9
        let status = (try? String(contentsOfFile: "\(directory)/status", encoding: .utf8)) ?? ""
        // "voluntary_ctxt_switches:\t12" and "nonvoluntary_ctxt_switches:\t3"
        let switches = status.split(separator: "\n").filter { $0.contains("ctxt_switches:") }
            .compactMap { $0.split(separator: "\t").last.flatMap { Int($0) } }.reduce(0, +)
        return (cpu, switches)
    }
}
