import Foundation
import LoopEngine
import LoopOracle

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The CF oracle's async-main scenarios, each in a process of its own: an async `main` ends its process
/// (`exit(0)`) and, on Linux, sends the main thread into `dispatch_main()` for good (docs/concurrency.md, "The
/// async main"). The parent (`compare`, `fuzz`) starts this same executable with the hidden command
/// ``commandName``, the scenario's text in one file and the child's trace coming back in another; the child runs
/// ``CFOracle/runAsyncMainEndingProcess(_:timeLimit:maxEvents:horizon:deliver:)`` on its main thread.
enum AsyncMainOracleProcess {
    /// Not listed in `loopviz --help`: only loopviz starts it.
    static let commandName = "__oracle-async-main"

    /// How long past its own time limit the child may take before it is killed (its start, its trace's writing).
    static let grace: Duration = .seconds(10)

    /// The trace file's first line: how the child's run ended (the JSONL trace follows).
    enum Status: String {
        case ok
        case eventLimit
        case timedOut
        case failed
    }

    /// Makes ``CFOracle/run(_:timeLimit:maxEvents:horizon:)`` run async-main scenarios in a child process.
    static func install() {
        #if os(Linux)
        CFOracle.setAsyncMainProcess { scenario, timeLimit, maxEvents, horizon in
            try run(scenario, timeLimit: timeLimit, maxEvents: maxEvents, horizon: horizon)
        }
        #endif
    }

