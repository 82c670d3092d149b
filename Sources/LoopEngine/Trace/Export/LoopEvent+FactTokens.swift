/// A fact as a flat list of JSON scalars (the JSONL `fact` key): a case tag, then its values. The `detail` words
/// are for people; this is what a reader turns back into the same typed fact, so nothing has to parse words.
///
///     ["run","seconds",200000000,false]   ["woken","port","P",2]   ["modes",2,"default","tracking"]
///
/// Durations and instants are whole nanoseconds; a list is its count followed by its items.
package enum FactToken: Hashable, Sendable {
    case text(String)
    case number(Int64)
    case flag(Bool)
    case none
}

extension LoopEvent.Fact {
    /// The fact's tokens: the first is the case's tag.
    package var tokens: [FactToken] {
        var out = TokenWriter()
        switch self {
        case .run(let limit, let rash):
            out.tag("run")
            switch limit {
            case .poll: out.tag("poll")
            case .forever: out.tag("forever")
            case .seconds(let duration): out.tag("seconds", .number(duration.nanosecondsClamped))
            }
            out.add(.flag(rash))
        case .messages(let count): out.tag("messages", .number(Int64(count)))
        case .late(let due, let missed, let cause):
            out.tag("late", .number(due.nanoseconds), missed.map { .number(Int64($0)) } ?? .none)
            out.add(cause.map { .text($0.rawValue) } ?? .none)
        case .activity(let activity): out.tag("activity", .number(Int64(activity.rawValue)))
        case .wait(.poll): out.tag("wait", .text("poll"))
        case .wait(.sleep(let timer, let limit, let ready)):
            out.tag("wait", .text("sleep"), timer.map { .text($0.name) } ?? .none)
            out.add(timer.map { .number($0.fireTime.nanoseconds) } ?? .none)
            out.add(limit.map { .number($0.nanoseconds) } ?? .none)
            if let ready { out.cause(ready) } else { out.add(.none) }
        case .woken(let cause):
            out.tag("woken")
            out.cause(cause)
        case .modes(let modes):
            out.tag("modes", .number(Int64(modes.count)))
            for mode in modes { out.add(.text(mode)) }
        case .wakeUp(let caller, let ignored):
            out.tag("wakeUp", caller.map { .text($0.rawValue) } ?? .none)
            out.add(ignored.map { .text($0.tag) } ?? .none)
        case .ignored(let ignored): out.tag("ignored", .text(ignored.tag))
        case .stop(let point): out.tag("stop", .text(point.rawValue))
        case .mode(let mode): out.tag("mode", .text(mode))
        case .note(let note):
            out.tag("note")
            switch note {
            case .say(let text): out.tag("say", .text(text))
            case .duplicateOperation(let name): out.tag("duplicateOperation", .text(name))
            case .notAsynchronous(let name): out.tag("notAsynchronous", .text(name))
            case .noSuchQueue(let operation, let queue): out.tag("noSuchQueue", .text(operation), .text(queue))
            case .noSuchThread(let task, let thread): out.tag("noSuchThread", .text(task), .text(thread))
            case .performInline(let task): out.tag("performInline", .text(task))
            case .emptyModeSpins(let mode): out.tag("emptyModeSpins", .text(mode))
            case .timerOrderUnused(let timer, let order):
                out.tag("timerOrderUnused", .text(timer), .number(Int64(order)))
            case .ownerDeallocating(let owner): out.tag("ownerDeallocating", .text(owner))
            case .ownerFreed(let owner): out.tag("ownerFreed", .text(owner))
            case .usesDeallocatedOwner(let owner, let property):
                out.tag("usesDeallocatedOwner", .text(owner), .text(property))
            case .emptyModeReturned(let mode): out.tag("emptyModeReturned", .text(mode))
            case .performsCancelled(let task, let target, let count):
                out.tag("performsCancelled", task.map { .text($0) } ?? .none, .text(target))
                out.add(.number(Int64(count)))
            case .delayedPerformsCancelled(let task, let target, let count):
                out.tag("delayedPerformsCancelled", task.map { .text($0) } ?? .none, .text(target))
                out.add(.number(Int64(count)))
            case .addDeclined(let item, let kind, let holder):
                out.tag("addDeclined", .text(item), .text(kind.rawValue))
                out.add(.text(holder))
            case .taskSuspended(let task, let wait):
                out.tag("taskSuspended", .text(task))
                out.taskAwait(wait)
            case .taskFinished(let task): out.tag("taskFinished", .text(task))
            case .asyncMainLeavesMainThread(let task): out.tag("asyncMainLeavesMainThread", .text(task))
            case .asyncMainRunsMainLoop(let task): out.tag("asyncMainRunsMainLoop", .text(task))
            case .refusedAfterMainThreadExit(let item, let kind):
                out.tag("refusedAfterMainThreadExit", .text(item), .text(kind.rawValue))
            case .asyncMainExits(let task, let reason):
                out.tag("asyncMainExits", .text(task), .text(reason.rawValue))
            }
        case .operation(let operation):
            out.tag("operation", .number(Int64(operation.priority.rawValue)))
            out.add(.number(Int64(operation.dependencies.count)))
            for dependency in operation.dependencies { out.add(.text(dependency)) }
            switch operation.body {
            case .async: out.tag("async")
            case .work(let duration, let check):
                out.tag("work", .number(duration.nanosecondsClamped))
                out.add(check.map { .number($0.nanosecondsClamped) } ?? .none)
            }
            out.add(operation.replyAfter.map { .number($0.nanosecondsClamped) } ?? .none)
        case .submitted(let submission):
            out.tag("submitted", .text(submission.kind.rawValue), .number(submission.work.nanosecondsClamped))
        case .thread(let use):
            out.tag("thread")
            switch use {
            case .new: out.tag("new")
            case .firstSeen: out.tag("firstSeen")
            case .reused(let before): out.tag("reused", .number(Int64(before)))
            }
        case .cancel(let point):
            out.tag("cancel")
            switch point {
            case .alreadyFinished: out.tag("alreadyFinished")
            case .alreadyCancelled: out.tag("alreadyCancelled")
            case .queued: out.tag("queued")
            case .handedTo(let worker): out.tag("handedTo", .text(worker))
            case .executingConnection: out.tag("executingConnection")
            case .executingNextCheck: out.tag("executingNextCheck")
            case .workItemQueued: out.tag("workItemQueued")
            case .workItemRunning: out.tag("workItemRunning")
            }
        case .finish(let outcome): out.tag("finish", .text(outcome.tag))
        case .origin(let origin):
            out.tag("origin")
            switch origin {
            case .worker(let queue): out.tag("worker", .text(queue))
            case .dispatch(let queue): out.tag("dispatch", .text(queue))
            case .detached: out.tag("detached")
            }
        case .end(.idle(let timeout, let ran, let work)):
            out.tag(
                "end", .text("idle"), .number(timeout.nanosecondsClamped), .number(Int64(ran)), .text(work.rawValue))
        case .end(.taskDone): out.tag("end", .text("taskDone"))
        case .limit(.count(let count)): out.tag("limit", .text("count"), .number(Int64(count)))
        case .limit(.automatic(let width)):
            out.tag("limit", .text("automatic"), width.map { .number(Int64($0)) } ?? .none)
        case .queue(let action): out.tag("queue", .text(action.rawValue))
        case .result(let result): out.tag("result", .number(Int64(result.rawValue)))
        case .mark(let mark): out.tag("mark", .text(mark.rawValue))
        case .dropped(let count): out.tag("dropped", .number(Int64(count)))
        case .stack(let sample):
            out.tag("stack")
            for frame in sample.frames { out.add(.number(Int64(bitPattern: frame))) }
        case .paused(let time): out.tag("paused", .number(time.nanosecondsClamped))
        case .module(let module):
            out.tag(
                "module", .number(Int64(bitPattern: module.base)), .number(Int64(bitPattern: module.low)),
                .number(Int64(bitPattern: module.high)))
            if let buildID = module.buildID { out.add(.text(buildID)) }
        case .returned(let value): out.tag("returned", .flag(value))
        case .order(let order): out.tag("order", .number(Int64(order)))
        case .delayed(let delay): out.tag("delayed", .number(delay.nanosecondsClamped))
        case .query(let question, let answer): out.query(question, answer)
        case .command(let step):
            out.tag("command", .text(step.source))
            switch step.outcome {
            case .posted(let queued): out.tag("posted", .number(Int64(queued)))
            case .refused(let capacity): out.tag("refused", .number(Int64(capacity)))
            case .performed: out.tag("performed")
            case .dropped: out.tag("dropped")
            }
        case .invalidated(let kind, let modes):
            out.tag("invalidated", .text(kind.rawValue), .number(Int64(modes.count)))
            for mode in modes { out.add(.text(mode)) }
        case .fireCalled(let repeats): out.tag("fireCalled", .flag(repeats))
        case .job(let job):
            out.tag("job")
            switch job {
            case .taskStart: out.tag("taskStart")
            case .resumed(let wait):
                out.tag("resumed")
                out.taskAwait(wait)
            case .asyncAfter(let delay): out.tag("asyncAfter", .number(delay.nanosecondsClamped))
            case .asyncAfterTeardown: out.tag("asyncAfterTeardown")
            }
        }
        return out.tokens
    }

