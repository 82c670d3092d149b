/// The wording of every ``ScenarioProblem``: the one place that says what users read. Each value from the file is
/// interpolated through ``DiagnosticMessage``, so it is shown terminal-safe and bounded.
extension ScenarioProblem.Expected {
    /// What `expected …` names: the parser's text holds none of it. A phrase quotes nothing from the file, so it
    /// is shown whole (never cut at ``DiagnosticMessage/maxQuoted``).
    var phrase: DiagnosticMessage {
        switch self {
        // The top level, narration and questions
        case .scenarioTitle: "the scenario's title in quotes"
        case .profile: "a profile: linux or darwin"
        case .runLength: "how long to run, e.g. 2s"
        case .timeSinceStart: "a time since the start, e.g. 250ms"
        case .addressedThread: "the thread the actions address"
        case .iterationCost: "what one iteration costs, e.g. 1500ns or 2us (0s: none)"
        case .sayText: "the text in quotes"
        case .narrationText: "the narration in quotes"
        case .stepNumber: "a step number (the n-th event, from 1)"
        case .questionText: "the question in quotes"
        case .claimReach: "`next`, `later` or `earlier` after `claims`"

        // Threads and items
        case .threadName: "the thread's name"
        case .source0Name: "the source0's name, or a range such as p1..10"
        case .portName: "the port's name, or a range such as p1..10"
        case .timerName: "the timer's name, or a range such as p1..10"
        case .observerName: "the observer's name, or a range such as p1..10"
        case .itemOrder: "an order (an integer)"
        case .firstFire: "the first fire time since the start, e.g. 100ms"
        case .repeatInterval: "the repeat interval, e.g. 100ms"
        case .tolerance: "a tolerance, e.g. 10ms"
        case .commandCapacity: "how many commands the queue holds, e.g. `commands 4`"
        case .modeName: "a mode name"
        case .activity: "an activity: entry, beforeTimers, beforeSources, beforeWaiting, afterWaiting, exit or all"

        // Conditions and actions
        case .callNumber: "a call number, e.g. `call 2:`"
        case .callCount: "a number of calls, e.g. `first 3 calls:`"
        case .workDuration: "how long the work takes, e.g. 20ms"
        case .source0OrPort: "a version-0 source or a port"
        case .source0: "a version-0 source"
        case .port: "a port"
        case .timer: "a timer"
        case .item: "an item"
        case .rescheduleDelay: "a delay from now, e.g. 20ms (negative: a date in the past)"
        case .blockName: "the block's name"
        case .mainQueueBlockName: "the main-queue block's name"
        case .mainActorTaskName: "the main-actor task's name"
        case .asyncAfterDelay: "the delay, e.g. `asyncafter 50ms refresh`"
        case .asyncAfterBlockName: "the asyncAfter block's name, after its delay"
        case .sleepDuration: "how long the task sleeps, e.g. `await sleep 100ms`"
        case .taskName: "the task's name"
        case .performThread: "the thread to perform on"
        case .runTimeLimit: "a time limit, e.g. 200ms (0s polls once), inf or nan"
        case .dateSinceStart: "a time since the start, e.g. `at 300ms`"
        case .threadToStart: "the thread to start, declared `thread NAME later`"
        case .loopThread: "the thread whose loop it goes to, e.g. `add tick to default on worker`"
        case .portThread: "the thread whose port this is, e.g. `send reply on worker`"
        case .wakeupThread: "the thread whose loop to wake, e.g. `wakeup on worker`"
        case .commandName: "the command's name, e.g. `post addItem to inputSource`"
        case .targetName: "the target's name"
        case .performOrder: "the order, a number: `order 10`"
        case .cancelledPerformTask: "the task's name: `cancelPerform a [target str]`"
        case .performDelay: "the delay, e.g. `afterDelay 20ms` (0 waits for the timer too)"
        case .cancelledPreviousTask: "the task's name: `cancelPrevious a [target view]`"
        case .cancelPreviousSubject: "'target' and a name, or a task: `cancelPrevious target view`"

        // Owners and flags
        case .ownerName: "the owner's name, e.g. `owner vc weak weakSelf`"
        case .weakReferenceName: "the name of the weak reference to it, e.g. weakSelf"
        case .assignedFlag: "a flag's name, or an owner's property such as vc.stopped"
        case .deallocatedOwner: "the owner that goes away, e.g. `dealloc vc`"
        case .conditionTerm: "a flag, an owner's property (vc.stopped) or a weak reference"

        // Queues and operations
        case .queueName: "the queue's name"
        case .idleLifetime: "how long an idle worker lives, e.g. 5s"
        case .queueToCancel: "the queue whose operations to cancel"
        case .operationToCancel: "an operation to cancel, or `all on QUEUE`"
        case .operationToFinish: "the async operation whose socket callback comes"
        case .queueToSuspend: "the queue to suspend"
        case .queueToResume: "the queue to resume"
        case .queueToLimit: "the queue to limit"
        case .queueToWaitFor: "the queue to wait for"
        case .detachedTask: "the detached thread's name (its task)"
        case .operationName: "the operation's name, or a range such as upload1..10"
        case .queueToAddTo: "the queue to add it to"
        case .priority: "a priority: \(ScenarioProblem.priorityWords)"
        case .dependency: "an operation it waits for"
        case .replyDelay: "when the server replies after the start, e.g. 300ms"
        case .operationWork: "how long the operation works, e.g. 20ms"
        case .checkInterval: "how often it looks at isCancelled, e.g. 5ms"

        // Dispatch queues
        case .dispatchBlockName: "the block's name, or a range such as b1..3"
        case .dispatchQueue: "the dispatch queue"
        case .blockWork: "how long the block works, e.g. 20ms"

        // Expected steps and answers
        case .event: "an event such as entry, timer T or result timedOut"
        case .returnedValue: "true or false: what run(mode:before:) returned"
        case .rangeStart: "the start of the range, e.g. 2.0s"
        case .rangeEnd: "the end of the range, e.g. 2.5s"
        case .timeBefore: "a time, e.g. 0.5s"
        case .timeAfter: "a time, e.g. 1s"
        case .count: "a count: `once` or `3 times`"
        case .modeAnswer: "a mode, or nil outside any run"
        case .dateAnswer: "a time (0.300), nil, none or distantFuture"
        case .flagAnswer: "true or false"
        }
    }
}

