import Foundation
import LoopEngine
import Testing

@testable import loopviz

/// `loopviz hangs` through the built executable: what it lists, and its exit status at the boundaries.
@Suite("loopviz hangs")
struct HangsCommandTests {
    /// A trace with one busy segment of `seconds` (from afterWaiting at 1.000 to beforeWaiting), with a mark.
    static func trace(busy seconds: String) -> String {
        func line(_ t: String, _ kind: String, _ rest: String = #""name":null,"detail":null"#) -> String {
            #"{"t":\#(t),"thread":"main","depth":1,"mode":"default","iteration":1,"kind":"\#(kind)",\#(rest)}"#
        }
        return [
            #"{"format":"loopviz-trace","version":1,"scenario":"s","clock":"real","events":4}"#,
            line("1.000", "afterWaiting"),
            line("1.001", "note", #""name":"slow timer","detail":"begin","fact":["mark","begin"]"#),
            line(seconds, "beforeWaiting"),
            line(seconds, "observer", #""name":"LoopRecorder","detail":"beforeWaiting","fact":["activity",32]"#),
        ].joined(separator: "\n") + "\n"
    }

    @Test("a segment as long as the threshold is a hang (exit 1); one nanosecond less is not (exit 0)")
    func boundaries() throws {
        let at = try LoopvizProcess.run(["hangs", "t.jsonl"], files: ["t.jsonl": Self.trace(busy: "1.250")])
        #expect(at.status == 1)
        #expect(
            at.stdout == """
                hang 0.250s at 1.000 on main mode default depth 1: afterWaiting -> beforeWaiting
                  1.001 begin slow timer
                  verdict: busy (the loop did not sleep in its wait)
                  held by: wake-up work (afterWaiting -> beforeTimers: the observers of afterWaiting, then the timer, port or main queue that woke the loop, and blocks)
                  phases: wake-up work 100.0% (0.250s), beforeWaiting observers 0.0% (0.000s)
                t.jsonl: 1 hang at the threshold of 0.250s (0 severe), 0 micro-hangs, in 1 busy segment; the longest 0.250s

                """)
        let below = try LoopvizProcess.run(["hangs", "t.jsonl"], files: ["t.jsonl": Self.trace(busy: "1.249999999")])
        #expect(below.status == 0)
        #expect(below.stdout.hasPrefix("micro-hang 0.249999999s at 1.000 on main"))
        let severe = try LoopvizProcess.run(
            ["hangs", "t.jsonl", "--threshold", "100ms"], files: ["t.jsonl": Self.trace(busy: "1.500")])
        #expect(severe.status == 1)
        #expect(severe.stdout.hasPrefix("severe hang 0.500s at 1.000"))
        #expect(severe.stdout.contains("1 hang at the threshold of 0.100s (1 severe)"))
        let quiet = try LoopvizProcess.run(["hangs", "t.jsonl"], files: ["t.jsonl": Self.trace(busy: "1.050")])
        #expect(quiet.status == 0)
        #expect(
            quiet.stdout
                == "t.jsonl: 0 hangs at the threshold of 0.250s (0 severe), 0 micro-hangs, in 1 busy segment; the longest 0.050s\n"
        )
    }

    @Test("rows are named against the threshold in force, as the totals count them")
    func namesFollowTheThreshold() throws {
        let low = try LoopvizProcess.run(
            ["hangs", "t.jsonl", "--threshold", "1ms"], files: ["t.jsonl": Self.trace(busy: "1.050")])
        #expect(low.status == 1)
        #expect(low.stdout.hasPrefix("hang 0.050s at 1.000 on main"))
        #expect(low.stdout.contains("1 hang at the threshold of 0.001s (0 severe), 0 micro-hangs,"))
        let high = try LoopvizProcess.run(
            ["hangs", "t.jsonl", "--threshold", "500ms"], files: ["t.jsonl": Self.trace(busy: "1.300")])
        #expect(high.status == 0)
        #expect(high.stdout.hasPrefix("micro-hang 0.300s at 1.000 on main"))
        #expect(high.stdout.contains("0 hangs at the threshold of 0.500s (0 severe), 1 micro-hang,"))
    }

