/// The lesson `loopviz` opens when started without a file: a kept-alive thread with a timer, a version-0 source, a
/// port and observers, and an outside world that pokes it now and then.
enum DefaultLesson {
    static let fileName = "default-lesson.loop"

    static let text = """
        # One turn of the run loop, again and again.
        # A worker thread kept alive by a port: a repeating timer, a version-0 source that another thread signals,
        # a port that another thread writes to, and an observer of every activity.
        #
        # Watch for: the loop sleeping between events; timers firing after the wait, never at beforeTimers; a
        # signal without a wake-up that waits for the next timer; a port that wakes the loop by itself.
        #
        # Try: press s to signal `work` and wake the loop, o to send to `net`, f to fire the timer now,
        # m to scroll (a nested run in Tracking: the timer stops), x to stop the run.
        #
        # [zh]
        # 运行循环的一圈，一遍又一遍。一个靠端口常驻的工作线程：一个重复的定时器，一个由别的线程来标记
        # （signal）的版本 0 源（source0），一个别的线程会写入的端口，还有一个观察所有活动的观察者。
        #
        # 看点：循环在两个事件之间休眠；定时器在等待返回之后触发，从不在 beforeTimers 触发；只标记、不唤醒的
        # signal 要等下一次定时器唤醒循环；端口自己就能唤醒循环。
        #
        # 试试：按 s 标记 `work` 并唤醒循环，按 o 往 `net` 发消息，按 f 立刻触发定时器，按 m 模拟滚动
        # （在 Tracking 里嵌套运行一次：定时器停了），按 x 停止这次 run。

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
          claims next 0.600 wake
        say zh "循环睡了：0.6 秒的定时器之前没事可做" after sleep
        say "The timer port woke the loop: afterWaiting, then the timer fires" after 0.600 wake
          claims next 0.600 afterWaiting
          claims next 0.600 timer tick
        say zh "定时器端口唤醒了循环：先 afterWaiting，然后定时器触发" after 0.600 wake
        say "Another thread signals `work` and wakes the loop: the source0 runs, then the loop polls" at 1300ms
          claims next 1.300 wake
          claims next 1.300 source0 work
        say zh "另一个线程标记了 `work` 并唤醒循环：source0 执行，然后循环再轮询一次" at 1300ms
        say "A message on the port `net` wakes the loop by itself" at 2400ms
          claims next 2.400 wake
          claims next 2.400 source1 net
          claims later never wakeUp between 2.4s and 2.400
        say zh "端口 `net` 上来了一条消息，它自己就唤醒了循环" at 2400ms
        say "A signal without a wake-up: `work` waits until the timer wakes the loop at 3.6 s" at 3300ms
          claims next 3.600 wake
          claims next source0 work after 3.6
        say zh "只标记、不唤醒：`work` 要等到 3.6 秒定时器唤醒循环时才执行" at 3300ms
        say "`work` ran at last, in the pass the timer's wake-up began; from here only the timer wakes the loop" after 3.620 source0 work
          claims next sleep
          claims later timer tick
          claims later never source0 work
        say zh "`work` 终于执行了，就在定时器唤醒后的这一轮里；此后只有定时器会唤醒循环" after 3.620 source0 work
        """
}
