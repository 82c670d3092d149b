/// A problem the parser finds in a `.loop` file, as data: what is wrong and the values it concerns, without its
/// wording. A ``ScenarioDiagnostic`` carries one with its file, line and column; `ScenarioProblem+Wording.swift`
/// is the one place that turns each case into the text users see, and docs/language.md lists every one of them
/// (its "Errors" section).
///
/// To add a diagnostic:
/// 1. add a case here, named for the problem (`unknownPriority`, not `error42`), with the values from the file it
///    quotes as payloads (names as `String`, counts as `Int`, modes as ``ModeName``);
/// 2. word it in `message` (ScenarioProblem+Wording.swift): the compiler asks for the case there;
/// 3. report it where it is found: `error(line, at: token, .yourCase(token.text))`; a word, name, number or
///    duration the line lacks is `expectWord(&cursor, what: .yourPlace)` with a new case of ``Expected`` (its
///    phrase in the same wording file, and a file that reaches it in `ScenarioExpectedTests`);
/// 4. add its row to the error catalogue of docs/language.md and a sample to `ScenarioProblemCatalogueTests`
///    (which fails until both are there), and a case to the parser error tests that produces it.
package enum ScenarioProblem: Equatable, Sendable {
    // MARK: Reading the file

    /// A run of bytes that are not UTF-8: the first (at most 4) of them, and how many.
    case invalidUTF8(firstBytes: [UInt8], count: Int)
    case tabIndentation
    case unterminatedString
    case notANumber(String)
    /// A run of characters that cannot start a token (at most ``DiagnosticMessage/maxQuoted`` + 1 of them), and
    /// how long the run is.
    case unexpectedCharacters(String, count: Int)
    case firstLineIndented
    case indentedWithoutBlock
    case indentationMismatch(expected: Int)
    /// The first line of a block is indented `found` spaces, the next ones (as most lines of the file) `expected`.
    case indentationOff(found: Int, expected: Int)
    case nestedTooDeep(limit: Int)
    /// Lines indented under a line that takes no block (`what` is its keyword, or what it is).
    case takesNoBlock(String)
    case unexpectedAtEndOfLine(String)
    /// A word, name, number, duration or string is missing: which one, at which place in the grammar.
    case expected(Expected)

    // MARK: Words, numbers, durations and modes

    case negativeDuration
    case durationWithoutUnit(String)
    /// A number, a space, then a unit (`300 ms`).
    case spaceBeforeUnit(String, unit: String)
    case unknownUnit(String, in: String)
    case durationTooLong(String)
    case commonNotAllowed
    case modeListedTwice(ModeName)
    case unknownActivity(String)
    /// A clause given twice (of an item, a queue, an operation or an expected step).
    case givenTwice(String)

    // MARK: The top level

    case unknownTopLevel(found: String)
    case scenarioAlreadyNamed
    case unknownProfile(String)
    case iterationCostAlreadyGiven
    case iterationWithoutCost
    case iterationCostTooHigh
    case noThread
    case severalMainThreads
    case outsideEventWithoutThread
    /// `say` or `ask` without `at` or `after`.
    case missingAnchor(AnchoredLine)
    case stepsCountedFromOne
    case unknownLanguage(String)
    case translationWithoutOriginal(Language)
    case choicesNotClosed
    case tooManyChoices(count: Int, limit: Int)
    /// A line under a `say` that is not `claims …` (`found`: its first word).
    case notAClaim(found: String)
    /// `claims` followed by a word other than `next`, `later` or `earlier`.
    case unknownClaimReach(String)
    /// `claims next` with a count or `never`: it names one event, the next of its kind.
    case countInNextClaim

    // MARK: Threads and items

    case duplicateThread(String)
    case threadWithoutContent(String)
    /// `async` on a thread not marked `main`: only the main thread runs an async `main`.
    case asyncWithoutMain
    case duplicateItem(String, thread: String)
    case keywordAsName(String)
    /// A clause the item does not take: the item's keyword, the clauses it may still take, and whether it was
    /// given modes (then a hint on separating them).
    case unexpectedItemClause(String, item: String, stillAllowed: [String], modesGiven: Bool)
    case timerWithoutFirstFire(String)
    /// A `timer … foundation …` line that is not one of Foundation's two conveniences as the language writes them.
    case foundationTimerForm
    case observerWithoutActivities(String)

    // MARK: Callouts and actions

    case unknownCondition
    case callsCountedFromOne
    case callsWordMissing
    case activityConditionOutsideObserver
    case actionMissingAfterColon
    case unknownAction(String)
    case sendNoMessage
    case sendTimesMissing
    case wakeWithoutUp
    /// `add X` or `remove X` without `to` or `from` (the preposition) and a mode.
    case modePrepositionMissing(String)
    case rescheduleWithoutIn
    case mainQueueWithoutMainThread
    /// `await` anywhere but directly in a `mainactor` body.
    case awaitOutsideTask
    /// `await` without `yield` or `sleep`.
    case awaitWithoutWhat
    case performWithoutOn
    case performFromOutside
    case runFromOutside
    case queryUnknownQuestion
    case queryContainsWithoutIn
    case runWithoutFor(ModeName)
    case runUntilInOtherMode(ModeName)
    case runLoopRunWithoutBefore
    case acceptInputWithoutBefore
    case expectedDate
    /// `nil` as a Foundation date: Swift's run calls take a `Date`, not an optional.
    case nilDate
    /// A condition not followed by `and` or the word that ends it.
    case conditionNotEnded(String)
    case ifWithoutBlock

    // MARK: Owners and threads started later

    case ownerNameWithDot
    case ownerNameTaken(String)
    /// An owner not declared; `known` are the owners that are.
    case unknownOwner(String, known: [String])
    case ownerPropertyExpected(owner: String)
    case ownerInCondition(String)
    case ownerAssigned(String)
    case threadNotLater(String)

    // MARK: The thread pool

    case unexpectedQueueClause(String)
    case duplicateQueue(String, firstLine: Int)
    case queueNamedLikeThread(String)
    /// A limit that is neither a whole number nor `default`; what was found instead, if anything.
    case badLimit(found: String?)
    case cancelAllWithoutOn
    case waitWithoutFor
    case operationNamedAll
    case operationWithoutOn(String)
    case unexpectedOperationClause(String)
    case checkOutOfPlace
    case replyOutOfPlace
    case unknownPriority(String)
    case workAndAsync
    case operationWithoutBody(String)
    case checkWithoutEvery
    case checkIntervalNotPositive
    case replyWithoutAfter
    case duplicateOperation(String, firstLine: Int)
    case badRange(String)
    case rangeEndsFirst(String, first: Int)
    case rangeTooLong(String, count: Int, limit: Int)
    case tooManyRangeNames(limit: Int)
    case tooManyModes(limit: Int)
    case finishNotAsync(String)
    case waitsForItself(String)
    /// Operations that wait for each other: the cycle, its first operation repeated at the end.
    case dependencyCycle([String])

    // MARK: Checked once the whole file is read

    /// An item the thread does not have; `known` are the names it has (sorted).
    case unknownItem(String, thread: String, known: [String])
    /// An item of the wrong kind: what it is and what the action needs.
    case wrongItemKind(String, is: ScenarioItemKind, needed: Expected, allowed: Set<ScenarioItemKind>)
    /// A thread the file does not have; `known` are the names that may be used there.
    case unknownThread(String, known: [String])
    /// A queue not declared; `known` are those that are.
    case unknownQueue(String, known: [String])
    /// An operation not added anywhere; `known` are those added, in file order.
    case unknownOperation(String, known: [String])
    case flagNeverSet(String)
    /// An event pattern (`expect`, `say … after`, `claims`, `ask`) names an item no thread has; `known`: the items
    /// the file declares; `guess`: the one (or one the engine makes, `delayedPerform`) whose name is close.
    case unknownItemInPattern(String, known: [String], guess: String?)
    /// An event pattern names a mode the file never uses; `known`: the modes it does.
    case unknownModeInPattern(String, known: [String])
    /// A warning: a run enters a mode with nothing in it (so CF returns at once, `finished`); `guess`: a mode with
    /// items whose name is close.
    case runModeHasNoItems(ModeName, guess: String?)
    /// A warning: items are declared in or added to a mode no run enters; `guess`: a run mode whose name is close.
    case modeNeverRun(ModeName, item: String, guess: String?)

    // MARK: Expectations

    case unknownExpectSection
    case expectOrderMissing
    case emptyExpectSection
    case unknownEvent(String)
    case unknownResult(String)
    case returnedNotBool(String)
    case countOutsideClaims
    case neverWithCount
    /// `never` after the event (`timer t in M never`): the claim as it should be written, `never` first.
    case neverGoesFirst(String)
    case atWithoutMostOrLeast
    case timesMissing
    case negativeCount
    case rangeWithoutAnd
    case timeRangeEndsFirst
    case timeAndRange
    case answerNotADate(String)
    case answerNotBool(String)

    // MARK: Ordered performs

    case negativeOrder
    case orderedPerformFromOutside
    case cancelPerformsWithoutTarget

    // MARK: A custom source's callouts and command queue

    case portHasNoCallouts
    case commandCapacity(Int)
    case postWithoutTo

    // MARK: Dispatch queues

    case cancelOfBlock(String, queue: String)
    case operationOnDispatchQueue(String)
    case asyncOnOperationQueue(String)
    case notForDispatchQueue(String, queue: String)
    case clauseWithDispatch(String)
    case finishOfBlock(String)
    case asyncWithoutWork
    case asyncWithoutOn(String)

    // MARK: Delayed performs

    case performWithoutOrderOrDelay
    case delayedPerformFromOutside
    case cancelPreviousFromOutside
    // MARK: One item, two loops

    /// `add X to M on T` (or `remove`) naming an item of T, not of the acting thread: `on T` hands T's loop an
    /// item of the acting thread.
    case itemOfTargetThread(String, thread: String)
}

extension ScenarioProblem {
    /// The lines tied to an event of the trace, whose missing anchor is explained with an example of each.
    package enum AnchoredLine: Equatable, Sendable {
        case say
        case ask
    }
}

/// What an item of a thread is, as the parser tells them apart.
package enum ScenarioItemKind: String, Sendable {
    case source0 = "version-0 source"
    case port
    case timer
    case observer
}
