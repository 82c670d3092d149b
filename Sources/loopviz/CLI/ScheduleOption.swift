import LoopEngine

/// `--schedule ID`: which way the virtual world goes at each branch point (an id `loopviz explore` printed;
/// docs/races.md). Shared by `run` and `diff`.
enum ScheduleOption {
    static let name = "--schedule"

    static let declaration = CommandOption(
        name, .text(placeholder: "ID"),
        help: """
            Take the schedule ID at the virtual world's branch points (an id `loopviz
            explore` printed, e.g. 3:1,7:2; default: the default schedule, declaration
            order). Virtual clock only.
            """)

    /// The schedule given to `option` (``name`` unless told), nil when none.
    /// - Throws: a usage problem for a text that is not a schedule id.
    static func value(in scanner: ArgumentScanner, option: String = name) throws(CommandLineProblem) -> Schedule? {
        guard let text = scanner.value(option) else { return nil }
        guard let schedule = Schedule(id: text) else { throw .notASchedule(text) }
        return schedule
    }
}
