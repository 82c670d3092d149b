import Testing

@testable import loopviz

/// Every ``CommandLineProblem`` in the words a user reads, one row a case: the wording file is the one place
/// they are made, and this table is where a change to them shows.
@Suite("Command-line problems are worded in one place")
struct CommandLineProblemWordingTests {
    /// The case's name, for the check that every case has a row: a new case does not compile here until it has
    /// one, and then fails `everyCaseHasARow` until the table has its row.
    static func name(_ problem: CommandLineProblem) -> String {
        switch problem {
        case .unknownCommand: "unknownCommand"
        case .unknownOption: "unknownOption"
        case .takesNoValue: "takesNoValue"
        case .givenTwice: "givenTwice"
        case .needsValue: "needsValue"
        case .notAChoice: "notAChoice"
        case .missingOption: "missingOption"
        case .missingArgument: "missingArgument"
        case .takesOneArgument: "takesOneArgument"
        case .unexpectedArgument: "unexpectedArgument"
        case .notATime: "notATime"
        case .needsUnit: "needsUnit"
        case .notATimeAboveZero: "notATimeAboveZero"
        case .notAnIterationCost: "notAnIterationCost"
        case .notALanguage: "notALanguage"
        case .notAClock: "notAClock"
        case .notANumberOfEvents: "notANumberOfEvents"
        case .tooFewEvents: "tooFewEvents"
        case .tooManyEvents: "tooManyEvents"
        case .wholeNumber: "wholeNumber"
        case .notACount: "notACount"
        case .notASize: "notASize"
        case .notAStep: "notAStep"
        case .notASchedule: "notASchedule"
        case .goesWith: "goesWith"
        case .doesNotApplyToTrace: "doesNotApplyToTrace"
        case .doesNotGoWithWorkload: "doesNotGoWithWorkload"
        case .needsExactlyOne: "needsExactlyOne"
        case .diffNeedsTwoRuns: "diffNeedsTwoRuns"
        case .realClockRunsOneFile: "realClockRunsOneFile"
        case .traceOpensAlone: "traceOpensAlone"
        case .screenDoesNotRecord: "screenDoesNotRecord"
        case .screenIsVirtual: "screenIsVirtual"
        case .traceHasNoClock: "traceHasNoClock"
        case .followOpensAlone: "followOpensAlone"
        case .notWithFollow: "notWithFollow"
        case .liveNeedsAFile: "liveNeedsAFile"
        case .unknownWorkload: "unknownWorkload"
        case .notASingleWorkload: "notASingleWorkload"
        case .virtualHasNoCFSide: "virtualHasNoCFSide"
        case .realBackendLinuxOnly: "realBackendLinuxOnly"
        case .benchLinuxOnly: "benchLinuxOnly"
        case .cannotRunOnRealThreads: "cannotRunOnRealThreads"
        case .cannotRead: "cannotRead"
        case .liveNeedsATerminal: "liveNeedsATerminal"
        case .cannotFollow: "cannotFollow"
        case .noSuchTrace: "noSuchTrace"
        case .tooLarge: "tooLarge"
        case .layoutWouldChange: "layoutWouldChange"
        case .readOnly: "readOnly"
        case .hardLinks: "hardLinks"
        case .scheduleDoesNotFit: "scheduleDoesNotFit"
        case .keyMap: "keyMap"
        }
    }

    /// Every case's name, in the order of the enum; `name(_:)` gives one of these for each case.
    static let names = [
        "unknownCommand", "unknownOption", "takesNoValue", "givenTwice", "needsValue", "notAChoice", "missingOption",
        "missingArgument", "takesOneArgument", "unexpectedArgument", "notATime", "needsUnit", "notATimeAboveZero",
        "notAnIterationCost", "notALanguage", "notAClock", "notANumberOfEvents", "tooFewEvents", "tooManyEvents",
        "wholeNumber", "notACount", "notASize", "notAStep", "notASchedule", "goesWith", "doesNotApplyToTrace",
        "doesNotGoWithWorkload", "needsExactlyOne", "diffNeedsTwoRuns", "realClockRunsOneFile", "traceOpensAlone",
        "screenDoesNotRecord",
        "screenIsVirtual", "traceHasNoClock", "followOpensAlone", "notWithFollow", "liveNeedsAFile",
        "unknownWorkload",
        "notASingleWorkload", "virtualHasNoCFSide",
        "realBackendLinuxOnly", "benchLinuxOnly", "cannotRunOnRealThreads", "cannotRead", "liveNeedsATerminal",
        "cannotFollow",
        "noSuchTrace",
        "tooLarge",
        "layoutWouldChange", "readOnly", "hardLinks", "scheduleDoesNotFit", "keyMap",
    ]