    /// The fact the tokens stand for, or nil when they are not the tokens of a fact.
    package init?(tokens: [FactToken]) {
        var reader = TokenReader(tokens: tokens)
        guard let fact = reader.fact(), reader.atEnd else { return nil }
        self = fact
    }
}

struct TokenWriter {
    var tokens: [FactToken] = []
    mutating func tag(_ tag: String, _ values: FactToken...) {
        tokens.append(.text(tag))
        tokens.append(contentsOf: values)
    }
    mutating func add(_ token: FactToken) { tokens.append(token) }

    mutating func taskAwait(_ wait: TaskAwait) {
        switch wait {
        case .yield: tag("yield")
        case .sleep(let duration): tag("sleep", .number(duration.nanosecondsClamped))
        }
    }
    /// A wake cause: its tag, then its values (a `woken` fact, and the port a sleep finds ready).
    mutating func cause(_ cause: LoopEvent.WakeCause) {
        switch cause {
        case .nothing: tag("nothing")
        case .wakeUpPort: tag("wakeUpPort")
        case .timerPort: tag("timerPort")
        case .mainQueue: tag("mainQueue")
        case .port(let name, let messages): tag("port", .text(name), .number(Int64(messages)))
        case .unknownPort(let number): tag("unknownPort", .number(Int64(number)))
        }
    }
}

