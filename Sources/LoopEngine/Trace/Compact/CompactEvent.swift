/// One event as the trace stores it: 32 bytes of plain values, no reference counting. Strings are ids into the
/// trace's ``NameTable``, the fact an id into its fact table (0: none).
struct CompactEvent: Sendable, Equatable {
    var nanoseconds: Int64
    var loop: UInt32
    /// The mode's name id + 1; 0 outside any run.
    var mode: UInt32
    /// The item's name id + 1; 0 when the event names none.
    var name: UInt32
    /// The fact's id + 1; 0 when the event has none.
    var fact: UInt32
    var iteration: UInt32
    var depth: UInt16
    var kind: UInt8
}
