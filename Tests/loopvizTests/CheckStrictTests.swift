import Foundation
import Testing

/// `loopviz check` and the lint's warnings, through the built executable.
@Suite("loopviz check --strict")
struct CheckStrictTests {
    /// A run of a misspelt mode: it runs (and its promise holds), but not as meant.
    static let misspelt = """
        thread T
          timer tick at 100ms in Tracking
          run Trackng for 300ms

        expect
          runStart Trackng
        """

    @Test("a warning is printed on standard error and the file still runs; with --strict the file is an ERROR (2)")
    func warningsAndStrict() throws {
        let files = ["typo.loop": Self.misspelt]
        let lenient = try LoopvizProcess.run(["check", "typo.loop"], files: files)
        #expect(lenient.status == 0)
        #expect(lenient.stdout.hasPrefix("PASS typo.loop"))
        #expect(
            lenient.stderr
                == "typo.loop:3:7: warning: mode 'Trackng' has no items; did you mean 'Tracking'?\n"
                + "    run Trackng for 300ms\n        ^\n")
        let strict = try LoopvizProcess.run(["check", "--strict", "typo.loop"], files: files)
        #expect(strict.status == 2)
        #expect(strict.stdout == "ERROR typo.loop: 1 warning (--strict)\n")
        #expect(strict.stderr == lenient.stderr)
    }

    @Test("hangs --threshold without a unit says the unit is missing")
    func thresholdWithoutUnit() throws {
        let result = try LoopvizProcess.run(["hangs", "t.jsonl", "--threshold", "1"], files: [:])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("loopviz: error: '1' needs a unit, e.g. 1ms\n"))
    }
}
