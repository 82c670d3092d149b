import LoopEngine
import Testing

/// One malformed file and the diagnostic it must produce.
struct ScenarioErrorCase: Sendable, CustomTestStringConvertible {
    var id: String
    var source: String
    var line: Int
    var column: Int
    var message: String

    var testDescription: String { id }

    /// Parses the file (as `t.loop`) and expects a diagnostic at the case's line and column with its message:
    /// the check every suite of parser errors makes.
    func expectReported(sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            _ = try ScenarioParser.parse(source, file: "t.loop")
            Issue.record("parsed without a diagnostic", sourceLocation: sourceLocation)
        } catch {
            let match = error.diagnostics.first { $0.line == line && $0.column == column }
            #expect(
                match?.message == message, "got: \(error.diagnostics.map(\.description))",
                sourceLocation: sourceLocation)
        }
    }

    static let all: [ScenarioErrorCase] = [
        .init(
            id: "unterminated string", source: "scenario \"Open\nthread T\n  run default for 1s", line: 1, column: 10,
            message: "unterminated string: add a closing \""),
        .init(
            id: "duration without unit", source: "thread T\n  timer t at 100\n  run default for 1s", line: 2,
            column: 14, message: "'100' needs a unit: 100ms or 100s"),
        .init(
            id: "unknown unit", source: "thread T\n  timer t at 100hz\n  run default for 1s", line: 2, column: 14,
            message: "unknown unit 'hz' in '100hz'; use ns, us, ms, s or m (min)"),
        .init(
            id: "negative duration", source: "thread T\n  work -5ms", line: 2, column: 8,
            message: "a duration cannot be negative here"),
        .init(
            id: "nil date", source: "thread T\n  port K\n  RunLoop.run default before nil", line: 3, column: 30,
            message:
                "Foundation's run(mode:before:), run(until:) and acceptInput(forMode:before:) take a Date, not nil; "
                + "distantPast polls once, distantFuture waits without a limit"),
        .init(
            id: "timer without first fire", source: "thread T\n  timer t every 10ms", line: 2, column: 9,
            message: "timer 't' needs its first fire time: `at 100ms`"),
        .init(
            id: "observer without activities", source: "thread T\n  observer o order 1", line: 2, column: 12,
            message: "observer 'o' needs its activities: `on entry, beforeWaiting` or `on all`"),
        .init(
            id: "unknown activity", source: "thread T\n  observer o on beforeSleeping", line: 2, column: 17,
            message:
                "unknown activity 'beforeSleeping'; expected entry, beforeTimers, beforeSources, beforeWaiting, "
                + "afterWaiting, exit or all (case matters)"),
        .init(
            id: "duplicate item", source: "thread T\n  source0 a\n  port a", line: 3, column: 8,
            message: "duplicate item 'a' on thread T"),
        .init(
            id: "duplicate thread", source: "thread T\n  wakeup\nthread T\n  wakeup", line: 3, column: 8,
            message: "duplicate thread 'T'"),
        .init(
            id: "unknown item", source: "thread T\n  source0 touch\n  signal tuch", line: 3, column: 10,
            message: "unknown item 'tuch' on thread T (known: touch); did you mean 'touch'?"),
        .init(
            id: "signal a timer", source: "thread T\n  timer t at 1ms\n  signal t", line: 3, column: 10,
            message: "'t' is a timer, but this needs a version-0 source or a port"),
        .init(
            id: "send to a source0", source: "thread T\n  source0 s\n  send s", line: 3, column: 8,
            message: "'s' is a version-0 source, but this needs a port; version-0 sources are `signal`led"),
        .init(
            id: "reschedule a source", source: "thread T\n  source0 s\n  reschedule s in 1ms", line: 3, column: 14,
            message: "'s' is a version-0 source, but this needs a timer"),
        .init(
            id: "unknown thread", source: "thread T\n  wakeup\nat 1ms on U\n  wakeup", line: 3, column: 11,
            message: "unknown thread 'U' (known: T)"),
        .init(
            id: "run from outside", source: "thread T\n  wakeup\nat 1ms\n  run default for 1s", line: 4, column: 3,
            message: "an outside event cannot run this thread's loop; only its program can"),
        .init(
            id: "main queue off the main thread", source: "thread T\n  mainqueue m", line: 2, column: 3,
            message: "only the main thread services the main queue; mark a thread `main`"),
        .init(
            id: "main-actor task without a main thread", source: "thread T\n  mainactor t\n    work 1ms", line: 2,
            column: 3, message: "only the main thread services the main queue; mark a thread `main`"),
        .init(
            id: "asyncAfter without a main thread", source: "thread T\n  asyncafter 5ms h", line: 2, column: 3,
            message: "only the main thread services the main queue; mark a thread `main`"),
        .init(
            id: "await outside a task", source: "thread T main\n  await yield", line: 2, column: 3,
            message:
                "`await` only as a line of a `mainactor` body or of an async main's program: the task suspends there"),
        .init(
            id: "async on a thread that is not the main thread", source: "thread T async\n  run default for 1s",
            line: 1, column: 10, message: "only the main thread runs an async `main`: `thread NAME main async`"),
        .init(
            id: "await in an async main's callout", source: "thread T main async\n  timer t at 1ms\n    await yield",
            line: 3, column: 5,
            message:
                "`await` only as a line of a `mainactor` body or of an async main's program: the task suspends there"),
        .init(
            id: "await deeper than a task's body",
            source: "thread T main\n  mainactor t\n    if done\n      await yield", line: 4, column: 7,
            message:
                "`await` only as a line of a `mainactor` body or of an async main's program: the task suspends there"),
        .init(
            id: "await without yield or sleep", source: "thread T main\n  mainactor t\n    await nap", line: 3,
            column: 11,
            message: "expected 'yield' or 'sleep' and a duration: `await yield`, `await sleep 100ms`"),
        .init(
            id: "two main threads", source: "thread A main\n  wakeup\nthread B main\n  wakeup", line: 1, column: 10,
            message: "only one thread can be the main thread"),
        .init(
            id: "flag never set", source: "thread T\n  while not done RunLoop.run", line: 2, column: 13,
            message: "flag 'done' is never set, so this loop could never end; add `set done` somewhere"),
        .init(
            id: "condition outside an observer", source: "thread T\n  source0 s\n    on entry: stop", line: 3,
            column: 5, message: "`on ACTIVITY:` conditions are for observers only"),
        .init(
            id: "call numbers start at one", source: "thread T\n  source0 s\n    call 0: stop", line: 3, column: 5,
            message: "calls are counted from 1"),
        .init(
            id: "unknown action", source: "thread T\n  sleep 10ms", line: 2, column: 3,
            message: "unknown action 'sleep'"),
        .init(
            id: "run without for", source: "thread T\n  run default 1s", line: 2, column: 15,
            message: "expected 'for' and a time limit: `run default for 200ms` (or 'forever')"),
        .init(
            id: "common cannot be run as a mode here", source: "thread T\n  stop mode common", line: 2, column: 13,
            message: "'common' stands for all common modes and cannot be used here"),
        .init(
            id: "clause given twice", source: "thread T\n  source0 s order 1 order 2", line: 2, column: 21,
            message: "'order' is given twice"),
        .init(
            id: "clause of another item kind", source: "thread T\n  port p order 1", line: 2, column: 10,
            message: "unexpected 'order' in a port; expected 'in'"),
        .init(
            id: "a word after a port's modes", source: "thread T\n  port p in default bogus", line: 2, column: 21,
            message:
                "unexpected 'bogus' in a port; expected nothing more (several modes are separated by commas: "
                + "`in default, tracking`)"),
        .init(
            id: "a word among a timer's clauses", source: "thread T\n  timer t at 1ms bogus", line: 2, column: 18,
            message:
                "unexpected 'bogus' in a timer; expected one of 'every', 'tolerance', 'order', 'in', 'interval', 'foundation'"
        ),
        .init(
            id: "an activity without 'on'", source: "thread T\n  observer o beforeWaiting", line: 2, column: 14,
            message: "unexpected 'beforeWaiting' in an observer; expected one of 'on', 'order', 'once', 'in'"),
        .init(
            id: "trailing words", source: "thread T\n  wakeup now", line: 2, column: 10,
            message: "unexpected 'now' at the end of the line"),
        .init(
            id: "tab indentation", source: "thread T\n\twakeup", line: 2, column: 1,
            message: "tabs are not allowed for indentation; indent with spaces"),
        .init(
            id: "inconsistent indentation", source: "thread T\n  wakeup\n    stop", line: 3, column: 5,
            message: "'wakeup' takes no indented block"),
        .init(
            id: "unknown top-level word", source: "thread T\n  wakeup\nzork", line: 3, column: 1,
            message:
                "expected scenario, profile, until, iteration cost, owner, thread, queue, at, say, ask or expect; "
                + "found 'zork'"),
        // The cost model: `iteration cost DURATION`.
        .init(
            id: "iteration without cost", source: "iteration 2us\nthread T\n  wakeup", line: 1, column: 11,
            message: "expected 'cost' and a duration: `iteration cost 1500ns` (0s: none)"),
        .init(
            id: "iteration cost without a value", source: "iteration cost\nthread T\n  wakeup", line: 1, column: 15,
            message: "expected what one iteration costs, e.g. 1500ns or 2us (0s: none)"),
        .init(
            id: "negative iteration cost", source: "iteration cost -1us\nthread T\n  wakeup", line: 1, column: 16,
            message: "a duration cannot be negative here"),
        .init(
            id: "iteration cost without unit", source: "iteration cost 1500\nthread T\n  wakeup", line: 1, column: 16,
            message: "'1500' needs a unit: 1500ms or 1500s"),
        .init(
            id: "iteration cost too high", source: "iteration cost 2s\nthread T\n  wakeup", line: 1, column: 16,
            message: "an iteration cost of more than 1s would hide every timer; use e.g. 2us"),
        .init(
            id: "iteration cost given twice", source: "iteration cost 1us\niteration cost 2us\nthread T\n  wakeup",
            line: 2, column: 1, message: "the iteration cost is already given"),
        .init(
            id: "unknown profile", source: "profile windows\nthread T\n  wakeup", line: 1, column: 9,
            message: "unknown profile 'windows'; expected linux or darwin"),
        .init(
            id: "unknown event in expect", source: "thread T\n  wakeup\nexpect in order\n  tick", line: 4,
            column: 3,
            message:
                "unknown event 'tick'; " + ScenarioProblemTests.eventsExpected),
        .init(
            id: "unknown result in expect", source: "thread T\n  wakeup\nexpect exactly\n  result done", line: 4,
            column: 10,
            message: "unknown result 'done'; expected finished, stopped, timedOut or handledSource"),
        .init(
            id: "no thread", source: "scenario \"Nothing\"", line: 1, column: 1,
            message: "a scenario needs at least one thread: `thread main` followed by its items and program"),
        .init(
            id: "unexpected character", source: "thread T\n  wakeup @", line: 2, column: 10,
            message: "unexpected character '@'"),
        // Bad input costs little: one diagnostic per run of bad characters, quotes escaped and bounded.
        .init(
            id: "a run of bad characters is one error", source: "thread T\n  wakeup @@@$$$ stop", line: 2,
            column: 10, message: "6 unexpected characters '@@@$$$'"),
        .init(
            id: "control characters are quoted as escapes",
            source: "thread T\n  wakeup \u{1B}]0;x\u{7}", line: 2, column: 10,
            message: "2 unexpected characters '\\e]'"),
        .init(
            id: "C1, DEL and bidirectional controls are quoted as escapes",
            source: "thread T\n  wakeup \u{9B}\u{7F}\u{202E}\u{2066}", line: 2, column: 10,
            message: "4 unexpected characters '\\u{9B}\\u{7F}\\u{202E}\\u{2066}'"),
        .init(
            id: "a long run of bad characters is quoted up to a bounded width",
            source: "thread T\n  wakeup " + String(repeating: "@", count: 10_000), line: 2, column: 10,
            message: "10000 unexpected characters '" + String(repeating: "@", count: 80) + "…'"),
        .init(
            id: "a huge token is quoted up to a bounded width",
            source: "thread T\n  " + String(repeating: "x", count: 10_000), line: 2, column: 3,
            message: "unknown action '" + String(repeating: "x", count: 80) + "…'"),
        .init(
            id: "a name with a bidirectional override is quoted as an escape",
            source: "thread T\n  source0 a\u{202E}b\n  signal a", line: 2, column: 12,
            message: "unexpected character '\\u{202E}'"),
        .init(
            id: "many tabs in an indentation are one error", source: "thread T\n\t\t\t\twakeup", line: 2,
            column: 1, message: "tabs are not allowed for indentation; indent with spaces"),
        .init(
            id: "blocks nested too deep",
            source: "thread T\n"
                + (1...101).map { String(repeating: "  ", count: $0) + "block b" }.joined(separator: "\n"),
            line: 101, column: 201,
            message: "blocks nest more than 100 deep here; expected at most 100 levels"),
        .init(
            id: "ranges standing for too many names in all",
            source: "queue q\nthread T\n"
                + (0...100).map { "  operation r\($0)x1..1000 on q work 1ms" }.joined(separator: "\n"),
            line: 103, column: 13,
            message: "the ranges of this file stand for more than 100000 names in all; expected fewer or shorter ranges"
        ),
        .init(
            id: "more than 1000 mode names",
            source: "thread T\n  timer t at 1ms in "
                + (0...1000).map { "m\($0)" }.joined(separator: ", "),
            line: 2, column: 21 + (0..<1000).map { "m\($0), ".count }.reduce(0, +),
            message: "this file names more than 1000 modes, the mode limit; expected at most 1000 mode names"
        ),
        .init(
            id: "a lone minus is an unexpected character", source: "thread T\n  wakeup -x", line: 2, column: 10,
            message: "unexpected character '-'"),
        // The thread pool: queues, operations and their actions.
        .init(
            id: "unknown queue", source: "queue q\nthread T\n  operation a on r work 1ms", line: 3, column: 18,
            message: "unknown queue 'r' (known: q)"),
        .init(
            id: "queue never declared", source: "thread T\n  suspend q", line: 2, column: 11,
            message: "unknown queue 'q' (no queue is declared; declare it at the top level: `queue q`)"),
        .init(
            id: "queue declared twice", source: "queue q\nqueue q limit 2\nthread T\n  wakeup", line: 2, column: 7,
            message: "duplicate queue 'q' (declared on line 1); give each queue its own name"),
        .init(
            id: "queue named like a thread", source: "queue T\nthread T\n  wakeup", line: 1, column: 7,
            message: "queue 'T' has the name of a thread; give it another name (traces tell them apart by name)"),
        .init(
            id: "unknown word in a queue", source: "queue q fast\nthread T\n  wakeup", line: 1, column: 9,
            message: "unexpected 'fast' in a queue; expected 'limit', 'suspended', 'idle' or 'dispatch'"),
        .init(
            id: "queue limit negative", source: "queue q limit -1\nthread T\n  wakeup", line: 1, column: 15,
            message: "expected a limit: a whole number (0 or more) or 'default'; found '-1'"),
        .init(
            id: "limit action not an integer", source: "queue q\nthread T\n  limit q 2.5", line: 3, column: 11,
            message: "expected a limit: a whole number (0 or more) or 'default'; found '2.5'"),
        .init(
            id: "limit action without a value", source: "queue q\nthread T\n  limit q", line: 3, column: 10,
            message: "expected a limit: a whole number (0 or more) or 'default'"),
        .init(
            id: "duplicate operation",
            source: "queue q\nthread T\n  operation a on q work 1ms\n  operation a on q async", line: 4, column: 13,
            message: "duplicate operation 'a' (already added on line 3); give each operation its own name"),
        .init(
            id: "operation already in a range",
            source: "queue q\nthread T\n  operation u1..5 on q work 1ms\n  operation u3 on q work 1ms", line: 4,
            column: 13, message: "duplicate operation 'u3' (already added on line 3); give each operation its own name"),
        .init(
            id: "after an unknown operation", source: "queue q\nthread T\n  operation a on q after b work 1ms",
            line: 3, column: 26, message: "unknown operation 'b' (known: a)"),
        .init(
            id: "cancel an unknown operation", source: "queue q\nthread T\n  operation a on q work 1ms\n  cancel b",
            line: 4, column: 10, message: "unknown operation 'b' (known: a)"),
        .init(
            id: "finish when no operation exists", source: "thread T\n  finish x", line: 2, column: 10,
            message:
                "unknown operation 'x' (no operation is added anywhere; add one with "
                + "`operation NAME on QUEUE work 20ms`)"),
        .init(
            id: "finish a synchronous operation",
            source: "queue q\nthread T\n  operation a on q work 1ms\n  finish a", line: 4, column: 10,
            message:
                "'a' is not an async operation, so it finishes by itself; `finish` needs an operation added with "
                + "`async`"),
        .init(
            id: "unknown priority", source: "queue q\nthread T\n  operation a on q priority urgent work 1ms",
            line: 3, column: 29,
            message: "unknown priority 'urgent'; expected veryLow, low, normal, high or veryHigh"),
        .init(
            id: "operation without work or async", source: "queue q\nthread T\n  operation a on q priority high",
            line: 3, column: 13,
            message: "operation 'a' needs what it does: `work 20ms [check every 5ms]` or `async`"),
        .init(
            id: "operation both working and async", source: "queue q\nthread T\n  operation a on q async work 1ms",
            line: 3, column: 26, message: "an operation either works (`work 20ms`) or is `async`, not both"),
        .init(
            id: "operation without a queue", source: "queue q\nthread T\n  operation a work 1ms", line: 3,
            column: 15, message: "expected 'on' and a queue: `operation a on QUEUE work 20ms`"),
        .init(
            id: "unknown word after an operation's options",
            source: "queue q\nthread T\n  operation a on q work 1ms quickly", line: 3, column: 29,
            message: "unexpected 'quickly' in an operation; expected 'priority', 'after', 'work' or 'async'"),
        .init(
            id: "check without work", source: "queue q\nthread T\n  operation a on q check every 1ms work 5ms",
            line: 3, column: 20, message: "`check every DURATION` goes right after `work DURATION`"),
        .init(
            id: "reply without async", source: "queue q\nthread T\n  operation a on q work 5ms reply after 1ms",
            line: 3, column: 29, message: "`reply after DURATION` goes right after `async`"),
        .init(
            id: "reply without after", source: "queue q\nthread T\n  operation a on q async reply 1ms", line: 3,
            column: 32, message: "expected 'after' and a delay: `async reply after 300ms`"),
        .init(
            id: "check every zero", source: "queue q\nthread T\n  operation a on q work 5ms check every 0ms",
            line: 3, column: 41,
            message: "a check interval must be positive; leave out `check every` for none"),
        .init(
            id: "range without a first number", source: "queue q\nthread T\n  operation upload..5 on q work 1ms",
            line: 3, column: 13,
            message: "bad range 'upload..5'; expected a name, its first number, '..' and the last: upload1..10"),
        .init(
            id: "range that ends before it starts", source: "queue q\nthread T\n  operation u5..3 on q work 1ms",
            line: 3, column: 13, message: "the range 'u5..3' ends before it starts; expected the last number ≥ 5"),
        .init(
            id: "range too long", source: "queue q\nthread T\n  operation u1..1001 on q work 1ms", line: 3,
            column: 13, message: "the range 'u1..1001' has 1001 names; expected at most 1000"),
        .init(
            id: "operation named all", source: "queue q\nthread T\n  operation all on q work 1ms", line: 3,
            column: 13, message: "'all' is a keyword (`cancel all on QUEUE`); choose another name"),
        .init(
            id: "cancel all without a queue", source: "queue q\nthread T\n  cancel all q", line: 3, column: 14,
            message: "expected 'on' and a queue: `cancel all on QUEUE`"),
        .init(
            id: "wait without for", source: "queue q\nthread T\n  wait q", line: 3, column: 8,
            message: "expected 'for' and a queue: `wait for QUEUE`"),
        .init(
            id: "operation waiting for itself", source: "queue q\nthread T\n  operation a on q after a work 1ms",
            line: 3, column: 26,
            message: "'a' waits for itself, so it can never start; expected `after` to name another operation"),
        .init(
            id: "operations waiting for each other",
            source: "queue q\nthread T\n  operation a on q after b work 1ms\n  operation b on q after a work 1ms",
            line: 4, column: 26,
            message:
                "operations wait for each other (a → b → a), so none of them can start; expected `after` to name "
                + "an operation outside the cycle"),
        .init(
            id: "operations of two queues waiting for each other",
            source:
                "queue q\nqueue r\nthread T\n  operation a on q after c work 1ms\n  operation b on r after a work 1ms\n"
                + "  operation c on q after b work 1ms",
            line: 5, column: 26,
            message:
                "operations wait for each other (a → c → b → a), so none of them can start; expected `after` to "
                + "name an operation outside the cycle"),
        .init(
            id: "after an unknown operation, with operations on two queues",
            source: "queue q\nqueue r\nthread T\n  operation a on q work 1ms\n  operation b on r after a, z work 1ms",
            line: 5, column: 29, message: "unknown operation 'z' (known: a, b)"),
        .init(
            id: "unknown worker in expect", source: "queue q\nthread T\n  wakeup\nexpect in order\n  w.1: opStart a",
            line: 5, column: 3, message: "unknown thread 'w.1' (known: T, q, q.N)"),
    ]
}