extension ScenarioProblem {
    var message: DiagnosticMessage {
        switch self {
        // Reading the file
        case .invalidUTF8(let firstBytes, let count):
            let shown = firstBytes.map { "0x" + Self.hex($0) }.joined(separator: " ")
            let what: DiagnosticMessage =
                count == 1 ? "byte \(shown)" : "\(count) bytes (\(shown)\(count > firstBytes.count ? " …" : ""))"
            return "invalid UTF-8: \(what); save the file as UTF-8"
        case .tabIndentation: return "tabs are not allowed for indentation; indent with spaces"
        case .unterminatedString: return "unterminated string: add a closing \""
        case .notANumber(let text): return "'\(text)' is not a number"
        case .unexpectedCharacters(let run, let count):
            return count == 1 ? "unexpected character '\(run)'" : "\(count) unexpected characters '\(run)'"
        case .firstLineIndented: return "the first line must not be indented"
        case .indentedWithoutBlock: return "this line is indented but no block is open above it"
        case .indentationMismatch(let expected):
            return "indentation does not match the lines above (\(expected) spaces)"
        case .indentationOff(let found, let expected):
            return "this line is indented \(found) spaces, the lines after it in its block \(expected); indent it "
                + "\(expected) spaces"
        case .nestedTooDeep(let limit):
            return "blocks nest more than \(limit) deep here; expected at most \(limit) levels"
        case .takesNoBlock(let what): return "'\(what)' takes no indented block"
        case .unexpectedAtEndOfLine(let text): return "unexpected '\(text)' at the end of the line"
        case .expected(let what): return "expected \(what.phrase)"

        // Words, numbers, durations and modes
        case .negativeDuration: return "a duration cannot be negative here"
        case .durationWithoutUnit(let text): return "'\(text)' needs a unit: \(text)ms or \(text)s"
        case .spaceBeforeUnit(let number, let unit):
            return "write the number and unit together: \(number)\(unit)"
        case .unknownUnit(let unit, let text):
            return "unknown unit '\(unit)' in '\(text)'; use ns, us, ms, s or m (min)"
                + "\(Self.didYouMean(unit, among: Self.unitWords))"
        case .durationTooLong(let text): return "'\(text)' is too long; the limit is about 30 years"
        case .commonNotAllowed: return "'common' stands for all common modes and cannot be used here"
        case .modeListedTwice(let mode): return "mode '\(mode)' is listed twice"
        case .unknownActivity(let name):
            return "unknown activity '\(name)'; expected entry, beforeTimers, beforeSources, beforeWaiting, "
                + "afterWaiting, exit or all (case matters)\(Self.didYouMean(name, among: Self.activityWords))"
        case .givenTwice(let clause): return "'\(clause)' is given twice"

        // The top level
        case .unknownTopLevel(let found):
            return
                "expected scenario, profile, until, iteration cost, owner, thread, queue, at, say, ask or expect; found '\(found)'\(Self.didYouMean(found, among: ScenarioKeywords.topLevel))"
        case .scenarioAlreadyNamed: return "the scenario is already named"
        case .unknownProfile(let name):
            return
                "unknown profile '\(name)'; expected linux or darwin\(Self.didYouMean(name, among: ["linux", "darwin"]))"
        case .iterationCostAlreadyGiven: return "the iteration cost is already given"
        case .iterationWithoutCost: return "expected 'cost' and a duration: `iteration cost 1500ns` (0s: none)"
        case .iterationCostTooHigh: return "an iteration cost of more than 1s would hide every timer; use e.g. 2us"
        case .noThread: return "a scenario needs at least one thread: `thread main` followed by its items and program"
        case .severalMainThreads: return "only one thread can be the main thread"
        case .outsideEventWithoutThread: return "say which thread this addresses: `at … on THREAD`"
        case .missingAnchor(let anchored):
            let example =
                switch anchored {
                case .say: "`say \"…\" at 250ms`, `say \"…\" after timer tick`"
                case .ask: "`ask \"What runs next?\" after beforeSources`"
                }
            return "expected 'at' and a time or a step, or 'after' and an event: \(example)"
        case .stepsCountedFromOne: return "steps are counted from 1"
        case .unknownLanguage(let name):
            return "unknown language '\(name)'; expected zh or en before the text (or no tag: English)"
        case .translationWithoutOriginal(let language):
            return
                "`say \(language.rawValue) \"…\"` in a program or a callout translates the `say \"…\"` right before it; "
                + "put it on the next line after one"
        case .choicesNotClosed: return "expected ')' after the choices: `(sleep, source0 render, wake)`"
        case .tooManyChoices(let count, let limit):
            return "a question offers at most \(limit) choices; this one has \(count)"
        case .notAClaim(let found):
            return "a line under a `say` is a claim, `claims next result handledSource`; found '\(found)'"
        case .unknownClaimReach(let word):
            return "unknown '\(word)' after `claims`; expected next, later or earlier"
                + "\(Self.didYouMean(word, among: NarrationClaim.Reach.allCases.map(\.rawValue)))"
        case .countInNextClaim:
            return "`claims next` names the next event of its kind, without a count or `never`; "
                + "use `claims later … once`"

        // Threads and items
        case .duplicateThread(let name): return "duplicate thread '\(name)'"
        case .threadWithoutContent(let name):
            return "thread '\(name)' has no items and no program; indent them under it"
        case .asyncWithoutMain:
            return "only the main thread runs an async `main`: `thread NAME main async`"
        case .duplicateItem(let name, let thread): return "duplicate item '\(name)' on thread \(thread)"
        case .keywordAsName(let name): return "'\(name)' is a keyword; choose another name"
        case .unexpectedItemClause(let clause, let item, let left, let modesGiven):
            // Plain text, shown bounded as one value (as the parts of the file they name are).
            let expected =
                left.isEmpty
                ? "nothing more" : "\(left.count > 1 ? "one of " : "")\(left.map { "'\($0)'" }.joined(separator: ", "))"
            let modes =
                modesGiven ? " (several modes are separated by commas: `in default, tracking`)" : ""
            let article = item.first.map { "aeiou".contains($0) } == true ? "an" : "a"
            return "unexpected '\(clause)' in \(article) \(item); expected \(expected)\(modes)"
                + "\(Self.didYouMean(clause, among: left))"
        case .timerWithoutFirstFire(let name): return "timer '\(name)' needs its first fire time: `at 100ms`"
        case .foundationTimerForm:
            return "a Foundation timer is `every 100ms` (repeats) or `interval 100ms` (does not) and "
                + "`foundation init` or `foundation scheduled`, without `at` or `order`; `foundation scheduled` is "
                + "in the default mode only"
        case .observerWithoutActivities(let name):
            return "observer '\(name)' needs its activities: `on entry, beforeWaiting` or `on all`"

        // Callouts and actions
        case .unknownCondition:
            return "expected a condition before ':' — `call N`, `first N calls` or `on ACTIVITY`"
        case .callsCountedFromOne: return "calls are counted from 1"
        case .callsWordMissing: return "expected 'calls' after the number"
        case .activityConditionOutsideObserver: return "`on ACTIVITY:` conditions are for observers only"
        case .actionMissingAfterColon: return "expected an action after ':'"
        case .unknownAction(let word):
            return
                "unknown action '\(word)'\(Self.didYouMean(word, among: ScenarioKeywords.items + ScenarioKeywords.actions))"
        case .sendNoMessage: return "send at least one message"
        case .sendTimesMissing: return "expected 'times' after the count, e.g. `send P 3 times`"
        case .wakeWithoutUp: return "expected 'up': `wake up`"
        case .modePrepositionMissing(let preposition): return "expected '\(preposition)' and a mode"
        case .rescheduleWithoutIn: return "expected 'in' and a delay: `reschedule T in 20ms`"
        case .mainQueueWithoutMainThread:
            return "only the main thread services the main queue; mark a thread `main`"
        case .awaitOutsideTask:
            return "`await` only as a line of a `mainactor` body or of an async main's program: the task suspends there"
        case .awaitWithoutWhat: return "expected 'yield' or 'sleep' and a duration: `await yield`, `await sleep 100ms`"
        case .performWithoutOn: return "expected 'on' and a thread: `perform upload on worker [wait]`"
        case .performFromOutside: return "perform from outside: let a thread of the scenario perform it"
        case .runFromOutside: return "an outside event cannot run this thread's loop; only its program can"
        case .queryUnknownQuestion:
            return
                "expected a question: currentMode, limitDate M, nextTimerFireDate M, isWaiting, contains X in M, "
                + "isValid X, nextFireDate T, allModes, interval T, tolerance T or repeats T"
        case .queryContainsWithoutIn: return "expected 'in' and a mode: `query contains tick in Tracking`"
        case .runWithoutFor(let mode): return "expected 'for' and a time limit: `run \(mode) for 200ms` (or 'forever')"
        case .runUntilInOtherMode(let mode):
            return "run(until:) always runs the default mode; for \(mode) use `RunLoop.run \(mode) before …`"
        case .runLoopRunWithoutBefore:
            return "expected 'before' and a limit: `RunLoop.run default before 1s` (or `RunLoop.run until 1s`)"
        case .acceptInputWithoutBefore:
            return "expected 'before' and a limit: `RunLoop.acceptInput default before 1s`"
        case .nilDate:
            return
                "Foundation's run(mode:before:), run(until:) and acceptInput(forMode:before:) take a Date, not nil; "
                + "distantPast polls once, distantFuture waits without a limit"
        case .expectedDate:
            return
                "expected a date: a time from now (250ms, -100ms), now, `at 2s` (since the start), distantPast or "
                + "distantFuture"
        case .conditionNotEnded(let end): return "expected 'and' or '\(end)' after the condition"
        case .ifWithoutBlock: return "`if` needs an indented block: the actions it guards"

        // Owners and threads started later
        case .ownerNameWithDot: return "an owner's name has no '.': its properties are written `NAME.property`"
        case .ownerNameTaken(let name): return "'\(name)' already names an owner or a weak reference"
        case .unknownOwner(let name, let known):
            let hint: DiagnosticMessage =
                known.isEmpty
                ? "declare it at the top level: `owner vc weak weakSelf`" : "known: \(Self.nameList(known))"
            return "unknown owner '\(name)' (\(hint))"
        case .ownerPropertyExpected(let owner): return "expected OWNER.property, e.g. \(owner).stopped"
        case .ownerInCondition(let name):
            return "'\(name)' is the owner itself, which its own code always has; test its weak reference"
        case .ownerAssigned(let name): return "'\(name)' is an owner; set or clear one of its properties (NAME.flag)"
        case .threadNotLater(let name):
            return "thread '\(name)' starts with the scenario; declare it `thread \(name) later`"

        // The thread pool
        case .unexpectedQueueClause(let clause):
            return "unexpected '\(clause)' in a queue; expected 'limit', 'suspended', 'idle' or 'dispatch'"
                + "\(Self.didYouMean(clause, among: ScenarioKeywords.queueClauses))"
        case .duplicateQueue(let name, let firstLine):
            return "duplicate queue '\(name)' (declared on line \(firstLine)); give each queue its own name"
        case .queueNamedLikeThread(let name):
            return "queue '\(name)' has the name of a thread; give it another name (traces tell them apart by name)"
        case .badLimit(let found):
            let shown: DiagnosticMessage = found.map { "; found '\($0)'" } ?? ""
            return "expected a limit: a whole number (0 or more) or 'default'\(shown)"
        case .cancelAllWithoutOn: return "expected 'on' and a queue: `cancel all on QUEUE`"
        case .waitWithoutFor: return "expected 'for' and a queue: `wait for QUEUE`"
        case .operationNamedAll: return "'all' is a keyword (`cancel all on QUEUE`); choose another name"
        case .operationWithoutOn(let name): return "expected 'on' and a queue: `operation \(name) on QUEUE work 20ms`"
        case .unexpectedOperationClause(let clause):
            return "unexpected '\(clause)' in an operation; expected 'priority', 'after', 'work' or 'async'"
                + "\(Self.didYouMean(clause, among: ScenarioKeywords.operationClauses))"
        case .checkOutOfPlace: return "`check every DURATION` goes right after `work DURATION`"
        case .replyOutOfPlace: return "`reply after DURATION` goes right after `async`"
        case .unknownPriority(let name):
            let priorities = ["veryLow", "low", "normal", "high", "veryHigh"]
            return
                "unknown priority '\(name)'; expected \(Self.priorityWords)\(Self.didYouMean(name, among: priorities))"
        case .workAndAsync: return "an operation either works (`work 20ms`) or is `async`, not both"
        case .operationWithoutBody(let name):
            return "operation '\(name)' needs what it does: `work 20ms [check every 5ms]` or `async`"
        case .checkWithoutEvery: return "expected 'every' and an interval: `check every 5ms`"
        case .checkIntervalNotPositive: return "a check interval must be positive; leave out `check every` for none"
        case .replyWithoutAfter: return "expected 'after' and a delay: `async reply after 300ms`"
        case .duplicateOperation(let name, let firstLine):
            return
                "duplicate operation '\(name)' (already added on line \(firstLine)); give each operation its own name"
        case .badRange(let text):
            return "bad range '\(text)'; expected a name, its first number, '..' and the last: upload1..10"
        case .rangeEndsFirst(let text, let first):
            return "the range '\(text)' ends before it starts; expected the last number ≥ \(first)"
        case .rangeTooLong(let text, let count, let limit):
            return "the range '\(text)' has \(count) names; expected at most \(limit)"
        case .tooManyRangeNames(let limit):
            return
                "the ranges of this file stand for more than \(limit) names in all; expected fewer or shorter ranges"
        case .tooManyModes(let limit):
            return "this file names more than \(limit) modes, the mode limit; expected at most \(limit) mode names"
        case .finishNotAsync(let name):
            return
                "'\(name)' is not an async operation, so it finishes by itself; `finish` needs an operation added "
                + "with `async`"
        case .waitsForItself(let name):
            return "'\(name)' waits for itself, so it can never start; expected `after` to name another operation"
        case .dependencyCycle(let cycle):
            return
                "operations wait for each other (\(cycle.joined(separator: " → "))), so none of them can start; "
                + "expected `after` to name an operation outside the cycle"

        // Checked once the whole file is read
        case .unknownItem(let name, let thread, let known):
            let hint: DiagnosticMessage =
                known.isEmpty ? "thread \(thread) has no items" : "known: \(Self.nameList(known))"
            return "unknown item '\(name)' on thread \(thread) (\(hint))\(Self.didYouMean(name, among: known))"
        case .wrongItemKind(let name, let kind, let needed, let allowed):
            let hint: DiagnosticMessage =
                kind == .source0 && allowed == [.port] ? "; version-0 sources are `signal`led" : ""
            return "'\(name)' is a \(kind.rawValue), but this needs \(needed.phrase)\(hint)"
        case .unknownThread(let name, let known):
            return "unknown thread '\(name)' (known: \(Self.nameList(known)))\(Self.didYouMean(name, among: known))"
        case .unknownQueue(let name, let known):
            let hint: DiagnosticMessage =
                known.isEmpty
                ? "no queue is declared; declare it at the top level: `queue \(name)`"
                : "known: \(Self.nameList(known))"
            return "unknown queue '\(name)' (\(hint))\(Self.didYouMean(name, among: known))"
        case .unknownOperation(let name, let known):
            return "unknown operation '\(name)' (\(Self.knownOperations(known)))"
        case .flagNeverSet(let name):
            return "flag '\(name)' is never set, so this loop could never end; add `set \(name)` somewhere"
        case .unknownItemInPattern(let name, let known, let guess):
            let hint: DiagnosticMessage = known.isEmpty ? "the file has no items" : "known: \(Self.nameList(known))"
            let guessed: DiagnosticMessage = guess.map { "; did you mean '\($0)'?" } ?? ""
            return "unknown item '\(name)' (\(hint))\(guessed)"
        case .unknownModeInPattern(let name, let known):
            return "unknown mode '\(name)' (known: \(Self.nameList(known)))\(Self.didYouMean(name, among: known))"
        case .runModeHasNoItems(let mode, let guess):
            guard let guess else {
                return "mode '\(mode)' has no items, so this run returns at once; add items to it, or expect "
                    + "`result finished` (or `returned false`) if that is the point"
            }
            return "mode '\(mode)' has no items; did you mean '\(guess)'?"
        case .modeNeverRun(let mode, let item, let guess):
            let hint: DiagnosticMessage = guess.map { "; did you mean '\($0)'?" } ?? ""
            return "'\(item)' is in mode '\(mode)', which no run enters\(hint)"

        // Expectations
        case .unknownExpectSection:
            return "expected `expect exactly`, `expect in order`, `expect in every schedule` or `expect` alone (claims)"
        case .expectOrderMissing: return "expected 'order': `expect in order`"
        case .emptyExpectSection: return "an expect section needs indented lines"
        case .unknownEvent(let name):
            // The kinds are the engine's words, not the file's: shown whole.
            let message: DiagnosticMessage = "unknown event '\(name)'; expected one of "
            return message + Self.eventWords.joined(separator: ", ")
                + "\(Self.didYouMean(name, among: Self.eventWords))"
        case .unknownResult(let name):
            let results = RunResult.allCases.map(\.description)
            return "unknown result '\(name)'; expected finished, stopped, timedOut or handledSource"
                + "\(Self.didYouMean(name, among: results))"
        case .returnedNotBool(let word): return "run(mode:before:) returns true or false, not '\(word)'"
        case .countOutsideClaims:
            return
                "a count belongs in a section of claims: `expect` alone, not `expect exactly` or `expect in order`"
        case .neverWithCount: return "`never` takes no count"
        case .neverGoesFirst(let claim): return "`never` goes first: `\(claim)`"
        case .atWithoutMostOrLeast: return "expected 'most' or 'least': `at most once`, `at least 2 times`"
        case .timesMissing: return "expected 'times' after the count, e.g. `3 times`"
        case .negativeCount: return "a count cannot be negative"
        case .rangeWithoutAnd: return "expected 'and' and the end: `between 2.0s and 2.5s`"
        case .timeRangeEndsFirst: return "the range ends before it starts"
        case .timeAndRange: return "give a time or a range (between, before, after), not both"
        case .answerNotADate(let word): return "expected a time (0.300), nil, none or distantFuture, not '\(word)'"
        case .answerNotBool(let word): return "the answer is true or false, not '\(word)'"

        // Ordered performs
        case .negativeOrder: return "an order is an NSUInteger: 0 or more"
        case .orderedPerformFromOutside:
            return "perform … order from outside: an `at` block has no run loop of its own; let a thread perform it"
        case .cancelPerformsWithoutTarget: return "expected 'target' and a name: `cancelPerforms target str`"

        // A custom source's callouts and command queue
        case .portHasNoCallouts:
            return "a port has no schedule or cancel callout (CF calls them for version-0 sources only)"
        case .commandCapacity(let value):
            return "a command queue holds 1 to \(SourceCallouts.maxCommandCapacity) commands, not \(value)"
        case .postWithoutTo: return "expected 'to' and a source: `post addItem to inputSource`"

        // Dispatch queues
        case .cancelOfBlock(let name, let queue):
            return "'\(name)' is a block submitted with `async` to dispatch queue '\(queue)': dispatch_async returns "
                + "nothing to cancel it with, so once submitted it runs; submit a DispatchWorkItem to cancel it "
                + "before it starts (`async workItem \(name) on \(queue) …`)"
        case .operationOnDispatchQueue(let queue):
            return
                "'\(queue)' is a dispatch queue: it takes blocks, not operations; expected `async NAME on \(queue) work "
                + "20ms`"
        case .asyncOnOperationQueue(let queue):
            return "'\(queue)' is an operation queue: `async` submits to a dispatch queue (`queue \(queue) dispatch`); "
                + "expected `operation NAME on \(queue) work 20ms`"
        case .notForDispatchQueue(let words, let queue):
            return "`\(words)` is for operation queues; '\(queue)' is a dispatch queue (not modelled for one)"
        case .clauseWithDispatch(let clause):
            return "'\(clause)' is for operation queues; a dispatch queue is serial (one block at a time) or concurrent"
        case .finishOfBlock(let name):
            return
                "'\(name)' is a block on a dispatch queue, so it finishes by itself; `finish` needs an operation added "
                + "with `operation … async`"
        case .asyncWithoutOn(let name): return "expected 'on' and a dispatch queue: `async \(name) on QUEUE work 20ms`"
        case .asyncWithoutWork: return "expected what the block does: `work DURATION`, e.g. `async b on gcd work 20ms`"

        // Delayed performs
        case .performWithoutOrderOrDelay:
            return
                "expected 'order' and a number or 'afterDelay' and a delay: `perform a order 10`, `perform a afterDelay 20ms`"
        case .delayedPerformFromOutside:
            return
                "perform … afterDelay from outside: an `at` block has no run loop of its own; let a thread perform it"
        case .cancelPreviousFromOutside:
            return
                "cancelPrevious from outside: it cancels the current thread's requests, and an `at` block has no thread"
        case .itemOfTargetThread(let name, let thread):
            return
                "'\(name)' is an item of \(thread); `on \(thread)` hands that loop an item of this thread (in "
                + "\(thread)'s own program, write `add \(name) to …`)"
        }
    }

