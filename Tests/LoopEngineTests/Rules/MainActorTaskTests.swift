import LoopEngine
import Testing

extension Rules {
    /// docs/concurrency.md: a main-actor task's jobs, its yields and sleeps, and `asyncAfter` are main-queue
    /// items (§14) on the virtual clock (its default iteration cost, 1.5 µs); `CompareMainActorTests` checks the
    /// same shapes on the real runtime.
    @Suite("Swift Concurrency's main actor on the main thread's run loop")
    struct MainActorTaskTests {
        static func steps(_ source: String) throws -> [String] {
            let script = try ScenarioParser.parse(source, file: "t.loop")
            let outcome = ScenarioRunner.run(script.scenario, horizon: .seconds(5))
            return outcome.events.map { event in
                "\(event.time) \(event.step)" + (event.detail.map { " (\($0))" } ?? "")
            }
        }

        @Test("a main-actor task's first job and the main-queue blocks are drained in one go, in the order queued")
        func taskStartIsFIFOWithBlocks() throws {
            let steps = try Self.steps(
                """
                thread main main
                  mainqueue b1
                  mainactor t1
                    work 5ms
                  mainqueue b2
                  run default for 100ms returnAfterSourceHandled
                """)
            #expect(
                steps == [
                    "0.000 runStart default (limit 0.100s, returnAfterSourceHandled)",
                    "0.000 entry",
                    "0.000 beforeTimers",
                    "0.000 beforeSources",
                    "0.000 beforeWaiting",
                    "0.000 sleep (until time limit at 0.100, but the main queue is ready)",
                    "0.000 wake (main queue)",
                    "0.000 afterWaiting",
                    "0.000 mainQueue b1",
                    "0.000 mainQueue t1 (main-actor task starts)",
                    "0.005 note t1 (t1 is done: its last main-actor job returned)",
                    "0.005 mainQueue b2",
                    "0.0050015 exit",
                    "0.0050015 result handledSource",
                ])
        }