extension ScenarioErrorCase {
    /// Dispatch queues: above all, a plain block has nothing to cancel it with.
    static let dispatch: [ScenarioErrorCase] = [
        .init(
            id: "cancel of a plain block", source: "queue g dispatch\nthread T\n  async b on g work 1ms\n  cancel b",
            line: 4, column: 10,
            message: "'b' is a block submitted with `async` to dispatch queue 'g': dispatch_async returns nothing to "
                + "cancel it with, so once submitted it runs; submit a DispatchWorkItem to cancel it before it "
                + "starts (`async workItem b on g …`)"),
        .init(
            id: "cancel of a plain block from an outside event",
            source: "queue g dispatch\nthread T\n  async b1..3 on g work 1ms\nat 5ms on T\n  cancel b2", line: 5,
            column: 10,
            message: "'b2' is a block submitted with `async` to dispatch queue 'g': dispatch_async returns nothing to "
                + "cancel it with, so once submitted it runs; submit a DispatchWorkItem to cancel it before it "
                + "starts (`async workItem b2 on g …`)"),
        .init(
            id: "operation on a dispatch queue", source: "queue g dispatch\nthread T\n  operation a on g work 1ms",
            line: 3, column: 18,
            message: "'g' is a dispatch queue: it takes blocks, not operations; expected `async NAME on g work 20ms`"),
        .init(
            id: "async on an operation queue", source: "queue q\nthread T\n  async a on q work 1ms", line: 3,
            column: 14,
            message: "'q' is an operation queue: `async` submits to a dispatch queue (`queue q dispatch`); expected "
                + "`operation NAME on q work 20ms`"),
        .init(
            id: "suspend of a dispatch queue", source: "queue g dispatch concurrent\nthread T\n  suspend g", line: 3,
            column: 11, message: "`suspend` is for operation queues; 'g' is a dispatch queue (not modelled for one)"),
        .init(
            id: "cancel all on a dispatch queue", source: "queue g dispatch\nthread T\n  cancel all on g", line: 3,
            column: 17,
            message: "`cancel all` is for operation queues; 'g' is a dispatch queue (not modelled for one)"),
        .init(
            id: "limit on a dispatch queue", source: "queue g dispatch limit 2\nthread T\n  wakeup", line: 1, column: 7,
            message: "'limit' is for operation queues; a dispatch queue is serial (one block at a time) or concurrent"),
        .init(
            id: "finish of a block", source: "queue g dispatch\nthread T\n  async workItem w on g work 1ms\n  finish w",
            line: 4, column: 10,
            message: "'w' is a block on a dispatch queue, so it finishes by itself; `finish` needs an operation added "
                + "with `operation … async`"),
        .init(
            id: "block without work", source: "queue g dispatch\nthread T\n  async b on g", line: 3, column: 15,
            message: "expected what the block does: `work DURATION`, e.g. `async b on gcd work 20ms`"),
        .init(
            id: "async without its queue", source: "queue g dispatch\nthread T\n  async b on", line: 3, column: 13,
            message: "expected the dispatch queue"),
    ]
}