/// Reads tokens front to back; every read is nil when the next token is not what the case needs.
struct TokenReader {
    var tokens: [FactToken]
    var index = 0
    var atEnd: Bool { index == tokens.count }

    mutating func next() -> FactToken? {
        guard index < tokens.count else { return nil }
        defer { index += 1 }
        return tokens[index]
    }
    mutating func text() -> String? { if case .text(let text)? = next() { text } else { nil } }
    mutating func number() -> Int64? { if case .number(let number)? = next() { number } else { nil } }
    mutating func int() -> Int? { number().flatMap { Int(exactly: $0) } }
    mutating func flag() -> Bool? { if case .flag(let flag)? = next() { flag } else { nil } }
    /// A value or `null`: nil when the token is neither; `.some(nil)` for `null`.
    mutating func optional<T>(_ read: (inout TokenReader) -> T?) -> T?? {
        if index < tokens.count, tokens[index] == .none {
            index += 1
            return .some(nil)
        }
        return read(&self).map { .some($0) }
    }
    mutating func duration() -> Duration? { number().map { .nanoseconds($0) } }
    mutating func instant() -> LoopInstant? { number().map { LoopInstant(nanoseconds: $0) } }
    mutating func list() -> [String]? {
        guard let count = int(), count >= 0, count <= tokens.count - index else { return nil }
        var items: [String] = []
        for _ in 0..<count {
            guard let item = text() else { return nil }
            items.append(item)
        }
        return items
    }

    /// A wake cause: its tag, then its values.
    mutating func wakeCause() -> LoopEvent.WakeCause? {
        switch text() {
        case "nothing": return .nothing
        case "wakeUpPort": return .wakeUpPort
        case "timerPort": return .timerPort
        case "mainQueue": return .mainQueue
        case "port":
            guard let name = text(), let messages = int() else { return nil }
            return .port(name, messages: messages)
        case "unknownPort": return int().map { .unknownPort($0) }
        default: return nil
        }
    }

