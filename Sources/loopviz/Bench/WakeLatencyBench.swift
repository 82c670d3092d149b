#if os(Linux)
import CoreFoundation
import LoopEngine
import Synchronization

/// Row 2: how long another thread's "signal a source and wake the loop up" takes to reach the source's perform,
/// one way, with every thread on one core (`taskset -c 0`, from inside the process) or anywhere.
///
/// One driver thread does, for each sample: sleep a little (so the loop is surely asleep in the kernel), stamp
/// the time, signal + wake up, then block on an eventfd until the perform has posted it. The perform reads the
/// clock first thing: the sample is the difference. The baselines use the same driver:
/// - raw eventfd: the receiver is a thread blocked in `read` on an eventfd that the driver writes (the kernel's
///   floor for one thread waking another; no run loop at all).
/// - CF↔CF ping-pong: two CF loops that signal and wake each other back and forth, without pauses; each hop is a
///   sample (one way; a round trip is two).
///
/// A wake-up that never arrives is a finding, not a hang: after ``patience`` the driver gives up on the sample,
/// says so in the round's note, makes the receiver run anyway (the engine's loop through a port source, which is
/// not coalesced with wake-ups) and ends the round with the samples it has.
enum WakeLatencyBench {
    /// The core every thread is pinned to in the one-core configuration.
    static let pinnedCPU = 0
    /// Samples run first and thrown away in each round (thread start, first allocations).
    static let warmUp = 20
    /// The driver's pause between samples, so that the receiver is back asleep in the kernel.
    static let pause: Int64 = 50_000
    /// How long a sample may take before the driver calls its wake-up lost.
    static let patience: Int64 = 2_000_000_000

    /// One round of one variant: the one-way latencies in microseconds, and what went wrong, if anything.
    struct Round {
        var latencies: [Double]
        var note: String?
    }

    /// The sender's clock reading, handed to the receiver.
    final class Stamp: Sendable {
        let value = Atomic<Int64>(0)

        @inline(__always) func set() { value.store(BenchPlatform.now(), ordering: .releasing) }

        /// Microseconds since the last `set`.
        @inline(__always) func elapsedMicroseconds() -> Double {
            Double(BenchPlatform.now() - value.load(ordering: .acquiring)) / 1_000
        }
    }

    /// What the driver needs from the receiver, published before it starts.
    private final class Receiver {
        var signalAndWake: () -> Void = {}
        /// Makes the receiver perform even though the wake-up was lost.
        var rescue: () -> Void = {}
        var stop: () -> Void = {}
    }

    /// The kernel's floor: one thread wakes another blocked in `read` on an eventfd.
    static func rawEventfd(samples: Int, pinned: Bool) -> Round {
        let wake = BenchEvent()
        let done = Atomic<Bool>(false)
        let receiver = Receiver()
        receiver.signalAndWake = { wake.post() }
        receiver.rescue = { wake.post() }
        receiver.stop = {
            done.store(true, ordering: .releasing)
            wake.post()
        }
        return drive(receiver, samples: samples, pinned: pinned) { stamp, reply, ready in
            ready.post()
            var latencies: [Double] = []
            latencies.reserveCapacity(samples + warmUp)
            while true {
                wake.wait()
                let latency = stamp.elapsedMicroseconds()
                if done.load(ordering: .acquiring) { break }
                latencies.append(latency)
                reply.post()
            }
            return latencies
        }
    }

    /// LoopEngine on `engine`: `source.signal(); loop.wakeUp()` → the source's perform.
    static func engine(_ engine: BenchEngine, samples: Int, pinned: Bool) -> Round {
        let receiver = Receiver()
        return drive(receiver, samples: samples, pinned: pinned) { stamp, reply, ready in
            let loop = engine.makeLoop(named: "wake")
            var latencies: [Double] = []
            latencies.reserveCapacity(samples + warmUp)
            let source = LoopSource(name: "ping") {
                latencies.append(stamp.elapsedMicroseconds())
                reply.post()
            }
            loop.add(source, to: .default)
            // A message port wakes the loop by itself, whatever happened to its wake-up port.
            let rescue = LoopSource(portNamed: "rescue", on: loop.waiter) { _ in }
            loop.add(rescue, to: .default)
            receiver.signalAndWake = {
                source.signal()
                loop.wakeUp()
            }
            receiver.rescue = { rescue.send() }
            receiver.stop = {
                loop.stop()
                rescue.send()
            }
            ready.post()
            loop.run(mode: .default, seconds: BenchCF.forever)
            return latencies
        }
    }

