#if os(Linux)
import CoreFoundation
import Foundation
import LoopEngine

/// One item in the loops of two threads on the real CF: `add X to M on THREAD` is `CFRunLoopAddTimer` (or
/// `AddSource`, `AddObserver`) with the other thread's `CFRunLoop`, called from this thread. CF applies its own
/// rule (a timer or an observer of another loop is not added); the oracle adds nothing of its own to it.
extension OracleHost {
    /// `add name to mode on thread`: this thread's item (as `add` finds it) into another thread's loop, from its
    /// creation (docs/cfrunloop.md §17.1). Nothing while that thread has not started.
    func add(_ name: String, _ mode: ModeName, on thread: String) {
        guard let target = world.loopHost(named: thread) else { return }
        let owner = owner(of: name)
        let tag = target.cfMode(mode)
        if let source = owner.sources[name] { CFRunLoopAddSource(target.loop, source, tag) }
        if let timer = owner.timers[name] { CFRunLoopAddTimer(target.loop, timer, tag) }
        if let observer = owner.observers[name] { CFRunLoopAddObserver(target.loop, observer, tag) }
        // The add may have made the mode there: the other loop's tracer must see it (a thread still making its
        // items traces every mode there once they are made).
        if world.host(named: thread) != nil { target.traceCreatedModes() }
    }

    /// `remove name from mode on thread`.
    func remove(_ name: String, _ mode: ModeName, on thread: String) {
        guard let target = world.loopHost(named: thread) else { return }
        let owner = owner(of: name)
        let tag = target.cfMode(mode)
        if let source = owner.sources[name] { CFRunLoopRemoveSource(target.loop, source, tag) }
        if let timer = owner.timers[name] { CFRunLoopRemoveTimer(target.loop, timer, tag) }
        if let observer = owner.observers[name] { CFRunLoopRemoveObserver(target.loop, observer, tag) }
    }

    /// The host whose loop calls out now (`CFRunLoopGetCurrent()` in the callout): this one, or the thread whose
    /// loop performs this thread's item too. Its trace records the callout, and the script is its code.
    func performingHost() -> OracleHost {
        host(of: CFRunLoopGetCurrent())
    }

    /// The host of the scenario thread whose loop `other` is (this one when it is none of them).
    func host(of other: CFRunLoop) -> OracleHost {
        if other === loop { return self }
        for thread in world.scenario.threads {
            if let host = world.host(named: thread.name), host.loop === other { return host }
        }
        return self
    }
}
#endif
