#define _GNU_SOURCE
#include "CLoopRecorderPreload.h"

#include <dlfcn.h>
#include <errno.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdint.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

// Defined by the Swift target LoopRecorderPreload in the same shared library; weak, so that this file linked
// anywhere else starts nothing.
extern void loopviz_preload_start(void) __attribute__((weak));

// Defined by the Swift target: records the calling thread's run loop too (`record --all-threads`).
extern void loopviz_preload_thread_runs(void) __attribute__((weak));

// Runs when the dynamic linker loads the library, before the program's main: on the main thread.
__attribute__((constructor)) static void loopviz_preload_constructor(void) {
    if (loopviz_preload_start) loopviz_preload_start();
}

// The signals that end a process: a crash (the first six; SIGTRAP and SIGILL are Swift's traps) or a request.
static const int handled[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGABRT, SIGTERM, SIGINT, SIGHUP, SIGQUIT};
#define HANDLED_COUNT (sizeof handled / sizeof handled[0])

static struct sigaction previous[HANDLED_COUNT];
static int notify_fd = -1;
static int done_fd = -1;
static int wait_milliseconds = 1000;
// Set by the first signal: later ones (another thread crashing) do not ask for a second flush.
static volatile sig_atomic_t flushing = 0;

// Only async-signal-safe calls: write, poll, read, sigaction, raise. The flush itself runs on the recorder's
// thread; a wait bounded by `wait_milliseconds` keeps a recorder that cannot finish (its lock held by the thread
// that crashed) from holding the process.
static void loopviz_preload_handler(int number, siginfo_t *info, void *context) {
    (void)context;
    int saved = errno;
    if (!flushing) {
        flushing = 1;
        unsigned char byte = (unsigned char)number;
        if (write(notify_fd, &byte, 1) == 1) {
            struct pollfd done = {.fd = done_fd, .events = POLLIN};
            if (poll(&done, 1, wait_milliseconds) == 1) (void)read(done_fd, &byte, 1);
        }
    }
    for (unsigned index = 0; index < HANDLED_COUNT; index++) {
        if (handled[index] == number) sigaction(number, &previous[index], NULL);
    }
    // A fault the kernel raised happens again when the handler returns, now to the previous handler with its real
    // address; a signal sent by a process (kill, raise, abort) is sent again.
    if (info == NULL || info->si_code <= 0) raise(number);
    errno = saved;
}

int loopviz_preload_install_signals(int notify, int done, int wait_ms) {
    notify_fd = notify;
    done_fd = done;
    wait_milliseconds = wait_ms;
    int installed = 0;
    for (unsigned index = 0; index < HANDLED_COUNT; index++) {
        struct sigaction old;
        if (sigaction(handled[index], NULL, &old) != 0) continue;
        if (!(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_IGN) continue;
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_sigaction = loopviz_preload_handler;
        action.sa_flags = SA_SIGINFO | SA_RESTART;
        sigfillset(&action.sa_mask);
        previous[index] = old;
        if (sigaction(handled[index], &action, NULL) == 0) installed++;
    }
    return installed;
}

// `record --all-threads`: each thread's first run of its loop adds that loop to the recording. The sound place
// (docs/recording.md, "Every thread's loop"): CFRunLoopRunInMode and CFRunLoopRun, which Foundation's RunLoop and
// CoreFoundation's own callers reach through the PLT, so the definitions below come first and hand over to the
// real ones. Not _CFRunLoopGet0 (every CFRunLoopGetCurrent, also of threads that never run their loop) nor
// pthread_create (every thread would get a loop). CF's types are spelt out so that no CF header is needed:
// CFRunLoopRunResult is a 32-bit integer, Boolean an unsigned char.
static atomic_int record_every_thread = 0;
static _Thread_local int thread_seen = 0;

void loopviz_preload_record_every_thread(int on) { atomic_store(&record_every_thread, on); }

static void loopviz_preload_first_run(void) {
    if (thread_seen) return;
    thread_seen = 1;
    if (atomic_load(&record_every_thread) && loopviz_preload_thread_runs) loopviz_preload_thread_runs();
}

typedef int32_t (*run_in_mode_function)(const void *, double, unsigned char);
typedef void (*run_function)(void);

int32_t CFRunLoopRunInMode(const void *mode, double seconds, unsigned char returnAfterSourceHandled) {
    static _Atomic(run_in_mode_function) real = NULL;
    run_in_mode_function function = atomic_load(&real);
    if (!function) {
        function = (run_in_mode_function)dlsym(RTLD_NEXT, "CFRunLoopRunInMode");
        atomic_store(&real, function);
    }
    loopviz_preload_first_run();
    return function(mode, seconds, returnAfterSourceHandled);
}

void CFRunLoopRun(void) {
    static _Atomic(run_function) real = NULL;
    run_function function = atomic_load(&real);
    if (!function) {
        function = (run_function)dlsym(RTLD_NEXT, "CFRunLoopRun");
        atomic_store(&real, function);
    }
    loopviz_preload_first_run();
    function();
}
