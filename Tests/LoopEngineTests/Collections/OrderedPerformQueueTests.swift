import Testing

@testable import LoopEngine

/// The queued ordered performs against the array they replaced: the old code's algorithms, run on the same
/// requests, give the same requests in the same order, and the same modes for the timer.
@Suite("OrderedPerformQueue: ordered performs indexed by mode, in the list's order")
struct OrderedPerformQueueTests {
    /// The array the core used to keep, with its insert, its firing and its re-arming, as they were.
    struct ArrayModel {
        var requests: [OrderedPerform] = []

        mutating func append(_ request: OrderedPerform) {
            let index = requests.firstIndex { $0.order > request.order } ?? requests.endIndex
            requests.insert(request, at: index)
        }

        mutating func takeDue(in mode: ModeName, commonModes: [ModeName]) -> [OrderedPerform] {
            var due: [OrderedPerform] = []
            var kept: [OrderedPerform] = []
            for request in requests {
                if request.modes.contains(where: { $0 == mode || ($0 == .common && commonModes.contains(mode)) }) {
                    due.append(request)
                } else {
                    kept.append(request)
                }
            }
            requests = kept
            return due
        }

        mutating func removeAll(target: String, task: String?) -> Int {
            let before = requests.count
            requests.removeAll { $0.target == target && (task == nil || $0.task == task) }
            return before - requests.count
        }

        var modes: [ModeName] {
            var modes: [ModeName] = []
            for request in requests {
                for mode in request.modes where !modes.contains(mode) { modes.append(mode) }
            }
            return modes
        }
    }

    static let modeNames: [ModeName] = [.default, .common, "A", "B", "C"]

    @Test("random queueing, firing in a mode and cancelling agree with the array, step by step", arguments: 1...20)
    func agreesWithTheArray(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var queue = OrderedPerformQueue()
        var model = ArrayModel()
        let commonModes: [ModeName] = [.default, "A"]
        for step in 0..<400 {
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<6:
                var modes: [ModeName] = []
                for _ in 0..<Int.random(in: 1...3, using: &random) {
                    modes.append(Self.modeNames.randomElement(using: &random)!)
                }
                let request = OrderedPerform(
                    task: "t\(Int.random(in: 0..<3, using: &random))",
                    target: "x\(Int.random(in: 0..<3, using: &random))",
                    order: Int.random(in: 0..<4, using: &random), modes: modes, action: {})
                queue.append(request)
                model.append(request)
            case 6..<9:
                let mode = [ModeName.default, "A", "B", "C"].randomElement(using: &random)!
                let got = queue.takeDue(in: mode, isCommon: commonModes.contains(mode))
                let expected = model.takeDue(in: mode, commonModes: commonModes)
                #expect(got.map(\.description) == expected.map(\.description), "step \(step): due in \(mode)")
            default:
                let target = "x\(Int.random(in: 0..<3, using: &random))"
                let task: String? = Bool.random(using: &random) ? nil : "t\(Int.random(in: 0..<3, using: &random))"
                #expect(
                    queue.removeAll(target: target, task: task) == model.removeAll(target: target, task: task),
                    "step \(step): cancelled")
            }
            #expect(queue.count == model.requests.count, "step \(step): count")
            #expect(queue.modesInListOrder() == model.modes, "step \(step): the timer's modes")
        }
    }

    @Test("requests for a mode that never runs are not looked at: taking another mode's costs what it holds")
    func otherModesCostNothing() {
        var queue = OrderedPerformQueue()
        for index in 0..<50_000 {
            queue.append(OrderedPerform(task: "b\(index)", target: "x", order: 1, modes: ["Other"], action: {}))
            queue.append(OrderedPerform(task: "a\(index)", target: "x", order: 1, modes: [.default], action: {}))
            let due = queue.takeDue(in: .default, isCommon: false)
            #expect(due.map(\.task) == ["a\(index)"])
        }
        #expect(queue.count == 50_000)
        #expect(queue.modesInListOrder() == ["Other"])
    }
}

extension OrderedPerform: CustomStringConvertible {
    /// The request as the test compares it: every field but the action.
    public var description: String { "\(task) \(target) \(order) \(modes)" }
}