    @Test("a pause note written after the loop went to sleep still counts for the hang it lay in")
    func pauseAfterTheSegment() throws {
        func line(_ t: String, _ kind: String, _ rest: String = #""name":null,"detail":null"#) -> String {
            #"{"t":\#(t),"thread":"main","depth":1,"mode":"default","iteration":1,"kind":"\#(kind)",\#(rest)}"#
        }
        let text =
            [
                #"{"format":"loopviz-trace","version":1,"scenario":"s","clock":"real","events":5}"#,
                line("1.000", "afterWaiting"),
                line("1.700", "beforeWaiting"),
                line("1.700", "observer", #""name":"LoopRecorder","detail":"beforeWaiting","fact":["activity",32]"#),
                line(
                    "1.701", "note",
                    #""name":"paused","detail":"the recorder's sampler did not run for 0.640s: the process was stopped or had no CPU","fact":["paused",640000000]"#
                ),
                line("2.000", "afterWaiting"),
            ].joined(separator: "\n") + "\n"
        let result = try LoopvizProcess.run(["hangs", "t.jsonl"], files: ["t.jsonl": text])
        #expect(result.status == 1)
        #expect(
            result.stdout.contains(
                "\n  verdict: not the program's work: the process did not run for 0.639s of it (stopped by a signal or a debugger, or it had no CPU), busy 0.061s\n"
            ), "\(result.stdout)")
    }

    @Test("a corrupt trace is refused with its line and column (exit 2)")
    func corrupt() throws {
        let text = Self.trace(busy: "1.250").replacingOccurrences(of: #""kind":"note""#, with: #""kind":note"#)
        let result = try LoopvizProcess.run(["hangs", "t.jsonl"], files: ["t.jsonl": text])
        #expect(result.status == 2)
        #expect(result.stderr == "loopviz: error: t.jsonl:3:76: expected null\n")
    }

    @Test("run converts a trace file to another format")
    func convert() throws {
        let result = try LoopvizProcess.run(
            ["run", "t.jsonl", "--trace", "text"], files: ["t.jsonl": Self.trace(busy: "1.250")])
        #expect(result.status == 0)
        #expect(
            result.stdout == """
                time   thread  depth  mode     event          name          detail
                1.000  main    1      default  afterWaiting
                1.001  main    1      default  note           slow timer    begin
                1.250  main    1      default  beforeWaiting
                1.250  main    1      default  observer       LoopRecorder  beforeWaiting

                """)
    }
}

/// `loopviz hangs --detector`: the SDKs' detectors replayed over a hand-made recording, through the executable.
@Suite("loopviz hangs --detector")
struct HangsDetectorCommandTests {
    static func line(_ t: String, _ kind: String, depth: Int = 1, mode: String = "default") -> String {
        #"{"t":\#(t),"thread":"main","depth":\#(depth),"mode":"\#(mode)","iteration":1,"kind":"\#(kind)","name":null,"detail":null}"#
    }

    static func last(_ t: String, depth: Int = 1, mode: String = "default") -> String {
        #"{"t":\#(t),"thread":"main","depth":\#(depth),"mode":"\#(mode)","iteration":1,"kind":"observer","name":"LoopRecorder","detail":"beforeWaiting","fact":["activity",32]}"#
    }

    /// A 3 s hang in a source at 10 s, then a nested run of mode `private` asleep for 3 s inside a callout at 20 s.
    static let recording =
        [
            #"{"format":"loopviz-trace","version":1,"scenario":"s","clock":"real","events":24}"#,
            line("0.000", "entry"), line("0.000", "beforeTimers"), line("0.000", "beforeSources"),
            line("0.000", "beforeWaiting"), last("0.000"),
            line("10.000", "afterWaiting"), line("10.000", "beforeTimers"), line("10.000", "beforeSources"),
            line("13.500", "beforeWaiting"), last("13.500"),
            line("20.000", "afterWaiting"), line("20.000", "beforeTimers"), line("20.000", "beforeSources"),
            line("20.010", "entry", depth: 2, mode: "private"),
            line("20.010", "beforeTimers", depth: 2, mode: "private"),
            line("20.010", "beforeSources", depth: 2, mode: "private"),
            line("20.010", "beforeWaiting", depth: 2, mode: "private"), last("20.010", depth: 2, mode: "private"),
            line("23.010", "afterWaiting", depth: 2, mode: "private"),
            line("23.010", "exit", depth: 2, mode: "private"),
            line("23.020", "beforeWaiting"), last("23.020"),
            line("30.000", "afterWaiting"), line("30.000", "beforeTimers"),
        ].joined(separator: "\n") + "\n"

