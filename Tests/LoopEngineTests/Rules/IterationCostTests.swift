import LoopEngine
import Testing

extension Rules {
    /// The virtual clock's cost model: every iteration of a loop costs `VirtualWorld.iterationCost`, paid at its
    /// end, before the loop decides whether to go on.
    @Suite("the cost model: an iteration costs virtual time")
    struct IterationCostTests {
        /// A source0 that signals itself `times` times, then stops the loop.
        private static func spin(_ harness: VirtualHarness, times: Int) {
            var left = times
            var source: LoopSource?
            source = harness.source("s") {
                left -= 1
                if left > 0 { source?.signal() } else { harness.loop.stop() }
            }
            source?.signal()
        }

        @Test("each iteration advances the clock by exactly the configured cost")
        func iterationAdvancesByTheCost() {
            let harness = VirtualHarness(iterationCost: .microseconds(7))
            Self.spin(harness, times: 4)
            let result = harness.loop.run(mode: .default, seconds: 1)
            #expect(result == .stopped)
            let starts = harness.recorder.events.filter { $0.kind == .beforeTimers }.map(\.time.nanoseconds)
            let performs = harness.recorder.events.filter { $0.kind == .source0 }.map(\.time.nanoseconds)
            // Iteration k starts after k - 1 paid iterations; its perform is at its start (the cost comes last).
            #expect(starts == [0, 7_000, 14_000, 21_000])
            #expect(performs == starts)
            #expect(harness.recorder.events.last?.time.nanoseconds == 28_000)
        }

        @Test("a callout woken by a timer runs at the timer's instant; the cost follows it")
        func costComesAfterTheWake() {
            let harness = VirtualHarness(iterationCost: .microseconds(3))
            harness.timer("t", at: 10)
            harness.loop.run(mode: .default, seconds: 1)
            let times = harness.recorder.events.filter(\.isCFObservable).map { "\($0.time) \($0.step)" }
            #expect(
                times == [
                    "0.000 runStart default", "0.000 entry", "0.000 beforeTimers", "0.000 beforeSources",
                    "0.000 beforeWaiting", "0.010 afterWaiting", "0.010 timer t", "0.010003 exit",
                    "0.010003 result finished",
                ])
        }

        @Test("a loop that never sleeps reaches its time limit")
        func spinningLoopTimesOut() {
            let harness = VirtualHarness(iterationCost: .microseconds(100))
            var source: LoopSource?
            source = harness.source("s") { source?.signal() }
            source?.signal()
            #expect(harness.loop.run(mode: .default, seconds: 0.001) == .timedOut)
            // Ten iterations of 100 µs make the millisecond; the tenth ends at it and times out.
            #expect(harness.recorder.events.filter { $0.kind == .source0 }.count == 10)
            #expect(harness.world.now == .zero + .milliseconds(1))
        }

        @Test("zero cost keeps the trace the engine made before the cost model, instant for instant")
        func zeroCostKeepsTheOldTrace() throws {
            let source = """
                scenario "zero cost"
                iteration cost 0s
                thread T
                  port keepAlive in default
                  source0 s in default
                    first 3 calls: signal s
                  timer tick at 100ms every 100ms in default
                  observer log on beforeWaiting, afterWaiting in default
                  run default for 250ms
                at 150ms on T
                  signal s
                  wakeup
                """
            let script = try ScenarioParser.parse(source)
            #expect(script.scenario.iterationCost == .zero)
            let trace = TextTraceFormatter.format(ScenarioRunner.run(script.scenario).events)
            // `loopviz run` of this scenario before the cost model (commit 0b80869), line for line.
            #expect(trace == Self.traceBeforeTheCostModel + "\n")
        }

        @Test("a scenario without `iteration cost` gets the calibrated default; the file's value wins over it")
        func scenarioCost() throws {
            let plain = try ScenarioParser.parse("thread T\n  wakeup")
            #expect(plain.scenario.iterationCost == VirtualWorld.defaultIterationCost)
            #expect(VirtualWorld.defaultIterationCost == .nanoseconds(1_500))
            let given = try ScenarioParser.parse("iteration cost 2us\nthread T\n  wakeup")
            #expect(given.scenario.iterationCost == .microseconds(2))
        }

