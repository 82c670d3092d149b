/// A closure carried through a backend's other thread (`LoopWaiter.schedule(at:_:)`), which only queues it: the
/// loop's own thread runs it, as it runs a `DispatchQueue.main.async` block another thread queued.
struct UncheckedAction: @unchecked Sendable {
    let action: () -> Void

    init(_ action: @escaping () -> Void) { self.action = action }
}
