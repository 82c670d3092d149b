/// A problem with a command line, or with a file a command was given, as data: what is wrong and the values it
/// concerns, without its wording. `CommandLineProblem+Wording.swift` is the one place that turns each case into
/// the text users see; `CommandLine.report(_:command:)` prints it and gives its exit status.
///
/// To add a problem: a case here, named for the problem, with the values it quotes as payloads (the text the user
/// typed as `String`, bounds as numbers); its words in `words` (the compiler asks for the case there); a row in
/// `CommandLineProblemWordingTests`, whose exhaustive switch does not compile until the case has a name.
enum CommandLineProblem: Error, Equatable, Sendable {
    // MARK: Words the scanner does not accept

    case unknownCommand(String)
    case unknownOption(String)
    /// A switch written `--name=value`.
    case takesNoValue(option: String)
    case givenTwice(option: String)
    /// A valued option at the end of the line.
    case needsValue(option: String)
    /// A value outside an option's choices (one choice: `expected: cf`).
    case notAChoice(String, option: String, expected: [String])
    /// The one required option is missing, with the value it takes (`missing --against cf`).
    case missingOption(String, value: String)
    /// A positional argument is missing (`FILE`, `FILE.jsonl`).
    case missingArgument(String)
    /// More than one positional argument to a command that takes one.
    case takesOneArgument(command: String, argument: String)
    /// A positional argument to a command that takes none.
    case unexpectedArgument(String)

    // MARK: Values

    /// Not a duration; `example` is what to write instead (`2s or 500ms`).
    case notATime(String, example: String)
    /// A `--threshold` that is a number without its unit.
    case needsUnit(String)
    case notATimeAboveZero(String, example: String)
    case notAnIterationCost(String)
    case notALanguage(String)
    case notAClock(String)
    /// `--max-events`: not a whole number, below 1, above the budget's maximum.
    case notANumberOfEvents(String)
    case tooFewEvents(String)
    case tooManyEvents(String, maximum: Int)
    /// A whole-number option out of its bounds, as `fuzz` words it (`--cases takes a whole number from 1 to N`);
    /// no upper bound when `upper` is nil.
    case wholeNumber(option: String, lower: UInt64, upper: UInt64?)
    /// A whole-number value out of its bounds, as `bench` words it: what it counts (`rounds`, `items`).
    case notACount(String, counting: String, lower: Int, upper: Int)
    case notASize(String)
    case notAStep(String)
    /// `--schedule`: not a schedule id (`3:1,7:2`, or `default`).
    case notASchedule(String)

    // MARK: Options that do not go together

    /// `option` needs `other` (`--virtual goes with --engine`).
    case goesWith(option: String, other: String)
    /// `option` does not apply to the file `path` (a trace: `--clock`, `--until`, `--iteration-cost`).
    case doesNotApplyToTrace(option: String, path: String)
    /// `option` does not go with a bench workload, and why (nil: no reason given).
    case doesNotGoWithWorkload(option: String, workload: String, reason: WorkloadReason?)
    /// `option` needs exactly one of `choices`.
    case needsExactlyOne(option: String, of: [String])
    /// `diff` compares two files, or one file under two schedules.
    case diffNeedsTwoRuns

    // MARK: The UI and screen

    case realClockRunsOneFile
    case traceOpensAlone
    case screenDoesNotRecord
    case screenIsVirtual
    case traceHasNoClock
    /// `--follow FILE.jsonl` opens that recording alone (the FILE given beside it).
    case followOpensAlone(String)
    /// An option of the replay that a followed recording does not take.
    case notWithFollow(option: String)
    /// `record --live` follows the recording as a file: `-o` names standard output, a device or a FIFO.
    case liveNeedsAFile(String)

    // MARK: Bench

    /// `--only` or a `scale-` workload names no workload; `someOf`: several may be named (`--only`).
    case unknownWorkload(String, expected: [String], someOf: Bool)
    /// `--workload NAME` for a name it does not run one by one.
    case notASingleWorkload(String)
    case virtualHasNoCFSide

    // MARK: Not a usage problem: the platform, a scenario, a file

    /// The real backend is built on Linux only.
    case realBackendLinuxOnly
    /// `bench` is built on Linux only.
    case benchLinuxOnly
    /// A scenario the real backend cannot run; `path` nil for the UI's (`this scenario`).
    case cannotRunOnRealThreads(path: String?, reason: String)
    case cannotRead(path: String)
    /// `record --live` without a terminal on standard input and output: the UI cannot run.
    case liveNeedsATerminal
    /// `--follow`: the file cannot be opened (the system's words).
    case cannotFollow(path: String, reason: String)
    case noSuchTrace(path: String)
    /// A scenario file over the size a scenario may have.
    case tooLarge(path: String, maximum: Int)
    /// `fmt` found that its layout would change what the file means or lose a comment.
    case layoutWouldChange(path: String)
    case readOnly(path: String)
    case hardLinks(path: String, count: Int)
    /// A schedule id that names, at branch point `branchPoint`, an option its run does not have (`options` of
    /// them): it was made for another scenario, or another version of this one.
    case scheduleDoesNotFit(String, path: String, branchPoint: Int, options: Int)
    /// The keymap file the UI was given (or found) has a problem: the UI does not start on it.
    case keyMap(KeyMapProblem)

    /// Why an option does not go with a bench workload.
    enum WorkloadReason: Equatable, Sendable {
        case runsOnVirtualClock
        case recordsOnVirtualClock
    }
}
