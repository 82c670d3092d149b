extension TraceRecorder {
    /// The recorder as a loop holds it: its state's address. The core emits through it, so an event costs neither a
    /// retain and release of the recorder nor a dynamic exclusivity check, and its names and fact travel as ids
    /// (``TraceNameSlot``): a few stores, no string hashed, retained or copied. Valid while the recorder lives
    /// (the loop's `sink` keeps it); used with the engine lock held, as `record`.
    struct Handle {
        let state: UnsafeMutablePointer<State>

        /// True while the event coming is one of the reused ones: it is counted (and `onRecord` told), not stored.
        @inline(__always)
        func repeatsReusedEvent() -> Bool {
            guard state.pointee.repeated < state.pointee.reused else { return false }
            guard state.pointee.repeated < state.pointee.limit else { return true }
            state.pointee.repeated += 1
            if let onRecord = state.pointee.onRecord { onRecord(state.pointee.repeated) }
            return true
        }

        /// Takes one event whose names and fact are this recorder's ids. `modeCode`, `nameCode` and `factCode`
        /// are an id + 1, or 0 for none.
        @inline(__always)
        func record(
            _ kind: LoopEvent.Kind, time: LoopInstant, loopID: UInt32, depth: Int, modeCode: UInt32, iteration: Int,
            nameCode: UInt32, factCode: UInt32
        ) {
            if repeatsReusedEvent() { return }
            guard state.pointee.trace.count < state.pointee.limit else { return }
            state.pointee.trace.append(
                kind, time: time, loopID: loopID, depth: depth, modeCode: modeCode, iteration: iteration,
                nameCode: nameCode, factCode: factCode)
            if let onRecord = state.pointee.onRecord { onRecord(state.pointee.trace.count) }
        }

        /// The id of an unchanging name in the recorder's table, remembered in `slot` (kept by the name's owner:
        /// a loop, a mode, an item) and read from it while the table is the same.
        @inline(__always)
        func nameID(_ name: @autoclosure () -> String, slot: inout TraceNameSlot) -> UInt32 {
            if slot.token == state.pointee.tableToken { return slot.id }
            let id = state.pointee.trace.nameID(name())
            slot = TraceNameSlot(token: state.pointee.tableToken, id: id)
            return id
        }

        /// The id of a name that changes from event to event (a block's, a task's).
        @inline(__always)
        func nameID(_ name: String) -> UInt32 { state.pointee.trace.nameID(name) }

        /// The id of a fact.
        @inline(__always)
        func factID(_ fact: LoopEvent.Fact) -> UInt32 { state.pointee.trace.factID(fact) }

        /// The id of the fact `.activity(activity)` (an observer's callout), without building it.
        @inline(__always)
        func activityFactID(_ activity: Activity) -> UInt32 { state.pointee.trace.activityFactID(activity) }
    }

    /// This recorder's ``Handle``.
    var handle: Handle { Handle(state: state) }
}
