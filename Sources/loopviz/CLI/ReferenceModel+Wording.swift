import LoopEngine

/// The words `compare` gives a ``ReferenceModel``: what a comparison that relies on loopviz's model of
/// Foundation has checked, said under its verdict.
extension ReferenceModel {
    /// The Foundation API the oracle builds on CF.
    var foundationName: String {
        switch self {
        case .performOnThread: "performSelector:onThread:"
        case .orderedPerform: "performSelector:target:argument:order:modes:"
        case .delayedPerform: "performSelector:withObject:afterDelay:"
        }
    }

    /// The line under a verdict that relies on `models`; nil when there are none.
    static func verdictNote(_ models: [ReferenceModel]) -> String? {
        let names = models.map(\.foundationName)
        guard let last = names.last else { return nil }
        let list = names.count == 1 ? last : names.dropLast().joined(separator: ", ") + " and " + last
        let them = models.count == 1 ? "it" : "them"
        return "  \(list) checked against loopviz's model of Foundation, not the real thing "
            + "(Linux Foundation lacks \(them): the oracle builds \(them) on the real CFRunLoop)"
    }
}
