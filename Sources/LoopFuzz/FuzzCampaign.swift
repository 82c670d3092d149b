import Foundation
import LoopEngine

/// A run of the differential fuzzer: cases `start ..< start + cases` of `seed`, each generated, validated, run on
/// the engine and on the real CFRunLoop and, on a difference, confirmed and shrunk.
package struct FuzzCampaign {
    var seed: UInt64
    var start = 0
    var cases: Int
    var maxItems = 5
    var tolerance = Duration.milliseconds(25)
    var outDirectory: String?
    /// Writes a minimal case's text to a path in ``outDirectory``; returns the message of a failure, or nil. The
    /// command gives it the way every file it writes is written (`OutputFile`: a temporary file renamed into
    /// place, a link followed, a device written directly).
    var save: (_ text: String, _ path: String) -> String?
    var quiet = false
    /// Print each case's `.loop` text.
    var show = false
    /// How many more runs must differ too before a difference counts (CF in real time is not deterministic).
    var confirmations = 2
    /// Differences shrunk at most (shrinking costs up to ``FuzzShrinker/maxTests`` real runs each); later ones
    /// are saved as generated.
    var maxShrinks = 5
    /// Generated scenarios tried per case before it is given up.
    static let attemptsPerCase = 50

    package init(
        seed: UInt64, start: Int = 0, cases: Int, maxItems: Int = 5, tolerance: Duration = .milliseconds(25),
        outDirectory: String? = nil, save: @escaping (_ text: String, _ path: String) -> String?,
        quiet: Bool = false, show: Bool = false
    ) {
        self.seed = seed
        self.start = start
        self.cases = cases
        self.maxItems = maxItems
        self.tolerance = tolerance
        self.outDirectory = outDirectory
        self.save = save
        self.quiet = quiet
        self.show = show
    }

    package struct Summary {
        package var cases = 0
        package var agreed = 0
        /// Of `agreed`, the cases whose real run took another schedule than the default one (a race).
        package var races = 0
        /// Differences that reproduced on every confirmation run.
        package var differences = 0
        /// Differences that did not reproduce: timing noise.
        package var unconfirmed = 0
        package var errors = 0
        /// Cases whose every real run strayed from the engine's times by more than the margin (a busy machine).
        package var disturbed = 0
        /// Cases for which no fair scenario was generated.
        package var noCase = 0
        package var rejected: [FuzzValidator.Rejection: Int] = [:]
        package var savedFiles: [String] = []
        package var seconds = 0.0
    }

    /// The fair scenario of case `index`, or nil; counts the rejected attempts in `summary`.
    static func scenario(seed: UInt64, index: Int, maxItems: Int, summary: inout Summary) -> Scenario? {
        let caseSeed = SplitMix64.caseSeed(seed, index)
        for attempt in 0..<attemptsPerCase {
            var generator = FuzzGenerator(seed: SplitMix64.caseSeed(caseSeed, attempt), maxItems: maxItems)
            let draft = generator.scenario(name: "fuzz seed \(seed) case \(index)")
            switch FuzzValidator.validate(draft) {
            case .success(let scenario): return scenario
            case .failure(let reason): summary.rejected[reason, default: 0] += 1
            }
        }
        return nil
    }

    package func run(output: (String) -> Void) -> Summary {
        var summary = Summary()
        let clock = ContinuousClock()
        let began = clock.now
        var shrinks = 0
        for index in start..<(start + cases) {
            summary.cases += 1
            guard let scenario = Self.scenario(seed: seed, index: index, maxItems: maxItems, summary: &summary) else {
                summary.noCase += 1
                if !quiet { output("case \(index): no fair scenario in \(Self.attemptsPerCase) attempts") }
                continue
            }
            if show { output(TerminalSafeText.terminalSafeOutput(scenario.loopText)) }
            switch FuzzOracle.compareUndisturbed(scenario, tolerance: tolerance) {
            case .disturbed:
                summary.disturbed += 1
                output(
                    "case \(index): every run of the real CFRunLoop strayed more than \(FuzzValidator.margin) from the engine's times (a busy machine); not compared"
                )
            case .agree:
                summary.agreed += 1
                if !quiet { output("case \(index): AGREE") }
            case .race(let schedule):
                summary.agreed += 1
                summary.races += 1
                if !quiet { output("case \(index): AGREE (a race: the real run took schedule \(schedule.id))") }
            case .error(let message):
                summary.errors += 1
                output("case \(index): ERROR \(TerminalSafeText.terminalSafe(message))")
                output(TerminalSafeText.terminalSafeOutput(scenario.loopText))
            case .differ:
                guard confirmed(scenario, runs: confirmations) else {
                    summary.unconfirmed += 1
                    output("case \(index): a difference that did not reproduce (timing noise); not counted")
                    continue
                }
                summary.differences += 1
                var minimal = scenario
                if shrinks < maxShrinks {
                    shrinks += 1
                    minimal = shrink(scenario)
                }
                report(minimal, index: index, summary: &summary, output: output)
            }
        }
        summary.seconds = Double((clock.now - began).nanosecondsClamped) / 1e9
        return summary
    }

    private func differs(_ scenario: Scenario) -> Bool {
        if case .differ = FuzzOracle.compareUndisturbed(scenario, tolerance: tolerance) { return true }
        return false
    }

    private func confirmed(_ scenario: Scenario, runs: Int) -> Bool {
        (0..<runs).allSatisfy { _ in differs(scenario) }
    }

    /// The smallest scenario that still differs (each candidate run once; the result is run again by
    /// ``report``, which says when that run agreed).
    private func shrink(_ scenario: Scenario) -> Scenario {
        let shrinker = FuzzShrinker(
            maxTests: 200, isValid: { try? FuzzValidator.validate($0).get() }, fails: { differs($0) })
        return shrinker.shrink(scenario).scenario
    }

    private func report(_ scenario: Scenario, index: Int, summary: inout Summary, output: (String) -> Void) {
        var text = scenario.loopText
        var header = "# loopviz fuzz --against cf --seed \(seed) --start \(index) --cases 1: "
        if case .differ(let comparison) = FuzzOracle.compareUndisturbed(scenario, tolerance: tolerance) {
            header += "LoopEngine and CFRunLoop differ at step \(comparison.firstDifference ?? 0)"
            output("case \(index): DIFFER")
            output(comparison.sideBySide())
        } else {
            header += "LoopEngine and CFRunLoop differed (this last run agreed)"
            output("case \(index): DIFFER (the minimal case agreed on its last run)")
        }
        text = header + "\n" + text
        output(TerminalSafeText.terminalSafeOutput(text))
        guard let outDirectory else { return }
        if let path = Self.saveCase(
            text, in: outDirectory, named: "fuzz-\(seed)-\(index).loop", save: save, output: output)
        {
            summary.savedFiles.append(path)
        }
    }

    /// Saves a case's text as `directory/name` (the directory made if missing) with `save`, and says so or why
    /// not; returns the path when it was saved.
    package static func saveCase(
        _ text: String, in directory: String, named name: String,
        save: (_ text: String, _ path: String) -> String?, output: (String) -> Void
    ) -> String? {
        let path = (directory as NSString).appendingPathComponent(name)
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            output("could not save \(TerminalSafeText.terminalSafe(path)): \(error.localizedDescription)")
            return nil
        }
        if let failure = save(text, path) {
            output(failure)
            return nil
        }
        output("saved \(TerminalSafeText.terminalSafe(path))")
        return path
    }
}
