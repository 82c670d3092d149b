import Foundation
import Testing

/// `loopviz explore`, `run --schedule`, `diff` and `expect in every schedule`, through the built executable
/// (docs/races.md).
@Suite("loopviz explore, diff and schedules")
struct ExploreCommandTests {
    /// main starts T2 and at once sends it a perform: queued before T2's first run, or after it sleeps.
    static let race = """
        scenario "perform right after start"

        thread main main
          start T2
          perform threadEvent on T2
            say "performed"

        thread T2 later
          timer timeout at 2s
          RunLoop.run until 1s

        expect
          T2: perform threadEvent once

        expect in every schedule
          T2: perform threadEvent once
          never T2: timer timeout
        """

    @Test("explore prints each distinct outcome once, with its count, where it parts from the default and its replay")
    func exploreListsTheOutcomes() throws {
        let result = try LoopvizProcess.run(["explore", "race.loop"], files: ["race.loop": Self.race])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        #expect(
            result.stdout == """
                race.loop: 3 schedules, 2 distinct outcomes (every schedule run); at most 2 branch points in a run

                outcome 1 (the default schedule's): 2 schedules
                  schedule default
                  replay: loopviz run --schedule default race.loop
                  steps: main 0, T2 17

                outcome 2: 1 schedule
                  schedule 0:1
                  replay: loopviz run --schedule 0:1 race.loop
                  first choice apart: at 0.000, branch point 0: thread T2 went first (the default: thread main)
                  first step apart: thread T2, step 4: the default has source0 performSelector, this one beforeWaiting
                  steps: main 0, T2 21

                """)
    }

    @Test("a schedule bound stops explore with exit 3 and says how many schedules were left")
    func exploreIsBounded() throws {
        let result = try LoopvizProcess.run(
            ["explore", "race.loop", "--max-schedules", "1"], files: ["race.loop": Self.race])
        #expect(result.status == 3)
        #expect(
            result.stderr
                == "race.loop: stopped at --max-schedules 1 with 1 more schedule known (and perhaps more beyond "
                + "them); the outcomes printed are those of the schedules run\n")
    }

    @Test("check judges `expect in every schedule` in every schedule and says how many held it")
    func checkEverySchedule() throws {
        let result = try LoopvizProcess.run(["check", "--strict", "race.loop"], files: ["race.loop": Self.race])
        #expect(result.status == 0)
        #expect(
            result.stdout
                == "PASS race.loop (3 expect lines in 2 sections, 28 events, claims held in every one of 3 schedules)\n"
        )
    }

    @Test("check names the schedule that breaks a claim of every schedule, with its replay")
    func checkNamesTheBreakingSchedule() throws {
        let broken = Self.race.replacingOccurrences(
            of: "  never T2: timer timeout", with: "  T2: beforeWaiting once")
        let result = try LoopvizProcess.run(["check", "race.loop"], files: ["race.loop": broken])
        #expect(result.status == 1)
        #expect(
            result.stdout.hasPrefix(
                "FAIL race.loop\n  expect in every schedule (line 15) breaks in schedule 0:1 (replay: loopviz run "
                    + "--schedule 0:1 race.loop):\n"))
    }

    @Test("run --schedule replays a schedule; one the file does not have is refused with its branch point")
    func runSchedule() throws {
        let other = try LoopvizProcess.run(["run", "--schedule", "0:1", "race.loop"], files: ["race.loop": Self.race])
        #expect(other.status == 0)
        let plain = try LoopvizProcess.run(["run", "race.loop"], files: ["race.loop": Self.race])
        #expect(other.stdout != plain.stdout)
        let unfit = try LoopvizProcess.run(["run", "--schedule", "0:7", "race.loop"], files: ["race.loop": Self.race])
        #expect(unfit.status == 2)
        #expect(
            unfit.stderr
                == "loopviz: error: schedule 0:7 does not fit race.loop: its branch point 0 has 2 options (0 to 1); "
                + "run `loopviz explore` on this file again\n")
        let bad = try LoopvizProcess.run(["run", "--schedule", "soon", "race.loop"], files: ["race.loop": Self.race])
        #expect(bad.status == 2)
        #expect(
            bad.stderr.hasPrefix(
                "loopviz: error: 'soon' is not a schedule; use an id `loopviz explore` printed (e.g. 3:1,7:2) or default"
            ))
    }

    @Test("diff puts one file under two schedules side by side and marks the first difference")
    func diffTwoSchedules() throws {
        let result = try LoopvizProcess.run(["diff", "race.loop", "--with", "0:1"], files: ["race.loop": Self.race])
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n").prefix(4).map {
            $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        }
        #expect(
            lines == [
                "A: race.loop (schedule default)", "B: race.loop (schedule 0:1)", "# A B",
                ">> 0 0.000 T2 schedule performSelector 0.000 T2 threadCreate T2",
            ])
        let same = try LoopvizProcess.run(["diff", "race.loop", "race.loop"], files: ["race.loop": Self.race])
        #expect(same.status == 0)
        #expect(!same.stdout.contains(">>"))
    }
}
