import LoopEngine

/// `hangs --detector NAMES [--common-modes MODES]`: which SDKs' detectors to replay, set as asked.
extension HangsCommand {
    /// What `--detector` and `--common-modes` asked for.
    struct DetectorChoice {
        var detectors: [HangDetector]
        /// Nil: the default (a scenario's own common modes, or ``HangDetector/defaultCommonModes`` for a trace).
        var commonModes: Set<String>?

        /// The replays, each set with `threshold` where its SDK accepts one, watching `loop` (nil: `main` or the
        /// first loop) with `modes` as the common modes unless the user named them.
        func replays(threshold: Duration?, loop: String?, modes: Set<String>) -> [HangDetector.Replay] {
            let common = commonModes ?? modes
            return detectors.map {
                HangDetector.Replay(
                    $0, settings: $0.settings(threshold: threshold, commonModes: common), watching: loop)
            }
        }
    }

    /// The detectors asked for, in the order named (`all`: every one); none without `--detector`.
    static func detectorChoice(_ scanner: ArgumentScanner) throws(CommandLineProblem) -> DetectorChoice {
        let modesText = scanner.value("--common-modes")
        guard let text = scanner.value("--detector") else {
            if modesText != nil { throw .goesWith(option: "--common-modes", other: "--detector") }
            return DetectorChoice(detectors: [], commonModes: nil)
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
        var modes: Set<String>?
        if let modesText {
            var names = Set(modesText.split(separator: ",").map { String($0.filter { $0 != " " }) })
            names.remove("")
            guard !names.isEmpty, names.count <= 1_000 else {
                throw .notAChoice(modesText, option: "--common-modes", expected: ["MODE[,MODE…] (1 to 1000 names)"])
            }
            modes = names
        }
        return DetectorChoice(detectors: chosen, commonModes: modes)
    }
}
