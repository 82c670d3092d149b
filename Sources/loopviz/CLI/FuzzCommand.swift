import Foundation
import LoopEngine
import LoopFuzz

/// `loopviz fuzz --against cf`: the differential fuzzer (``FuzzCampaign``); `--against eager`: resting modes
/// against the eager moves (``RestingModesFuzz``).
enum FuzzCommand {
    static let maxCases = 100_000

    static let command = LoopvizCommand(
        name: "fuzz", synopsis: "fuzz --against cf|eager",
        summary: "Compare LoopEngine with the real CFRunLoop on random scenarios.",
        options: options, help: help, run: run)

    static let options: [CommandOption] = [
        CommandOption(
            "--against", .text(placeholder: "cf|eager"),
            help: """
                What to compare with: cf, the real CFRunLoop; eager, the engine that moves
                and arms every mode at every fire (no CFRunLoop needed).
                """),
        CommandOption(
            "--cases", .number(placeholder: "N", bounds: 1...maxCases),
            help: "How many cases, 1 to \(maxCases) (default 100)."),
        CommandOption(
            "--seed", .text(placeholder: "S"),
            help: """
                The campaign's seed, a whole number (default 1): the same seed makes the
                same cases.
                """),
        CommandOption(
            "--start", .number(placeholder: "I", bounds: 0...Int(Int32.max)),
            help: """
                The first case's number (default 0): replays a case, or runs a campaign
                in chunks.
                """),
        CommandOption(
            "--max-items", .number(placeholder: "N", bounds: 1...12), help: "Items per scenario, 1 to 12 (default 5)."),
        CommandOption(
            "--out", .text(placeholder: "DIR"), help: "Save each minimal difference in DIR (created if missing)."),
        CommandOption(
            "--tolerance", .text(placeholder: "TIME"), help: "How far apart times may be (default 25ms)."),
        CommandOption("--quiet", help: "Print only differences, errors and the summary."),
        CommandOption("--show", help: "Print each case's .loop text before its verdict."),
    ]

    static let help = CommandHelp(
        beforeOptions: """
            OVERVIEW: Generate random scenarios and compare LoopEngine with the real CFRunLoop on each.

            USAGE: loopviz fuzz --against cf [--cases N] [--seed S] [--start I] [--max-items N] [--out DIR]
                                [--tolerance TIME] [--quiet] [--show]
                   loopviz fuzz --against eager [--cases N] [--seed S] [--start I] [--out DIR] [--show]

            Each case is a random valid scenario of the .loop language (one thread, sometimes the main thread,
            sometimes with a second one it hands work to: sources, ports, timers and observers in default, M1 or
            the common modes; callout scripts with work, signals, sends, wake-ups, stops, adds, removes,
            invalidations, reschedules, Timer.fire(), blocks, main-queue blocks, main-actor tasks that await
            Task.yield or Task.sleep, asyncAfter, nested runs, queries (timer properties too), an owner's
            properties, ifs, ordered and delayed performs; set-up actions; one to three runs - run ... for,
            RunLoop.run ... before, run until, acceptInput, while not FLAG, while COND over an owner, CFRunLoopRun
            and RunLoop.run ended by the thread's own timer; outside events, queries and a dealloc among them;
            sometimes the main thread's program is an async main that awaits after its runs). It calls the real
            CFRunLoop on this process's main thread, which a main-thread case runs on (an async main in a process
            of its own: its end is exit(0)).
            Every time is a multiple of 20 ms, and a scenario whose engine trace changes when its work, outside
            events, run limits, timers, delayed performs, sleeps or asyncAfter delays move by 6 ms is discarded:
            on the real CFRunLoop that is a race, decided by scheduling noise (docs/fuzzing.md). Each case runs on
            LoopEngine's virtual clock and on this machine's CFRunLoop in real time (at most 300 ms), compared as
            `loopviz compare` compares.

            A real run whose times stray more than 6 ms from the engine's before the first difference is run
            again (up to four times). A difference is run twice more; if it reproduces it is shrunk (items,
            actions, events and runs dropped, times shortened; at most 200 candidates, the first five
            differences) to a minimal .loop file, which is printed and, with --out, saved as
            DIR/fuzz-SEED-CASE.loop. A difference that does not reproduce is reported as timing noise and not
            counted.

            With --against eager, each case is a scenario built for resting modes (timers in several of six
            modes, ports, nested runs, reschedules, adds, removes, invalidations and next-fire-date queries, on
            either profile), run on the virtual clock three times: with every mode moved and armed at every fire
            of its timers, as CF does; with every idle mode resting after one move; with the standard policy
            (docs/limits.md, "Resting modes"). The three whole traces must be the same. A case that differs is
            printed and, with --out, saved as DIR/resting-SEED-CASE.loop.
            """,
        afterOptions: """
            EXIT STATUS:
              0    no difference reproduced (differences that did not reproduce, and cases whose every real
                   run strayed more than 6 ms from the engine's times on a busy machine, are listed, not
                   counted)
              1    a difference reproduced, or the real CFRunLoop could not run a case (eager: a case
                   differed, or did not parse)
              2    invalid usage
            """)

