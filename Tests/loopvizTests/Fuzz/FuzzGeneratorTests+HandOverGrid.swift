import LoopEngine
import Testing

@testable import LoopFuzz

/// The validator's grid rule for hand-overs (docs/fuzzing.md): T hands work to U only from timers at grid
/// instants, so a hand-over a `perform … wait` pushed off the grid (it comes as U's waited task ends, in the
/// microseconds a real thread takes to wake) is not a fair case.
@Suite("fuzz cases hand work over on the grid")
struct FuzzHandOverGridTests {
    /// Seed 5 case 1765, which differed from CF: `t2`'s waited perform on U works 1 ms, so `t1`'s perform, in the
    /// same timer batch, is issued at 21 ms (and one iteration), as U's perform source ends.
    static func case1765(waitedWork: String = "      work 1ms\n") throws -> Scenario {
        let text = """
            scenario "fuzz seed 5 case 1765"

            thread T
              port p1
                block B1 in common
                  reschedule t1 in 20ms
                reschedule t2 in 20ms
              timer t1 at 20ms in common
                perform u4 on U
              timer t2 at 20ms
                perform u5 on U wait
            \(waitedWork)  send p1
              run default for 60ms

            thread U
              port q1
              source0 u1
              run default for 60ms
            """
        return try ScenarioParser.parse(text, file: "fuzz.loop").scenario
    }

    @Test("a perform pushed 1 ms off the grid by a waited perform in the same batch is refused")
    func offGridHandOverIsRefused() throws {
        let scenario = try Self.case1765()
        let run = try #require(FuzzValidator.endingRun(scenario))
        let performs = run.handOvers.filter { $0.from == "T" && $0.to == "U" }.map(\.time)
        #expect(performs == [LoopInstant(nanoseconds: 20_000_000), LoopInstant(nanoseconds: 21_001_500)])
        #expect(FuzzValidator.handsOverOffTheGrid(run))
        #expect(FuzzValidator.validate(scenario) == .failure(.offGridHandOver))
    }

    @Test("the same batch whose waited perform takes no time hands both over on the grid")
    func onGridHandOversPass() throws {
        let scenario = try Self.case1765(waitedWork: "")
        let run = try #require(FuzzValidator.endingRun(scenario))
        #expect(!run.handOvers.filter { $0.from == "T" }.isEmpty)
        #expect(!FuzzValidator.handsOverOffTheGrid(run))
        #expect(FuzzValidator.validate(scenario) != .failure(.offGridHandOver))
    }
}
