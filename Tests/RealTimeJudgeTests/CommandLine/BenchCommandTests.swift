#if os(Linux)
import Foundation
import SnapshotSupport
import Testing

/// `loopviz bench` as a tool: its output's structure, never its figures (timing belongs to the bench itself, not
/// to unit tests on a shared machine).
@Suite("loopviz bench")
struct BenchCommandTests {
    static let rowIDs = [
        "per-iteration/0", "per-iteration/6", "per-iteration/64", "recorder/overhead", "wake/one-core", "wake/unpinned",
        "timer/lateness",
        "timer/cpu", "idle/switches", "idle/cpu", "virtual/6", "scale/ports", "scale/timers", "scale/repeating",
        "scale/run-modes",
        "memory/event", "run-jsonl/wall", "run-jsonl/peak", "run-text/wall", "run-text/peak", "ui/step", "ui/goto",
        "ui/poke", "ui/play", "ui/search", "ui/filter", "ui/zoom-in", "ui/zoom-out", "ui/zoom-fit", "hangs/wall",
        "hangs/peak", "hangs/rate", "hangs/replay", "hangs/replay-peak", "hangs/jump",
    ]
    /// The goals of issue 11 that the bench judges, by row: each must be stated (and decided) in the output.
    static let issue11Goals = [
        "virtual/6": ["≤ 150 ns", "median ≤ 1.5× no sink"], "memory/event": ["≤ 48 bytes (resident growth)"],
        "run-jsonl/wall": ["≤ 1.0 s"], "run-jsonl/peak": ["≤ 150 MB"], "run-text/wall": ["median ≤ 1.2× jsonl's"],
        "run-text/peak": ["≤ 150 MB"], "ui/step": ["≤ 50 ms"], "ui/goto": ["≤ 50 ms"], "ui/poke": ["≤ 150 ms"],
        "ui/play": ["≤ 3 %"], "ui/search": ["≤ 100 ms"], "ui/filter": ["≤ 100 ms"], "ui/zoom-in": ["≤ 100 ms"],
        "ui/zoom-out": ["≤ 100 ms"], "ui/zoom-fit": ["≤ 100 ms"], "hangs/peak": ["≤ 400 MB"],
        "hangs/rate": ["≤ 6.67 ms (≥ 150 MB/s)"], "hangs/replay-peak": ["≤ 400 MB"], "hangs/jump": ["≤ 50 ms"],
    ]

    @Test("--quick --json prints every row, each variant with finite numbers, one figure per round")
    func quickJSON() throws {
        try RealTimeGate.exclusive {
            let result = try LoopvizProcess.run(["bench", "--quick", "--json"])
            #expect(result.status == 0)
            let parsed = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
            let report = try #require(parsed as? [String: Any])
            #expect(report["format"] as? String == "loopviz-bench")
            #expect(report["version"] as? Int == 1)
            #expect(report["quick"] as? Bool == true)
            #expect((report["cores"] as? Int ?? 0) >= 1)
            let rows = try #require(report["rows"] as? [[String: Any]])
            #expect(rows.compactMap { $0["id"] as? String } == Self.rowIDs)
            for row in rows {
                guard let id = row["id"] as? String, let wanted = Self.issue11Goals[id] else { continue }
                let goals = row["goals"] as? [[String: Any]] ?? []
                #expect(goals.compactMap { $0["text"] as? String } == wanted, "row \(id): its goals")
                for goal in goals {
                    #expect(goal["met"] is Bool, "row \(id), goal \(goal["text"] ?? "?"): undecided")
                }
            }
            for row in rows {
                let id = row["id"] as? String ?? "?"
                let variants = try #require(row["variants"] as? [[String: Any]], "row \(id) has no variants")
                #expect(variants.contains { $0["role"] as? String == "engine" }, "row \(id) has no engine variant")
                #expect(!(row["goals"] as? [Any] ?? []).isEmpty, "row \(id) states no goal")
                for variant in variants {
                    let name = "\(id) \(variant["name"] as? String ?? "?")"
                    for key in ["median", "min", "max"] {
                        let value = variant[key] as? Double
                        #expect(value?.isFinite == true, "\(name): \(key) is \(String(describing: variant[key]))")
                    }
                    let p99 = variant["p99"]
                    #expect(p99 is NSNull || (p99 as? Double)?.isFinite == true, "\(name): p99")
                    let rounds = variant["rounds"] as? [Double] ?? []
                    #expect(rounds.count == 2 && rounds.allSatisfy(\.isFinite), "\(name): one figure per round")
                }
            }
        }
    }

