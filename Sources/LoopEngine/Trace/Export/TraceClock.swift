/// Which clock stamped a trace. Exports record it because virtual times are exact and reproducible while real
/// times carry scheduling noise: a tool comparing two traces must know which kind it holds.
package enum TraceClock: String, Sendable, CaseIterable {
    /// The deterministic `VirtualWorld` clock.
    case virtual
    /// Wall-clock time from the real-thread backend or the CFRunLoop oracle.
    case real
}
