import LoopEngine
import Testing

/// Every ``ScenarioProblem/Expected`` case is a place in the grammar a file can reach: one short file per case
/// that lacks what the case names there (and so docs/language.md's table of them says where each arises).
@Suite("every place that expects a word is reached by a file that lacks it")
struct ScenarioExpectedTests {
    struct Sample: Sendable, CustomTestStringConvertible {
        var expected: ScenarioProblem.Expected
        var source: String
        init(_ expected: ScenarioProblem.Expected, _ source: String) {
            self.expected = expected
            self.source = source
        }
        var testDescription: String { "\(expected)" }
    }

    static let samples: [Sample] = [
        .init(.scenarioTitle, "scenario"),
        .init(.profile, "profile"),
        .init(.runLength, "until"),
        .init(.timeSinceStart, "at"),
        .init(.addressedThread, "at 1s on"),
        .init(.iterationCost, "iteration cost"),
        .init(.sayText, "thread T\n  say"),
        .init(.narrationText, "say"),
        .init(.stepNumber, "say \"hi\" at step"),
        .init(.questionText, "ask"),
        .init(.claimReach, "thread T\n  port p\n  run default for 1s\nsay \"hi\" after sleep\n  claims"),
        .init(.threadName, "thread"),
        .init(.source0Name, "thread T\n  source0"),
        .init(.portName, "thread T\n  port"),
        .init(.timerName, "thread T\n  timer"),
        .init(.observerName, "thread T\n  observer"),
        .init(.itemOrder, "thread T\n  observer o on all order"),
        .init(.firstFire, "thread T\n  timer t at"),
        .init(.repeatInterval, "thread T\n  timer t at 1ms every"),
        .init(.tolerance, "thread T\n  timer t at 1ms tolerance"),
        .init(.commandCapacity, "thread T\n  source0 s commands"),
        .init(.modeName, "thread T\n  port p in"),
        .init(.activity, "thread T\n  observer o on"),
        .init(.callNumber, "thread T\n  source0 s\n    call:\n      wakeup"),
        .init(.callCount, "thread T\n  source0 s\n    first calls:\n      wakeup"),
        .init(.workDuration, "thread T\n  work"),
        .init(.source0OrPort, "thread T\n  signal"),
        .init(.port, "thread T\n  send"),
        .init(.timer, "thread T\n  reschedule"),
        .init(.item, "thread T\n  invalidate"),
        .init(.source0, "thread T\n  post cmd to"),
        .init(.rescheduleDelay, "thread T\n  timer t at 1ms\n  reschedule t in"),
        .init(.blockName, "thread T\n  block"),
        .init(.mainQueueBlockName, "thread T main\n  mainqueue"),
        .init(.mainActorTaskName, "thread T main\n  mainactor"),
        .init(.asyncAfterDelay, "thread T main\n  asyncafter"),
        .init(.asyncAfterBlockName, "thread T main\n  asyncafter 5ms"),
        .init(.sleepDuration, "thread T main\n  mainactor t\n    await sleep"),
        .init(.taskName, "thread T\n  perform"),
        .init(.performThread, "thread T\n  perform upload on"),
        .init(.runTimeLimit, "thread T\n  run default for"),
        .init(.dateSinceStart, "thread T\n  RunLoop.run default before at"),
        .init(.threadToStart, "thread T\n  start"),
        .init(.loopThread, "thread T\n  timer t at 10ms\n  add t to default on"),
        .init(.portThread, "thread T\n  port p\n  send p on"),
        .init(.wakeupThread, "thread T\n  wakeup on"),
        .init(.commandName, "thread T\n  post"),
        .init(.targetName, "thread T\n  perform a target"),
        .init(.performOrder, "thread T\n  perform a order"),
        .init(.cancelledPerformTask, "thread T\n  cancelPerform"),
        .init(.performDelay, "thread T\n  perform a afterDelay"),
        .init(.cancelledPreviousTask, "thread T\n  cancelPrevious 5"),
        .init(.cancelPreviousSubject, "thread T\n  cancelPrevious"),
        .init(.ownerName, "owner"),
        .init(.weakReferenceName, "owner vc weak"),
        .init(.assignedFlag, "thread T\n  set"),
        .init(.deallocatedOwner, "thread T\n  dealloc"),
        .init(.conditionTerm, "thread T\n  if"),
        .init(.queueName, "queue"),
        .init(.idleLifetime, "queue q idle"),
        .init(.queueToCancel, "queue q\nthread T\n  cancel all on"),
        .init(.operationToCancel, "queue q\nthread T\n  cancel"),
        .init(.operationToFinish, "queue q\nthread T\n  finish"),
        .init(.queueToSuspend, "queue q\nthread T\n  suspend"),
        .init(.queueToResume, "queue q\nthread T\n  resume"),
        .init(.queueToLimit, "queue q\nthread T\n  limit"),
        .init(.queueToWaitFor, "queue q\nthread T\n  wait for"),
        .init(.detachedTask, "thread T\n  detach"),
        .init(.operationName, "queue q\nthread T\n  operation"),
        .init(.queueToAddTo, "queue q\nthread T\n  operation a on"),
        .init(.priority, "queue q\nthread T\n  operation a on q priority"),
        .init(.dependency, "queue q\nthread T\n  operation a on q after"),
        .init(.replyDelay, "queue q\nthread T\n  operation a on q async reply after"),
        .init(.operationWork, "queue q\nthread T\n  operation a on q work"),
        .init(.checkInterval, "queue q\nthread T\n  operation a on q work 5ms check every"),
        .init(.dispatchBlockName, "queue q dispatch\nthread T\n  async"),
        .init(.dispatchQueue, "queue q dispatch\nthread T\n  async b on"),
        .init(.blockWork, "queue q dispatch\nthread T\n  async b on q work"),
        .init(.event, "thread T\n  wakeup\nexpect\n  0.1"),
        .init(.returnedValue, "thread T\n  wakeup\nexpect\n  returned"),
        .init(.rangeStart, "thread T\n  wakeup\nexpect\n  wake x between"),
        .init(.rangeEnd, "thread T\n  wakeup\nexpect\n  wake between 1s and"),
        .init(.timeBefore, "thread T\n  wakeup\nexpect\n  wake x before"),
        .init(.timeAfter, "thread T\n  wakeup\nexpect\n  wake x after"),
        .init(.count, "thread T\n  wakeup\nexpect\n  wake at most"),
        .init(.modeAnswer, "thread T\n  wakeup\nexpect\n  query currentMode is"),
        .init(.dateAnswer, "thread T\n  wakeup\nexpect\n  query limitDate default is"),
        .init(.flagAnswer, "thread T\n  wakeup\nexpect\n  query isWaiting is"),
    ]

    @Test("each case has a file that reaches it")
    func everyCaseHasAFile() {
        let reached = Set(Self.samples.map { "\($0.expected)" })
        let missing = ScenarioProblem.Expected.allCases.filter { !reached.contains("\($0)") }
        #expect(missing.isEmpty, "add a file to ScenarioExpectedTests.samples for: \(missing)")
    }

    @Test("the file reports what it lacks", arguments: samples)
    func reported(_ sample: Sample) {
        let found = ScenarioProblemTests.diagnostics(sample.source)
        #expect(
            found.contains { $0.problem == .expected(sample.expected) },
            "got: \(found.map { "\($0.line):\($0.column) \($0.message)" })")
    }
}
