#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension RecordedChild {
    /// A started program, looked at without blocking: reaped once it ends, sent SIGTERM at its deadline and SIGKILL
    /// a grace later. `loopviz record` polls it between two waits for a signal; `record --live` between two frames
    /// of the UI, and after the UI quit until it has ended (bounded by the grace, then SIGKILL).
    struct Watch {
        let pid: pid_t
        private let grace: Duration
        private var deadline: ContinuousClock.Instant
        /// Set once SIGTERM went (the time limit) or a signal was passed on: the next deadline sends SIGKILL.
        private var ending = false
        private var timedOut = false
        private var killed = false

        init(pid: pid_t, limit: Duration, grace: Duration) {
            self.pid = pid
            self.grace = grace
            deadline = ContinuousClock.now + limit
        }

        /// True once SIGTERM or a signal passed on went to the program: it is expected to end within the grace.
        var isEnding: Bool { ending }

        /// How the program ended, once it has (reaped); nil while it runs. Sends SIGTERM at the time limit and
        /// SIGKILL a grace after SIGTERM or a signal passed on.
        mutating func poll() -> Ending? {
            var status: Int32 = 0
            let done = waitpid(pid, &status, WNOHANG)
            if done == pid {
                if timedOut { return .timeLimit }
                if status & 0x7f == 0 { return .exited((status >> 8) & 0xff) }
                return .signaled(status & 0x7f)
            }
            if done < 0 && errno != EINTR { return .exited(127) }
            if ContinuousClock.now >= deadline && !killed {
                if ending {
                    killed = true
                    kill(pid, SIGKILL)
                } else {
                    ending = true
                    timedOut = true
                    kill(pid, SIGTERM)
                    deadline = ContinuousClock.now + grace
                }
            }
            return nil
        }

        /// Passes `signal` on to the program; the first one starts the grace before SIGKILL.
        mutating func pass(_ signal: Int32) {
            if !ending {
                ending = true
                deadline = ContinuousClock.now + grace
            }
            kill(pid, signal)
        }

        /// Waits at most `bound` for the program to end (polling every `tick`); nil when it still runs.
        mutating func waitForEnd(atMost bound: Duration) -> Ending? {
            let deadline = ContinuousClock.now + bound
            while ContinuousClock.now < deadline {
                if let ending = poll() { return ending }
                var pause = RecordedChild.tick
                nanosleep(&pause, nil)
            }
            return poll()
        }

        /// Waits until the program has ended, polling every `tick`: bounded by the time limit or the grace, then
        /// SIGKILL (which a process cannot outlive).
        mutating func waitForEnd() -> Ending {
            while true {
                if let ending = poll() { return ending }
                var pause = RecordedChild.tick
                nanosleep(&pause, nil)
            }
        }
    }
}