    // MARK: - The parent

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    #if os(Linux)
    static func run(_ scenario: Scenario, timeLimit: Duration, maxEvents: Int, horizon: Duration?) throws -> [LoopEvent]
    {
        let temporary = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((temporary + "/loopviz-async-main-XXXXXX").utf8CString)
        guard let directory = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw Failure(description: "cannot make a temporary directory: \(String(cString: strerror(errno)))")
        }
        let folder = String(cString: directory)
        let scenarioPath = folder + "/scenario.loop"
        let tracePath = folder + "/trace"
        // A signal that ends loopviz meanwhile ends the child and removes these (folder first: removed last).
        for path in [folder, scenarioPath, tracePath] { HeadlessSignals.markScratch(path) }
        defer {
            unlink(scenarioPath)
            unlink(tracePath)
            rmdir(folder)
            for path in [tracePath, scenarioPath, folder] { HeadlessSignals.forgetScratch(path) }
        }
        try write(LoopScriptPrinter.text(of: scenario), to: scenarioPath)
        let arguments = [
            "/proc/self/exe", commandName, scenarioPath, tracePath, String(timeLimit.nanosecondsClamped),
            String(maxEvents), horizon.map { String($0.nanosecondsClamped) } ?? "-",
        ]
        let pid = try spawn(arguments)
        HeadlessSignals.child = pid
        let ending = wait(pid, limit: timeLimit + grace)
        HeadlessSignals.child = 0
        guard case .exited(0) = ending else {
            throw Failure(description: "the async main's process \(ending)")
        }
        return try read(tracePath, timeLimit: timeLimit, maxEvents: maxEvents)
    }

    private enum Ending: CustomStringConvertible {
        case exited(Int32)
        case signaled(Int32)
        case killedAfter(Duration)

        var description: String {
            switch self {
            case .exited(let status): "exited with status \(status)"
            case .signaled(let number): "was ended by signal \(number)"
            case .killedAfter(let limit): "had not ended after \(limit) and was killed"
            }
        }
    }

    private static func spawn(_ arguments: [String]) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, arguments[0], &actions, nil, argv, environ)
        guard result == 0 else {
            throw Failure(description: "cannot start the async main's process: \(String(cString: strerror(result)))")
        }
        return pid
    }

    /// Waits for `pid`, at most `limit`: then it is killed.
    private static func wait(_ pid: pid_t, limit: Duration) -> Ending {
        let clock = ContinuousClock()
        let deadline = clock.now + limit
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid { break }
            if result < 0 && errno != EINTR { return .exited(-1) }
            if clock.now >= deadline {
                kill(pid, SIGKILL)
                _ = waitpid(pid, &status, 0)
                return .killedAfter(limit)
            }
            var pause = timespec(tv_sec: 0, tv_nsec: 2_000_000)
            nanosleep(&pause, nil)
        }
        let signal = status & 0x7f
        return signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
    }

    private static func write(_ text: String, to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard fd >= 0 else { throw Failure(description: "cannot write \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else {
                throw Failure(description: "cannot write \(path): \(String(cString: strerror(errno)))")
            }
            bytes = bytes.dropFirst(written)
        }
    }

    /// The child's trace: its status line, then the JSONL trace; mapped to the oracle's result or error.
    private static func read(_ path: String, timeLimit: Duration, maxEvents: Int) throws -> [LoopEvent] {
        guard let file = fopen(path, "r") else {
            throw Failure(description: "the async main's process left no trace")
        }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if count == 0 { break }
            bytes += chunk[..<count]
        }
        guard let newline = bytes.firstIndex(of: 0x0A) else {
            throw Failure(description: "the async main's process left an empty trace")
        }
        let first = String(decoding: bytes[..<newline], as: UTF8.self)
        let (word, rest) =
            first.firstIndex(of: " ").map { (String(first[..<$0]), String(first[first.index(after: $0)...])) }
            ?? (first, "")
        guard let status = Status(rawValue: word) else {
            throw Failure(description: "the async main's process wrote an unknown status '\(word)'")
        }
        if status == .failed { throw Failure(description: rest) }
        let events: [LoopEvent]
        do {
            // The child's trace stops at `maxEvents`; a bound on what is read whatever it wrote.
            let bound = min(maxEvents, EventBudget.maximum)
            events = Array(try JSONLTraceReader.read(bytes[(newline + 1)...], maximumEvents: bound).events)
        } catch {
            throw Failure(description: "the async main's trace is unreadable: \(error)")
        }
        switch status {
        case .ok: return events
        case .eventLimit: throw CFOracleError.reachedEventLimit(Int(rest) ?? events.count, partialTrace: events)
        case .timedOut: throw CFOracleError.timedOut(limit: timeLimit, partialTrace: events)
        case .failed: throw Failure(description: rest)
        }
    }

    // MARK: - The child

    /// `loopviz __oracle-async-main SCENARIO TRACE TIME_LIMIT_NS MAX_EVENTS HORIZON_NS|-`: never returns.
    static func child(_ arguments: [String]) -> ExitStatus {
        guard arguments.count == 5, let limit = Int64(arguments[2]), let maxEvents = Int(arguments[3]) else {
            CommandLine.printError("loopviz: error: \(commandName) is loopviz's own command")
            return .usage
        }
        let tracePath = arguments[1]
        let horizon = Int64(arguments[4]).map { Duration.nanoseconds($0) }
        let script: LoopScript
        do {
            let text = try String(contentsOfFile: arguments[0], encoding: .utf8)
            script = try ScenarioParser.parse(text, file: arguments[0])
        } catch {
            writeTrace(.failed, detail: "the async main's scenario did not parse: \(error)", [], to: tracePath)
            return .failure
        }
        CFOracle.runAsyncMainEndingProcess(
            script.scenario, timeLimit: .nanoseconds(limit), maxEvents: maxEvents, horizon: horizon
        ) { result in
            switch result {
            case .success(let events): writeTrace(.ok, detail: nil, events, to: tracePath)
            case .failure(CFOracleError.reachedEventLimit(let limit, let partial)):
                writeTrace(.eventLimit, detail: String(limit), partial, to: tracePath)
            case .failure(CFOracleError.timedOut(_, let partial)):
                writeTrace(.timedOut, detail: nil, partial, to: tracePath)
            case .failure(let error):
                writeTrace(.failed, detail: String(describing: error), [], to: tracePath)
            }
        }
    }

    private static func writeTrace(_ status: Status, detail: String?, _ events: [LoopEvent], to path: String) {
        let line = status.rawValue + (detail.map { " " + $0.replacingOccurrences(of: "\n", with: " ") } ?? "")
        let text = line + "\n" + JSONLTraceFormatter.format(events, scenario: "async main", clock: .real)
        try? write(text, to: path)
    }
    #endif
}
