/// A Foundation feature a scenario uses that Linux Foundation lacks, so the CF oracle builds it on CFRunLoop as
/// loopviz models Darwin's Foundation (LoopOracle's `OracleHost+Perform.swift`, `+Selector.swift`,
/// `+DelayedPerform.swift`). The run loop underneath is the real one, but agreement on the feature itself is
/// agreement with loopviz's model of Foundation, not with the real thing: `compare` says so (worded by its
/// formatter, `ReferenceModel+Wording.swift`).
package enum ReferenceModel: Sendable, Hashable, CaseIterable {
    /// `performSelector:onThread:withObject:waitUntilDone:` (`perform TASK on THREAD [wait]`).
    case performOnThread
    /// `performSelector:target:argument:order:modes:` and its cancels (`perform TASK order N`, `cancelPerform`).
    case orderedPerform
    /// `performSelector:withObject:afterDelay:inModes:` and its cancels (`perform TASK afterDelay D`,
    /// `cancelPrevious`).
    case delayedPerform

    /// The models a comparison of `scenario` with the real CFRunLoop relies on, in this enum's order; empty when
    /// everything it does is the real CF's or Foundation's own.
    package static func models(in scenario: Scenario) -> [ReferenceModel] {
        var found: Set<ReferenceModel> = []
        var lists = scenario.actionLists()
        for thread in scenario.threads {
            for item in thread.items {
                lists.append(item.sourceCallouts.schedule.map(\.action))
                lists.append(item.sourceCallouts.cancel.map(\.action))
            }
        }
        for list in lists {
            Action.forEach(in: list) { action in
                if let model = model(of: action) { found.insert(model) }
            }
        }
        return allCases.filter(found.contains)
    }

    private static func model(of action: Action) -> ReferenceModel? {
        switch action {
        case .performOn: .performOnThread
        case .performOrdered, .cancelPerforms: .orderedPerform
        case .performDelayed, .cancelDelayedPerforms: .delayedPerform
        default: nil
        }
    }
}
