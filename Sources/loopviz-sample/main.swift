import CoreFoundation
import Foundation

#if canImport(Glibc)
import Glibc
#endif

// loopviz-sample: the program of loopviz-demo without the recorder (no import of it, no mark): a 50 ms repeating
// timer, a block performed from another thread's run loop, a port, and one deliberate 300 ms hang in the fifth
// tick, inside `decodeImageOnTheMainThread`. `loopviz record -o OUT.jsonl -- loopviz-sample` records it with no code change.

let usage = """
    usage: loopviz-sample [--crash | --pause | --sleep]
      Runs its main run loop for a second: a timer, a block from another thread, a port, and one 300 ms hang in
      decodeImageOnTheMainThread. --crash: ends with a trap (SIGILL or SIGTRAP) right after the hang, to show that
      `loopviz record` keeps the recording of a program that crashes. --pause: 50 ms into the hang the program
      stops itself (SIGSTOP) until something continues it (SIGCONT), to show a hang that was not the program's
      work. --sleep: the hang is a 300 ms sleep of the thread (usleep) instead of work.

    """
let arguments = CommandLine.arguments.dropFirst()
if arguments.contains(where: { ["--help", "-h", "help"].contains($0) }) {
    print(usage, terminator: "")
    exit(0)
}
guard arguments.isEmpty || [["--crash"], ["--pause"], ["--sleep"]].contains(Array(arguments)) else {
    FileHandle.standardError.write(Data(usage.utf8))
    exit(2)
}
let crashes = arguments == ["--crash"]
let pauses = arguments == ["--pause"]
let sleeps = arguments == ["--sleep"]

/// The deliberate hang: 300 ms of synchronous work on the main thread, in a function of its own so that a stack
/// sample names it. Work, not a sleep: a sleep of the thread (`usleep`) would end early at the first signal of
/// `loopviz record --stacks`, as it ends at any signal.
@Sendable @inline(never)
func decodeImageOnTheMainThread() {
    if sleeps {
        usleep(300_000)
        return
    }
    var start = timespec()
    clock_gettime(CLOCK_MONOTONIC, &start)
    var checksum: UInt64 = 0
    var now = start
    var paused = false
    repeat {
        for byte in 0..<10_000 { checksum = checksum &* 31 &+ UInt64(byte) }
        clock_gettime(CLOCK_MONOTONIC, &now)
        if pauses && !paused && (now.tv_sec - start.tv_sec) * 1_000_000_000 + (now.tv_nsec - start.tv_nsec) > 50_000_000
        {
            paused = true
            raise(SIGSTOP)
        }
    } while (now.tv_sec - start.tv_sec) * 1_000_000_000 + (now.tv_nsec - start.tv_nsec) < 300_000_000
    if checksum == 42 { print("") }
}

// A port keeps the loop alive (on Linux `Port()` traps; a SocketPort is the translation of NSPort).
let port = SocketPort()
RunLoop.main.add(port, forMode: .default)

nonisolated(unsafe) var ticks = 0
let timer = Timer(fire: Date(timeIntervalSinceNow: 0.05), interval: 0.05, repeats: true) { _ in
    ticks += 1
    if ticks == 5 {
        decodeImageOnTheMainThread()
        if crashes { fatalError("loopviz-sample: the crash that --crash asked for") }
    }
}
RunLoop.main.add(timer, forMode: .default)

// A worker thread runs a loop of its own (a 100 ms heartbeat; `loopviz record --all-threads` records it too); a
// one-shot timer there hands the main loop a block (Linux Foundation has no performSelector:onThread:) and wakes it.
nonisolated(unsafe) var performed = false
let started = DispatchSemaphore(value: 0)
let worker = Thread {
    // Named here, once `start()` has returned: on Linux a name given before `start()` does not reach the thread,
    // nor one given while `start()` is still storing the thread's handle (its name stays the process's).
    started.wait()
    Thread.current.name = "worker"
    let handOver = Timer(fire: Date(timeIntervalSinceNow: 0.12), interval: 0, repeats: false) { _ in
        RunLoop.main.perform { performed = true }
        CFRunLoopWakeUp(CFRunLoopGetMain())
    }
    let heartbeat = Timer(fire: Date(timeIntervalSinceNow: 0.1), interval: 0.1, repeats: true) { _ in }
    RunLoop.current.add(handOver, forMode: .default)
    RunLoop.current.add(heartbeat, forMode: .default)
    RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.9))
    heartbeat.invalidate()
}
worker.start()
started.signal()

RunLoop.main.run(until: Date(timeIntervalSinceNow: 1.0))
timer.invalidate()
// Words that do not depend on timing (how many ticks fit in the second does): what the tests compare.
print(
    "loopviz-sample: \(ticks >= 5 ? "hung once" : "did not reach its hang"), the perform \(performed ? "ran" : "did not run")"
)
