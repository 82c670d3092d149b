import LoopEngine

/// A fuzz case (a typed ``Scenario``) as `.loop` text, so that it can be saved, read and replayed by every other
/// command: the language's one printer (`LoopScriptPrinter`, next to the parser) writes it, so that
/// `ScenarioParser.parse(loopText)` gives the same scenario back (FuzzGeneratorTests checks the round trip).
extension Scenario {
    var loopText: String { LoopScriptPrinter.text(of: self) }
}
