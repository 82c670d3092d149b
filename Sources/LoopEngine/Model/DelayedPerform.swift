/// A request of `performSelector:withObject:afterDelay:[inModes:]` waiting on a loop: its task (selector and
/// argument together), its target (the receiver), its delay, and the one-shot timer that performs it.
struct DelayedPerform {
    var task: String
    var target: String
    var delay: Duration
    var timer: LoopTimer
}
