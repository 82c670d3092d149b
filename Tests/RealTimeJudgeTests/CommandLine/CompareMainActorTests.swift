import Foundation
import SnapshotSupport
import Testing

/// `loopviz compare` of each Swift Concurrency construct (docs/concurrency.md) on the process's main thread: the
/// real `Task { @MainActor in … }`, `Task.yield()`, `Task.sleep(for:)` and `DispatchQueue.main.asyncAfter` of the
/// Swift runtime and libdispatch, drained by the real `CFRunLoopGetMain()`, against the engine's main-queue jobs.
@Suite("loopviz compare checks the main actor's jobs on the real runtime", .serialized)
struct CompareMainActorTests {
    /// Runs `compare` on one scenario and returns the output, having required that it agrees.
    static func agreeing(_ scenario: String, verdict: String) throws -> String {
        let result = try CompareEveryLessonTests.compare(["t.loop"], files: ["t.loop": scenario])
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.hasPrefix(verdict + "\n"), "\(result.stdout)")
        return result.stdout
    }

    #if os(Linux)
    @Test("a main-actor task's first job is drained with the main-queue blocks, in the order they were queued")
    func taskStartIsFIFOWithBlocks() throws {
        let output = try Self.agreeing(
            """
            scenario "fifo"
            thread main main
              mainqueue b1
              mainactor t1
                work 5ms
              mainqueue b2
              run default for 100ms returnAfterSourceHandled
            """, verdict: "AGREE t.loop (11 steps)")
        let sides = CompareEveryLessonTests.columns(output, after: "AGREE t.loop (11 steps)")
        #expect(
            sides.reference == [
                "runStart default", "entry", "beforeTimers", "beforeSources", "beforeWaiting", "afterWaiting",
                "mainQueue b1", "mainQueue t1", "mainQueue b2", "exit", "result handledSource",
            ], "\(output)")
        #expect(sides.engine == sides.reference)
    }

    /// Fuzz seed 5 case 1316, made small: the yield's rest comes back from the global executor tens of
    /// microseconds later, and the outer run looks at the main queue microseconds after the nested run drained the
    /// task. The engine explores both orders (`MainActorYieldRaceTests`); the real run must take one of them: the
    /// default's (the rest there, drained in the outer run) or schedule 0:1's (not yet: `RunLoop.run(until:)` runs
    /// again and sleeps until it comes), which is what this machine shows.
    @Test("a yield's rest and an outer run's look right after a nested drain: the real run takes an explored order")
    func yieldRestRacesAnOuterRunsLook() throws {
        let result = try CompareEveryLessonTests.compare(
            ["t.loop"],
            files: ["t.loop": YieldRaceFixture.text()])
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        let verdict = result.stdout.components(separatedBy: "\n").first ?? ""
        #expect(
            verdict == "AGREE t.loop (32 steps)"
                || verdict.hasPrefix("AGREE t.loop (a race: the real run took schedule 0:1,"), "\(result.stdout)")
    }

    @Test("Task.yield on the main actor: the rest runs in the next drain, one beforeWaiting → afterWaiting later")
    func yieldCostsATurn() throws {
        let output = try Self.agreeing(
            """
            scenario "yield"
            thread main main
              mainactor t
                work 5ms
                await yield
                work 5ms
              run default for 100ms
            """, verdict: "AGREE t.loop (18 steps)")
        let sides = CompareEveryLessonTests.columns(output, after: "AGREE t.loop (18 steps)")
        #expect(
            sides.reference == [
                "runStart default", "entry", "beforeTimers", "beforeSources", "beforeWaiting", "afterWaiting",
                "mainQueue t", "beforeTimers", "beforeSources", "beforeWaiting", "afterWaiting", "mainQueue t",
                "beforeTimers", "beforeSources", "beforeWaiting", "afterWaiting", "exit", "result timedOut",
            ], "\(output)")
        #expect(sides.engine == sides.reference)
    }

    @Test("Task.sleep on the main actor: the rest is drained after its deadline, by a wake for the main queue")
    func sleepResumesAfterTheDeadline() throws {
        let output = try Self.agreeing(
            """
            scenario "sleep"
            thread main main
              mainactor t
                await sleep 50ms
                work 5ms
              run default for 150ms
            """, verdict: "AGREE t.loop (18 steps)")
        let sides = CompareEveryLessonTests.columns(output, after: "AGREE t.loop (18 steps)")
        #expect(
            sides.reference == [
                "runStart default", "entry", "beforeTimers", "beforeSources", "beforeWaiting", "afterWaiting",
                "mainQueue t", "beforeTimers", "beforeSources", "beforeWaiting", "afterWaiting", "mainQueue t",
                "beforeTimers", "beforeSources", "beforeWaiting", "afterWaiting", "exit", "result timedOut",
            ], "\(output)")
        #expect(sides.engine == sides.reference)
    }

    @Test("asyncAfter: the handler's drain, then one more turn for libdispatch's teardown job")
    func asyncAfterHasATeardownTurn() throws {
        let output = try Self.agreeing(
            """
            scenario "asyncAfter"
            thread main main
              asyncafter 50ms h
                work 5ms
              run default for 150ms
            """, verdict: "AGREE t.loop (17 steps)")
        let sides = CompareEveryLessonTests.columns(output, after: "AGREE t.loop (17 steps)")
        #expect(
            sides.reference == [
                "runStart default", "entry", "beforeTimers", "beforeSources", "beforeWaiting", "afterWaiting",
                "mainQueue h", "beforeTimers", "beforeSources", "beforeWaiting", "afterWaiting",
                "beforeTimers", "beforeSources", "beforeWaiting", "afterWaiting", "exit", "result timedOut",
            ], "\(output)")
        #expect(sides.engine == sides.reference)
    }

    @Test("a main-actor task started on another thread wakes the main thread's rash run: handledSource")
    func taskFromAnotherThread() throws {
        let output = try Self.agreeing(
            """
            scenario "from a thread"
            thread main main
              run default for 200ms returnAfterSourceHandled
            thread worker
              work 40ms
              mainactor t
                say "main: t ran"
            """, verdict: "AGREE t.loop (2 threads, each compared on its own: main 10 steps, worker 0 steps)")
        let main = CompareEveryLessonTests.columns(output, after: "thread main:")
        #expect(
            main.reference == [
                "runStart default", "entry", "beforeTimers", "beforeSources", "beforeWaiting", "afterWaiting",
                "mainQueue t", "note", "exit", "result handledSource",
            ], "\(output)")
    }

    @Test("a main-actor task waits while the main thread runs a private mode, and runs after it returns")
    func taskWaitsForAPrivateMode() throws {
        let output = try Self.agreeing(
            """
            scenario "private"
            thread main main
              timer open at 20ms in default
                mainactor t
                  work 5ms
                run Menu for 60ms
              timer blink at 40ms in Menu
              run default for 150ms
            """, verdict: "AGREE t.loop (25 steps)")
        let sides = CompareEveryLessonTests.columns(output, after: "AGREE t.loop (25 steps)")
        // The menu's run ends once its one-shot timer has fired (the mode is empty then); t waits till then.
        #expect(
            sides.reference == [
                "runStart default", "entry", "beforeTimers", "beforeSources", "beforeWaiting", "afterWaiting",
                "timer open", "runStart Menu", "entry", "beforeTimers", "beforeSources", "beforeWaiting",
                "afterWaiting", "timer blink", "exit", "result finished", "beforeTimers", "beforeSources",
                "mainQueue t", "beforeTimers", "beforeSources", "beforeWaiting", "afterWaiting", "exit",
                "result timedOut",
            ], "\(output)")
        #expect(sides.engine == sides.reference)
    }

    @Test("asyncAfter's teardown drain ends the next rash run with handledSource, with no callout to show")
    func asyncAfterTeardownEndsARashRun() throws {
        let output = try Self.agreeing(
            """
            scenario "asyncAfter rash"
            thread main main
              asyncafter 20ms h
                work 5ms
              run default for 100ms returnAfterSourceHandled
              run default for 100ms returnAfterSourceHandled
              run default for 50ms returnAfterSourceHandled
            """, verdict: "AGREE t.loop (25 steps)")
        let sides = CompareEveryLessonTests.columns(output, after: "AGREE t.loop (25 steps)")
        #expect(
            sides.reference == [
                "runStart default", "entry", "beforeTimers", "beforeSources", "beforeWaiting", "afterWaiting",
                "mainQueue h", "exit", "result handledSource",
                "runStart default", "entry", "beforeTimers", "beforeSources", "beforeWaiting", "afterWaiting",
                "exit", "result handledSource",
                "runStart default", "entry", "beforeTimers", "beforeSources", "beforeWaiting", "afterWaiting",
                "exit", "result timedOut",
            ], "\(output)")
        #expect(sides.engine == sides.reference)
    }
    #endif
}
