import CoreFoundation
import Foundation
import LoopRecorder

// loopviz-demo OUT.jsonl: a small Foundation program that records its own main run loop with LoopRecorder for a
// second: a repeating timer, a block performed from another thread, a port that keeps the loop alive, and one
// deliberate 300 ms hang inside a timer callback. `loopviz hangs OUT.jsonl` must list exactly that hang.

let usage = """
    usage: loopviz-demo OUT.jsonl
      Records this program's own main run loop for a second (a timer, a block from another thread, a port, one
      300 ms hang) to OUT.jsonl; replay it with `loopviz OUT.jsonl`, list its hangs with `loopviz hangs OUT.jsonl`.

    """
// `--help` (or any option) is not a file name: usage, never a recording named `--help`.
if CommandLine.arguments.count == 2, ["--help", "-h", "help"].contains(CommandLine.arguments[1]) {
    print(usage, terminator: "")
    exit(0)
}
guard CommandLine.arguments.count == 2, !CommandLine.arguments[1].hasPrefix("-") else {
    FileHandle.standardError.write(Data(usage.utf8))
    exit(2)
}
let output = URL(fileURLWithPath: CommandLine.arguments[1])
let recorder: LoopRecorder
do {
    recorder = try LoopRecorder.start(on: .main, to: output)
} catch {
    FileHandle.standardError.write(Data("loopviz-demo: cannot write \(output.path): \(error)\n".utf8))
    exit(4)
}

// A port keeps the loop alive (on Linux `Port()` traps; a SocketPort is the translation of NSPort).
let port = SocketPort()
RunLoop.main.add(port, forMode: .default)

// Every 50 ms a tick; the fifth one hangs for 300 ms (a synchronous "decode" on the main thread).
nonisolated(unsafe) var ticks = 0
let timer = Timer(fire: Date(timeIntervalSinceNow: 0.05), interval: 0.05, repeats: true) { _ in
    ticks += 1
    LoopRecorder.mark("tick \(ticks)")
    if ticks == 5 {
        LoopRecorder.interval("decode image (the deliberate hang)") { usleep(300_000) }
    }
}
RunLoop.main.add(timer, forMode: .default)

// A worker thread hands the main loop a block (Linux Foundation has no performSelector:onThread:), and wakes it.
Thread.detachNewThread {
    usleep(120_000)
    RunLoop.main.perform {
        LoopRecorder.mark("perform from the worker")
    }
    CFRunLoopWakeUp(CFRunLoopGetMain())
}

RunLoop.main.run(until: Date(timeIntervalSinceNow: 1.0))
timer.invalidate()
let summary = recorder.stop()
print("loopviz-demo: \(summary.events) events, \(summary.dropped) dropped, in \(output.path)")
exit(summary.writeFailed ? 4 : 0)
