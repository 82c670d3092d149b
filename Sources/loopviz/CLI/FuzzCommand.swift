import LoopEngine

/// `loopviz fuzz --against cf`: the differential fuzzer (``FuzzCampaign``).
enum FuzzCommand {
    static let maxCases = 100_000

    static let help = """
        OVERVIEW: Generate random scenarios and compare LoopEngine with the real CFRunLoop on each.

        USAGE: loopviz fuzz --against cf [--cases N] [--seed S] [--start I] [--max-items N] [--out DIR]
                            [--tolerance TIME] [--quiet] [--show]

        Each case is a random valid scenario of the .loop language (one thread: sources, ports, timers and
        observers in default, M1 or the common modes; callout scripts with work, signals, sends, wake-ups,
        stops, adds, removes, invalidations, reschedules, blocks, nested runs, queries, an owner's properties
        and ifs; set-up actions; one to three runs - run ... for, RunLoop.run ... before, run until,
        acceptInput, while not FLAG, while COND over an owner; outside events, queries and a dealloc among
        them).
        Every time is a multiple of 20 ms, and a scenario whose engine trace changes when its work, outside
        events, run limits or timers move by 6 ms is discarded: on the real CFRunLoop that is a race, decided
        by scheduling noise (docs/fuzzing.md). Each case runs on LoopEngine's virtual clock and on this
        machine's CFRunLoop in real time (at most 300 ms), compared as `loopviz compare` compares.

        A real run whose times stray more than 6 ms from the engine's before the first difference is run
        again (up to four times). A difference is run twice more; if it reproduces it is shrunk (items,
        actions, events and runs dropped, times shortened; at most 200 candidates, the first five
        differences) to a minimal .loop file, which is printed and, with --out, saved as
        DIR/fuzz-SEED-CASE.loop. A difference that does not reproduce is reported as timing noise and not
        counted.

        OPTIONS:
          --against cf            What to compare with: the real CFRunLoop (the only choice).
          --cases N               How many cases, 1 to \(maxCases) (default 100).
          --seed S                The campaign's seed, a whole number (default 1): the same seed makes the
                                  same cases.
          --start I               The first case's number (default 0): replays a case, or runs a campaign
                                  in chunks.
          --max-items N           Items per scenario, 1 to 12 (default 5).
          --out DIR               Save each minimal difference in DIR (created if missing).
          --tolerance TIME        How far apart times may be (default 25ms).
          --quiet                 Print only differences, errors and the summary.
          --show                  Print each case's .loop text before its verdict.
          -h, --help              Show this help.

        EXIT STATUS:
          0    no difference reproduced (differences that did not reproduce, and cases whose every real
               run strayed more than 6 ms from the engine's times on a busy machine, are listed, not
               counted)
          1    a difference reproduced, or the real CFRunLoop could not run a case
          2    invalid usage
        """

    static func run(_ arguments: [String]) -> ExitStatus {
        let scanner: ArgumentScanner
        do {
            scanner = try ArgumentScanner(
                arguments,
                valued: ["--against", "--cases", "--seed", "--start", "--max-items", "--out", "--tolerance"],
                switches: ["-h", "--help", "--quiet", "--show"])
        } catch {
            return CommandLine.usageError(error.description, command: "fuzz")
        }
        if scanner.has("-h") || scanner.has("--help") {
            print(help)
            return .success
        }
        if let extra = scanner.positional.first {
            return CommandLine.usageError("unexpected argument '\(extra)'", command: "fuzz")
        }
        guard let against = scanner.value("--against") else {
            return CommandLine.usageError("missing --against cf", command: "fuzz")
        }
        guard against == "cf" else {
            return CommandLine.usageError(
                "'\(against)' is not a valid value for --against; expected: cf", command: "fuzz")
        }
        func number(_ name: String, _ range: ClosedRange<Int>, _ fallback: Int) -> Int? {
            guard let text = scanner.value(name) else { return fallback }
            guard let value = Int(text), range.contains(value) else { return nil }
            return value
        }
        guard let cases = number("--cases", 1...maxCases, 100) else {
            return CommandLine.usageError("--cases takes a whole number from 1 to \(maxCases)", command: "fuzz")
        }
        guard let start = number("--start", 0...Int(Int32.max), 0) else {
            return CommandLine.usageError("--start takes a whole number from 0", command: "fuzz")
        }
        guard let maxItems = number("--max-items", 1...12, 5) else {
            return CommandLine.usageError("--max-items takes a whole number from 1 to 12", command: "fuzz")
        }
        var seed: UInt64 = 1
        if let text = scanner.value("--seed") {
            guard let value = UInt64(text) else {
                return CommandLine.usageError("--seed takes a whole number from 0 to \(UInt64.max)", command: "fuzz")
            }
            seed = value
        }
        var tolerance = Duration.milliseconds(25)
        if let text = scanner.value("--tolerance") {
            guard let value = ScriptLoader.duration(text) else {
                return CommandLine.usageError("'\(text)' is not a time; use e.g. 40ms", command: "fuzz")
            }
            tolerance = value
        }
        let campaign = FuzzCampaign(
            seed: seed, start: start, cases: cases, maxItems: maxItems, tolerance: tolerance,
            outDirectory: scanner.value("--out"), quiet: scanner.has("--quiet"), show: scanner.has("--show"))
        let summary = campaign.run { print($0) }
        print(summaryLine(summary, seed: seed, start: start))
        return summary.differences > 0 || summary.errors > 0 ? .failure : .success
    }

    static func summaryLine(_ summary: FuzzCampaign.Summary, seed: UInt64, start: Int) -> String {
        let rejected = FuzzValidator.Rejection.allCases.compactMap { reason in
            summary.rejected[reason].map { "\($0) \(reason.rawValue)" }
        }
        return """
            fuzz seed \(seed), cases \(start)..<\(start + summary.cases): \(summary.cases) cases, \(summary.agreed) agree, \
            \(summary.differences) differ, \(summary.unconfirmed) did not reproduce, \(summary.disturbed) disturbed, \
            \(summary.errors) errors, \
            \(summary.noCase) without a fair scenario; generated scenarios discarded: \
            \(rejected.isEmpty ? "none" : rejected.joined(separator: ", ")); \
            \(String(format: "%.1f", summary.seconds)) s
            """
    }
}
