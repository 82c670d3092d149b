import LoopEngine

extension RunCommand {
    /// `loopviz run FILE.jsonl --trace FORMAT`: converts a trace (a recording, or another run's jsonl) instead of
    /// running a scenario. The options of a run (`--clock`, `--until`, `--iteration-cost`) do not apply.
    static func convert(
        _ path: String, scanner: ArgumentScanner, format: TraceFormat, budget: Int
    ) throws(CommandLineProblem) -> ExitStatus {
        for option in ["--clock", "--until", IterationCostOption.name] where scanner.value(option) != nil {
            throw .doesNotApplyToTrace(option: option, path: path)
        }
        let trace: JSONLTrace
        switch TraceLoader.load(path, maxEvents: budget) {
        case .success(let loaded): trace = loaded
        case .failure(let status): return status
        }
        let output: OutputFile
        switch OutputFile.open(scanner.value("-o"), inputs: [path]) {
        case .success(let opened): output = opened
        case .failure(let failure):
            CommandLine.printError(failure.message)
            return failure.status
        }
        format.write(trace.events, scenario: trace.header.scenario, clock: trace.header.clock, to: output.writer)
        if let problem = output.commit() {
            CommandLine.printError(problem)
            return .writeError
        }
        return .success
    }
}
