/// A place in a run where the virtual world had to choose who goes on first: several threads able to go on at
/// one instant, an outside event due now and a thread able to go on, or a main-queue job on its way back from the
/// global executor and the main thread's look at the main queue; or what a clock read: Foundation's run limit
/// against CF's clock in whole microseconds (linux). A run records each (a typed fact, kept
/// beside its trace, not in it) so `explore` knows where the run could have gone another way, and a view can mark
/// the events whose place depends on a choice.
package struct ScheduleBranchPoint: Hashable, Sendable {
    /// Who could go on.
    package enum Option: Hashable, Sendable {
        /// The next outside event due now (an `at` line), addressed to this thread's loop.
        case outsideEvent(target: String)
        /// A hosted thread, by name.
        case thread(String)
        /// A main-queue job on its way back from the global executor (the rest of a main-actor task after
        /// `Task.yield()`), by its name.
        case hop(job: String)
        /// A main-queue job queued straight on the queue (not through the global executor), by its name.
        case queued(job: String)
        /// The main thread's look at the main queue without waiting (CF's peek after an iteration that did not
        /// drain), by the loop's name.
        case mainQueueLook(loop: String)
        /// Not who goes first, but which microsecond CF's clock reads (linux): Foundation's run limit, at most a
        /// microsecond before now, has passed on it, so the loop's run polls.
        case limitPassed(loop: String)
        /// CF's clock, in whole microseconds, still reads the one before the loop's run limit: the run waits
        /// out the rest of that microsecond.
        case limitAhead(loop: String)
        /// Not who goes first, but how late a wake came: the loop's wake for its mode's timer port came at the
        /// deadline, so a timer due microseconds later waits for the next timer pass.
        case wakeOnTime(loop: String)
        /// The wake came as late as a real one does (tens of microseconds), so that timer is due in this pass.
        case wakeLate(loop: String)

        /// True for the options that say who goes first; false for a clock's readings and a wake's lateness.
        package var isOrdering: Bool {
            switch self {
            case .limitPassed, .limitAhead, .wakeOnTime, .wakeLate: false
            default: true
            }
        }
    }

    /// Its place among the run's branch points (what a schedule's choices are indexed by).
    package var index: Int
    /// The instant of the choice.
    package var time: LoopInstant
    /// How many events had been recorded when the choice was made: the events from here on may depend on it.
    package var eventCount: Int
    /// Everyone who could go on, the default's order: the outside event first, then the threads in declaration
    /// order.
    package var options: [Option]
    /// The option taken.
    package var chosen: Int
}
