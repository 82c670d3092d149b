import LoopEngine

/// `loopviz fuzz --against eager`: the engine with resting modes against the engine that moves and arms every
/// mode at every fire, as CF does (`RunLoopCore+RestingModes.swift`). No real CFRunLoop is needed: both runs are on
/// the virtual clock, and their whole traces must be the same, event for event.
///
/// The cases are built for what resting changes: timers in several of six modes (the same modes for some, so that
/// groups form), with and without tolerance, one-shot or repeating; ports in those modes; callouts that run other
/// modes nested, write ports, reschedule (to dates in the past too), add, remove and invalidate timers and ask for
/// a mode's next fire date; and a program of runs of any mode with the same actions between them, on either
/// profile. Each case runs with every idle mode resting after one move, and with the standard policy.
package enum RestingModesFuzz {
    static let allModes = ["default", "M1", "M2", "M3", "M4", "M5"]
    /// A case's trace is cut at this many events (a runaway nesting of runs is still compared up to there).
    static let maxEvents = 20_000

    package struct Summary {
        package var cases = 0
        package var agreed = 0
        /// Cases in which some mode rested (its timer port joined an arm group): the ones that test something.
        package var rested = 0
        package var differences: [(index: Int, text: String, detail: String)] = []
        package var errors: [(index: Int, text: String, message: String)] = []
    }

    /// The scenario of case `index` of `seed`, as `.loop` text.
    package static func scenarioText(seed: UInt64, index: Int) -> String {
        var rng = SplitMix64(seed: SplitMix64.caseSeed(seed ^ 0x5245_5354_494E_47, index))
        var lines = ["profile \(rng.chance(50) ? "linux" : "darwin")", "thread T"]
        // Two to six modes: with few, timers, ports and runs meet in the same modes more often.
        let modes = Array(allModes.prefix(rng.int(2...6)))
        let timerCount = rng.int(1...6)
        let timers = (1...timerCount).map { "t\($0)" }
        let ports = (0..<(rng.chance(80) ? rng.int(1...2) : 0)).map { "p\($0 + 1)" }
        // Two or three mode sets shared by the timers: modes with the same timers rest in one group.
        let sets = (0..<rng.int(1...3)).map { _ in pickModes(&rng, modes) }
        for port in ports { lines.append("  port \(port) in \(pickModes(&rng, modes).joined(separator: ", "))") }
        // A timer that never fires in the run, in one mode: a run of that mode lets time pass with no fire of the
        // others (their ports' deadlines pass while their modes rest).
        if rng.chance(50) { lines.append("  timer far at 900ms in \(rng.pick(allModes))") }
        for timer in timers {
            var line = "  timer \(timer) at \(time(&rng, upTo: 3_000))"
            if rng.chance(80) { line += " every \(rng.pick(["300us", "500us", "700us", "1ms", "1500us", "2ms"]))" }
            if rng.chance(35) { line += " tolerance \(rng.pick(["100us", "400us", "1ms"]))" }
            let timerModes = rng.chance(75) ? rng.pick(sets) : pickModes(&rng, modes)
            line += " in \(timerModes.joined(separator: ", "))"
            lines.append(line)
            var calls = Set<Int>()
            for _ in 0..<rng.int(0...3) {
                let call = rng.chance(60) ? rng.int(1...4) : rng.int(5...12)
                guard calls.insert(call).inserted else { continue }
                lines.append(
                    "    call \(call): \(action(&rng, timers: timers, ports: ports, modes: modes, nested: true))")
            }
        }
        for _ in 0..<rng.int(1...5) {
            for _ in 0..<rng.int(0...3) where rng.chance(60) {
                // Reschedules between runs move a resting mode's window with no deadline passed (half of them).
                lines.append(
                    rng.chance(50)
                        ? "  reschedule \(rng.pick(timers)) in \(time(&rng, upTo: 1_500))"
                        : "  \(action(&rng, timers: timers, ports: ports, modes: modes, nested: false))")
            }
            lines.append("  run \(rng.pick(modes)) for \(time(&rng, upTo: 8_000))")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Some of `modes`, at least one.
    private static func pickModes(_ rng: inout SplitMix64, _ modes: [String]) -> [String] {
        var picked = modes.filter { _ in rng.chance(45) }
        if picked.isEmpty { picked = [rng.pick(modes)] }
        return picked
    }

    /// A time up to `upTo` microseconds, written in microseconds.
    private static func time(_ rng: inout SplitMix64, upTo: Int) -> String {
        "\(rng.int(0...(upTo / 100)) * 100)us"
    }

    private static func action(
        _ rng: inout SplitMix64, timers: [String], ports: [String], modes: [String], nested: Bool
    ) -> String {
        switch rng.int(0...9) {
        case 0 where nested, 1 where nested: "run \(rng.pick(modes)) for \(time(&rng, upTo: 3_000))"
        case 2 where !ports.isEmpty, 8 where !ports.isEmpty, 9 where !ports.isEmpty: "send \(rng.pick(ports))"
        case 3, 7: "reschedule \(rng.pick(timers)) in \(rng.chance(25) ? "-" : "")\(time(&rng, upTo: 2_000))"
        case 4: "add \(rng.pick(timers)) to \(rng.pick(modes))"
        case 5: "remove \(rng.pick(timers)) from \(rng.pick(modes))"
        case 6 where rng.chance(40): "invalidate \(rng.pick(timers))"
        default: "query nextTimerFireDate \(rng.pick(modes))"
        }
    }

    /// Runs cases `start ..< start + cases` of `seed`; `output` gets a line per difference or error.
    package static func run(seed: UInt64, start: Int, cases: Int, output: (String) -> Void) -> Summary {
        var summary = Summary()
        for index in start..<(start + cases) {
            summary.cases += 1
            let text = scenarioText(seed: seed, index: index)
            let scenario: Scenario
            do {
                scenario = try ScenarioParser.parse(text, file: "resting-\(seed)-\(index)").scenario
            } catch {
                summary.errors.append((index, text, "\(error)"))
                output("case \(index): ERROR the generated scenario does not parse: \(error)")
                continue
            }
            let eager = trace(scenario, .never).lines
            var detail: String?
            var rested = false
            for policy in [RestingPolicy.atOnce, .standard] where detail == nil {
                let resting = trace(scenario, policy)
                rested = rested || resting.joins > 0
                if resting.lines != eager { detail = firstDifference(eager, resting.lines, policy: policy) }
            }
            if rested { summary.rested += 1 }
            if let detail {
                summary.differences.append((index, text, detail))
                output("case \(index): DIFFER \(detail)")
            } else {
                summary.agreed += 1
            }
        }
        return summary
    }

    /// The whole trace, line by line, and how many ports joined an arm group.
    private static func trace(_ scenario: Scenario, _ resting: RestingPolicy) -> (lines: [String], joins: Int) {
        let (outcome, world) = ScenarioRunner.runHosted(
            scenario, horizon: .seconds(1), maxEvents: maxEvents, resting: resting)
        return (TextTraceFormatter.format(outcome.events).split(separator: "\n").map(String.init), world.armGroupJoins)
    }

    static func firstDifference(_ eager: [String], _ resting: [String], policy: RestingPolicy) -> String {
        let line =
            (0..<min(eager.count, resting.count)).first { eager[$0] != resting[$0] } ?? min(eager.count, resting.count)
        let said = { (lines: [String]) in line < lines.count ? lines[line] : "(the trace ends)" }
        let name = policy == .atOnce ? "at once" : "standard"
        return "at line \(line + 1) (resting \(name)): eager `\(said(eager))`, resting `\(said(resting))`"
    }
}