    /// The rest of a `command` fact: the source, then the outcome's tag and value.
    mutating func command() -> LoopEvent.Fact? {
        guard let source = text() else { return nil }
        let outcome: LoopEvent.CommandOutcome
        switch text() {
        case "posted":
            guard let queued = int() else { return nil }
            outcome = .posted(queued: queued)
        case "refused":
            guard let capacity = int() else { return nil }
            outcome = .refused(capacity: capacity)
        case "performed": outcome = .performed
        case "dropped": outcome = .dropped
        default: return nil
        }
        return .command(LoopEvent.CommandStep(source: source, outcome))
    }

    // swiftlint:disable:next cyclomatic_complexity
    mutating func fact() -> LoopEvent.Fact? {
        switch text() {
        case "run":
            let limit: LoopEvent.RunLimit
            switch text() {
            case "poll": limit = .poll
            case "forever": limit = .forever
            case "seconds":
                guard let duration = duration() else { return nil }
                limit = .seconds(duration)
            default: return nil
            }
            return flag().map { .run(limit, returnAfterSourceHandled: $0) }
        case "messages": return int().map { .messages($0) }
        case "late":
            guard let due = instant(), let missed = optional({ $0.int() }) else { return nil }
            // A trace written before late fires had a cause ends here: the cause is unknown.
            if atEnd { return .late(due: due, missed: missed, cause: nil) }
            guard let cause = optional({ $0.text().flatMap(LoopEvent.LateCause.init(rawValue:)) }) else { return nil }
            return .late(due: due, missed: missed, cause: cause)
        case "activity": return number().flatMap { UInt32(exactly: $0) }.map { .activity(Activity(rawValue: $0)) }
        case "wait":
            switch text() {
            case "poll": return .wait(.poll)
            case "sleep":
                guard let name = optional({ $0.text() }), let fire = optional({ $0.instant() }),
                    let limit = optional({ $0.instant() }), (name == nil) == (fire == nil)
                else { return nil }
                let timer = name.flatMap { name in fire.map { LoopEvent.TimerDeadline(name: name, fireTime: $0) } }
                // A trace written before sleeps said what was ready ends here: unknown.
                if atEnd { return .wait(.sleep(nextTimer: timer, timeLimit: limit, ready: nil)) }
                guard let ready = optional({ $0.wakeCause() }) else { return nil }
                return .wait(.sleep(nextTimer: timer, timeLimit: limit, ready: ready))
            default: return nil
            }
        case "woken": return wakeCause().map { .woken($0) }
        case "modes": return list().map { .modes($0) }
        case "wakeUp":
            guard let caller = optional({ $0.text() }), let ignored = optional({ $0.text() }) else { return nil }
            let who = caller.map(LoopEvent.WakeUpCaller.init(rawValue:))
            let why = ignored.map(LoopEvent.Ignored.init(tag:))
            if who == .some(nil) || why == .some(nil) { return nil }
            return .wakeUp(who ?? nil, ignored: why ?? nil)
        case "ignored": return text().flatMap(LoopEvent.Ignored.init(tag:)).map { .ignored($0) }
        case "stop": return text().flatMap(LoopEvent.StopPoint.init(rawValue:)).map { .stop($0) }
        case "mode": return text().map { .mode($0) }
        case "note": return note().map { .note($0) }
        case "operation": return operation().map { .operation($0) }
        case "submitted":
            guard let kind = text().flatMap(DispatchSubmission.Kind.init(rawValue:)), let work = duration() else {
                return nil
            }
            return .submitted(DispatchSubmission(kind: kind, work: work))
        case "thread":
            switch text() {
            case "new": return .thread(.new)
            case "firstSeen": return .thread(.firstSeen)
            case "reused": return int().map { .thread(.reused(before: $0)) }
            default: return nil
            }
        case "cancel":
            switch text() {
            case "alreadyFinished": return .cancel(.alreadyFinished)
            case "alreadyCancelled": return .cancel(.alreadyCancelled)
            case "queued": return .cancel(.queued)
            case "handedTo": return text().map { .cancel(.handedTo(worker: $0)) }
            case "executingConnection": return .cancel(.executingConnection)
            case "executingNextCheck": return .cancel(.executingNextCheck)
            case "workItemQueued": return .cancel(.workItemQueued)
            case "workItemRunning": return .cancel(.workItemRunning)
            default: return nil
            }
        case "finish": return text().flatMap(LoopEvent.FinishOutcome.init(tag:)).map { .finish($0) }
        case "origin":
            switch text() {
            case "worker": return text().map { .origin(.worker(of: $0)) }
            case "dispatch": return text().map { .origin(.dispatch(queue: $0)) }
            case "detached": return .origin(.detached)
            default: return nil
            }
        case "end":
            switch text() {
            case "idle":
                guard let timeout = duration(), let ran = int(),
                    let work = text().flatMap(LoopEvent.PoolWork.init(rawValue:))
                else { return nil }
                return .end(.idle(timeout: timeout, ran: ran, work: work))
            case "taskDone": return .end(.taskDone)
            default: return nil
            }
        case "limit":
            switch text() {
            case "count": return int().map { .limit(.count($0)) }
            case "automatic": return optional({ $0.int() }).map { .limit(.automatic(width: $0)) }
            default: return nil
            }
        case "queue": return text().flatMap(LoopEvent.QueueAction.init(rawValue:)).map { .queue($0) }
        case "result":
            return number().flatMap { Int32(exactly: $0) }.flatMap(RunResult.init(rawValue:)).map { .result($0) }
        case "mark": return text().flatMap(LoopEvent.Mark.init(rawValue:)).map { .mark($0) }
        case "dropped": return int().map { .dropped($0) }
        case "stack":
            var frames: [UInt64] = []
            while !atEnd {
                guard let frame = number() else { return nil }
                frames.append(UInt64(bitPattern: frame))
            }
            return .stack(LoopEvent.StackSample(frames: frames))
        case "paused": return duration().map { .paused($0) }
        case "module":
            guard let base = number(), let low = number(), let high = number() else { return nil }
            // The build ID, when the object had one: hexadecimal digits only, at most 64 bytes' worth.
            var buildID: String?
            if !atEnd {
                guard let text = text(), !text.isEmpty, text.count <= 128,
                    text.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
                else { return nil }
                buildID = text
            }
            return .module(
                LoopEvent.LoadedModule(
                    base: UInt64(bitPattern: base), low: UInt64(bitPattern: low), high: UInt64(bitPattern: high),
                    buildID: buildID))
        case "returned": return flag().map { .returned($0) }
        case "order": return int().map { .order($0) }
        case "delayed": return duration().map { .delayed($0) }
        case "command": return command()
        case "invalidated":
            guard let kind = text().flatMap(LoopEvent.Kind.init(rawValue:)),
                LoopEvent.Kind.invalidatable.contains(kind),
                let modes = list()
            else { return nil }
            return .invalidated(kind: kind, modes: modes)
        case "query": return query()
        case "fireCalled": return flag().map { .fireCalled(repeats: $0) }
        case "job":
            switch text() {
            case "taskStart": return .job(.taskStart)
            case "resumed": return taskAwait().map { .job(.resumed(after: $0)) }
            case "asyncAfter": return duration().map { .job(.asyncAfter($0)) }
            case "asyncAfterTeardown": return .job(.asyncAfterTeardown)
            default: return nil
            }
        default: return nil
        }
    }