@Suite("the .loop parser reports problems precisely")
struct ScenarioParserErrorTests {
    @Test(
        "each kind of problem is reported at its line and column with a clear message",
        arguments: ScenarioErrorCase.all + ScenarioErrorCase.dispatch
    )
    func reportsProblem(_ errorCase: ScenarioErrorCase) {
        errorCase.expectReported()
    }

    @Test("every problem of a file is reported, not just the first, in line order")
    func reportsEveryProblem() {
        let source = "thread T\n  timer t at 5\n  signal nope\n  send t\nzork\n"
        do {
            _ = try ScenarioParser.parse(source, file: "many.loop")
            Issue.record("expected diagnostics")
        } catch {
            #expect(error.diagnostics.map(\.line) == [2, 3, 4, 5])
        }
    }

    @Test("a diagnostic reads file:line:column: error: message, then the line and a caret")
    func diagnosticRendering() {
        do {
            _ = try ScenarioParser.parse("thread T\n  signal x", file: "lesson.loop")
            Issue.record("expected diagnostics")
        } catch {
            let expected = [
                "lesson.loop:2:10: error: unknown item 'x' on thread T (thread T has no items)",
                "    signal x",
                String(repeating: " ", count: 11) + "^",
                "1 error generated.",
            ]
            #expect(error.description == expected.joined(separator: "\n"))
        }
    }

