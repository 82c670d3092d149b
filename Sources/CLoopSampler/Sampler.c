#if defined(__linux__)
#define _GNU_SOURCE
#endif

#include "CLoopSampler.h"

// glibc only: <execinfo.h>'s backtrace and `_dl_find_object` (musl and Android's bionic get the stubs below).
#if defined(__linux__) && defined(__GLIBC__)
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <execinfo.h>
#include <link.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

enum { IDLE = 0, REQUESTED = 1, RUNNING = 2, DONE = 3 };

static int sampler_signal = 0;
static _Atomic int state = IDLE;
/// The thread a request is for: a signal taken by another thread (one sent to the process) samples nothing.
static _Atomic int64_t target_thread = 0;
/// A signal was sent and no handler has run since: the thread blocks it, so no other is sent (real-time signals
/// queue, and the user's limit of queued signals is shared).
static _Atomic int undelivered = 0;
static void *raw[LOOP_SAMPLER_MAX_FRAMES + 8];
static int raw_count = 0;
static uintptr_t interrupted_pc = 0;

static void handler(int signo, siginfo_t *info, void *context) {
    (void)signo;
    atomic_store(&undelivered, 0);
    if (info == NULL || info->si_code != SI_TKILL) return;
    if ((int64_t)syscall(SYS_gettid) != atomic_load(&target_thread)) return;
    int expected = REQUESTED;
    // Only a sample asked for is taken: a stray signal (or one that came after its request was abandoned) is not.
    if (!atomic_compare_exchange_strong(&state, &expected, RUNNING)) return;
    int saved = errno;
    ucontext_t *uc = (ucontext_t *)context;
#if defined(__x86_64__)
    interrupted_pc = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
    interrupted_pc = (uintptr_t)uc->uc_mcontext.pc;
#else
    interrupted_pc = 0;
#endif
    // glibc's backtrace unwinds through the signal frame with the unwinder of libgcc, which finds each frame's
    // unwind table without a lock (_dl_find_object, glibc 2.35); its first call, which loads libgcc_s, was made
    // at install time.
    raw_count = backtrace(raw, LOOP_SAMPLER_MAX_FRAMES + 8);
    errno = saved;
    atomic_store(&state, DONE);
}

int loop_sampler_install(void) {
    if (sampler_signal != 0) return 0;
    // Without `_dl_find_object` (glibc before 2.35), the unwinder takes the loader's lock: not safe in a handler.
    if (dlsym(RTLD_DEFAULT, "_dl_find_object") == NULL) return -1;
    void *warm[4];
    backtrace(warm, 4);
    for (int candidate = SIGRTMIN + 4; candidate <= SIGRTMAX - 4; candidate++) {
        struct sigaction old;
        if (sigaction(candidate, NULL, &old) != 0) continue;
        if ((old.sa_flags & SA_SIGINFO) || (old.sa_handler != SIG_DFL)) continue;
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_sigaction = handler;
        action.sa_flags = SA_SIGINFO | SA_RESTART;
        sigemptyset(&action.sa_mask);
        if (sigaction(candidate, &action, NULL) != 0) continue;
        sampler_signal = candidate;
        return 0;
    }
    return -1;
}

int64_t loop_sampler_thread_id(void) { return (int64_t)syscall(SYS_gettid); }

void loop_sampler_unblock(void) {
    if (sampler_signal == 0) return;
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sampler_signal);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}

/// 1 with the instruction a thread sleeps at when it is asleep in a system call (its state S or D, and
/// /proc/self/task/TID/syscall names the call), 0 when it runs, -1 when neither can be read (it is gone).
static int blocked_in_system_call(int64_t tid, uint64_t *pc) {
    char path[64];
    char text[512];
    snprintf(path, sizeof path, "/proc/self/task/%lld/stat", (long long)tid);
    int descriptor = open(path, O_RDONLY | O_CLOEXEC);
    if (descriptor < 0) return -1;
    ssize_t length = read(descriptor, text, sizeof text - 1);
    close(descriptor);
    if (length <= 0) return -1;
    text[length] = 0;
    // The state follows the command's closing parenthesis (the command may hold spaces and parentheses).
    char *end = strrchr(text, ')');
    if (end == NULL || end[1] != ' ') return -1;
    char run_state = end[2];
    if (run_state != 'S' && run_state != 'D') return 0;
    snprintf(path, sizeof path, "/proc/self/task/%lld/syscall", (long long)tid);
    descriptor = open(path, O_RDONLY | O_CLOEXEC);
    if (descriptor < 0) return 0;
    length = read(descriptor, text, sizeof text - 1);
    close(descriptor);
    if (length <= 0) return 0;
    text[length] = 0;
    // "NUMBER ARG1 … ARG6 SP PC": the last field is the instruction the thread will return to ("running": none).
    char *last = strrchr(text, ' ');
    if (last == NULL || strncmp(text, "running", 7) == 0) return 0;
    char *parsed = NULL;
    unsigned long long value = strtoull(last + 1, &parsed, 16);
    if (parsed == last + 1 || value == 0) return 0;
    *pc = (uint64_t)value;
    return 1;
}

static void pause_briefly(void) {
    struct timespec step = {0, 50 * 1000};
    nanosleep(&step, NULL);
}

