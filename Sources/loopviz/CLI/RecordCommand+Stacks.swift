/// `record --stacks [--stack-interval TIME]`: how often the preloaded recorder samples the recorded threads'
/// stacks; `--all-threads`: which loops it records.
extension RecordCommand {
    /// What the preloaded library is asked to record, from the command line.
    static func recording(_ scanner: ArgumentScanner) throws(CommandLineProblem) -> RecordedChild.Options {
        RecordedChild.Options(sampleInterval: try stackInterval(scanner), everyThread: scanner.has("--all-threads"))
    }

    /// The default time between two samples.
    static let defaultStackInterval: Duration = .milliseconds(10)

    /// The time between two stack samples: nil without `--stacks`.
    static func stackInterval(_ scanner: ArgumentScanner) throws(CommandLineProblem) -> Duration? {
        let text = scanner.value("--stack-interval")
        guard scanner.has("--stacks") else {
            if text != nil { throw .goesWith(option: "--stack-interval", other: "--stacks") }
            return nil
        }
        guard let text else { return defaultStackInterval }
        guard let value = ScriptLoader.duration(text), value >= .milliseconds(1), value <= .seconds(1) else {
            throw .notATimeAboveZero(text, example: "10ms (1ms to 1s)")
        }
        return value
    }
}
