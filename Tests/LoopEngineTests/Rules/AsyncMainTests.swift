import LoopEngine
import Testing

extension Rules {
    /// docs/concurrency.md, "The async main": `thread NAME main async` on the virtual clock. On Linux (probed) the
    /// first `await` sends the main thread into `dispatch_main()`; under `profile darwin` (the runtime's source, not
    /// verified here) it runs `CFRunLoopRun()`; the body's end is `exit(0)`. `CompareAsyncMainTests` checks the Linux
    /// shapes on the real runtime.
    @Suite("an async main: dispatch_main() on Linux, CFRunLoopRun() on Darwin, exit(0) at its end")
    struct AsyncMainTests {
        static func outcome(_ source: String) throws -> ScenarioRunner.Outcome {
            let script = try ScenarioParser.parse(source, file: "t.loop")
            return ScenarioRunner.run(script.scenario, horizon: .seconds(5))
        }

        static func steps(_ outcome: ScenarioRunner.Outcome) -> [String] {
            outcome.events.map { event in
                "\(event.time) \(event.loop) \(event.step)" + (event.detail.map { " (\($0))" } ?? "")
            }
        }

        @Test(
            "Linux: after the first await the main queue's jobs run one after the other as they come, with no run loop: its timer, observer and block never run"
        )
        func linuxServesTheMainQueueWithoutTheLoop() throws {
            let outcome = try Self.outcome(
                """
                thread app main async
                  timer tick at 10ms every 10ms in default
                  observer watch on all in default
                  block b in default
                  mainqueue early
                    work 1ms
                  await sleep 30ms
                  mainqueue later
                  await yield
                  work 1ms
                thread worker
                  run default for 15ms
                  mainqueue fromWorker
                """)
            #expect(
                Self.steps(outcome) == [
                    "0.000 app enqueue b (modes default)",
                    "0.000 app note app (app sleeps 0.030s: the rest of app is queued when its timer fires)",
                    "0.000 app note app (app awaits for the first time: the main thread calls dispatch_main() and "
                        + "leaves; libdispatch runs the main queue on a worker thread from now on, and the main run "
                        + "loop runs no more)",
                    "0.000 app mainQueue early",
                    "0.000 worker runStart default (limit 0.015s)",
                    "0.000 worker result finished",
                    "0.001 app mainQueue fromWorker",
                    "0.030 app mainQueue app (resumed after sleeping 0.030s)",
                    "0.030 app note app (app awaits Task.yield(): the rest of app goes to the global executor, then "
                        + "to the back of the main queue)",
                    "0.030 app mainQueue later",
                    "0.030 app mainQueue app (resumed after Task.yield())",
                    "0.031 app note app (app is done: its last main-actor job returned)",
                    "0.031 app note app (app returned: exit(0) ends the process, every thread with it)",
                ])
            #expect(outcome.haltReason == .exited)
        }

        @Test("the body's end is exit(0): the other threads end with it, mid-run, and jobs still queued never run")
        func exitEndsEveryThread() throws {
            let outcome = try Self.outcome(
                """
                thread app main async
                  await sleep 20ms
                  mainqueue never
                thread worker
                  timer w at 7ms every 7ms in default
                  run default for 1s
                """)
            let steps = Self.steps(outcome)
            #expect(steps.last == "0.020 app note app (app returned: exit(0) ends the process, every thread with it)")
            #expect(!steps.contains { $0.contains("mainQueue never") })
            #expect(!steps.contains { $0.contains("worker result") })
            #expect(steps.filter { $0.hasSuffix("worker timer w") }.count == 2)
            #expect(outcome.endTime == .zero + .milliseconds(20))
        }

