#if os(Linux)
import CLoopKernel
import Glibc

/// The ports of a real loop: eventfds and timerfds, made, written, armed and closed; and the port sets (epoll
/// instances) that hold them.
extension EpollWaiter {
    public func makePort(_ kind: PortKind, label: String) -> PortID {
        let fd: Int32
        switch kind {
        case .timer: fd = lv_timerfd_create()
        case .message: fd = lv_eventfd_create(profile == .darwin ? 1 : 0)
        case .wakeUp, .mainQueue: fd = lv_eventfd_create(0)
        }
        let call = kind == .timer ? "timerfd_create" : "eventfd"
        if refused(fd, call, for: label) { return Self.portID(fd: Self.refusedDescriptor, kind: kind) }
        Self.check(fd, call, for: label)
        registryLock.withLock {
            openPorts[fd] = kind
            if kind == .wakeUp { wakeUpPending[fd] = false }
        }
        return Self.portID(fd: fd, kind: kind)
    }

    public func send(_ port: PortID) {
        let (fd, kind) = Self.decode(port)
        if fd == Self.refusedDescriptor { return }
        if kind == .wakeUp {
            counters.wakeUpRequests.increment()
            let alreadyPending = registryLock.withLock {
                let pending = wakeUpPending[fd] ?? false
                wakeUpPending[fd] = true
                return pending
            }
            if alreadyPending { return }
            counters.wakeUpWrites.increment()
        } else {
            counters.messageWrites.increment()
        }
        Self.check(lv_eventfd_post(fd), "eventfd write", for: "\(port)")
        // After the write: a poll that reads this generation is sure to find the write in the kernel.
        pollLock.withLock { pollState.pointee.generation &+= 1 }
    }

    public func arm(_ port: PortID, at instant: LoopInstant?) {
        let (fd, _) = Self.decode(port)
        if fd == Self.refusedDescriptor { return }
        pollLock.withLock { pollState.pointee.setDeadline(instant?.nanoseconds ?? .max, of: fd) }
        Self.check(lv_timerfd_arm(fd, instant.map(clock.absolute) ?? 0), "timerfd_settime", for: "\(port)")
    }

    public func closePort(_ port: PortID) {
        let (fd, _) = Self.decode(port)
        let wasOpen = registryLock.withLock {
            wakeUpPending[fd] = nil
            return openPorts.removeValue(forKey: fd) != nil
        }
        if wasOpen { close(fd) }
    }

    public func closePortSet(_ set: PortSetID) {
        let fd = Int32(set.rawValue)
        if fd == Self.refusedDescriptor { return }
        pollLock.withLock { pollState.pointee.forget(set: fd) }
        let wasOpen = registryLock.withLock { openSets.remove(fd) != nil }
        if wasOpen { close(fd) }
    }

    /// An eventfd cannot be read without taking its messages, so the real kernel cannot tell.
    public func pendingMessageCount(_ port: PortID) -> Int? { nil }

    // MARK: - Port sets

    public func makePortSet(label: String) -> PortSetID {
        let fd = lv_epoll_create()
        if refused(fd, "epoll_create1", for: "the port set \(label)") {
            return PortSetID(rawValue: Int(Self.refusedDescriptor))
        }
        Self.check(fd, "epoll_create1", for: "the port set \(label)")
        registryLock.withLock { _ = openSets.insert(fd) }
        return PortSetID(rawValue: Int(fd))
    }

    public func insert(_ port: PortID, into set: PortSetID) {
        let (fd, kind) = Self.decode(port)
        if fd == Self.refusedDescriptor || set.rawValue == Int(Self.refusedDescriptor) { return }
        let result = lv_epoll_add(Int32(set.rawValue), fd, UInt64(UInt(bitPattern: port.rawValue)))
        if result != -EEXIST { Self.check(result, "epoll_ctl(ADD)", for: "\(port)") }
        pollLock.withLock {
            // The port may be ready already: the set's next poll must look.
            pollState.pointee.generation &+= 1
            if kind == .timer { pollState.pointee.add(timer: fd, to: Int32(set.rawValue)) }
        }
    }

    public func remove(_ port: PortID, from set: PortSetID) {
        let (fd, kind) = Self.decode(port)
        if fd == Self.refusedDescriptor || set.rawValue == Int(Self.refusedDescriptor) { return }
        let result = lv_epoll_remove(Int32(set.rawValue), fd)
        if result != -ENOENT { Self.check(result, "epoll_ctl(DEL)", for: "\(port)") }
        if kind == .timer { pollLock.withLock { pollState.pointee.remove(timer: fd, from: Int32(set.rawValue)) } }
    }
}
#endif