    static func run(_ scanner: ArgumentScanner) throws(CommandLineProblem) -> ExitStatus {
        if let extra = scanner.positional.first { throw .unexpectedArgument(extra) }
        guard let against = scanner.value("--against") else { throw .missingOption("--against", value: "cf") }
        guard against == "cf" || against == "eager" else {
            throw .notAChoice(against, option: "--against", expected: ["cf", "eager"])
        }
        // Its declared bounds; a bound of Int32.max is no bound a person meets, and goes unsaid.
        func number(_ name: String, _ fallback: Int) throws(CommandLineProblem) -> Int {
            try scanner.number(name) { _, bounds in
                .wholeNumber(
                    option: name, lower: UInt64(bounds.lowerBound),
                    upper: bounds.upperBound == Int(Int32.max) ? nil : UInt64(bounds.upperBound))
            } ?? fallback
        }
        let cases = try number("--cases", 100)
        let start = try number("--start", 0)
        let maxItems = try number("--max-items", 5)
        var seed: UInt64 = 1
        if let text = scanner.value("--seed") {
            guard let value = UInt64(text) else { throw .wholeNumber(option: "--seed", lower: 0, upper: UInt64.max) }
            seed = value
        }
        if against == "eager" {
            return runAgainstEager(
                seed: seed, start: start, cases: cases, out: scanner.value("--out"), show: scanner.has("--show"))
        }
        var tolerance = Duration.milliseconds(25)
        if let text = scanner.value("--tolerance") {
            guard let value = ScriptLoader.duration(text) else { throw .notATime(text, example: "40ms") }
            tolerance = value
        }
        let campaign = FuzzCampaign(
            seed: seed, start: start, cases: cases, maxItems: maxItems, tolerance: tolerance,
            outDirectory: scanner.value("--out"), save: { OutputFile.write($0, to: $1)?.message },
            quiet: scanner.has("--quiet"), show: scanner.has("--show"))
        let summary = campaign.run { print($0) }
        print(summaryLine(summary, seed: seed, start: start))
        return summary.differences > 0 || summary.errors > 0 ? .failure : .success
    }

    /// `--against eager`: ``RestingModesFuzz``.
    static func runAgainstEager(seed: UInt64, start: Int, cases: Int, out: String?, show: Bool) -> ExitStatus {
        let clock = ContinuousClock()
        let began = clock.now
        if show {
            for index in start..<(start + cases) {
                print(TerminalSafeText.terminalSafeOutput(RestingModesFuzz.scenarioText(seed: seed, index: index)))
            }
        }
        let summary = RestingModesFuzz.run(seed: seed, start: start, cases: cases) {
            print(TerminalSafeText.terminalSafe($0))
        }
        var failed = false
        for (index, text) in summary.differences.map({ ($0.index, $0.text) })
            + summary.errors.map({ ($0.index, $0.text) })
        {
            failed = true
            let header = "# loopviz fuzz --against eager --seed \(seed) --start \(index) --cases 1\n"
            print(TerminalSafeText.terminalSafeOutput(header + text))
            guard let out else { continue }
            _ = FuzzCampaign.saveCase(
                header + text, in: out, named: "resting-\(seed)-\(index).loop",
                save: { OutputFile.write($0, to: $1)?.message }, output: { print($0) })
        }
        let seconds = Double((clock.now - began).nanosecondsClamped) / 1e9
        print(
            "fuzz --against eager seed \(seed), cases \(start)..<\(start + summary.cases): \(summary.cases) cases, "
                + "\(summary.agreed) agree (\(summary.rested) with modes resting), \(summary.differences.count) differ, \(summary.errors.count) errors; "
                + String(format: "%.1f", seconds) + " s")
        return failed ? .failure : .success
    }

    static func summaryLine(_ summary: FuzzCampaign.Summary, seed: UInt64, start: Int) -> String {
        let rejected = FuzzValidator.Rejection.allCases.compactMap { reason in
            summary.rejected[reason].map { "\($0) \(reason.rawValue)" }
        }
        let races = summary.races > 0 ? " (\(summary.races) by another schedule: a race)" : ""
        return """
            fuzz seed \(seed), cases \(start)..<\(start + summary.cases): \(summary.cases) cases, \(summary.agreed) agree\(races), \
            \(summary.differences) differ, \(summary.unconfirmed) did not reproduce, \(summary.disturbed) disturbed, \
            \(summary.errors) errors, \
            \(summary.noCase) without a fair scenario; generated scenarios discarded: \
            \(rejected.isEmpty ? "none" : rejected.joined(separator: ", ")); \
            \(String(format: "%.1f", summary.seconds)) s
            """
    }
}
