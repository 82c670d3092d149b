/// The lesson `loopviz new NAME` writes: one of each thing a lesson is made of (a card with its `[zh]` section, a
/// main thread and a worker, a timer, a port, a version-0 source, an observer, narration with its claims, an `ask`
/// and `expect` lines), all of it true of the run, so a new author starts from a file `check --strict` passes and
/// changes it, rather than from a blank page (`LessonTemplateTests` keeps it so).
package enum LessonTemplate {
    /// The lesson, titled `title` (its `scenario` line; a quote or a backslash in it is escaped).
    package static func text(title: String) -> String {
        var quoted = ""
        for character in title {
            if character == "\"" || character == "\\" { quoted.append("\\") }
            // A title is one line: a line break in it would end the `scenario` line.
            quoted.append(character.isNewline ? " " : character)
        }
        return body.replacingTitle(with: quoted)
    }

    /// The placeholder `text(title:)` replaces.
    static let placeholder = "TITLE"

    static let body = """
        # TITLE: write here, in one sentence, what this lesson teaches (its line in the lesson picker).
        #
        # A worker thread with a port, a repeating timer, a version-0 source and an observer; the main thread writes
        # to the worker's port, and another thread signals its source and wakes its loop.
        #
        # Watch for: the worker sleeping between its timer's fires; the message on `inbox` waking it by itself;
        # `work` running once the wake-up comes, not at its signal.
        #
        # Try: remove the `wakeup` under `at 350ms`: `work` waits for the timer at 500 ms to wake the loop.
        #
        # Topics: timers, sources, ports, observers, threads
        #
        # [zh]
        # TITLE：在这里用一句话写这一课讲什么（它在课程列表里的那一行）。
        #
        # 看点：工作线程在两次定时器触发之间睡眠；`inbox` 上的消息自己就唤醒了它；`work` 在唤醒之后才执行，
        # 而不是在标记的那一刻。
        #
        # 试试：删掉 `at 350ms` 下面的 `wakeup`：`work` 要等 500 毫秒的定时器唤醒循环。

        scenario "TITLE"

        thread main main
          timer hand at 150ms
            send inbox on worker
          run default for 600ms

        thread worker
          port inbox
            work 10ms
          timer tick at 100ms every 200ms
            work 5ms
          source0 work
            work 20ms
          observer log on beforeWaiting, afterWaiting
          run default for 600ms

        at 350ms on worker
          signal work
          wakeup

        say "The worker sleeps until its timer is due" after worker: sleep
          claims next 0.100 worker: wake
        say zh "工作线程睡到定时器到期" after worker: sleep
        say "A message on `inbox` wakes the worker by itself" after 0.150 worker: wake
          claims next worker: source1 inbox
        say zh "`inbox` 上的消息自己唤醒了工作线程" after 0.150 worker: wake

        ask "The worker just woke up at 350 ms: what runs next?" after 0.350 worker: wake

        expect in order
          0.100 worker: timer tick
          0.150 worker: source1 inbox
          0.300 worker: timer tick
          0.350 worker: source0 work
          worker: result timedOut

        expect
          worker: observer log at least 2 times
          never worker: source0 work before 0.350

        """
}

extension String {
    /// The text with every `TITLE` replaced (LoopEngine has no Foundation's `replacingOccurrences`).
    fileprivate func replacingTitle(with title: String) -> String {
        split(separator: LessonTemplate.placeholder, omittingEmptySubsequences: false).joined(separator: title)
    }
}