    /// Each problem, whether it is a usage problem (its message ends with where to read the help), and its words.
    static let table: [(problem: CommandLineProblem, usage: Bool, words: String)] = [
        (.unknownCommand("frobnicate"), true, "unknown command 'frobnicate'"),
        (.unknownOption("--frob"), true, "unknown option '--frob'"),
        (.takesNoValue(option: "--strict"), true, "option '--strict' takes no value"),
        (.givenTwice(option: "--quiet"), true, "option '--quiet' is given twice"),
        (.needsValue(option: "-o"), true, "option '-o' needs a value"),
        (
            .notAChoice("xml", option: "--trace", expected: ["text", "jsonl"]), true,
            "'xml' is not a valid value for --trace; expected one of: text, jsonl"
        ),
        (
            .notAChoice("swift", option: "--against", expected: ["cf"]), true,
            "'swift' is not a valid value for --against; expected: cf"
        ),
        (.missingOption("--against", value: "cf"), true, "missing --against cf"),
        (.missingArgument("FILE.jsonl"), true, "missing FILE.jsonl"),
        (.takesOneArgument(command: "run", argument: "FILE"), true, "run takes one FILE"),
        (.unexpectedArgument("extra"), true, "unexpected argument 'extra'"),
        (.notATime("soon", example: "2s or 500ms"), true, "'soon' is not a time; use e.g. 2s or 500ms"),
        (.needsUnit("1"), true, "'1' needs a unit, e.g. 1ms"),
        (.notATimeAboveZero("0ms", example: "250ms"), true, "'0ms' is not a time above zero; use e.g. 250ms"),
        (.notAnIterationCost("5s"), true, "'5s' is not an iteration cost; use a time from 0 to 1s, e.g. 2us or 0"),
        (.notALanguage("fr"), true, "'fr' is not a language; expected en or zh"),
        (.notAClock("moon"), true, "'moon' is not a clock; expected virtual or real"),
        (.notANumberOfEvents("x"), true, "'x' is not a number of events; use e.g. 5000000"),
        (.tooFewEvents("0"), true, "'0' is not a number of events: at least 1; use e.g. 5000000"),
        (
            .tooManyEvents("99999999999", maximum: 10_000_000), true,
            "'99999999999' is more events than a run may record: at most 10000000; use e.g. 5000000"
        ),
        (
            .wholeNumber(option: "--cases", lower: 1, upper: 100_000), true,
            "--cases takes a whole number from 1 to 100000"
        ),
        (.wholeNumber(option: "--start", lower: 0, upper: nil), true, "--start takes a whole number from 0"),
        (
            .notACount("0", counting: "items", lower: 1, upper: 1_000_000), true,
            "'0' is not a number of items (1 to 1,000,000)"
        ),
        (.notASize("0x0"), true, "'0x0' is not a size like 80x24 (from 1x1 to 1000x1000)"),
        (.notAStep("x"), true, "'x' is not a step number"),
        (
            .notASchedule("soon"), true,
            "'soon' is not a schedule; use an id `loopviz explore` printed (e.g. 3:1,7:2) or default"
        ),
        (.goesWith(option: "--virtual", other: "--engine"), true, "--virtual goes with --engine"),
        (
            .doesNotApplyToTrace(option: "--clock", path: "t.jsonl"), true,
            "--clock does not apply to a trace file (t.jsonl)"
        ),
        (
            .doesNotGoWithWorkload(option: "--cf", workload: "scale-ports", reason: .runsOnVirtualClock), true,
            "--cf does not go with scale-ports (it runs on the virtual clock)"
        ),
        (
            .doesNotGoWithWorkload(option: "--cf", workload: "memory", reason: .recordsOnVirtualClock), true,
            "--cf does not go with memory (it records on the virtual clock)"
        ),
        (
            .doesNotGoWithWorkload(option: "--engine", workload: "run-jsonl", reason: nil), true,
            "--engine does not go with run-jsonl"
        ),
        (
            .needsExactlyOne(option: "--workload", of: ["--engine", "--cf"]), true,
            "--workload needs exactly one of --engine and --cf"
        ),
        (.diffNeedsTwoRuns, true, "diff compares two files (A B), or one FILE under --schedule and --with"),
        (.realClockRunsOneFile, true, "--clock real runs one FILE (the lesson keys need the virtual clock)"),
        (.traceOpensAlone, true, "a trace (FILE.jsonl) opens alone, not in a playlist"),
        (.screenDoesNotRecord, true, "`screen` prints one screen: --record is for the UI"),
        (
            .followOpensAlone("b.jsonl"), true,
            "--follow FILE.jsonl opens that recording alone: b.jsonl is one FILE too many"
        ),
        (
            .notWithFollow(option: "--step"), true,
            "--follow shows a recording as it is written: --step is for a finished one"
        ),
        (
            .liveNeedsAFile("/dev/null"), true,
            "--live follows the recording as a file: -o /dev/null must name a regular file or a new one (not standard output, a device or a FIFO)"
        ),
        (
            .liveNeedsATerminal, false,
            "record --live shows the recording in the UI: standard input and output must be a terminal (record without --live records with no UI)"
        ),
        (
            .cannotFollow(path: "a.jsonl", reason: "No such file or directory"), false,
            "a.jsonl: cannot follow it: No such file or directory"
        ),
        (
            .screenIsVirtual, true,
            "`screen` draws the virtual clock's replay; on real threads nothing is the same twice"
        ),
        (.traceHasNoClock, true, "a trace replays what was recorded: --clock does not apply"),
        (
            .unknownWorkload("nonsense", expected: ["wake", "idle"], someOf: true), true,
            "unknown workload 'nonsense'; expected some of: wake, idle"
        ),
        (
            .unknownWorkload("scale-x", expected: ["scale-ports"], someOf: false), true,
            "unknown workload 'scale-x'; expected one of: scale-ports"
        ),
        (
            .notASingleWorkload("nope"), true,
            "--workload runs per-iteration, virtual, memory, run-jsonl, run-text or scale-ports|timers|repeating, not 'nope'"
        ),
        (.virtualHasNoCFSide, true, "the virtual workload has no CF side; use --engine"),
        (.realBackendLinuxOnly, false, "the real backend is built on Linux only (epoll); use --clock virtual"),
        (
            .benchLinuxOnly, false,
            "bench is built on Linux only: its real rows run the real backend (epoll) and its baselines are "
                + "eventfds and timerfds"
        ),
        (
            .cannotRunOnRealThreads(path: "a.loop", reason: "it uses X"), false,
            "a.loop cannot run on real threads: it uses X"
        ),
        (
            .cannotRunOnRealThreads(path: nil, reason: "it uses X"), false,
            "this scenario cannot run on real threads: it uses X"
        ),
        (.cannotRead(path: "nowhere.loop"), false, "nowhere.loop: cannot read"),
        (.noSuchTrace(path: "t.jsonl"), false, "t.jsonl: no such file, or cannot read it"),
        (
            .tooLarge(path: "big.loop", maximum: 4_194_304), false,
            "big.loop: larger than 4 MiB; a scenario file is at most 4194304 bytes"
        ),
        (
            .layoutWouldChange(path: "a.loop"), false,
            "a.loop: its layout would change what it means or lose a comment; left as it is (please report this file)"
        ),
        (.readOnly(path: "a.loop"), false, "a.loop is read-only; left as it is"),
        (
            .hardLinks(path: "a.loop", count: 2), false,
            "a.loop has 2 hard links, which a rewrite would split; left as it is"
        ),
        (
            .scheduleDoesNotFit("3:2", path: "a.loop", branchPoint: 3, options: 2), false,
            "schedule 3:2 does not fit a.loop: its branch point 3 has 2 options (0 to 1); run `loopviz explore` on "
                + "this file again"
        ),
        (
            .keyMap(KeyMapProblem("keys", line: 3, column: 6, .unknownKey("Ctrl-X"))), false,
            "keys:3:6: unknown key 'Ctrl-X': one character, or Space Enter Esc Tab BackTab Up Down Left Right PgUp "
                + "PgDn Home End Backspace"
        ),
    ]

    @Test("each problem reads as the table says", arguments: table.indices)
    func wording(_ index: Int) {
        let row = Self.table[index]
        #expect(row.problem.description == row.words)
        #expect(row.problem.isUsage == row.usage)
    }

    @Test("every case of CommandLineProblem has a row in the table")
    func everyCaseHasARow() {
        #expect(Set(Self.table.map { Self.name($0.problem) }) == Set(Self.names))
    }

    @Test("a path in a problem that is not a usage problem is made terminal-safe where it is worded")
    func pathsAreTerminalSafe() {
        #expect(CommandLineProblem.cannotRead(path: "\u{1B}[2J.loop").description == "\\e[2J.loop: cannot read")
    }
}
