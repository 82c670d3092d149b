// The epoll rule behind docs/cfrunloop.md §15's timer-port paragraph, checked on the machine at hand.
//
// CF on Linux (CFRunLoop.c) gives each mode an epoll set with EPOLLIN|EPOLLET entries for its timerfd
// (CLOCK_MONOTONIC, armed with TFD_TIMER_ABSTIME) and eventfds, and waits with a ppoll on the set, then an
// epoll_wait for one event and an 8-byte read. Each numbered case below does that and prints which descriptor each
// wait takes. Found on Linux 6.18: a timerfd that expired unread and is re-armed (or disarmed) keeps its entry on
// the ready list; expiring again before a wait reaches it, it is taken from that old place (cases 2, 4, 6, 12,
// 13); not expired again, the wait drops it and takes the later port (cases 1, 8, 9, 11).
//
//     gcc -O1 -Wall -o /tmp/epoll-timerfd-probe Scripts/epoll-timerfd-probe.c && /tmp/epoll-timerfd-probe
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <poll.h>
#include <time.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>

static int ep, tfd, a, b;
static void add(int fd){ struct epoll_event e; memset(&e,0,sizeof e); e.data.fd=fd; e.events=EPOLLIN|EPOLLET; epoll_ctl(ep,EPOLL_CTL_ADD,fd,&e);}
static void arm_in_ms(long ms){ struct timespec now; clock_gettime(CLOCK_MONOTONIC,&now); struct itimerspec ts={0};
  long long t = now.tv_sec*1000000000LL+now.tv_nsec + ms*1000000LL; if(ms<0) t = 1; if (ms==-2) t=0;
  ts.it_value.tv_sec=t/1000000000LL; ts.it_value.tv_nsec=t%1000000000LL; timerfd_settime(tfd,TFD_TIMER_ABSTIME,&ts,NULL);}
static void sleep_ms(long ms){ struct timespec s={ms/1000,(ms%1000)*1000000L}; nanosleep(&s,NULL);}
static void wr(int fd){ eventfd_write(fd,1);}
static const char*name(int fd){ return fd==tfd?"timer":fd==a?"A":fd==b?"B":"?";}
// CF's wait: ppoll on the epoll fd, then epoll_wait for one event, then an 8-byte read.
static void cfwait(const char*label){ struct pollfd p={ep,POLLIN,0}; int r=poll(&p,1,0); printf("%s: ppoll=%d",label,r);
  if(r>0){ struct epoll_event e; int n=epoll_wait(ep,&e,1,0); if(n>0){ uint64_t v; ssize_t k=read(e.data.fd,&v,8); printf(" -> %s (read %zd, %llu)",name(e.data.fd),k,(unsigned long long)v);} else printf(" -> epoll_wait 0"); }
  printf("\n");}
static void reset(void){ if(ep) {close(ep);close(tfd);close(a);close(b);} ep=epoll_create1(0); tfd=timerfd_create(CLOCK_MONOTONIC,TFD_NONBLOCK); a=eventfd(0,EFD_NONBLOCK); b=eventfd(0,EFD_NONBLOCK); add(tfd); add(a); add(b);}
static void drain(const char*l){ for(int i=0;i<4;i++) cfwait(l);}

int main(void){
  puts("== 1: timer expires unread; re-armed for the future (+30ms); A written; wait before re-expiry");
  reset(); arm_in_ms(5); sleep_ms(15); arm_in_ms(30); wr(a); drain("  wait");
  puts("== 2: timer expires unread; re-armed +20ms; A written; timer re-expires; wait");
  reset(); arm_in_ms(5); sleep_ms(15); arm_in_ms(20); wr(a); sleep_ms(30); drain("  wait");
  puts("== 3: control: timer never expired before; armed +20ms; A written; timer expires; wait");
  reset(); arm_in_ms(20); wr(a); sleep_ms(30); drain("  wait");
  puts("== 4: timer expires unread; re-armed to a past instant (already due); A written; wait");
  reset(); arm_in_ms(5); sleep_ms(15); arm_in_ms(-1); wr(a); drain("  wait");
  puts("== 5: A written; timer expires unread; re-armed +20ms; B written; timer re-expires; wait");
  reset(); wr(a); arm_in_ms(5); sleep_ms(15); arm_in_ms(20); wr(b); sleep_ms(30); drain("  wait");
  puts("== 6: timer expires unread; disarmed (0); A written; timer armed +10ms; re-expires; wait");
  reset(); arm_in_ms(5); sleep_ms(15); arm_in_ms(-2); wr(a); arm_in_ms(10); sleep_ms(20); drain("  wait");
  puts("== 7: timer armed +5ms, A written, timer expires (after A); re-armed +20ms; B written; re-expires; wait");
  reset(); arm_in_ms(5); wr(a); sleep_ms(15); arm_in_ms(20); wr(b); sleep_ms(30); drain("  wait");
  puts("== 8: timer expires unread; re-armed +20ms; A written; a wait passes the timer by (before re-expiry); B written; timer re-expires; wait");
  reset(); arm_in_ms(5); sleep_ms(15); arm_in_ms(20); wr(a); cfwait("  early wait"); wr(b); sleep_ms(30); drain("  wait");
  puts("== 9: timer expires unread; re-armed +20ms; A written; ppoll only (no epoll_wait) before re-expiry; B written; re-expires; wait");
  reset(); arm_in_ms(5); sleep_ms(15); arm_in_ms(20); wr(a); { struct pollfd p={ep,POLLIN,0}; printf("  bare ppoll=%d\n",poll(&p,1,0)); } wr(b); sleep_ms(30); drain("  wait");
  puts("== 10: timer expires unread; A written; timer re-armed +20ms; A read directly (not via epoll); A written again; re-expires; wait");
  reset(); arm_in_ms(5); sleep_ms(15); wr(a); arm_in_ms(20); { uint64_t v; read(a,&v,8);} wr(a); sleep_ms(30); drain("  wait");
  puts("== 11: timer expires unread; re-armed +20ms; a wait with nothing else ready (passes the timer by); A written; timer re-expires; wait");
  reset(); arm_in_ms(5); sleep_ms(15); arm_in_ms(20); cfwait("  early wait"); wr(a); sleep_ms(30); drain("  wait");
  puts("== 12: as 2, but one epoll_wait for 8 events (order of the whole list)");
  reset(); arm_in_ms(5); sleep_ms(15); arm_in_ms(20); wr(a); wr(b); sleep_ms(30);
  { struct epoll_event e[8]; int n=epoll_wait(ep,e,8,0); printf("  epoll_wait(8) = %d:",n); for(int i=0;i<n;i++) printf(" %s",name(e[i].data.fd)); printf("\n"); }
  puts("== 13: timer expires unread; re-armed +20ms twice more (re-arms before re-expiry); A written; timer re-expires; wait");
  reset(); arm_in_ms(5); sleep_ms(15); arm_in_ms(40); sleep_ms(5); arm_in_ms(20); wr(a); sleep_ms(30); drain("  wait");
  return 0;
}