        @Test("a working thread that spins does not hold back another thread's timer")
        func spinningThreadLetsOthersRun() {
            // A spins for 1 ms without sleeping (each iteration a spend with nobody else able to go on, which just
            // moves the clock); B's timer at 10 µs must still fire at 10 µs, in the middle of A's iterations.
            let spinner = ThreadSpec(
                name: "A", items: [.source0("s", [ScriptStep(.signal("s"))])],
                program: [.signal("s"), .run(.inMode(.default, seconds: 0.001, returnAfterSourceHandled: false))])
            let sleeper = ThreadSpec(
                name: "B", items: [.timer("t", first: .microseconds(10), every: .seconds(1))],
                program: [.run(.inMode(.default, seconds: 0.001, returnAfterSourceHandled: false))])
            let scenario = Scenario(
                name: "two threads", threads: [spinner, sleeper], iterationCost: .microseconds(3))
            let events = ScenarioRunner.run(scenario).events
            let timer = events.first { $0.kind == .timer }
            #expect(timer?.loop == "B")
            #expect(timer?.time == .zero + .microseconds(10))
            // A's performs are 3 µs apart, before and after B's timer, all the way to its limit.
            let performs = events.filter { $0.kind == .source0 && $0.loop == "A" }.map(\.time.nanoseconds)
            #expect(performs.count == 334)
            #expect(zip(performs, performs.dropFirst()).allSatisfy { $1 - $0 == 3_000 })
            let results = events.filter { $0.kind == .result }.map { "\($0.loop) \($0.time) \($0.name ?? "")" }
            #expect(results == ["A 0.001002 timedOut", "B 0.001003 timedOut"])
        }

        static let traceBeforeTheCostModel = """
            time   thread  depth  mode     event          name       detail
            0.000  T       0      -        schedule       keepAlive  mode default
            0.000  T       0      -        schedule       s          mode default
            0.000  T       1      default  runStart       default    limit 0.250s
            0.000  T       1      default  entry
            0.000  T       1      default  beforeTimers
            0.000  T       1      default  beforeSources
            0.000  T       1      default  beforeWaiting
            0.000  T       1      default  observer       log        beforeWaiting
            0.000  T       1      default  sleep                     until timer tick at 0.100 or time limit at 0.250
            0.100  T       1      default  wake                      timer port
            0.100  T       1      default  afterWaiting
            0.100  T       1      default  observer       log        afterWaiting
            0.100  T       1      default  timer          tick
            0.100  T       1      default  beforeTimers
            0.100  T       1      default  beforeSources
            0.100  T       1      default  beforeWaiting
            0.100  T       1      default  observer       log        beforeWaiting
            0.100  T       1      default  sleep                     until timer tick at 0.200 or time limit at 0.250
            0.150  T       1      default  signal         s
            0.150  T       1      default  wakeUp
            0.150  T       1      default  wake                      wakeUp
            0.150  T       1      default  afterWaiting
            0.150  T       1      default  observer       log        afterWaiting
            0.150  T       1      default  beforeTimers
            0.150  T       1      default  beforeSources
            0.150  T       1      default  source0        s
            0.150  T       1      default  signal         s
            0.150  T       1      default  sleep                     poll
            0.150  T       1      default  wake                      nothing
            0.150  T       1      default  beforeTimers
            0.150  T       1      default  beforeSources
            0.150  T       1      default  source0        s
            0.150  T       1      default  signal         s
            0.150  T       1      default  sleep                     poll
            0.150  T       1      default  wake                      nothing
            0.150  T       1      default  beforeTimers
            0.150  T       1      default  beforeSources
            0.150  T       1      default  source0        s
            0.150  T       1      default  signal         s
            0.150  T       1      default  sleep                     poll
            0.150  T       1      default  wake                      nothing
            0.150  T       1      default  beforeTimers
            0.150  T       1      default  beforeSources
            0.150  T       1      default  source0        s
            0.150  T       1      default  sleep                     poll
            0.150  T       1      default  wake                      nothing
            0.150  T       1      default  beforeTimers
            0.150  T       1      default  beforeSources
            0.150  T       1      default  beforeWaiting
            0.150  T       1      default  observer       log        beforeWaiting
            0.150  T       1      default  sleep                     until timer tick at 0.200 or time limit at 0.250
            0.200  T       1      default  wake                      timer port
            0.200  T       1      default  afterWaiting
            0.200  T       1      default  observer       log        afterWaiting
            0.200  T       1      default  timer          tick
            0.200  T       1      default  beforeTimers
            0.200  T       1      default  beforeSources
            0.200  T       1      default  beforeWaiting
            0.200  T       1      default  observer       log        beforeWaiting
            0.200  T       1      default  sleep                     until timer tick at 0.300 or time limit at 0.250
            0.250  T       1      default  wakeUp                    timeout
            0.250  T       1      default  wake                      wakeUp
            0.250  T       1      default  afterWaiting
            0.250  T       1      default  observer       log        afterWaiting
            0.250  T       1      default  exit
            0.250  T       1      default  result         timedOut
            """
    }
}
