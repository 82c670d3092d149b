/// Small scenarios the command-line tests of both test targets run (a symlink shares this file with
/// RealTimeJudgeTests).
enum SampleScenarios {
    /// One timer fire, with the whole trace expected: `check` passes it.
    static let good = """
        scenario "good"
        thread T
          timer t at 50ms
          run default for 1s
        expect exactly
          runStart default
          entry
          beforeTimers
          beforeSources
          beforeWaiting
          0.050 afterWaiting
          0.050 timer t
          exit
          result finished
        """
}
