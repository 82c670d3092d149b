#if os(Linux)
import CoreFoundation
import Foundation
import LoopEngine

/// One item in the loops of two threads on the real CF (`add X to M on THREAD`, see ``add(_:_:on:)``): whose
/// loop calls it out, and so whose code its script is.
extension OracleHost {
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
