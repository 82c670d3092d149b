/// Fuzz seed 5 case 1316, made small (docs/concurrency.md rule 4): a nested rash run drains a main-actor task
/// that yields, and the outer run looks at the main queue right after. `MainActorYieldRaceTests` explores it on
/// the virtual clock, `CompareMainActorTests` compares it with the real runtime: one text for both.
public enum YieldRaceFixture {
    /// The scenario's `.loop` text; `extraWork` (indented lines of the thread's program) goes before the last run.
    public static func text(extraWork: String = "") -> String {
        """
        scenario "yield during a nested drain"
        thread T main
          source0 s1 in common
            call 1: run default for 20ms returnAfterSourceHandled
          perform f1 order 2 in common
            signal s1
          mainactor A1
            await yield
        \(extraWork)  RunLoop.run until 60ms
        """
    }
}