    /// `; did you mean 'WORD'?` when `word` looks like a typo of one of `known` (``EditDistance``), else nothing.
    static func didYouMean(_ word: String, among known: some Sequence<String>) -> DiagnosticMessage {
        guard let guess = EditDistance.nearest(to: word, among: known) else { return "" }
        return "; did you mean '\(guess)'?"
    }

    /// The units a duration takes.
    static let unitWords = ["ns", "us", "ms", "s", "m", "min"]
    /// The words an observer's `on` takes.
    static let activityWords = LoopEvent.Kind.activities.map(\.rawValue) + ["all"]
    /// What an `expect` line (or a `say … after`) may name: every kind of event (`query` among them) and
    /// `returned`.
    static let eventWords = LoopEvent.Kind.allCases.map(\.rawValue) + ["returned"]

    /// The priorities an operation may have, as `priority` takes them.
    static let priorityWords = "veryLow, low, normal, high or veryHigh"

    /// Names for a hint: each shown safely, at most 8 of them, then how many more.
    static func nameList(_ names: some Collection<String>) -> DiagnosticMessage {
        var list: DiagnosticMessage = ""
        for (index, name) in names.prefix(8).enumerated() {
            list += index == 0 ? "" : ", "
            list = "\(list)\(name)"
        }
        if names.count > 8 { list += ", … (\(names.count - 8) more)" }
        return list
    }

    /// The operations an unknown one may have meant: the first 8 added, or how to add one.
    static func knownOperations(_ names: [String]) -> DiagnosticMessage {
        guard !names.isEmpty else {
            return "no operation is added anywhere; add one with `operation NAME on QUEUE work 20ms`"
        }
        var shown: DiagnosticMessage = ""
        for (index, name) in names.prefix(8).enumerated() {
            shown = "\(shown)\(index == 0 ? "" : ", ")\(name)"
        }
        return "known: \(shown)" + (names.count > 8 ? ", …" : "")
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }
}