    /// The real CFRunLoop: `CFRunLoopSourceSignal(source); CFRunLoopWakeUp(loop)` → the source's perform.
    static func cf(samples: Int, pinned: Bool) -> Round {
        let receiver = Receiver()
        return drive(receiver, samples: samples, pinned: pinned) { stamp, reply, ready in
            nonisolated(unsafe) let loop = CFRunLoopGetCurrent()!
            var latencies: [Double] = []
            latencies.reserveCapacity(samples + warmUp)
            nonisolated(unsafe) let source = BenchCF.source {
                latencies.append(stamp.elapsedMicroseconds())
                reply.post()
            }
            CFRunLoopAddSource(loop, source, kCFRunLoopDefaultMode)
            receiver.signalAndWake = {
                CFRunLoopSourceSignal(source)
                CFRunLoopWakeUp(loop)
            }
            receiver.rescue = { CFRunLoopWakeUp(loop) }
            receiver.stop = { CFRunLoopStop(loop) }
            ready.post()
            BenchCF.runDefault(seconds: BenchCF.forever)
            CFRunLoopSourceInvalidate(source)
            return latencies
        }
    }

    /// The driver and the receiver thread. `receive` runs on the receiver thread: it sets `receiver` up, posts
    /// `ready`, serves until stopped and returns its latencies (warm-up included; they are dropped here).
    private static func drive(
        _ receiver: Receiver, samples: Int, pinned: Bool,
        receive: @escaping (Stamp, BenchEvent, BenchEvent) -> [Double]
    ) -> Round {
        let stamp = Stamp()
        let reply = BenchEvent()
        let ready = BenchEvent()
        let cpu = pinned ? pinnedCPU : nil
        var latencies: [Double] = []
        var note: String?
        let receiving = BenchThread(pinnedTo: cpu) { latencies = receive(stamp, reply, ready) }
        let driving = BenchThread(pinnedTo: cpu) {
            ready.wait()
            for index in 0..<(samples + warmUp) {
                BenchPlatform.sleep(nanoseconds: pause)
                stamp.set()
                receiver.signalAndWake()
                if !reply.wait(timeoutNanoseconds: patience) {
                    note =
                        "wake-up \(index + 1) was lost: the perform had not run after "
                        + "\(patience / 1_000_000_000) s; the round ends there"
                    receiver.rescue()
                    reply.wait()
                    break
                }
            }
            receiver.stop()
        }
        driving.join()
        receiving.join()
        // The sample of a lost wake-up is the driver's patience, not a latency: drop it.
        if note != nil, !latencies.isEmpty { latencies.removeLast() }
        return Round(latencies: Array(latencies.dropFirst(warmUp)), note: note)
    }

    // MARK: - CF↔CF ping-pong

    private final class PingPongSide {
        var loop: CFRunLoop?
        var source: CFRunLoopSource?
        var latencies: [Double] = []
    }

    /// Two CF loops signalling and waking each other, `samples` hops in all; one-way latencies in microseconds.
    static func cfPingPong(samples: Int, pinned: Bool) -> [Double] {
        let total = samples + warmUp
        let stamp = Stamp()
        let hops = Atomic<Int>(0)
        let sides = [PingPongSide(), PingPongSide()]
        let ready = BenchEvent()
        let cpu = pinned ? pinnedCPU : nil
        var threads: [BenchThread] = []
        for index in 0..<2 {
            let me = sides[index]
            let other = sides[1 - index]
            threads.append(
                BenchThread(pinnedTo: cpu) {
                    let loop = CFRunLoopGetCurrent()!
                    me.loop = loop
                    me.latencies.reserveCapacity(total)
                    let source = BenchCF.source {
                        me.latencies.append(stamp.elapsedMicroseconds())
                        let hop = hops.add(1, ordering: .relaxed).newValue
                        if hop >= total {
                            CFRunLoopStop(other.loop)
                            CFRunLoopStop(me.loop)
                            return
                        }
                        stamp.set()
                        CFRunLoopSourceSignal(other.source)
                        CFRunLoopWakeUp(other.loop)
                    }
                    me.source = source
                    CFRunLoopAddSource(loop, source, kCFRunLoopDefaultMode)
                    ready.post()
                    BenchCF.runDefault(seconds: BenchCF.forever)
                    CFRunLoopSourceInvalidate(source)
                })
        }
        // Both sides have published their loop and source once `ready` has been posted twice.
        var posted = 0
        while posted < 2 {
            var value: UInt64 = 0
            _ = read(ready.fd, &value, 8)
            posted += Int(value)
        }
        BenchPlatform.sleep(nanoseconds: pause)
        stamp.set()
        CFRunLoopSourceSignal(sides[0].source)
        CFRunLoopWakeUp(sides[0].loop)
        for thread in threads { thread.join() }
        // Interleave the two sides' hops back into time order, then drop the warm-up.
        var merged: [Double] = []
        let first = sides[0].latencies
        let second = sides[1].latencies
        for index in 0..<max(first.count, second.count) {
            if index < first.count { merged.append(first[index]) }
            if index < second.count { merged.append(second[index]) }
        }
        return Array(merged.dropFirst(warmUp))
    }
}
#endif
