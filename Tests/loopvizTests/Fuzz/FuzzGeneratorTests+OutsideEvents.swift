import LoopEngine
import Testing

@testable import LoopFuzz

/// The validator moves outside events through the whole margin, not only to its two ends (docs/fuzzing.md): the
/// real run drifts from the engine's times by what each callout costs, so an outside event meets the loop earlier
/// in its timeline than the engine's instant says.
@Suite("fuzz cases keep outside events clear of short phases")
struct FuzzOutsideEventTests {
    /// Seed 89 case 1197, shrunk: the stop at 160 ms comes during the last run's beforeTimers observer on the
    /// engine (a stop that changes no step: the run times out first), but on CF, 1.2 ms late by then after 17
    /// observer callouts of 2 ms, during its entry observer, so CF's run exits at once.
    static func case1197(stopAt time: Int = 160) throws -> Scenario {
        let text = """
            scenario "fuzz seed 89 case 1197"

            thread T
              common M1
              port p2 in M1
              observer o1 on all once in M1
                run M1 for 40ms
              observer o2 on entry, beforeTimers, beforeSources, beforeWaiting, exit in default, M1
                work 2ms
              observer o4 on afterWaiting in common
                call 2: block B4 in default, M1
                  work 1ms
              block B5
              run M1 for 100ms
              run default for 0ms
              RunLoop.run M1 before 0ms

            at \(time)ms on T
              stop

            """
        return try ScenarioParser.parse(text, file: "fuzz-89-1197.loop").scenario
    }

    @Test("a stop that lands in a 2 ms observer between the margin's two ends is a timing edge")
    func shortPhaseBetweenTheEnds() throws {
        let scenario = try Self.case1197()
        let steps = try #require(FuzzValidator.engineSteps(scenario))
        // Moved by the whole margin either way, the stop changes no step: the ends alone would call it fair.
        for time in [154, 166] {
            #expect(FuzzValidator.engineSteps(try Self.case1197(stopAt: time)) == steps)
        }
        // 2 ms earlier it comes in the run's entry observer, and the run exits at once, as on CF.
        #expect(FuzzValidator.engineSteps(try Self.case1197(stopAt: 158)) != steps)
        #expect(FuzzValidator.validate(scenario) == .failure(.timingEdge))
    }
}
