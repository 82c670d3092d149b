import LoopEngine

/// `hangs --detector NAMES [--common-modes MODES]`: which SDKs' detectors to replay, set as asked.
extension HangsCommand {
    /// The replays asked for, in the order named (`all`: every detector), each set with `threshold` where its SDK
    /// accepts one; none without `--detector`.
    static func detectors(
        _ scanner: ArgumentScanner, threshold: Duration?
    ) throws(CommandLineProblem) -> [HangDetector
        .Replay]
    {
        let modesText = scanner.value("--common-modes")
        guard let text = scanner.value("--detector") else {
            if modesText != nil { throw .goesWith(option: "--common-modes", other: "--detector") }
            return []
        }
        var chosen: [HangDetector] = []
        for name in text.split(separator: ",", omittingEmptySubsequences: false) {
            let word = String(name.filter { $0 != " " })
            if word == "all" {
                chosen += HangDetector.allCases.filter { !chosen.contains($0) }
            } else if let detector = HangDetector(rawValue: word) {
                if !chosen.contains(detector) { chosen.append(detector) }
            } else {
                throw .notAChoice(word, option: "--detector", expected: HangDetector.allCases.map(\.rawValue) + ["all"])
            }
        }
        var modes = HangDetector.defaultCommonModes
        if let modesText {
            modes = Set(modesText.split(separator: ",").map { String($0.filter { $0 != " " }) })
            modes.remove("")
            guard !modes.isEmpty, modes.count <= 1_000 else {
                throw .notAChoice(modesText, option: "--common-modes", expected: ["MODE[,MODE…] (1 to 1000 names)"])
            }
        }
        return chosen.map { HangDetector.Replay($0, settings: $0.settings(threshold: threshold, commonModes: modes)) }
    }
}
