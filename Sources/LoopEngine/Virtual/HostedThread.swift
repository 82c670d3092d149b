#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A bare OS thread (pthread) that runs one closure and is joined once.
///
/// LoopEngine does not import Foundation, so this stands in for `Thread`. A virtual thread needs an OS thread of
/// its own because a loop that waits keeps its whole call stack (runs nested in callouts, a program half done)
/// while other virtual threads run.
final class HostedThread {
    private final class Body {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    #if canImport(Glibc)
    private var handle = pthread_t()
    #else
    private var handle: pthread_t?
    #endif
    private var joined = false

    /// The stack every hosted thread gets: room for ``RunLoopCore/maximumNestingDepth`` nested runs with their
    /// callouts and scripts (a debug build needs about 12 KB per nested run, 3 MB for 256; a release build less),
    /// five times over, whatever the process's default (`ulimit -s`, often 8 MB, sometimes far less). It is only
    /// address space until a deep nesting touches it.
    static let stackSize = 16 << 20

    /// `pthread_create` failed: its error (`EAGAIN`, `ENOMEM`, ...).
    struct StartError: Error {
        let code: Int32
    }

    /// Starts an OS thread running `body`; throws when the OS refuses one (no trap: the caller halts its world).
    init(_ body: @escaping () -> Void) throws(StartError) {
        // The thread owns one retain of the body and releases it when the body returns.
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, Self.stackSize)
        let result = pthread_create(
            &handle, &attributes,
            { argument in
                // Optional on Glibc, not on Darwin: the promotion makes one body fit both.
                let argument: UnsafeMutableRawPointer? = argument
                guard let argument else { return nil }
                Unmanaged<Body>.fromOpaque(argument).takeRetainedValue().run()
                return nil
            }, context)
        guard result == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            joined = true
            throw StartError(code: result)
        }
    }

    deinit {
        precondition(joined, "a hosted thread was never joined")
    }

    /// Waits until the thread's body has returned and the OS thread is gone.
    func join() {
        guard !joined else { return }
        #if canImport(Glibc)
        pthread_join(handle, nil)
        #else
        if let handle { pthread_join(handle, nil) }
        #endif
        joined = true
    }
}
