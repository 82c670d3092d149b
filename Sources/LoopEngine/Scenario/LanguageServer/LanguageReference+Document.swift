// Written by `RECORD_SNAPSHOTS=1 swift test --filter LanguageReferenceTests` from docs/language.md: do not edit.
extension LanguageReference {
    /// docs/language.md's headings, table rows and Expectations lists (`excerpt(of:)`), word for word.
    package static let document = #"""
        # The `.loop` scenario language
        ## Lines, blocks and tokens
        ## The shape of a file
        ## The top level
        | line | what it says | example |
        | `scenario "…"` | the title (default: the file's name) | `scenario "A timer stops while the user scrolls"` |
        | `profile linux` / `profile darwin` | which CoreFoundation to imitate where they differ ([cfrunloop.md §15](cfrunloop.md#15-linux-and-darwin)); default `linux` | `profile darwin` |
        | `until DURATION` | how far a headless run goes (default: until every program has ended or every loop sleeps for good; on real threads at most 10 s) | `until 2s` |
        | `iteration cost DURATION` | the virtual time each iteration of a loop costs, 0 to 1 s (default 1.5 µs; `0s`: exact instants, [limits.md](limits.md)) | `iteration cost 2us` |
        | `thread NAME [main]` | a thread and its run loop; `main` makes it the main thread, whose common modes are never empty (they stand for the main queue) | `thread worker` |
        | `thread NAME main async` | the main thread of a program whose `main` is `async`: its program is that `main`'s body, a main-actor task whose first part runs on the main thread, before any run loop, up to its first `await` (`await sleep D`, `await yield` as lines of the program). On Linux (probed) the main thread then calls `dispatch_main()` and leaves: libdispatch runs every later main-queue job (the body's rest, `mainqueue`, `mainactor`, `asyncafter`) on a worker thread, first in first out, and the main run loop never runs again (its timers, sources, observers and blocks wait for good); under `profile darwin` (read in the runtime, not verified here) it runs `CFRunLoopRun()` instead. The body's end is `exit(0)`: the scenario ends there, every thread with it; on Darwin so does the loop's return (a `stop` of the main loop) ([concurrency.md](concurrency.md#the-async-main)) | `thread app main async` |
        | `thread NAME later` | a thread started on the way: its loop exists from the moment some thread's `start NAME` has run (`[thread start]`; a perform, a wake-up or an add for it in that instant waits in its loop, [cfrunloop.md §17.1](cfrunloop.md#17-perform-requests)), its items and program once the thread itself runs; the trace shows its `threadCreate` and, when its program ends, `threadExit` | `thread worker later` |
        | `queue NAME …` | an operation queue, or with `dispatch` a dispatch queue (below) | `queue uploads limit 2` |
        | `owner NAME [weak WEAK]` | an object that owns threads and goes away (the keep-alive article's view controller), and the name of a weak reference to it ([below](#owners-that-go-away)) | `owner vc weak weakSelf` |
        | `at DURATION [on THREAD]` | what another thread or the user does at that time, to THREAD (needed when there are several threads) | `at 150ms on worker` |
        | `say "…" at DURATION` / `say "…" after EVENT` / `say "…" at step N` | narration, shown by the UI from the event it is tied to, and the claims it rests on, indented under it (below) | `say "The loop sleeps" after sleep` |
        | `say zh "…" at …` / `say zh "…" after …` | the same line in Chinese (`--lang zh`), replacing the English line on its event (below) | `say zh "循环睡了" after sleep` |
        | `ask "…" at DURATION` / `ask "…" after EVENT` / `ask "…" at step N`, optionally `(EVENT, EVENT, …)` | a quiz point: the UI's quiz (`G`) stops at that event and asks what the loop does next (below) | `ask "What runs next?" after beforeSources` |
        | `expect exactly` / `expect in order` | the promise `loopviz check` verifies (below) | `expect in order` |
        ## Items
        | item | what it is | example |
        | `source0 NAME [order N] [commands N] [in …]` | a version-0 source: signalled by hand, never wakes the loop by itself; `commands N`: its command queue holds at most N commands (1 to 1000, default 16; [below](#a-custom-input-source)) | `source0 work order 1 in default, Tracking` |
        | `port NAME [in …]` | a version-1 source: a message wakes a sleeping loop by itself; a port nobody writes keeps a loop alive | `port keepAlive in default, Tracking` |
        | `timer NAME at DURATION [every DURATION] [tolerance DURATION] [in …]` | a timer, first fired `at` that time from the start; without `every` it fires once; tolerance is ignored on linux | `timer tick at 100ms every 200ms in common` |
        | `timer NAME every DURATION foundation init` / `… foundation scheduled` (`interval DURATION` instead of `every`: `repeats: false`) `[tolerance DURATION] [in …]` | a timer made by Foundation's `Timer(timeInterval:repeats:block:)` (`init`, added to its modes) or `Timer.scheduledTimer(withTimeInterval:repeats:block:)` (`scheduled`, the default mode only) at its thread's start, first fired when that call dates it on the profile: `init` at once on linux, one interval later on darwin; `scheduled` one interval later on both ([Timers and dates](#timers-and-dates)) | `timer poll every 100ms foundation init` |
        | `observer NAME on ACTIVITIES [order N] [once] [in …]` | an observer of some activities (`on all`: every one); `once` invalidates it after its first call | `observer log on beforeWaiting, afterWaiting order -1` |
        ### A custom input source
        ## Actions
        | action | what it does (CF's call) | example |
        | `work DURATION` | the callout (or the program) is busy that long | `work 20ms` |
        | `signal S` | `CFRunLoopSourceSignal` a version-0 source; no wake-up. On a port source CF takes the signal and ignores it (a port source is performed only for a message): the trace says `ignored`, and only a `wakeup` with it has an effect, one empty iteration | `signal touch` |
        | `send P [N times]` | write a message to a port (N messages; `1 time` also reads) | `send net 3 times` |
        | `send P [N times] on THREAD` | write to a port of another thread (a thread holding the other's port, as the run-loops chapter's worker and main thread do); nothing happens while THREAD, declared `later`, has not started or its program has not made the port yet | `send workerPort on worker` |
        | `start THREAD` | `[thread start]` of a thread declared `later`; a second `start` of it does nothing | `start worker` |
        | `wakeup` / `wake up` | `CFRunLoopWakeUp` | `wakeup` |
        | `wakeup on THREAD` | `CFRunLoopWakeUp` of another thread's loop (a custom source's client holds it) | `wakeup on worker` |
        | `post CMD to SOURCE` | add command CMD to a version-0 source's command queue (above); no signal, no wake-up | `post addItem to inputSource` |
        | `stop` | `CFRunLoopStop`: ends the innermost run at the end of its iteration (a handled source with returnAfterSourceHandled, or the time limit, wins and the stop is lost), at once from an `entry` observer, not at all from an `exit` observer | `call 2: stop` |
        | `stop mode M` | `_CFRunLoopStopMode`: the next run of M stops at once | `stop mode Tracking` |
        | `add X to M` / `remove X from M` | add an item to a mode, or remove it (`common` for the common modes) | `add tick to Tracking` |
        | `add X to M on THREAD` / `remove X from M on THREAD` | `CFRunLoopAddTimer`/`AddSource`/`AddObserver` (or `Remove…`) of this thread's item X with THREAD's loop: a timer or an observer still in a mode of another loop is silently not added (the trace notes `addDeclined`), a source may be in both loops ([One item, two loops](#one-item-two-loops)); nothing while THREAD, declared `later`, has not started | `add tick to default on worker` |
        | `invalidate X` | invalidate an item (removed from every mode at once, for good; the trace shows `invalidate X` with what X is and the modes it left, then a version-0 source's `cancel` steps) | `invalidate keepAlive` |
        | `reschedule T in DURATION` | `CFRunLoopTimerSetNextFireDate`, from now; a negative delay is a date in the past: the timer fires at once | `reschedule tick in 20ms` |
        | `fire T` | Foundation's `Timer.fire()`: T's callout runs at once, on this thread, outside the loop's timer pass (the trace shows `timer T` with `Timer.fire()` in its detail); a repeating T stays valid and keeps its schedule, a one-shot T is invalidated after it, an invalid T does nothing ([Timers and dates](#timers-and-dates)) | `fire tick` |
        | `block B [in M, …]` + indented actions | `CFRunLoopPerformBlock` with mode tags (`in common` too); no wake-up | `block B1 in default, Tracking` |
        | `mainqueue B` + indented actions | `DispatchQueue.main.async`, from any thread's program, callout or `at` block; the file needs a thread marked `main`, whose loop runs the block | `mainqueue M1` |
        | `mainactor T` + indented actions | `Task { @MainActor in … }`, from any thread's program, callout or `at` block (from a detached thread it also stands for `await MainActor.run { … }`): each part of the body between two `await`s is one main-queue job, drained like a `mainqueue` block ([docs/concurrency.md](concurrency.md)); the trace shows `mainQueue T` with `main-actor task starts` or `resumed after …`, and notes where it suspends and when it is done; the file needs a thread marked `main` | `mainactor refresh` |
        | `await yield` / `await sleep D` | only as a line of a `mainactor` body: `await Task.yield()` queues the rest at the back of the main queue (one loop turn later); `try await Task.sleep(for: D)` queues it when a libdispatch timer fires D later (the real runtime is a little later still) | `await sleep 100ms` |
        | `asyncafter D B` + indented actions | `DispatchQueue.main.asyncAfter(deadline: .now() + D)`: a libdispatch timer queues the block on the main queue at D, then libdispatch's teardown job (the trace's `mainQueue B` with `asyncAfter's teardown job`), whose drain runs nothing yet counts as handled: one more loop turn; the file needs a thread marked `main` | `asyncafter 50ms refresh` |
        | `common M` | `CFRunLoopAddCommonMode` | `common Tracking` |
        | `set FLAG` | set a flag a `while not FLAG` loop reads; `set vc.stopped` sets an owner's property ([below](#owners-that-go-away)) | `set done` |
        | `clear FLAG` | clear a flag or an owner's property (`self.thread = nil`) | `clear vc.thread` |
        | `if COND` + indented actions | the actions run only when the condition holds when the `if` is reached (`if (!self.thread) return;` is `if vc.thread` over the rest) | `if not stopped` |
        | `dealloc OWNER` + indented actions | the owner goes away: its weak references are nil from here on, the actions run (the body of its `dealloc`), then it is freed | `dealloc vc` |
        | `perform TASK on THREAD [wait]` + indented actions | `performSelector:onThread:withObject:waitUntilDone:`; not from an `at` block | `perform upload on worker wait` |
        | `perform TASK [target T] order N [in M, …]` + indented actions | `RunLoop.current.perform(_:target:argument:order:modes:)` (`performSelector:target:argument:order:modes:`) on the thread's own loop: queued, then run at the start of the next iteration of a run in one of the modes (`default` when none is given), once, lower `order` first (FIFO within an order); the trace shows `timer orderedPerform` and a `perform TASK` with its order ([Ordered performs](#ordered-performs)); not from an `at` block | `perform foo target str order 10 in default` |
        | `cancelPerform TASK [target T]` | `cancelPerformSelector:target:argument:`: the queued ordered performs of TASK and T leave every mode; a note says how many | `cancelPerform bar target str` |
        | `cancelPerforms target T` | `cancelPerformSelectorsWithTarget:`: every queued ordered perform of T leaves every mode | `cancelPerforms target str` |
        | `perform TASK [target T] afterDelay D [in M, …]` + indented actions | `perform(_:with:afterDelay:inModes:)` (`performSelector:withObject:afterDelay:[inModes:]`) on the thread's own loop: a one-shot timer `delayedPerform`, due D from now, in the modes (`default` when none is given), sends the task once when it fires; a delay of 0 still waits for the timer ([Delayed performs](#delayed-performs)); not from an `at` block | `perform save target doc afterDelay 200ms` |
        | `cancelPrevious TASK [target T]` | `cancelPreviousPerformRequests(withTarget:selector:object:)`: the delayed performs of TASK and T on this thread's loop are cancelled (not its ordered performs); a note says how many | `cancelPrevious save target doc` |
        | `cancelPrevious target T` | `cancelPreviousPerformRequests(withTarget:)`: every delayed perform of T on this thread's loop | `cancelPrevious target doc` |
        | `say "…"` (or `note "…"`) | a note in the trace, shown by the UI; `claims` lines under it are checked at each note it writes ([Claims](#claims-what-a-line-rests-on)) | `say "flushed"` |
        | `say zh "…"` right after a `say "…"` | its translation (Narration in other languages, below): no event of its own | `say zh "刷新了"` |
        | `query QUESTION` | ask the loop something (below): the trace records a `query` event with the answer | `query currentMode` |
        ### One item, two loops
        ### Ordered performs
        ### Delayed performs
        ### Queries
        | question | the call | what it answers |
        | `query currentMode` | `RunLoop.currentMode` (`CFRunLoopCopyCurrentMode`) | the mode of the innermost run: a nested run's inside it, `nil` outside any run (also in a run's `exit` observer it is still the run's mode) |
        | `query limitDate M` | `limitDate(forMode:)` | on the loop's own thread it first polls M once, `CFRunLoopRunInMode(M, -10, true)` - due timers fire, the trace shows the run - then answers `nil` for an empty or unknown mode, `distantFuture` without a timer, else the next timer's fire date. From another thread (an `at` block): `nil`, without polling |
        | `query nextTimerFireDate M` | `CFRunLoopGetNextTimerFireDate` | the fire date of M's first timer by deadline (in that timer's callout, the date it fires for); `none` (CF's 0) without a timer |
        | `query isWaiting` | `CFRunLoopIsWaiting` | `true` only while the loop is in its wait (after `beforeWaiting`, before `afterWaiting`), so only another thread sees `true` |
        | `query contains X in M` | `CFRunLoopContainsSource` / `Timer` / `Observer` | whether X is in M now; `in common`: whether X was added to `kCFRunLoopCommonModes` (an item added to `default` is in `default`, not "in common") |
        | `query isValid X` | `CFRunLoopTimerIsValid` (`SourceIsValid`, `ObserverIsValid`) | `false` once X is invalidated; a one-shot timer is invalidated right after its callout, a `once` observer after its call |
        | `query nextFireDate T` | `CFRunLoopTimerGetNextFireDate` | the date CF keeps for T: a date given in the past (`at -500ms`, `reschedule T in -40ms`) stays in the past until T fires, then each point of its grid; `none` once T is invalid |
        | `query interval T` | `CFRunLoopTimerGetInterval` (`Timer.timeInterval`) | the interval CF stored, as a duration (`0.100s`; `is 100ms` in an `expect` line too): `0.000s` for a one-shot timer, one given `every 0s` or a negative interval too |
        | `query tolerance T` | `CFRunLoopTimerGetTolerance` (`Timer.tolerance`) | `0.000s` on linux whatever `tolerance` says (Linux's CF ignores it); the darwin profile answers what was set |
        | `query repeats T` | `CFRunLoopTimerDoesRepeat` | `true` when T's interval is above 0 |
        | `query allModes` | `CFRunLoopCopyAllModes` | every mode created so far, in name order: adding an item, queuing a block (`block B in common` creates a mode named `common`, as CF does) and `stop mode M` create one; running a mode does not, nor does `common M` while nothing is in the common modes |
        ### Running a loop
        | action | what it runs | example |
        | `run M for DURATION [returnAfterSourceHandled]` | `CFRunLoopRunInMode(M, seconds, rash)`; `0s` or a negative time polls once | `run default for 250ms` |
        | `run M forever [returnAfterSourceHandled]` | `CFRunLoopRunInMode(M, 1e10, …)`: no time limit | `run default forever` |
        | `CFRunLoopRun` | `CFRunLoopRun()`: runs default until stopped or empty | `CFRunLoopRun` |
        | `RunLoop.run` | Foundation's `RunLoop.run()`: re-enters after every stop | `RunLoop.run` |
        | `RunLoop.run M before DATE` | `run(mode:before:)`: one `CFRunLoopRunInMode(M, DATE − now, true)`. It returns `false` without running when M is empty, otherwise `true` whatever the run's result; the trace records the Bool as `returned true` / `returned false`, which `expect` lines can name | `RunLoop.run default before 1s` |
        | `RunLoop.run until DATE` / `RunLoop.run default until DATE` | `run(until:)`: `run(mode: .default, before: DATE)` again and again while it returns true and DATE has not passed. A handled source ends only one inner run; a date already past still runs once. Always the default mode (use `before` for another) | `RunLoop.run until 300ms` |
        | `RunLoop.acceptInput M before DATE` | `acceptInput(forMode:before:)`: the same single run, without the emptiness check and without a Bool | `RunLoop.acceptInput default before 1s` |
        | `while not FLAG RunLoop.run [M]` | the keep-alive idiom `while (!flag) [runLoop runMode:beforeDate:distantFuture]`; some action must `set FLAG` | `while not done RunLoop.run` |
        | `while COND RunLoop.run [M]` | the same idiom with any condition (`and`, `not`, owners' properties, weak references), tested before each run | `while weakSelf and not weakSelf.stopped RunLoop.run` |
        ### Owners that go away
        ### Timers and dates
        | Foundation, at the thread's start | the line | first fire, `profile linux` (checked on this machine) | `profile darwin` (Apple's documentation) |
        | `Timer.scheduledTimer(withTimeInterval: 0.1, repeats: true)` | `timer T every 100ms foundation scheduled` | 100 ms | 100 ms |
        | `Timer(timeInterval: 0.1, repeats: true)`, then `RunLoop.current.add(T, forMode: M)` | `timer T every 100ms foundation init in M` | at once: corelibs builds it with `fire: Date()` | 100 ms: "after `interval` seconds have elapsed" |
        | `Timer(timeInterval: 0.1, repeats: true)`, added later by `add T to M` | `timer T every 100ms foundation init in nothing` | as soon as it is added (its date is its creation) | 100 ms after its creation, or at once if added later |
        | `repeats: false` | `interval 100ms` instead of `every 100ms` | the same dates; it fires once | the same |
        | `Timer(fire: date, interval: 0.1, repeats: true)` | `timer T at DATE every 100ms` | DATE | DATE |
        | `Timer.scheduledTimer(withTimeInterval: -1, repeats: true)` | `timer T every -1s foundation scheduled` | interval 0, a one-shot timer dated in the past, which fires at once | Apple documents an interval of 0.1 ms instead of one ≤ 0 for a repeating `Timer`; not modelled, not checked |
        ### Ranges
        ### The thread pool
        | line or action | what it does | example |
        | `queue Q [limit N\|default] [suspended] [idle DURATION]` | an `OperationQueue`: at most N operations at once (0: none until raised; `default`: the system decides), created suspended, how long an idle worker thread lives (default 5 s) | `queue uploads limit 2 idle 5s` |
        | `operation OP on Q [priority P] [after A, B, …] work DURATION [check every DURATION]` | `addOperation` of a synchronous operation that looks at `isCancelled` every check; P is `veryLow`, `low`, `normal`, `high` or `veryHigh` | `operation resize on cpu priority high work 50ms check every 5ms` |
        | `operation OP on Q … async [reply after DURATION]` | an asynchronous operation: it holds its worker until `finish OP`, or the server's reply that long after it starts | `operation upload1 on uploads async reply after 300ms` |
        | `operation upload1..10 on Q …` | a range: ten operations, `upload1` … `upload10` (at most 1,000 names a range, 100,000 a file); ranges also work in `after`, `cancel` and `finish` | `cancel upload3..5` |
        | `after A, B` | `addDependency`: may name operations of any queue; a cycle is an error | `operation process on cpu after download work 50ms` |
        | `cancel OP` / `cancel all on Q` | `cancel` / `cancelAllOperations` | `cancel all on uploads` |
        | `suspend Q` / `resume Q` | `isSuspended` | `suspend uploads` |
        | `limit Q N\|default` | `maxConcurrentOperationCount` | `limit uploads 3` |
        | `finish OP` | the socket callback that finishes an `async` operation | `finish upload1` |
        | `wait for Q` | `waitUntilAllOperationsAreFinished` on the calling thread | `wait for uploads` |
        | `detach TASK` + indented actions | `Thread.detachNewThread`: a new thread named TASK does the actions, then ends | `detach compress` |
        #### Dispatch queues
        | line or action | what it does | example |
        | `queue Q dispatch [serial\|concurrent] [idle DURATION]` | `DispatchQueue(label:)`: `serial` (the default) runs one block at a time in submission order, `concurrent` (`attributes: .concurrent`) several at once, up to the default width | `queue gcd dispatch serial` |
        | `async NAME on Q work DURATION` | `queue.async { … }` (`dispatch_async`): a plain block. It returns nothing to cancel it with, so a `cancel NAME` of it is an error at that line | `async first on gcd work 200ms` |
        | `async workItem NAME on Q work DURATION` | `queue.async(execute: item)` of a `DispatchWorkItem`: `cancel NAME` before the queue reaches it makes the queue skip its block (`opFinish`, no `opStart`), while it runs only sets `isCancelled` - the block runs to its end | `async workItem item on gcd work 100ms` |
        ## Narration
        ### Claims: what a line rests on
        ### Narration in other languages
        ## Questions
        ## Expectations
        - `expect exactly` lists every observable step of the trace: the six activities, callouts, `runStart`s and
          `result`s (the events an observer or a callout could see), and what the program saw: `returned …` and the
          answers of its queries; nothing may come between.
        - `expect in order` lists some steps, in order, with anything allowed between them.
        - `expect` alone lists **claims**, each checked on the whole trace by itself, in any order (below).
        - `expect in every schedule` lists claims too, which must hold in every schedule the virtual world can take where
          threads race (`check` explores them and names a schedule that breaks one; [races.md](races.md)).
        - `in M`: the mode of the innermost run when it happened (`timer tick in Tracking`; `result timedOut in Modal`
          is the result of a run of Modal);
        - a range instead of a time: `between 2.0s and 2.5s` (from 2.0 s up to the end of 2.5 as written, i.e. before
          2.6 s; write `2.500s` to end before 2.501 s), `before 0.5s` (earlier than 0.5 s), `after 1s` (at 1 s or
          later). A bare number is seconds here too.
        - what `expect exactly` lists, the observable steps: the activities `entry`, `beforeTimers`, `beforeSources`,
          `beforeWaiting`, `afterWaiting`, `exit`; the runs, `runStart` (its name is the mode) and `result` (its name is
          the result); and the callouts `source0`, `source1`, `timer`, `block`, `observer`, `mainQueue`, `perform`;
        - `query`, what a query answered (`expect exactly` lists it too);
        - steps only `expect in order` and claims can name: a source's `schedule` and `cancel` callouts, a custom
          source's `command` (posted, refused, performed or dropped; its name is the command), an item the program
          invalidated (`invalidate NAME`: `CFRunLoop…Invalidate` took it out of every mode; no callout, so the real
          CFRunLoop shows nothing for it and `compare` leaves it out), and the loop's own steps `sleep`, `wake`,
          `enqueue`, `signal`, `send`, `wakeUp`, `stop`, `note`;
        - and, also for `expect in order`, the pool's: `opAdd`, `opReady`, `opStart`, `opCancel`, `opFinish`, `threadCreate`,
          `threadExit`, `queue`.
        ## The lesson card
        ## A whole file
        ## Layout: `loopviz fmt`
        """#
}
