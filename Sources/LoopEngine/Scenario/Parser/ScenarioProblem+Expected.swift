extension ScenarioProblem {
    /// What the parser looked for where a line lacks it: one case per place in the grammar that takes a word, a
    /// name, a number, a duration or a string (the payload of ``ScenarioProblem/expected(_:)``), and what an item
    /// named by an action must be (of ``ScenarioProblem/wrongItemKind(_:is:needed:allowed:)``). Worded in
    /// ScenarioProblem+Wording.swift like every problem, so no parser call site holds text: a new place in the
    /// grammar gets a case here, its phrase there, and its row in docs/language.md's error catalogue
    /// (`ScenarioProblemCatalogueTests` samples every case).
    package enum Expected: CaseIterable, Equatable, Sendable {
        // MARK: The top level, narration and questions
        case scenarioTitle
        case profile
        case runLength
        case timeSinceStart
        case addressedThread
        case iterationCost
        case sayText
        case narrationText
        case stepNumber
        case questionText
        case claimReach

        // MARK: Threads and items
        case threadName
        case source0Name
        case portName
        case timerName
        case observerName
        case itemOrder
        case firstFire
        case repeatInterval
        case tolerance
        case commandCapacity
        case modeName
        case activity

        // MARK: Conditions and actions
        case callNumber
        case callCount
        case workDuration
        case source0OrPort
        case source0
        case port
        case timer
        case item
        case rescheduleDelay
        case blockName
        case mainQueueBlockName
        case mainActorTaskName
        case asyncAfterDelay
        case asyncAfterBlockName
        case sleepDuration
        case taskName
        case performThread
        case runTimeLimit
        case dateSinceStart
        case threadToStart
        case loopThread
        case portThread
        case wakeupThread
        case commandName
        case targetName
        case performOrder
        case cancelledPerformTask
        case performDelay
        case cancelledPreviousTask
        case cancelPreviousSubject

        // MARK: Owners and flags
        case ownerName
        case weakReferenceName
        case assignedFlag
        case deallocatedOwner
        case conditionTerm

        // MARK: Queues and operations
        case queueName
        case idleLifetime
        case queueToCancel
        case operationToCancel
        case operationToFinish
        case queueToSuspend
        case queueToResume
        case queueToLimit
        case queueToWaitFor
        case detachedTask
        case operationName
        case queueToAddTo
        case priority
        case dependency
        case replyDelay
        case operationWork
        case checkInterval

        // MARK: Dispatch queues
        case dispatchBlockName
        case dispatchQueue
        case blockWork

        // MARK: Expected steps and answers
        case event
        case returnedValue
        case rangeStart
        case rangeEnd
        case timeBefore
        case timeAfter
        case count
        case modeAnswer
        case dateAnswer
        case flagAnswer
    }
}

extension ScenarioProblem.Expected {
    /// The name (or range of names) an item line starts with, for the item `kind`.
    static func name(of kind: ScenarioItemKind) -> Self {
        switch kind {
        case .source0: .source0Name
        case .port: .portName
        case .timer: .timerName
        case .observer: .observerName
        }
    }
}