    @Test("each detector's line under the hang, and the reports each made while the loop slept in a private mode")
    func allDetectors() throws {
        let result = try LoopvizProcess.run(
            ["hangs", "t.jsonl", "--detector", "all", "--common-modes", "default"],
            files: ["t.jsonl": Self.recording])
        #expect(result.status == 1)
        #expect(
            result.stdout == """
                severe hang 3.500s at 10.000 on main mode default depth 1: afterWaiting -> beforeWaiting
                  verdict: busy (the loop did not sleep in its wait)
                  held by: sources and blocks (beforeSources -> beforeWaiting: the observers of beforeSources, blocks, version-0 sources)
                  phases: sources and blocks 100.0% (3.500s), wake-up work 0.0% (0.000s), beforeTimers observers 0.0% (0.000s), beforeWaiting observers 0.0% (0.000s)
                  sentry: reported at 12.000, 2.000s into its window (from 10.000)
                  matrix: reported at 13.000, 3.000s into its window (from 10.000)
                  bugsnag: reported at 12.000, 2.000s into its window (from 10.000)
                  kscrash: reported at 10.250, 0.250s into its window (from 10.000)
                detectors (replayed on main; common modes: default):
                  sentry (SentryANRTrackerV1): a main-queue ping every 0.400s; a hang when 5 in a row were not run (2.000s)
                    2 reports (1 while the loop slept), 0 missed (busy stretches as long as its threshold, not reported)
                    not a hang: at 22.000, a window of 2.000s from 20.000, but the loop slept in the kernel for 1.990s of it (busy at most 0.010s at a time; the run then was in mode private)
                  matrix (WCBlockMonitorMgr): observers at LONG_MIN and LONG_MAX; a look every 1.000s after the first at 5.000s; a window longer than 2.000s
                    2 reports (1 while the loop slept), 0 missed (busy stretches as long as its threshold, not reported)
                    not a hang: at 23.000, a window of 3.000s from 20.000, but the loop slept in the kernel for 2.990s of it (busy at most 0.010s at a time; the run then was in mode private)
                  bugsnag (BSGAppHangDetector): an observer at INT_MAX; a unit from afterWaiting or beforeSources to the next beforeSources or beforeWaiting; a deadline 2.000s after it began
                    2 reports (1 while the loop slept), 0 missed (busy stretches as long as its threshold, not reported)
                    not a hang: at 22.000, a window of 2.000s from 20.000, but the loop slept in the kernel for 1.990s of it (busy at most 0.010s at a time; the run then was in mode private)
                  kscrash (KSCrashMonitor_Watchdog): an observer at order 0; a window from afterWaiting to beforeWaiting; a timer every 0.250s, a hang at 0.250s
                    2 reports (1 while the loop slept), 0 missed (busy stretches as long as its threshold, not reported)
                    not a hang: at 20.250, a window of 0.250s from 20.000, but the loop slept in the kernel for 0.240s of it (busy at most 0.010s at a time; the run then was in mode private)
                t.jsonl: 1 hang at the threshold of 0.250s (1 severe), 0 micro-hangs, in 5 busy segments; the longest 3.500s

                """)
    }

    @Test("a threshold a detector refuses is said; an unknown detector and --common-modes alone are usage errors")
    func usage() throws {
        let refused = try LoopvizProcess.run(
            ["hangs", "t.jsonl", "--detector", "matrix,kscrash", "--threshold", "100ms"],
            files: ["t.jsonl": Self.recording])
        #expect(
            refused.stdout.contains(
                "a window longer than 2.000s; it does not take a threshold of 0.100s, so keeps 2.000s"))
        #expect(refused.stdout.contains("a hang at 0.250s; it does not take a threshold of 0.100s, so keeps 0.250s"))
        let unknown = try LoopvizProcess.run(
            ["hangs", "t.jsonl", "--detector", "datadog"], files: ["t.jsonl": Self.recording])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("datadog"))
        let alone = try LoopvizProcess.run(
            ["hangs", "t.jsonl", "--common-modes", "default"], files: ["t.jsonl": Self.recording])
        #expect(alone.status == 2)
        #expect(alone.stderr == "loopviz: error: --common-modes goes with --detector\nSee 'loopviz hangs --help'.\n")
    }
}

/// The words for each reason a detector let a busy stretch pass.
@Suite("loopviz hangs --detector: the reasons for a miss")
struct HangDetectorMissWordingTests {
    @Test("each reason in words, with the detector's threshold and period")
    func reasons() {
        let settings = HangDetector.matrix.settings(threshold: nil, commonModes: ["default"])
        let rows: [(HangDetector.Miss, String)] = [
            (
                .windowsCut(longest: .milliseconds(100), by: .beforeSources),
                "its windows inside were shorter than its threshold 2.000s (beforeSources ended or began one while the loop was busy); the longest 0.100s"
            ),
            (
                .windowsCut(longest: .milliseconds(100), by: nil),
                "its windows inside were shorter than its threshold 2.000s; the longest 0.100s"
            ),
            (
                .lookedTooLate(window: .milliseconds(2_500), period: .seconds(1)),
                "its window reached 2.500s, but its thread, looking every 1.000s, did not look between 2.000s into it and its end"
            ),
            (.beforeFirstLook(.seconds(5)), "it ended before the detector's first look, 5.000s after it started"),
            (
                .pingsAnswered(longestWait: .milliseconds(1_910)),
                "the main queue ran its pings in time (the longest wait 1.910s, under its threshold 2.000s): the loop looked at the main queue between its callouts"
            ),
            (.notObserved(mode: "private"), "the loop ran it in a run of mode private, which its observers are not in"),
        ]
        for (miss, words) in rows { #expect(HangReport.words(miss, settings) == words) }
    }
}