    @Test("--help documents the command; bad usage exits 2")
    func helpAndUsage() throws {
        let help = try LoopvizProcess.run(["bench", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("USAGE: loopviz bench"))
        #expect(help.stdout.contains("EXIT STATUS"))
        let unknown = try LoopvizProcess.run(["bench", "--only", "nonsense"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("unknown workload 'nonsense'"))
        let both = try LoopvizProcess.run(["bench", "--workload", "per-iteration", "--engine", "--cf"])
        #expect(both.status == 2)
    }

    @Test("--workload scale-… runs one scale workload once, or prints its file; bad usage exits 2")
    func scaleWorkload() throws {
        let run = try LoopvizProcess.run(["bench", "--workload", "scale-timers", "--items", "100"])
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("scale-timers, 100 items, engine (virtual): "))
        #expect(run.stdout.hasSuffix(" per item\n"))
        let file = try LoopvizProcess.run(["bench", "--workload", "scale-ports", "--items", "3", "--loop"])
        #expect(file.status == 0)
        #expect(file.stdout.contains("  port p2 in default\n"))
        let trace = try LoopvizProcess.run(["run", "scale.loop"], files: ["scale.loop": file.stdout])
        #expect(trace.status == 0)
        #expect(trace.stdout.contains("source1        p2"))
        for bad in [
            ["--workload", "scale-nothing"], ["--workload", "scale-ports", "--items", "0"],
            ["--workload", "scale-ports", "--engine"], ["--workload", "per-iteration", "--cf", "--items", "5"],
            ["--items", "5"],
        ] {
            let result = try LoopvizProcess.run(["bench"] + bad)
            #expect(result.status == 2, "bench \(bad.joined(separator: " "))")
        }
    }

    @Test("--workload memory records once and says what the trace and the process kept; bad usage exits 2")
    func memoryWorkload() throws {
        let run = try LoopvizProcess.run(["bench", "--workload", "memory", "--iterations", "100"])
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("memory, 6 observers, engine (virtual, TraceRecorder): events "))
        #expect(run.stdout.contains(", iterations 100, stored bytes "))
        #expect(run.stdout.contains(" per event), resident growth "))
        for bad in [["--cf"], ["--items", "5"], ["--iterations", "0"]] {
            let result = try LoopvizProcess.run(["bench", "--workload", "memory"] + bad)
            #expect(result.status == 2, "bench --workload memory \(bad.joined(separator: " "))")
        }
    }

    @Test(
        "--workload run-jsonl and run-text run loopviz run once as a child and say how long and how large; bad usage exits 2",
        arguments: ["jsonl", "text"])
    func runTraceWorkload(_ format: String) throws {
        let run = try LoopvizProcess.run(["bench", "--workload", "run-\(format)", "--events", "1000"])
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("run-\(format): loopviz run --trace \(format) -o FILE, events 1000, wall "))
        #expect(run.stdout.contains(" MB), spawner peak "))
        let workload = "run-\(format)"
        for bad in [["--workload", workload, "--cf"], ["--workload", workload, "--events", "0"], ["--events", "5"]] {
            let result = try LoopvizProcess.run(["bench"] + bad)
            #expect(result.status == 2, "bench \(bad.joined(separator: " "))")
        }
    }

    @Test(
        "--workload runs one workload once (what callgrind counts); --callgrind explains how",
        arguments: ["--engine", "--cf"])
    func singleWorkload(_ loop: String) throws {
        try RealTimeGate.exclusive {
            let result = try LoopvizProcess.run(["bench", "--workload", "per-iteration", loop, "--iterations", "1000"])
            #expect(result.status == 0)
            #expect(result.stdout.hasPrefix("per-iteration, 0 observers, "))
            #expect(result.stdout.contains("1000 iterations"))
            let recipe = try LoopvizProcess.run(["bench", "--callgrind"])
            #expect(recipe.status == 0)
            #expect(recipe.stdout.contains("valgrind --tool=callgrind"))
        }
    }
}
#endif