        @Test("Task.yield on the main actor: the rest is drained one beforeWaiting → afterWaiting later")
        func yieldCostsALoopTurn() throws {
            let steps = try Self.steps(
                """
                thread main main
                  mainactor t
                    work 5ms
                    await yield
                    work 5ms
                  run default for 100ms
                """)
            #expect(
                steps == [
                    "0.000 runStart default (limit 0.100s)",
                    "0.000 entry",
                    "0.000 beforeTimers",
                    "0.000 beforeSources",
                    "0.000 beforeWaiting",
                    "0.000 sleep (until time limit at 0.100, but the main queue is ready)",
                    "0.000 wake (main queue)",
                    "0.000 afterWaiting",
                    "0.000 mainQueue t (main-actor task starts)",
                    "0.005 note t (t awaits Task.yield(): the rest of t goes to the global executor, then to the back of the main queue)",
                    "0.0050015 beforeTimers",
                    "0.0050015 beforeSources",
                    "0.0050015 beforeWaiting",
                    "0.0050015 sleep (until time limit at 0.100)",
                    "0.0050015 wake (main queue)",
                    "0.0050015 afterWaiting",
                    "0.0050015 mainQueue t (resumed after Task.yield())",
                    "0.0100015 note t (t is done: its last main-actor job returned)",
                    "0.010003 beforeTimers",
                    "0.010003 beforeSources",
                    "0.010003 beforeWaiting",
                    "0.010003 sleep (until time limit at 0.100)",
                    "0.100 wakeUp (timeout)",
                    "0.100 wake (wakeUp)",
                    "0.100 afterWaiting",
                    "0.1000015 exit",
                    "0.1000015 result timedOut",
                ])
        }

        @Test("a sleep on the main actor: the rest is queued when its timer fires and wakes the loop")
        func sleepResumesAtItsDeadline() throws {
            let steps = try Self.steps(
                """
                thread main main
                  mainactor t
                    await sleep 50ms
                    work 5ms
                  run default for 150ms
                """)
            #expect(
                steps == [
                    "0.000 runStart default (limit 0.150s)",
                    "0.000 entry",
                    "0.000 beforeTimers",
                    "0.000 beforeSources",
                    "0.000 beforeWaiting",
                    "0.000 sleep (until time limit at 0.150, but the main queue is ready)",
                    "0.000 wake (main queue)",
                    "0.000 afterWaiting",
                    "0.000 mainQueue t (main-actor task starts)",
                    "0.000 note t (t sleeps 0.050s: the rest of t is queued when its timer fires)",
                    "0.0000015 beforeTimers",
                    "0.0000015 beforeSources",
                    "0.0000015 beforeWaiting",
                    "0.0000015 sleep (until time limit at 0.150)",
                    "0.050 wake (main queue)",
                    "0.050 afterWaiting",
                    "0.050 mainQueue t (resumed after sleeping 0.050s)",
                    "0.055 note t (t is done: its last main-actor job returned)",
                    "0.0550015 beforeTimers",
                    "0.0550015 beforeSources",
                    "0.0550015 beforeWaiting",
                    "0.0550015 sleep (until time limit at 0.150)",
                    "0.150 wakeUp (timeout)",
                    "0.150 wake (wakeUp)",
                    "0.150 afterWaiting",
                    "0.1500015 exit",
                    "0.1500015 result timedOut",
                ])
        }

        @Test("asyncAfter: its handler at the delay, then an empty teardown job costs one more loop turn")
        func asyncAfterTeardownTurn() throws {
            let steps = try Self.steps(
                """
                thread main main
                  asyncafter 50ms h
                    work 5ms
                  run default for 150ms
                """)
            #expect(
                steps == [
                    "0.000 runStart default (limit 0.150s)",
                    "0.000 entry",
                    "0.000 beforeTimers",
                    "0.000 beforeSources",
                    "0.000 beforeWaiting",
                    "0.000 sleep (until time limit at 0.150)",
                    "0.050 wake (main queue)",
                    "0.050 afterWaiting",
                    "0.050 mainQueue h (asyncAfter 0.050s handler)",
                    "0.0550015 beforeTimers",
                    "0.0550015 beforeSources",
                    "0.0550015 beforeWaiting",
                    "0.0550015 sleep (until time limit at 0.150, but the main queue is ready)",
                    "0.0550015 wake (main queue)",
                    "0.0550015 afterWaiting",
                    "0.0550015 mainQueue h (asyncAfter's teardown job: nothing of the program's runs)",
                    "0.055003 beforeTimers",
                    "0.055003 beforeSources",
                    "0.055003 beforeWaiting",
                    "0.055003 sleep (until time limit at 0.150)",
                    "0.150 wakeUp (timeout)",
                    "0.150 wake (wakeUp)",
                    "0.150 afterWaiting",
                    "0.1500015 exit",
                    "0.1500015 result timedOut",
                ])
        }

        @Test("asyncAfter's teardown drain is a handled source: it ends the next rash run")
        func asyncAfterTeardownEndsARashRun() throws {
            let steps = try Self.steps(
                """
                thread main main
                  asyncafter 20ms h
                    work 5ms
                  run default for 100ms returnAfterSourceHandled
                  run default for 100ms returnAfterSourceHandled
                  run default for 50ms returnAfterSourceHandled
                """)
            #expect(
                steps == [
                    "0.000 runStart default (limit 0.100s, returnAfterSourceHandled)",
                    "0.000 entry",
                    "0.000 beforeTimers",
                    "0.000 beforeSources",
                    "0.000 beforeWaiting",
                    "0.000 sleep (until time limit at 0.100)",
                    "0.020 wake (main queue)",
                    "0.020 afterWaiting",
                    "0.020 mainQueue h (asyncAfter 0.020s handler)",
                    "0.0250015 exit",
                    "0.0250015 result handledSource",
                    "0.0250015 runStart default (limit 0.100s, returnAfterSourceHandled)",
                    "0.0250015 entry",
                    "0.0250015 beforeTimers",
                    "0.0250015 beforeSources",
                    "0.0250015 beforeWaiting",
                    "0.0250015 sleep (until time limit at 0.1250015, but the main queue is ready)",
                    "0.0250015 wake (main queue)",
                    "0.0250015 afterWaiting",
                    "0.0250015 mainQueue h (asyncAfter's teardown job: nothing of the program's runs)",
                    "0.025003 exit",
                    "0.025003 result handledSource",
                    "0.025003 runStart default (limit 0.050s, returnAfterSourceHandled)",
                    "0.025003 entry",
                    "0.025003 beforeTimers",
                    "0.025003 beforeSources",
                    "0.025003 beforeWaiting",
                    "0.025003 sleep (until time limit at 0.075003)",
                    "0.075003 wakeUp (timeout)",
                    "0.075003 wake (wakeUp)",
                    "0.075003 afterWaiting",
                    "0.0750045 exit",
                    "0.0750045 result timedOut",
                ])
        }

        @Test("a main-actor task queued before a private-mode run waits for it, then runs without a beforeWaiting")
        func privateModeStarvesTheTask() throws {
            let steps = try Self.steps(
                """
                thread main main
                  timer open at 20ms in default
                    mainactor t
                      work 5ms
                    run Menu for 60ms
                  timer blink at 40ms in Menu
                  run default for 150ms
                """)
            #expect(
                steps == [
                    "0.000 runStart default (limit 0.150s)",
                    "0.000 entry",
                    "0.000 beforeTimers",
                    "0.000 beforeSources",
                    "0.000 beforeWaiting",
                    "0.000 sleep (until timer open at 0.020 or time limit at 0.150)",
                    "0.020 wake (timer port)",
                    "0.020 afterWaiting",
                    "0.020 timer open",
                    "0.020 runStart Menu (limit 0.060s)",
                    "0.020 entry",
                    "0.020 beforeTimers",
                    "0.020 beforeSources",
                    "0.020 beforeWaiting",
                    "0.020 sleep (until timer blink at 0.040 or time limit at 0.080)",
                    "0.040 wake (timer port)",
                    "0.040 afterWaiting",
                    "0.040 timer blink",
                    "0.0400015 exit",
                    "0.0400015 result finished",
                    "0.040003 beforeTimers",
                    "0.040003 beforeSources",
                    "0.040003 mainQueue t (main-actor task starts)",
                    "0.045003 note t (t is done: its last main-actor job returned)",
                    "0.0450045 beforeTimers",
                    "0.0450045 beforeSources",
                    "0.0450045 beforeWaiting",
                    "0.0450045 sleep (until time limit at 0.150)",
                    "0.150 wakeUp (timeout)",
                    "0.150 wake (wakeUp)",
                    "0.150 afterWaiting",
                    "0.1500015 exit",
                    "0.1500015 result timedOut",
                ])
        }

        @Test("a main-actor task started from an at block wakes the main thread; its yield costs a turn there too")
        func taskFromOutside() throws {
            let steps = try Self.steps(
                """
                thread main main
                  run default for 100ms
                at 30ms on main
                  mainactor t
                    work 5ms
                    await yield
                    say "t resumed"
                """)
            #expect(
                steps == [
                    "0.000 runStart default (limit 0.100s)",
                    "0.000 entry",
                    "0.000 beforeTimers",
                    "0.000 beforeSources",
                    "0.000 beforeWaiting",
                    "0.000 sleep (until time limit at 0.100)",
                    "0.030 wake (main queue)",
                    "0.030 afterWaiting",
                    "0.030 mainQueue t (main-actor task starts)",
                    "0.035 note t (t awaits Task.yield(): the rest of t goes to the global executor, then to the back of the main queue)",
                    "0.0350015 beforeTimers",
                    "0.0350015 beforeSources",
                    "0.0350015 beforeWaiting",
                    "0.0350015 sleep (until time limit at 0.100)",
                    "0.0350015 wake (main queue)",
                    "0.0350015 afterWaiting",
                    "0.0350015 mainQueue t (resumed after Task.yield())",
                    "0.0350015 note (t resumed)",
                    "0.0350015 note t (t is done: its last main-actor job returned)",
                    "0.035003 beforeTimers",
                    "0.035003 beforeSources",
                    "0.035003 beforeWaiting",
                    "0.035003 sleep (until time limit at 0.100)",
                    "0.100 wakeUp (timeout)",
                    "0.100 wake (wakeUp)",
                    "0.100 afterWaiting",
                    "0.1000015 exit",
                    "0.1000015 result timedOut",
                ])
        }
    }
}
