import LoopEngine

/// The one place that words a ``CommandLineProblem``.
extension CommandLineProblem: CustomStringConvertible {
    /// True for a problem with the command line itself: its message ends with where to read the command's help.
    /// The others (the platform, a scenario, a file) are errors of what was asked, not of how.
    var isUsage: Bool {
        switch self {
        case .realBackendLinuxOnly, .benchLinuxOnly, .cannotRunOnRealThreads, .cannotRead, .liveNeedsATerminal,
            .cannotFollow, .noSuchTrace,
            .tooLarge,
            .layoutWouldChange, .readOnly, .hardLinks, .scheduleDoesNotFit, .keyMap:
            false
        default: true
        }
    }

    /// The problem's words, without the `loopviz: error: ` before them. The user's text is quoted as typed: a
    /// usage problem is made terminal-safe whole when it is printed; the others make their paths safe here.
    var description: String {
        let safe = TerminalSafeText.terminalSafe
        switch self {
        case .unknownCommand(let name): return "unknown command '\(name)'"
        case .unknownOption(let name): return "unknown option '\(name)'"
        case .takesNoValue(let option): return "option '\(option)' takes no value"
        case .givenTwice(let option): return "option '\(option)' is given twice"
        case .needsValue(let option): return "option '\(option)' needs a value"
        case .notAChoice(let value, let option, let expected):
            let list = expected.count == 1 ? ": \(expected[0])" : " one of: \(expected.joined(separator: ", "))"
            return "'\(value)' is not a valid value for \(option); expected\(list)"
        case .missingOption(let option, let value): return "missing \(option) \(value)"
        case .missingArgument(let argument): return "missing \(argument)"
        case .takesOneArgument(let command, let argument): return "\(command) takes one \(argument)"
        case .unexpectedArgument(let argument): return "unexpected argument '\(argument)'"

        case .notATime(let text, let example): return "'\(text)' is not a time; use e.g. \(example)"
        case .needsUnit(let text): return "'\(text)' needs a unit, e.g. \(text)ms"
        case .notATimeAboveZero(let text, let example): return "'\(text)' is not a time above zero; use e.g. \(example)"
        case .notAnIterationCost(let text):
            return "'\(safe(text))' is not an iteration cost; use a time from 0 to 1s, e.g. 2us or 0"
        case .notALanguage(let text): return "'\(safe(text))' is not a language; expected en or zh"
        case .notAClock(let text): return "'\(text)' is not a clock; expected virtual or real"
        case .notANumberOfEvents(let text): return "'\(safe(text))' is not a number of events; use e.g. 5000000"
        case .tooFewEvents(let text): return "'\(safe(text))' is not a number of events: at least 1; use e.g. 5000000"
        case .tooManyEvents(let text, let maximum):
            return "'\(safe(text))' is more events than a run may record: at most \(maximum); use e.g. 5000000"
        case .wholeNumber(let option, let lower, let upper):
            return "\(option) takes a whole number from \(lower)" + (upper.map { " to \($0)" } ?? "")
        case .notACount(let text, let counting, let lower, let upper):
            return "'\(text)' is not a number of \(counting) (\(Self.grouped(lower)) to \(Self.grouped(upper)))"
        case .notASize(let text): return "'\(text)' is not a size like 80x24 (from 1x1 to 1000x1000)"
        case .notAStep(let text): return "'\(text)' is not a step number"
        case .notASchedule(let text):
            return "'\(text)' is not a schedule; use an id `loopviz explore` printed (e.g. 3:1,7:2) or default"

        case .goesWith(let option, let other): return "\(option) goes with \(other)"
        case .doesNotApplyToTrace(let option, let path): return "\(option) does not apply to a trace file (\(path))"
        case .doesNotGoWithWorkload(let option, let workload, let reason):
            let why: String
            switch reason {
            case .runsOnVirtualClock: why = " (it runs on the virtual clock)"
            case .recordsOnVirtualClock: why = " (it records on the virtual clock)"
            case nil: why = ""
            }
            return "\(option) does not go with \(workload)\(why)"
        case .needsExactlyOne(let option, let choices):
            return "\(option) needs exactly one of \(choices.joined(separator: " and "))"
        case .diffNeedsTwoRuns: return "diff compares two files (A B), or one FILE under --schedule and --with"

        case .realClockRunsOneFile: return "--clock real runs one FILE (the lesson keys need the virtual clock)"
        case .traceOpensAlone: return "a trace (FILE.jsonl) opens alone, not in a playlist"
        case .followOpensAlone(let path):
            return "--follow FILE.jsonl opens that recording alone: \(safe(path)) is one FILE too many"
        case .notWithFollow(let option):
            return "--follow shows a recording as it is written: \(option) is for a finished one"
        case .liveNeedsAFile(let path):
            return "--live follows the recording as a file: -o \(path) must name a regular file or a new one "
                + "(not standard output, a device or a FIFO)"
        case .screenDoesNotRecord: return "`screen` prints one screen: --record is for the UI"
        case .screenIsVirtual:
            return "`screen` draws the virtual clock's replay; on real threads nothing is the same twice"
        case .traceHasNoClock: return "a trace replays what was recorded: --clock does not apply"

        case .unknownWorkload(let name, let expected, let someOf):
            return "unknown workload '\(name)'; expected \(someOf ? "some" : "one") of: "
                + expected.joined(separator: ", ")
        case .notASingleWorkload(let name):
            return "--workload runs per-iteration, virtual, memory, run-jsonl, run-text or "
                + "scale-ports|timers|repeating, not '\(name)'"
        case .virtualHasNoCFSide: return "the virtual workload has no CF side; use --engine"

        case .realBackendLinuxOnly: return "the real backend is built on Linux only (epoll); use --clock virtual"
        case .benchLinuxOnly:
            return "bench is built on Linux only: its real rows run the real backend (epoll) and its baselines are "
                + "eventfds and timerfds"
        case .cannotRunOnRealThreads(let path, let reason):
            return "\(path.map(safe) ?? "this scenario") cannot run on real threads: \(reason)"
        case .cannotRead(let path): return "\(safe(path)): cannot read"
        case .liveNeedsATerminal:
            return "record --live shows the recording in the UI: standard input and output must be a terminal "
                + "(record without --live records with no UI)"
        case .cannotFollow(let path, let reason): return "\(safe(path)): cannot follow it: \(reason)"
        case .noSuchTrace(let path): return "\(safe(path)): no such file, or cannot read it"
        case .tooLarge(let path, let maximum):
            return "\(safe(path)): larger than \(maximum >> 20) MiB; a scenario file is at most \(maximum) bytes"
        case .layoutWouldChange(let path):
            return "\(safe(path)): its layout would change what it means or lose a comment; left as it is "
                + "(please report this file)"
        case .readOnly(let path): return "\(safe(path)) is read-only; left as it is"
        case .hardLinks(let path, let count):
            return "\(safe(path)) has \(count) hard links, which a rewrite would split; left as it is"
        case .keyMap(let problem): return problem.description
        case .scheduleDoesNotFit(let id, let path, let branchPoint, let options):
            return "schedule \(safe(id)) does not fit \(safe(path)): its branch point \(branchPoint) has "
                + "\(options) options (0 to \(options - 1)); run `loopviz explore` on this file again"
        }
    }

    /// `1,000,000`: a bound as the bench's tables write numbers.
    static func grouped(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { out += "," }
            out.append(digit)
        }
        return (number < 0 ? "-" : "") + out
    }
}
