/// The actions of programs, callouts and `at` blocks, and the ways to run a loop.
extension LoopScriptPrinter.Lines {
    mutating func actionLines(_ action: Action, indent: Int) {
        let pad = String(repeating: "  ", count: indent)
        switch action {
        case .note(let text):
            append(pad + w("say") + " " + quoted(text))
            if var pending = noteClaims[text], !pending.isEmpty {
                claimLines(pending.removeFirst(), indent: indent + 1)
                noteClaims[text] = pending
            }
            for language in Language.allCases where language != .en {
                if let translation = translations[language]?[text] {
                    append(pad + w("say") + " " + w(language.rawValue) + " " + quoted(translation))
                }
            }
        case .performBlock(let name, let modes, let inner):
            nested(pad, w("block") + " " + name + inModes(modes), inner, indent)
        case .mainQueue(let name, let inner): nested(pad, w("mainqueue") + " " + name, inner, indent)
        case .mainActorTask(let name, let body): nested(pad, w("mainactor") + " " + name, body, indent)
        case .asyncAfter(let name, let delay, let inner):
            nested(pad, w("asyncafter") + " " + duration(delay) + " " + name, inner, indent)
        case .performOn(let thread, let task, let wait, let inner):
            let head = w("perform") + " " + task + " " + w("on") + " " + thread + (wait ? " " + w("wait") : "")
            nested(pad, head, inner, indent)
        case .performOrdered(let task, let target, let order, let modes, let inner):
            let head = w("perform") + " " + task + targetText(target) + " " + w("order") + " \(order)"
            nested(pad, head + inModes(modes), inner, indent)
        case .performDelayed(let task, let target, let delay, let modes, let inner):
            let head = w("perform") + " " + task + targetText(target) + " " + w("afterDelay") + " " + duration(delay)
            nested(pad, head + inModes(modes), inner, indent)
        case .detach(let task, let inner): nested(pad, w("detach") + " " + task, inner, indent)
        case .ifHolds(let condition, let inner): nested(pad, w("if") + " " + words.text(condition), inner, indent)
        case .dealloc(let owner, let inner): nested(pad, w("dealloc") + " " + owner, inner, indent)
        default:
            append(pad + simpleText(action))
        }
    }

    private mutating func nested(_ pad: String, _ head: String, _ inner: [Action], _ indent: Int) {
        append(pad + head)
        for action in inner { actionLines(action, indent: indent + 1) }
    }

    private func targetText(_ target: String) -> String {
        target == "self" ? "" : " " + w("target") + " " + target
    }

    /// ` in M, …` unless the modes are the default mode alone.
    func inModes(_ modes: [ModeName]) -> String {
        modes == [.default] ? "" : " " + w("in") + " " + modeList(modes)
    }

    /// The actions that take no block of their own: one line each.
    private func simpleText(_ action: Action) -> String {
        switch action {
        case .work(let time): w("work") + " " + duration(time)
        case .signal(let name): w("signal") + " " + name
        case .send(let name, let count): w("send") + " " + name + times(count)
        case .sendTo(let thread, let port, let count):
            w("send") + " " + port + times(count) + " " + w("on") + " " + thread
        case .start(let thread): w("start") + " " + thread
        case .wakeUp: w("wakeup")
        case .wakeUpThread(let thread): w("wakeup") + " " + w("on") + " " + thread
        case .stop: w("stop")
        case .stopMode(let mode): w("stop") + " " + w("mode") + " " + mode.rawValue
        case .add(let name, let mode): w("add") + " " + name + " " + w("to") + " " + mode.rawValue
        case .remove(let name, let mode): w("remove") + " " + name + " " + w("from") + " " + mode.rawValue
        case .addOn(let thread, let item, let mode):
            w("add") + " " + item + " " + w("to") + " " + mode.rawValue + " " + w("on") + " " + thread
        case .removeOn(let thread, let item, let mode):
            w("remove") + " " + item + " " + w("from") + " " + mode.rawValue + " " + w("on") + " " + thread
        case .invalidate(let name): w("invalidate") + " " + name
        case .fire(let name): w("fire") + " " + name
        case .setNextFireDate(let name, let delay): w("reschedule") + " " + name + " " + w("in") + " " + duration(delay)
        case .addCommonMode(let mode): w("common") + " " + mode.rawValue
        case .run(let call): runText(call)
        case .setFlag(let flag): w("set") + " " + flag
        case .assign(let reference, let value): w(value ? "set" : "clear") + " " + words.text(reference)
        case .query(let question): w("query") + " " + question.words
        case .post(let command, let source): w("post") + " " + command + " " + w("to") + " " + source
        case .cancelPerforms(let task?, let target): w("cancelPerform") + " " + task + targetText(target)
        case .cancelPerforms(nil, let target): w("cancelPerforms") + " " + w("target") + " " + target
        case .cancelDelayedPerforms(let task, let target):
            w("cancelPrevious") + (task.map { " " + $0 } ?? "") + " " + w("target") + " " + target
        case .addOperation(let queue, let operation): operationText(queue, operation)
        case .cancelOperation(let name): w("cancel") + " " + name
        case .cancelAll(let queue): w("cancel") + " " + w("all") + " " + w("on") + " " + queue
        case .setSuspended(let queue, let suspended): w(suspended ? "suspend" : "resume") + " " + queue
        case .setLimit(let queue, let limit): w("limit") + " " + queue + " " + (limit.map(String.init) ?? w("default"))
        case .finishOperation(let name): w("finish") + " " + name
        case .waitUntilAllFinished(let queue): w("wait") + " " + w("for") + " " + queue
        case .await(.yield): w("await") + " " + w("yield")
        case .await(.sleep(let time)): w("await") + " " + w("sleep") + " " + duration(time)
        case .note, .performBlock, .mainQueue, .mainActorTask, .asyncAfter, .performOn, .performOrdered,
            .performDelayed, .detach, .ifHolds,
            .dealloc:
            preconditionFailure("an action with a block is printed by actionLines")
        }
    }

