/// One event as the trace stores it: 32 bytes of plain values, no reference counting. Strings are ids into the
/// trace's ``NameTable``, the fact an id into its fact table (0: none).
package struct CompactEvent: Sendable, Equatable {
    package var nanoseconds: Int64
    package var loop: UInt32
    /// The mode's name id + 1; 0 outside any run.
    package var mode: UInt32
    /// The item's name id + 1; 0 when the event names none.
    package var name: UInt32
    /// The fact's id + 1; 0 when the event has none.
    package var fact: UInt32
    package var iteration: UInt32
    package var depth: UInt16
    package var kind: UInt8
}