    /// A main-actor task's `await`: `yield`, or `sleep` and its duration.
    mutating func taskAwait() -> TaskAwait? {
        switch text() {
        case "yield": return .yield
        case "sleep": return duration().map { .sleep($0) }
        default: return nil
        }
    }

    mutating func note() -> LoopEvent.Note? {
        switch text() {
        case "say": return text().map { .say($0) }
        case "duplicateOperation": return text().map { .duplicateOperation($0) }
        case "notAsynchronous": return text().map { .notAsynchronous($0) }
        case "noSuchQueue":
            guard let operation = text(), let queue = text() else { return nil }
            return .noSuchQueue(operation: operation, queue: queue)
        case "noSuchThread":
            guard let task = text(), let thread = text() else { return nil }
            return .noSuchThread(task: task, thread: thread)
        case "performInline": return text().map { .performInline(task: $0) }
        case "emptyModeSpins": return text().map { .emptyModeSpins(mode: $0) }
        case "timerOrderUnused":
            guard let timer = text(), let order = int() else { return nil }
            return .timerOrderUnused(timer: timer, order: order)
        case "ownerDeallocating": return text().map { .ownerDeallocating(owner: $0) }
        case "ownerFreed": return text().map { .ownerFreed(owner: $0) }
        case "usesDeallocatedOwner":
            guard let owner = text(), let property = text() else { return nil }
            return .usesDeallocatedOwner(owner: owner, property: property)
        case "emptyModeReturned": return text().map { .emptyModeReturned(mode: $0) }
        case "performsCancelled":
            guard let task = optional({ $0.text() }), let target = text(), let count = int() else { return nil }
            return .performsCancelled(task: task, target: target, count: count)
        case "delayedPerformsCancelled":
            guard let task = optional({ $0.text() }), let target = text(), let count = int() else { return nil }
            return .delayedPerformsCancelled(task: task, target: target, count: count)
        case "addDeclined":
            guard let item = text(), let kind = text().flatMap(LoopEvent.Kind.init(rawValue:)), let holder = text()
            else { return nil }
            return .addDeclined(item: item, kind: kind, holder: holder)
        case "taskSuspended":
            guard let task = text(), let wait = taskAwait() else { return nil }
            return .taskSuspended(task: task, at: wait)
        case "taskFinished": return text().map { .taskFinished(task: $0) }
        case "asyncMainLeavesMainThread": return text().map { .asyncMainLeavesMainThread(task: $0) }
        case "asyncMainRunsMainLoop": return text().map { .asyncMainRunsMainLoop(task: $0) }
        case "refusedAfterMainThreadExit":
            guard let item = text(), let kind = text().flatMap(LoopEvent.Kind.init(rawValue:)) else { return nil }
            return .refusedAfterMainThreadExit(item: item, kind: kind)
        case "asyncMainExits":
            guard let task = text(), let reason = text().flatMap(LoopEvent.AsyncMainExit.init(rawValue:)) else {
                return nil
            }
            return .asyncMainExits(task: task, because: reason)
        default: return nil
        }
    }

