import Foundation
import SnapshotSupport
import Testing

/// `loopviz compare` of an async `main` (docs/concurrency.md, "The async main"): the real one, in a process of its
/// own (the compiled entry's steps: the body started at once on the main thread, then
/// `swift_task_asyncMainDrainQueue()`, which is `dispatch_main()` here; `exit(0)` at the body's end), against the
/// engine's `thread NAME main async`.
@Suite("loopviz compare checks an async main on the real runtime", .serialized)
struct CompareAsyncMainTests {
    #if os(Linux)
    @Test(
        "after the first await no run loop runs on the main thread: its timer and observer never run, the main queue's jobs run first in first out"
    )
    func mainQueueWithoutTheLoop() throws {
        let result = try CompareEveryLessonTests.compare(
            ["t.loop"],
            files: [
                "t.loop": """
                scenario "async main on Linux"
                thread app main async
                  timer tick at 10ms every 10ms in default
                  observer watch on beforeWaiting, afterWaiting in default
                  mainqueue early
                    work 1ms
                  await sleep 50ms
                  mainqueue later
                    work 1ms
                  await yield
                  work 1ms
                thread worker
                  run default for 30ms
                at 20ms on worker
                  mainqueue fromWorker
                """
            ])
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        let header = "AGREE t.loop (2 threads, each compared on its own: app 5 steps, worker 2 steps)"
        #expect(result.stdout.hasPrefix(header + "\n"), "\(result.stdout)")
        let app = CompareEveryLessonTests.columns(result.stdout, after: "thread app:")
        #expect(
            app.reference == [
                "mainQueue early", "mainQueue fromWorker", "mainQueue app", "mainQueue later", "mainQueue app",
            ], "\(result.stdout)")
        #expect(app.engine == app.reference)
    }

    @Test(
        "a run in the body's first part is a normal run of the main loop, and the body's end (exit) cuts another thread's run short"
    )
    func firstPartRunsTheLoopAndExitEndsEveryThread() throws {
        let result = try CompareEveryLessonTests.compare(
            ["t.loop"],
            files: [
                "t.loop": """
                scenario "async main: a first part that runs the loop, then exit"
                thread app main async
                  timer tick at 10ms every 10ms in default
                  mainqueue early
                  run default for 25ms
                  await sleep 40ms
                  work 1ms
                thread worker
                  timer wtick at 20ms every 200ms in default
                  run default for 500ms
                """
            ])
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.hasPrefix("AGREE t.loop (2 threads"), "\(result.stdout)")
        let app = CompareEveryLessonTests.columns(result.stdout, after: "thread app:")
        #expect(
            app.reference == [
                "runStart default", "entry", "beforeTimers", "beforeSources", "beforeWaiting", "afterWaiting",
                "mainQueue early", "beforeTimers", "beforeSources", "beforeWaiting", "afterWaiting", "timer tick",
                "beforeTimers", "beforeSources", "beforeWaiting", "afterWaiting", "timer tick", "beforeTimers",
                "beforeSources", "beforeWaiting", "afterWaiting", "exit", "result timedOut", "mainQueue app",
            ], "\(result.stdout)")
        #expect(app.engine == app.reference)
        let worker = CompareEveryLessonTests.columns(result.stdout, after: "thread worker:")
        // exit(0) at about 66 ms (later on a busy machine, never near 220 ms): the worker's timer fired once, its
        // run never returned.
        #expect(worker.reference.filter { $0 == "timer wtick" }.count == 1, "\(result.stdout)")
        #expect(!worker.reference.contains("result timedOut"))
        #expect(worker.engine == worker.reference)
    }

    @Test(
        "once the main thread has left, CF adds nothing to the main loop: the source is not in its mode, no schedule callout"
    )
    func addsAfterTheMainThreadLeftAreRefused() throws {
        let result = try CompareEveryLessonTests.compare(
            ["t.loop"],
            files: [
                "t.loop": """
                scenario "adds to the main loop after dispatch_main()"
                thread app main async
                  source0 s in nothing
                    on schedule: work 1ms
                  timer t at 50ms in nothing
                  await yield
                  add s to default
                  add t to M
                  block b in default
                  query contains s in default
                  query contains t in M
                """
            ])
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.hasPrefix("AGREE t.loop (3 steps)\n"), "\(result.stdout)")
        let sides = CompareEveryLessonTests.columns(result.stdout, after: "AGREE t.loop (3 steps)")
        #expect(
            sides.reference == [
                "mainQueue app", "query contains s in default is false", "query contains t in M is false",
            ], "\(result.stdout)")
        #expect(sides.engine == sides.reference)
        // CF says so on standard error, once per kind.
        #expect(result.stderr.contains("Attempting to add source to main runloop, but the main thread has exited"))
    }

    @Test("a run asked for in a main-queue job after the hand-over finds an empty loop: RunLoop.run returns false")
    func runAfterTheHandOver() throws {
        let result = try CompareEveryLessonTests.compare(
            ["t.loop"],
            files: [
                "t.loop": """
                scenario "a run after dispatch_main()"
                thread app main async
                  timer t at 5ms in default
                  await yield
                  run default for 20ms
                  RunLoop.run default before 20ms
                """
            ])
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.hasPrefix("AGREE t.loop (2 steps)\n"), "\(result.stdout)")
        let sides = CompareEveryLessonTests.columns(result.stdout, after: "AGREE t.loop (2 steps)")
        #expect(sides.reference == ["mainQueue app", "returned false"], "\(result.stdout)")
        #expect(sides.engine == sides.reference)
    }
    #endif
}
