#define _GNU_SOURCE
#include "CLoopKernel.h"
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <linux/futex.h>
#include <sys/syscall.h>
#endif

#ifdef __linux__
int lv_ppoll_one(int fd, int64_t timeout_ns) {
    struct pollfd pfd = { .fd = fd, .events = POLLIN, .revents = 0 };
    if (timeout_ns < 0) {
        return ppoll(&pfd, 1, NULL, NULL);
    }
    struct timespec ts = { .tv_sec = timeout_ns / 1000000000LL, .tv_nsec = timeout_ns % 1000000000LL };
    return ppoll(&pfd, 1, &ts, NULL);
}

static struct timespec lv_timespec(int64_t ns) {
    struct timespec ts = { .tv_sec = ns / 1000000000LL, .tv_nsec = ns % 1000000000LL };
    return ts;
}

int lv_wait_readable(int fd, int block) {
    struct pollfd pfd = { .fd = fd, .events = POLLIN, .revents = 0 };
    struct timespec zero = { 0, 0 };
    int result;
    do {
        result = ppoll(&pfd, 1, block ? NULL : &zero, NULL);
    } while (result < 0 && errno == EINTR);
    return result < 0 ? -errno : result;
}

int lv_eventfd_create(int semaphore) {
    int fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC | (semaphore ? EFD_SEMAPHORE : 0));
    return fd < 0 ? -errno : fd;
}

int lv_timerfd_create(void) {
    int fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    return fd < 0 ? -errno : fd;
}

int lv_epoll_create(void) {
    int fd = epoll_create1(EPOLL_CLOEXEC);
    return fd < 0 ? -errno : fd;
}

static int lv_epoll_control(int epfd, int op, int fd, uint64_t tag) {
    struct epoll_event event = { .events = EPOLLIN | EPOLLET, .data = { .u64 = tag } };
    int result;
    do {
        result = epoll_ctl(epfd, op, fd, &event);
    } while (result < 0 && errno == EINTR);
    return result < 0 ? -errno : 0;
}

int lv_epoll_add(int epfd, int fd, uint64_t tag) { return lv_epoll_control(epfd, EPOLL_CTL_ADD, fd, tag); }

int lv_epoll_rearm(int epfd, int fd, uint64_t tag) { return lv_epoll_control(epfd, EPOLL_CTL_MOD, fd, tag); }

int lv_epoll_remove(int epfd, int fd) { return lv_epoll_control(epfd, EPOLL_CTL_DEL, fd, 0); }

int lv_epoll_take_one(int epfd, int block, uint64_t *tag) {
    struct epoll_event event;
    int result;
    do {
        result = epoll_wait(epfd, &event, 1, block ? -1 : 0);
    } while (result < 0 && errno == EINTR);
    if (result < 0) return -errno;
    if (result == 1) *tag = event.data.u64;
    return result;
}

int lv_eventfd_post(int fd) {
    uint64_t one = 1;
    ssize_t result;
    do {
        result = write(fd, &one, sizeof one);
    } while (result < 0 && errno == EINTR);
    return result < 0 ? -errno : 0;
}

int64_t lv_read_counter(int fd) {
    uint64_t value = 0;
    ssize_t result;
    do {
        result = read(fd, &value, sizeof value);
    } while (result < 0 && errno == EINTR);
    if (result < 0) return -errno;
    if (result != sizeof value) return -EIO;
    return value > INT64_MAX ? INT64_MAX : (int64_t)value;
}

int lv_timerfd_arm(int fd, int64_t absolute_ns) {
    struct itimerspec spec = { .it_interval = { 0, 0 }, .it_value = lv_timespec(absolute_ns > 0 ? absolute_ns : 0) };
    return timerfd_settime(fd, TFD_TIMER_ABSTIME, &spec, NULL) < 0 ? -errno : 0;
}

void lv_set_thread_name(const char *name) {
    char truncated[16];
    strncpy(truncated, name, sizeof truncated - 1);
    truncated[sizeof truncated - 1] = 0;
    pthread_setname_np(pthread_self(), truncated);
}

int lv_set_thread_niceness(int niceness) {
    // On Linux the nice value is per thread: PRIO_PROCESS with a thread id.
    return setpriority(PRIO_PROCESS, (id_t)gettid(), niceness) < 0 ? -errno : 0;
}

void lv_sleep_until(int64_t absolute_ns) {
    struct timespec deadline = lv_timespec(absolute_ns);
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, NULL) == EINTR) {
    }
}
void lv_lock_acquire_slow(int *word, int seen) {
    // Mark the word contended (2) before sleeping, so that the holder's release wakes a sleeper.
    if (seen != 2) seen = __atomic_exchange_n(word, 2, __ATOMIC_ACQUIRE);
    while (seen != 0) {
        // Sleeps only while the word is still 2; EINTR and spurious wake-ups just try again.
        syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, 2, NULL, NULL, 0);
        seen = __atomic_exchange_n(word, 2, __ATOMIC_ACQUIRE);
    }
}

void lv_lock_wake(int *word) { syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0); }
#endif

int64_t lv_monotonic_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}