    @Test(
        "binary and malformed input never crashes the parser",
        arguments: [
            "\u{0}\u{1}\u{2}thread", "thread", "thread T\n" + String(repeating: " ", count: 5000) + "x",
            String(repeating: "thread T\n  block b\n    ", count: 200), "\"", "at", "expect exactly\n  0.1",
            "thread T\n  run", "thread T\n  perform", "thread T\n  send", "thread T\n  source0 s\n    :",
            "thread T\n  source0 s\n    first 2 calls stop", "thread T\n  RunLoop.run default before",
            "thread T\n  while not", "say", "say \"x\" at step", "thread T\n  timer t at 1e400ms",
            String(repeating: "(", count: 10000), "queue", "queue q limit", "thread T\n  operation",
            "thread T\n  operation a on", "thread T\n  operation a.. on q async",
            "thread T\n  operation a1..999999999999",
            "thread T\n  cancel all on", "thread T\n  limit", "thread T\n  wait for", "thread T\n  detach",
            "queue q\nthread T\n  operation a on q after", "queue q\nthread T\n  operation a on q work 1ms check",
        ])
    func malformedInputIsReported(_ source: String) {
        do {
            _ = try ScenarioParser.parse(source, file: "fuzz.loop")
        } catch {
            #expect(!error.diagnostics.isEmpty)
            #expect(error.diagnostics.allSatisfy { $0.line >= 1 && $0.column >= 1 })
        }
    }
}
