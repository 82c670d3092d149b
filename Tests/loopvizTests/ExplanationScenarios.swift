import LoopEngine

@testable import loopviz

/// Small scenarios that, together, make every explanation of the Why pane appear (see `ExplanationTableTests`).
enum ExplanationScenarios {
    enum Key: String, Sendable, CaseIterable {
        case loop, overdue, limitPassed, stops, results, mainThread, pool, portSignal, queries, orderedPerform
        case commands, delayedPerform
        case dispatch

        var source: String {
            switch self {
            case .loop: ExplanationScenarios.loop
            case .overdue: ExplanationScenarios.overdue
            case .limitPassed: ExplanationScenarios.limitPassed
            case .stops: ExplanationScenarios.stops
            case .results: ExplanationScenarios.results
            case .mainThread: ExplanationScenarios.mainThread
            case .pool: ExplanationScenarios.pool
            case .portSignal: ExplanationScenarios.portSignal
            case .queries: ExplanationScenarios.queries
            case .orderedPerform: ExplanationScenarios.orderedPerform
            case .commands: ExplanationScenarios.commands
            case .delayedPerform: ExplanationScenarios.delayedPerform
            case .dispatch: ExplanationScenarios.dispatch
            }
        }
    }

    /// The scenario as the UI replays it.
    static func session(_ key: Key) -> Session {
        Session(script: try! ScenarioParser.parse(key.source, file: "\(key).loop"))
    }

    /// Its trace.
    static func trace(_ key: Key) -> LoopTrace { session(key).trace }

    /// Every question a `query` asks, from the program, a callout and an outside event.
    static let queries = """
        thread T
          port K
          timer tick at 100ms
            query currentMode
            query nextFireDate tick
          query isValid tick
          query contains tick in default
          query nextTimerFireDate default
          query allModes
          query limitDate default
          run default for 200ms
        at 50ms on T
          query isWaiting
        """

    /// A custom source's command queue of one: posted, refused when full, performed, dropped at invalidation.
    static let commands = """
        thread T
          source0 s commands 1 in default
          run default for 100ms
        at 20ms on T
          post a to s
          post b to s
          signal s
          wakeup
        at 50ms on T
          post c to s
          invalidate s
        """

    /// One loop's ordinary life: sleeps, a woken source0 that overruns two timers, a block, a port, the time limit.
    static let loop = """
        thread T
          port K in default
          port net in default
          timer tick at 100ms every 100ms
          timer single at 120ms
          source0 busy in default
            work 250ms
          observer o on beforeWaiting in default
          run default for 600ms
        at 50ms on T
          signal busy
          wakeup
        at 400ms on T
          block B in default
          send net
        at 450ms on T
          remove net from default
          say "a note"
        """

    /// `signal P` on a port source: CF ignores it; only the wake-up that comes with it wakes the loop.
    static let portSignal = """
        thread T
          port K in default
          run default for 100ms
        at 50ms on T
          signal K
          wakeup
        """

    /// A timer due while another mode ran: overdue when its mode runs again, late with no tick missed.
    static let overdue = """
        thread T
          port K in default, Tracking
          timer plain at 100ms every 1s in default
          run Tracking for 300ms
          run default for 100ms
        """

    /// An observer that works past the run's time limit: the sleep's limit has passed already.
    static let limitPassed = """
        thread T
          port K in default
          observer o on beforeWaiting in default
            work 200ms
          run default for 100ms
        """

    /// Wake-ups and stops, ignored and not.
    static let stops = """
        thread T
          port K in default, M
          timer t at 50ms
            wakeup
          wakeup
          stop
          stop mode M
          run default for 1s
          run M for 1s
        at 100ms on T
          stop
        """

    /// returnAfterSourceHandled, a mode that becomes empty, a fire date set from another thread.
    static let results = """
        thread T
          source0 s in default
          timer t at 10ms
          signal s
          run default for 1s returnAfterSourceHandled
          run default for 1s
        thread U
          timer u at 500ms
          run default for 1s
        at 20ms on T
          remove s from default
          wakeup
        at 30ms on U
          reschedule u in 10ms
        """

    /// Ordered performs (`performSelector:target:argument:order:modes:`): order 10 runs before order 11.
    static let orderedPerform = """
        thread T
          port K in default
          perform b order 11
          perform a order 10
          run default for 100ms
        """

    /// A delayed perform (`performSelector:withObject:afterDelay:`): its own timer sends it after 20 ms.
    static let delayedPerform = """
        thread T
          perform a target view afterDelay 20ms
          run default for 100ms
        """

    /// The main thread: the main queue, and a task performed on a worker.
    static let mainThread = """
        thread main main
          perform job on worker
            work 10ms
          run default for 200ms
        thread worker
          port K in default
          run default for 100ms
        at 100ms on main
          mainqueue showResult
        """

    /// A queue: dependencies, a cancel while queued, while running, too late, after the end; suspend, resume,
    /// limit, cancel all, wait; a detached thread; a worker retired when idle.
    static let pool = """
        queue q limit 1 idle 1s
        thread main
          operation a on q work 100ms
          operation b on q after a work 100ms check every 10ms
          operation c on q work 50ms
          cancel c
          suspend q
          resume q
          limit q 2
          detach d
            work 10ms
          operation late on q work 100ms check every 60ms
          operation up on q async
          work 150ms
          cancel b
          cancel a
          work 50ms
          cancel up
          operation x on q work 10ms
          cancel all on q
          wait for q
        at 80ms on main
          cancel late
        """

    /// A serial dispatch queue: a plain block, a work item cancelled before its turn, one cancelled while it runs.
    static let dispatch = """
        queue g dispatch
        thread t
          async first on g work 100ms
          async workItem skip on g work 50ms
          async workItem late on g work 100ms
          cancel skip
          work 150ms
          cancel late
        """
}