    private func times(_ count: Int) -> String {
        count == 1 ? "" : " \(count) " + w("times")
    }

    /// `operation NAME on QUEUE …`, or `async [workItem] NAME on QUEUE work D` for a dispatch queue.
    private func operationText(_ queue: String, _ operation: OperationSpec) -> String {
        if let submission = operation.submission {
            var line = w("async") + (submission == .workItem ? " " + w("workItem") : "")
            line += " " + operation.name + " " + w("on") + " " + queue
            if case .work(let time, _) = operation.body { line += " " + w("work") + " " + duration(time) }
            return line
        }
        var line = w("operation") + " " + operation.name + " " + w("on") + " " + queue
        if operation.priority != .normal { line += " " + w("priority") + " " + operation.priority.description }
        if !operation.dependencies.isEmpty {
            line += " " + w("after") + " " + operation.dependencies.joined(separator: ", ")
        }
        switch operation.body {
        case .work(let time, let every):
            line += " " + w("work") + " " + duration(time)
            if let every { line += " " + w("check") + " " + w("every") + " " + duration(every) }
        case .async:
            line += " " + w("async")
            if let reply = operation.replyAfter { line += " " + w("reply") + " " + w("after") + " " + duration(reply) }
        }
        return line
    }

    /// The seconds `run MODE forever` gives CF (the parser's value).
    static let forever = 1.0e10

    private func runText(_ call: RunCall) -> String {
        switch call {
        case .inMode(let mode, let seconds, let returnAfterSourceHandled):
            let limit: String
            if seconds == Self.forever {
                limit = w("forever")
            } else if seconds.isNaN {
                limit = w("for") + " " + w("nan")
            } else if seconds == .infinity {
                limit = w("for") + " " + w("inf")
            } else {
                limit = w("for") + " " + duration(.secondsValue(seconds))
            }
            return w("run") + " " + mode.rawValue + " " + limit
                + (returnAfterSourceHandled ? " " + w("returnAfterSourceHandled") : "")
        case .untilStopped: return w("CFRunLoopRun")
        case .foundation(let mode, let before):
            return w("RunLoop.run") + " " + mode.rawValue + " " + w("before") + " " + date(before)
        case .foundationUntil(let limit): return w("RunLoop.run") + " " + w("until") + " " + date(limit)
        case .acceptInput(let mode, let before):
            return w("RunLoop.acceptInput") + " " + mode.rawValue + " " + w("before") + " " + date(before)
        case .foundationForever: return w("RunLoop.run")
        case .whileNot(let flag, let mode):
            return w("while") + " " + w("not") + " " + flag + " " + w("RunLoop.run") + " " + mode.rawValue
        case .whileHolds(let condition, let mode):
            return w("while") + " " + words.text(condition) + " " + w("RunLoop.run") + " " + mode.rawValue
        }
    }

    private func date(_ date: FoundationDate) -> String {
        switch date {
        case .fromNow(let delay): duration(delay)
        case .sinceStart(let time): w("at") + " " + duration(time)
        case .distantPast: w("distantPast")
        case .distantFuture: w("distantFuture")
        }
    }
}
