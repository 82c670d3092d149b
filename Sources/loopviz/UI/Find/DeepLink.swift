/// A link to one step of a lesson or a recording: `loopviz FILE@N` (or `loopviz FILE --step N`) opens the UI, and
/// `loopviz screen` draws the screen, at event N. `y` in the UI shows the link of the step on screen.
struct DeepLink: Equatable {
    var path: String?
    var step: Int
    /// The event budget the file needs, when it is more than the default (a long recording's).
    var maxEvents: Int?

    /// `FILE@N` read as a link: only when FILE@N itself is not a file (`exists` says) and FILE is one, so a file
    /// whose name ends in `@12` still opens as itself.
    init?(_ argument: String, exists: (String) -> Bool) {
        guard let at = argument.lastIndex(of: "@"), at != argument.startIndex, !exists(argument) else { return nil }
        let digits = argument[argument.index(after: at)...]
        guard !digits.isEmpty, digits.count <= 12, digits.allSatisfy(\.isASCII), let step = Int(digits), step >= 0
        else { return nil }
        let path = String(argument[..<at])
        guard exists(path) else { return nil }
        self.path = path
        self.step = step
    }

    init(path: String?, step: Int, maxEvents: Int? = nil) {
        self.path = path
        self.step = step
        self.maxEvents = maxEvents
    }

    /// The command line that opens this step: `FILE@N` when the path needs no quoting in a shell, else the path
    /// quoted and `--step N`; the built-in lesson has no path.
    var command: String {
        guard let path else { return "loopviz --step \(step)" }
        let plain = path.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII
                && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                    || "._/-+,".unicodeScalars.contains(scalar))
        }
        let budget = maxEvents.map { " \(EventBudget.option) \($0)" } ?? ""
        if plain && !path.hasPrefix("-") { return "loopviz \(path)@\(step)" + budget }
        let quoted = "'" + path.replacing("'", with: "'\\''") + "'"
        return "loopviz \(quoted) --step \(step)" + budget
    }
}
