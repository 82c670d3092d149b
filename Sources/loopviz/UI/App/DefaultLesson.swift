/// The lesson `loopviz` opens when started without a file: a kept-alive thread with a timer, a version-0 source, a
/// port and observers, and an outside world that pokes it now and then.
enum DefaultLesson {
    static let fileName = "default-lesson.loop"

    static let text = """
        # One turn of the run loop, again and again.
        # A worker thread kept alive by a port: a repeating timer, a version-0 source that another thread signals,
        # a port that another thread writes to, and an observer of every activity.
        # Watch for: the loop sleeping between events; timers firing only after afterWaiting; a signal without a
        # wake-up that waits for the next timer; a port that wakes the loop by itself.
        # Try: press s to signal `work` and wake the loop, o to send to `net`, f to fire the timer now,
        # m to scroll (a nested run in Tracking: the timer stops), x to stop the run.

        scenario "One turn of the run loop"

        thread worker
          common Tracking
          port keepAlive in default, Tracking
          timer tick at 600ms every 1s in default
            work 20ms
          source0 work in default
            work 40ms
          port net in default
            work 30ms
          observer activity on all order 0 in default, Tracking
          CFRunLoopRun

        at 1300ms on worker
          signal work
          wakeup

        at 2400ms on worker
          send net

        at 3300ms on worker
          signal work

        say "The loop sleeps: nothing to do until the timer at 0.6 s" after sleep
        say "The timer port woke the loop: afterWaiting, then the timer fires" after 0.600 wake
        say "Another thread signals `work` and wakes the loop: the source0 runs, then the loop polls" at 1300ms
        say "A message on the port `net` wakes the loop by itself" at 2400ms
        say "A signal without a wake-up: `work` waits until the timer wakes the loop at 3.6 s" at 3300ms
        """
}
