/// Where an object with an unchanging name (a loop, a mode, a source, a timer, an observer) remembers that name's
/// id in the table of the ``TraceRecorder`` it last emitted to, so that its next events carry the id with no string
/// looked up. The token says which table the id belongs to; a slot of another table (another recorder, or this one
/// after ``TraceRecorder/removeAll()``) is filled again.
///
/// Owners keep their slot `@exclusivity(unchecked)`: the engine lock already makes every access exclusive, and a
/// dynamic check costs more than the lookup the slot saves.
package struct TraceNameSlot: Sendable {
    /// The table's token (0: none yet; recorders' tokens start at 1).
    var token: Int64 = 0
    var id: UInt32 = 0
}