int loop_sampler_capture(int64_t tid, uint64_t *frames, int capacity, int timeout_us) {
    if (sampler_signal == 0) return -1;
    // A thread asleep in a system call is not interrupted (the call would end early with EINTR): its sample is the
    // instruction it sleeps at, read from /proc.
    uint64_t blocked_pc = 0;
    int blocked = blocked_in_system_call(tid, &blocked_pc);
    if (blocked != 0) {
        if (blocked < 0 || capacity < 1) return 0;
        frames[0] = blocked_pc;
        return 1;
    }
    if (atomic_load(&undelivered)) return 0;
    // A sample finished after its requester gave up on it is stale: dropped.
    int stale = DONE;
    atomic_compare_exchange_strong(&state, &stale, IDLE);
    int expected = IDLE;
    if (!atomic_compare_exchange_strong(&state, &expected, REQUESTED)) return 0;
    atomic_store(&target_thread, tid);
    atomic_store(&undelivered, 1);
    if (syscall(SYS_tgkill, (pid_t)getpid(), (pid_t)tid, sampler_signal) != 0) {
        atomic_store(&undelivered, 0);
        atomic_store(&state, IDLE);
        return 0;
    }
    struct timespec begun;
    clock_gettime(CLOCK_MONOTONIC, &begun);
    for (;;) {
        int now = atomic_load(&state);
        if (now == DONE) break;
        struct timespec clock;
        clock_gettime(CLOCK_MONOTONIC, &clock);
        int64_t waited = (int64_t)(clock.tv_sec - begun.tv_sec) * 1000000 + (clock.tv_nsec - begun.tv_nsec) / 1000;
        if (waited >= timeout_us) {
            // Not taken in time: withdraw the request, unless the handler has begun (then wait for it: it only
            // unwinds), and never longer than a second in all: a handler that does not finish leaves the state
            // RUNNING, and no later sample is taken, but the sampling thread goes on (and can be stopped).
            int requested = REQUESTED;
            if (atomic_compare_exchange_strong(&state, &requested, IDLE)) return 0;
            if (waited >= timeout_us + 1000000) return 0;
        }
        pause_briefly();
    }
    // Frames from the interrupted instruction on: those of the handler and the signal trampoline are left out.
    int start = 0;
    for (int index = 0; index < raw_count; index++) {
        if ((uintptr_t)raw[index] == interrupted_pc) {
            start = index;
            break;
        }
    }
    int limit = capacity < LOOP_SAMPLER_MAX_FRAMES ? capacity : LOOP_SAMPLER_MAX_FRAMES;
    int count = 0;
    for (int index = start; index < raw_count && count < limit; index++) frames[count++] = (uint64_t)(uintptr_t)raw[index];
    atomic_store(&state, IDLE);
    return count;
}

struct module_walk {
    void *context;
    void (*each)(void *, const char *, uint64_t, uint64_t, uint64_t, const uint8_t *, int);
};

/// The GNU build ID in a loaded note segment, if there is one.
static const uint8_t *build_id(const uint8_t *notes, uint64_t size, int *length) {
    uint64_t at = 0;
    while (at + 12 <= size) {
        uint32_t name_size, desc_size, type;
        memcpy(&name_size, notes + at, 4);
        memcpy(&desc_size, notes + at + 4, 4);
        memcpy(&type, notes + at + 8, 4);
        uint64_t name_at = at + 12;
        uint64_t desc_at = name_at + ((name_size + 3u) & ~3u);
        uint64_t next = desc_at + ((desc_size + 3u) & ~3u);
        if (next > size || desc_at > size) return NULL;
        if (type == 3 && name_size == 4 && memcmp(notes + name_at, "GNU", 4) == 0 && desc_size > 0 && desc_size <= 64) {
            *length = (int)desc_size;
            return notes + desc_at;
        }
        at = next;
    }
    return NULL;
}

static int visit(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    struct module_walk *walk = data;
    uint64_t low = UINT64_MAX, high = 0;
    const uint8_t *identity = NULL;
    int identity_length = 0;
    for (int index = 0; index < info->dlpi_phnum; index++) {
        const ElfW(Phdr) *header = &info->dlpi_phdr[index];
        if (header->p_type == PT_NOTE && identity == NULL) {
            identity = build_id((const uint8_t *)(info->dlpi_addr + header->p_vaddr), header->p_memsz, &identity_length);
        }
        if (header->p_type != PT_LOAD) continue;
        uint64_t start = info->dlpi_addr + header->p_vaddr;
        uint64_t end = start + header->p_memsz;
        if (start < low) low = start;
        if (end > high) high = end;
    }
    if (high > low) {
        walk->each(walk->context, info->dlpi_name ? info->dlpi_name : "", info->dlpi_addr, low, high, identity,
                   identity_length);
    }
    return 0;
}

void loop_sampler_modules(void *context,
                          void (*each)(void *, const char *, uint64_t, uint64_t, uint64_t, const uint8_t *, int)) {
    struct module_walk walk = {context, each};
    dl_iterate_phdr(visit, &walk);
}

#else

int loop_sampler_install(void) { return -1; }
int64_t loop_sampler_thread_id(void) { return 0; }
void loop_sampler_unblock(void) {}
int loop_sampler_capture(int64_t tid, uint64_t *frames, int capacity, int timeout_us) {
    (void)tid;
    (void)frames;
    (void)capacity;
    (void)timeout_us;
    return -1;
}
void loop_sampler_modules(void *context,
                          void (*each)(void *, const char *, uint64_t, uint64_t, uint64_t, const uint8_t *, int)) {
    (void)context;
    (void)each;
}

#endif
