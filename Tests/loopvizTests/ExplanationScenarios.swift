import LoopEngine

@testable import loopviz

/// Small scenarios that, together, make every explanation of the Why pane appear (see `ExplanationTableTests`).
enum ExplanationScenarios {
    enum Key: String, Sendable, CaseIterable {
        case loop, overdue, limitPassed, stops, results, mainThread, pool, portSignal, queries, orderedPerform
        case commands, delayedPerform
        case dispatch
        case sharedItems
        case entryStop, lateCauses, nestedRuns, tolerance, mainQueueReady, staleTimerPort, peek, rashFalseStop, dueNow
        case exitStop, invalidations, timerFire
        case mainActor, asyncMain, asyncMainDarwin

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
            case .sharedItems: ExplanationScenarios.sharedItems
            case .entryStop: ExplanationScenarios.entryStop
            case .lateCauses: ExplanationScenarios.lateCauses
            case .nestedRuns: ExplanationScenarios.nestedRuns
            case .tolerance: ExplanationScenarios.tolerance
            case .mainQueueReady: ExplanationScenarios.mainQueueReady
            case .staleTimerPort: ExplanationScenarios.staleTimerPort
            case .peek: ExplanationScenarios.peek
            case .rashFalseStop: ExplanationScenarios.rashFalseStop
            case .dueNow: ExplanationScenarios.dueNow
            case .exitStop: ExplanationScenarios.exitStop
            case .invalidations: ExplanationScenarios.invalidations
            case .timerFire: ExplanationScenarios.timerFire
            case .mainActor: ExplanationScenarios.mainActor
            case .asyncMain: ExplanationScenarios.asyncMain
            case .asyncMainDarwin: ExplanationScenarios.asyncMainDarwin
            }
        }
    }

    /// The scenario as the UI replays it.
    static func session(_ key: Key) -> Session {
        Session(script: try! ScenarioParser.parse(key.source, file: "\(key).loop"))
    }

    /// Its trace.
    static func trace(_ key: Key) -> LoopTrace { session(key).trace }

    /// A program invalidates a timer in two modes, an observer, a version-0 source and a port: each leaves every
    /// mode at once.
    static let invalidations = """
        thread T
          port K
          timer tick at 100ms in default, Tracking
          observer watch on beforeWaiting
          source0 s
          port p
          run default for 10ms
          invalidate tick
          invalidate watch
          invalidate s
          invalidate p
        """

    /// The program calls `Timer.fire()` on a repeating and on a one-shot timer.
    static let timerFire = """
        thread T
          port K
          timer tick at 100ms every 100ms
          timer single at 100ms
          fire tick
          fire single
          query interval tick
          query tolerance tick
          query repeats single
        """

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

    /// A timer and an observer of U handed to T's loop while they are in U's: CF declines both.
    static let sharedItems = """
        thread T
          port K
          run default for 50ms
        thread U
          timer tick at 100ms
          observer watch on entry
          add tick to default on T
          add watch to default on T
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

    /// Swift Concurrency on the main thread: a main-actor task that yields and sleeps, and an asyncAfter with its
    /// teardown job (docs/concurrency.md).
    static let mainActor = """
        thread main main
          mainactor t
            await yield
            await sleep 20ms
          asyncafter 50ms h
          run default for 100ms
        """

    /// An async main on Linux: after its first await the main queue is served without the run loop.
    static let asyncMain = """
        thread app main async
          mainqueue early
          await sleep 20ms
        """

    /// An async main under the darwin profile: CFRunLoopRun() at its first await, which a stop ends.
    static let asyncMainDarwin = """
        profile darwin
        thread app main async
          timer quit at 10ms in default
            stop
          await sleep 20ms
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

    // Where a rule of the scenarios above does not hold: each of these makes a template's words false unless the
    // engine's facts choose other words (`ExplanationTableTests.contrasts`).

    /// An entry observer's stop: the run ends before its first iteration, and its wake-up waits for the next run,
    /// whose first sleep finds it. Then a port served in the poll after a source0, and a port ready before a sleep.
    static let entryStop = """
        thread T
          port net in default
            work 5ms
          port other in default
          source0 job in default
            work 50ms
          observer o on entry in default once
            stop
          run default for 20ms
          run default for 200ms
        at 30ms on T
          signal job
          wakeup
        at 50ms on T
          send net
        at 60ms on T
          send other
        """

    /// Late fires that no busy callout made: a timer whose mode was not running, one added after its date.
    static let lateCauses = """
        thread T
          port K in default, Tracking
          timer away at 50ms in Tracking
          timer latecomer at 100ms every 1s in nothing
          run default for 100ms
          run Tracking for 100ms
          add latecomer to default
          run default for 100ms
        """

    /// Nested runs: one of the same mode keeps a late timer's mode running (busy), one of another mode does not.
    static let nestedRuns = """
        thread T
          port K in default, Modal
          timer tick at 50ms
          timer tock at 120ms
          timer alert at 10ms
            work 60ms
            run default for 30ms
            run Modal for 50ms
          run default for 300ms
        """

    /// Darwin arms a timer's port at the end of its tolerance: the loop sleeps past the deadline.
    static let tolerance = """
        profile darwin
        thread T
          port K in default
          timer lax at 50ms tolerance 20ms
          run default for 100ms
        """

    /// The main queue holds a block before the first wait (the first iteration never peeks).
    static let mainQueueReady = """
        thread main main
          mainqueue m1
          run default for 100ms
        """

    /// Linux never disarms a timer port: a removed timer's deadline still makes the port ready.
    static let staleTimerPort = """
        thread T
          port K in default
          timer gone at 50ms
          observer o on beforeWaiting in default once
            work 60ms
          remove gone from default
          run default for 100ms
        """

    /// The main thread's L7 peek: a timer callout queues a main-queue block, taken with no wait at all.
    static let peek = """
        thread main main
          timer t at 50ms
            mainqueue m1
              work 5ms
          run default for 200ms
        """

    /// A stop from a source0 with returnAfterSourceHandled off: the stop is not lost, the run ends stopped.
    static let rashFalseStop = """
        thread T
          port K in default
          source0 s in default
            stop
          signal s
          run default for 1s
        """

    /// A timer due at the instant the loop goes to sleep: due now, not overdue, and not late when it fires.
    static let dueNow = """
        thread T
          port K in default
          timer now at 0ms
          run default for 50ms
        """

    /// An exit observer's stop: the run has its result; the stop is discarded and the next run is not stopped.
    static let exitStop = """
        thread T
          port K in default
          observer o on exit in default once
            stop
          run default for 20ms
          run default for 20ms
        """
}
