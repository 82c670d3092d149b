#if os(Linux)
import CoreFoundation
import Foundation
import Glibc
import Testing

/// The probe behind docs/cfrunloop.md §17.1: CF makes a thread's run loop on demand, for whoever asks for it, so a
/// thread that was just started has a loop before its own code has touched it, and what another thread queues
/// there waits for the thread's first run.
@Suite("§17.1 a thread's loop exists from its creation, in the real CFRunLoop")
struct StartedThreadLoopTests {
    /// `CFRunLoopRef _CFRunLoopGet0(pthread_t)`: exported by libFoundation on Linux, declared in no header the
    /// CoreFoundation module imports. Foundation finds a thread's loop with it.
    typealias Get0 = @convention(c) (pthread_t) -> Unmanaged<CFRunLoop>

    final class Probe: @unchecked Sendable {
        // @unchecked Sendable: each field is written before a semaphore the reader waits for.
        var thread: pthread_t = 0
        var performed = 0
        var result: Int32 = 0
        var sameLoop = false
        /// The loop another thread got for the thread before the thread's code ran.
        var early: CFRunLoop?
    }

    @Test("a source signalled in a thread's loop before the thread's code ran is performed by its first run")
    func performQueuedBeforeTheThreadsCodeRuns() throws {
        let symbol = try #require(dlsym(dlopen(nil, RTLD_NOW), "_CFRunLoopGet0"))
        let get0 = unsafeBitCast(symbol, to: Get0.self)
        let probe = Probe()
        let started = DispatchSemaphore(value: 0)
        let go = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            probe.thread = pthread_self()
            started.signal()
            go.wait()  // the thread's own code starts only now
            let loop = CFRunLoopGetCurrent()
            probe.sameLoop = loop === probe.early
            let keepAlive = CFRunLoopTimerCreateWithHandler(nil, CFAbsoluteTimeGetCurrent() + 10, 0, 0, 0) { _ in }
            CFRunLoopAddTimer(loop, keepAlive, kCFRunLoopDefaultMode)
            probe.result = CFRunLoopRunInMode(kCFRunLoopDefaultMode, 0.2, true).rawValue
            CFRunLoopTimerInvalidate(keepAlive)
            done.signal()
        }
        thread.start()
        started.wait()
        let loop = get0(probe.thread).takeUnretainedValue()
        probe.early = loop
        var context = CFRunLoopSourceContext()
        context.version = 0
        context.info = Unmanaged.passUnretained(probe).toOpaque()
        context.perform = { info in Unmanaged<Probe>.fromOpaque(info!).takeUnretainedValue().performed += 1 }
        let source = CFRunLoopSourceCreate(nil, 0, &context)
        CFRunLoopAddSource(loop, source, kCFRunLoopCommonModes)
        CFRunLoopSourceSignal(source)
        CFRunLoopWakeUp(loop)
        go.signal()
        done.wait()
        CFRunLoopSourceInvalidate(source)
        #expect(probe.sameLoop)
        #expect(probe.performed == 1)
        #expect(probe.result == CFRunLoopRunResult.handledSource.rawValue)
    }
}
#endif
