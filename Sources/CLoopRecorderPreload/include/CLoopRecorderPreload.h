#ifndef CLOOPRECORDERPRELOAD_H
#define CLOOPRECORDERPRELOAD_H

/// Installs the crash and termination handlers of a preloaded recorder, for every signal of the list whose
/// handler is the default one or the program's own (an ignored signal stays ignored). A handler writes the
/// signal's number to `notify` and waits at most `wait_ms` for a byte on `done` (the recording flushed by another
/// thread), then gives the signal back to the handler that was there before. Returns the number of handlers
/// installed.
int loopviz_preload_install_signals(int notify, int done, int wait_ms);

/// `record --all-threads`: from now on, each thread's first CFRunLoopRunInMode or CFRunLoopRun calls the Swift
/// side's `loopviz_preload_thread_runs` before it runs the loop.
void loopviz_preload_record_every_thread(int on);

#endif
