/// Which way the virtual world goes at each instant where several threads (or an outside event) could go on.
///
/// Real threads race: which of two things ready at the same moment happens first is the OS scheduler's choice,
/// not CF's. The virtual world is deterministic, so it makes that choice from a schedule: at its N-th branch point
/// (`ScheduleBranchPoint`) it takes option `choices[N]`, and option 0 (the default, what every run without a
/// schedule does) past the end. Option 0 is the order the world always used: the outside event due now, then the
/// threads in declaration order; so `default` leaves every trace as it was.
package struct Schedule: Hashable, Sendable {
    /// The option taken at each branch point, in order; trailing zeros are dropped, so equal schedules are equal.
    package private(set) var choices: [Int]

    /// At most this many branch points of a run are recorded and open to a choice; past them the world takes
    /// option 0 (`ScenarioRunner.Outcome.branchPointsCut` says so). Two threads spinning side by side meet at a
    /// branch point every iteration: without a bound a run could record millions.
    package static let maximumBranchPoints = 4_096

    /// The schedule every run takes unless told otherwise.
    package static let `default` = Schedule(choices: [])

    package init(choices: [Int]) {
        var trimmed = choices
        while trimmed.last == 0 { trimmed.removeLast() }
        self.choices = trimmed
    }

    /// The option taken at branch point `index`.
    package func choice(at index: Int) -> Int {
        index < choices.count ? choices[index] : 0
    }

    /// True for the schedule of a run given none.
    package var isDefault: Bool { choices.isEmpty }

    /// The first branch point where this schedule leaves the default; nil for the default.
    package var firstDeparture: Int? { choices.firstIndex { $0 != 0 } }
}