        @Test(
            "a body without an await runs to its end on the main thread and exits at once; a run in it is a normal run")
        func noAwaitExitsAtOnce() throws {
            let outcome = try Self.outcome(
                """
                thread app main async
                  timer tick at 5ms in default
                  run default for 10ms
                """)
            #expect(
                Self.steps(outcome).map { String($0.split(separator: " ").dropFirst(2).first ?? "") } == [
                    "runStart", "entry", "beforeTimers", "beforeSources", "beforeWaiting", "sleep", "wake",
                    "afterWaiting", "timer", "beforeTimers", "beforeSources", "beforeWaiting", "sleep", "wakeUp",
                    "wake",
                    "afterWaiting", "exit", "result", "note", "note",
                ])
            #expect(
                Self.steps(outcome).last?.hasSuffix("(app returned: exit(0) ends the process, every thread with it)")
                    == true)
        }

        @Test(
            "Darwin: the first await runs CFRunLoopRun(): the main queue is drained in its iterations and timers fire")
        func darwinRunsTheMainLoop() throws {
            let outcome = try Self.outcome(
                """
                profile darwin
                thread app main async
                  timer tick at 10ms in default
                  await sleep 20ms
                  work 1ms
                """)
            let steps = Self.steps(outcome)
            #expect(
                steps.filter { !$0.contains(" before") && !$0.contains(" afterWaiting") && !$0.contains(" sleep (") }
                    == [
                        "0.000 app note app (app sleeps 0.020s: the rest of app is queued when its timer fires)",
                        "0.000 app note app (app awaits for the first time: the main thread runs CFRunLoopRun() in "
                            + "default, which drains the main queue, until the loop is stopped (Darwin's runtime, not "
                            + "verified here))",
                        "0.000 app runStart default (limit forever)",
                        "0.000 app entry",
                        "0.010 app wake (timer port)",
                        "0.010 app timer tick",
                        "0.020 app wake (main queue)",
                        "0.020 app mainQueue app (resumed after sleeping 0.020s)",
                        "0.021 app note app (app is done: its last main-actor job returned)",
                        "0.021 app note app (app returned: exit(0) ends the process, every thread with it)",
                    ])
        }

        @Test("Darwin: a stop of the main loop ends CFRunLoopRun(), and exit(0) comes before the rest of the body")
        func darwinStopEndsTheProcess() throws {
            let outcome = try Self.outcome(
                """
                profile darwin
                thread app main async
                  timer quit at 10ms in default
                    stop
                  await sleep 50ms
                  work 1ms
                """)
            let steps = Self.steps(outcome)
            #expect(
                steps.last
                    == "0.0100015 app note app (CFRunLoopRun() returned: the async main's entry calls exit(0), ending the "
                    + "process before the rest of app runs)")
            #expect(!steps.contains { $0.contains("resumed after sleeping") })
            #expect(outcome.haltReason == .exited)
        }

        @Test("`async` is for the main thread, and `await` may be a line of an async main's program")
        func parsing() throws {
            let script = try ScenarioParser.parse("thread app main async\n  await yield\n  work 1ms\n", file: "t.loop")
            #expect(script.scenario.threads.first?.isAsyncMain == true)
            #expect(script.scenario.threads.first?.program == [.await(.yield), .work(.milliseconds(1))])
            #expect(throws: ScenarioDiagnostics.self) {
                try ScenarioParser.parse("thread app async\n  run default for 1ms\n", file: "t.loop")
            }
        }
    }
}

extension Rules.AsyncMainTests {
    @Test(
        "Linux: once the main thread has left, CF adds no source, timer or observer to the main loop and queues no block there"
    )
    func mainThreadExitedRefusesAdds() throws {
        let outcome = try Self.outcome(
            """
            thread app main async
              source0 s in nothing
              timer t at 50ms
              await yield
              add s to default
              add t to M
              block b in default
              query contains s in default
            """)
        let notes = outcome.events.filter { $0.kind == .note || $0.kind == .schedule || $0.kind == .query }.map {
            "\($0.step)" + ($0.detail.map { " (\($0))" } ?? "")
        }
        let expected: [String] = [
            "note s (the main thread has exited: CF does not add source0 s to the main run loop (it logs "
                + "\"Attempting to add source to main runloop, but the main thread has exited\" once))",
            "note t (the main thread has exited: CF does not add timer t to the main run loop (it logs "
                + "\"Attempting to add timer to main runloop, but the main thread has exited\" once))",
            "note b (the main thread has exited: CF does not queue block b on the main run loop (it logs "
                + "\"Attempting to perform block on main runloop, but the main thread has exited\" once))",
            "query contains s in default is false (CFRunLoopContains(s, default) answered false)",
        ]
        let shown = Array(notes.dropFirst(2).prefix(4))
        #expect(shown == expected, "\(notes)")
        #expect(!outcome.events.contains { $0.kind == .schedule || $0.kind == .enqueue })
    }

    @Test("Linux: a run asked for in a main-queue job after the hand-over is the worker thread's own, empty loop's")
    func runAfterTheHandOverFindsAnEmptyLoop() throws {
        let outcome = try Self.outcome(
            """
            thread app main async
              timer t at 5ms in default
              await yield
              run default for 20ms
              RunLoop.run default before 20ms
            """)
        let steps = outcome.events.map { $0.step + ($0.detail.map { " (\($0))" } ?? "") }
        #expect(
            Array(steps.dropFirst(3).prefix(4)) == [
                "runStart default (limit 0.020s)", "result finished",
                "note (run(mode: default, before:) returned false at once: the mode is empty)",
                "returned false (run(mode:before:) returned false: the mode is empty, it did not run)",
            ])
        #expect(!steps.contains("timer t"))
    }
}