    mutating func operation() -> LoopEvent.OperationFacts? {
        guard let raw = int(), let priority = QueuePriority(rawValue: raw), let dependencies = list() else {
            return nil
        }
        let body: OperationSpec.Body
        switch text() {
        case "async": body = .async
        case "work":
            guard let duration = duration(), let check = optional({ $0.duration() }) else { return nil }
            body = .work(duration, checkEvery: check)
        default: return nil
        }
        guard let replyAfter = optional({ $0.duration() }) else { return nil }
        return LoopEvent.OperationFacts(
            OperationSpec(name: "", priority: priority, dependencies: dependencies, body: body, replyAfter: replyAfter))
    }
}

extension LoopEvent.Ignored {
    fileprivate var tag: String {
        switch self {
        case .noRun: "noRun"
        case .afterTheWait: "afterTheWait"
        case .portSource: "portSource"
        }
    }
    fileprivate init?(tag: String) {
        switch tag {
        case "noRun": self = .noRun
        case "afterTheWait": self = .afterTheWait
        case "portSource": self = .portSource
        default: return nil
        }
    }
}

extension LoopEvent.FinishOutcome {
    fileprivate static let tags: [(Self, String)] = [
        (.done, "done"), (.doneAfterLateCancel, "doneAfterLateCancel"), (.cancelledBeforeStart, "cancelledBeforeStart"),
        (.cancelledWhileRunning, "cancelledWhileRunning"), (.workItemSkipped, "workItemSkipped"),
        (.workItemRanDespiteCancel, "workItemRanDespiteCancel"), (.blockDone, "blockDone"),
    ]
    fileprivate var tag: String { Self.tags.first { $0.0 == self }!.1 }
    fileprivate init?(tag: String) {
        guard let found = Self.tags.first(where: { $0.1 == tag }) else { return nil }
        self = found.0
    }
}
