#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns every signal that ends a process (``TerminationSignals/all``: SIGINT, SIGTERM, SIGHUP, SIGQUIT (Ctrl-\),
/// SIGUSR1, SIGALRM, SIGXCPU, …), SIGTSTP (Ctrl-Z) and SIGCONT into bytes on a pipe the UI loop polls, so they are
/// handled in ordinary code (restore the terminal, finish the cast, stop, redraw) rather than in a signal handler,
/// which may only write the byte. SIGQUIT is caught like SIGTERM: left alone, the Swift runtime's backtracer would
/// take over the screen.
enum SignalPipe {
    /// The pipe's ends, as plain integers: the handler reads `writeEnd` and calls `write(2)`, nothing else.
    nonisolated(unsafe) private static var readDescriptor: Int32 = -1
    nonisolated(unsafe) private static var writeEnd: Int32 = -1
    /// The end the UI polls.
    static var readEnd: Int32 { readDescriptor }

    static func install() {
        var pair: [Int32] = [0, 0]
        guard pipe(&pair) == 0 else { return }
        for fd in pair { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        readDescriptor = pair[0]
        writeEnd = pair[1]
        TerminationSignals.install(forward, flags: SA_RESTART)
        install(SIGTSTP)
        install(SIGCONT)
    }

    /// The handler: the signal's number as one byte on the pipe (a full pipe drops it: the UI ends on the ones
    /// already there).
    private static let forward: @convention(c) (Int32) -> Void = { number in
        var byte = UInt8(truncatingIfNeeded: number)
        _ = write(SignalPipe.writeEnd, &byte, 1)
    }

    /// Routes `signal` to the pipe (again, after ``stopNow()`` let it act by default once).
    static func install(_ signal: Int32) {
        var action = sigaction()
        #if canImport(Glibc)
        action.__sigaction_handler.sa_handler = forward
        #else
        action.__sigaction_u.__sa_handler = forward
        #endif
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        sigaction(signal, &action, nil)
    }

    /// Ctrl-Z, once the terminal is given back: stops the process as the default action of SIGTSTP would (the
    /// shell says "Stopped"), and catches SIGTSTP again once continued.
    static func stopNow() {
        #if canImport(Glibc)
        _ = Glibc.signal(SIGTSTP, SIG_DFL)
        #else
        _ = Darwin.signal(SIGTSTP, SIG_DFL)
        #endif
        raise(SIGTSTP)
        install(SIGTSTP)
    }

    /// The signals received since the last call.
    static func drain() -> [Int32] {
        var received: [Int32] = []
        var byte: UInt8 = 0
        while read(readDescriptor, &byte, 1) == 1 { received.append(Int32(byte)) }
        return received
    }
}

/// Restores the terminal when the process dies of a trap or a fatal signal, then lets it die as it would.
enum CrashGuard {
    nonisolated(unsafe) static var restore: (() -> Void)?

    static func install() {
        for signal in [SIGSEGV, SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE] {
            var action = sigaction()
            #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = { number in
                CrashGuard.restore?()
                CrashGuard.restore = nil
                Glibc.signal(number, SIG_DFL)
                raise(number)
            }
            #else
            action.__sigaction_u.__sa_handler = { number in
                CrashGuard.restore?()
                CrashGuard.restore = nil
                Darwin.signal(number, SIG_DFL)
                raise(number)
            }
            #endif
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            sigaction(signal, &action, nil)
        }
    }
}
