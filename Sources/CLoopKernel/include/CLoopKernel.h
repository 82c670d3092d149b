// The Linux kernel primitives that Glibc's Swift module does not expose: eventfd, timerfd, epoll and ppoll.
// Used by the real-thread backend and by the CFRunLoop oracle (whose version-1 sources are eventfds).
#ifndef LOOPVIZ_CLOOPKERNEL_H
#define LOOPVIZ_CLOOPKERNEL_H

#include <stdint.h>

#ifdef __linux__
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <time.h>

/// ppoll on one file descriptor with a timeout in nanoseconds (negative: wait forever). Returns ppoll's result.
int lv_ppoll_one(int fd, int64_t timeout_ns);
#endif

/// Reads CLOCK_MONOTONIC in nanoseconds.
int64_t lv_monotonic_ns(void);

#endif
