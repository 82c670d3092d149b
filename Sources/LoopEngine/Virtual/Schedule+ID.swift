/// A schedule's id: what `loopviz explore` prints and `loopviz run --schedule ID` reads back. Only the branch points
/// where it leaves the default are written, `BRANCH:OPTION` separated by commas (`3:1,7:2`: option 1 at branch
/// point 3, option 2 at branch point 7); the default schedule is `default`.
extension Schedule {
    package var id: String {
        guard !isDefault else { return "default" }
        return choices.indices.filter { choices[$0] != 0 }.map { "\($0):\(choices[$0])" }.joined(separator: ",")
    }

    /// The schedule an id names; nil when it is not one (a branch point past `maximumBranchPoints`, one named
    /// twice, an option that is not a number).
    package init?(id: String) {
        if id == "default" {
            self = .default
            return
        }
        var choices: [Int] = []
        for pair in id.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = pair.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, let branch = Int(parts[0]), let option = Int(parts[1]),
                (0..<Self.maximumBranchPoints).contains(branch), (1...ThreadLimit.maximumThreads).contains(option),
                branch >= choices.count
            else { return nil }
            choices += Array(repeating: 0, count: branch - choices.count) + [option]
        }
        self.init(choices: choices)
    }
}
