import LoopEngine
import Testing

@testable import loopviz

@Suite("The differential fuzzer's generator, printer and shrinker")
struct FuzzGeneratorTests {
    @Test("every generated scenario prints as .loop text that parses back to the same scenario")
    func roundTrip() throws {
        var failures: [String] = []
        for index in 0..<500 {
            var generator = FuzzGenerator(seed: SplitMix64.caseSeed(7, index), maxItems: 6)
            let scenario = generator.scenario(name: "fuzz seed 7 case \(index)")
            do {
                let parsed = try ScenarioParser.parse(scenario.loopText).scenario
                if parsed != scenario { failures.append("case \(index) parses differently:\n\(scenario.loopText)") }
            } catch {
                failures.append("case \(index) does not parse:\n\(scenario.loopText)\n\(error)")
            }
        }
        #expect(failures.isEmpty, "\(failures.count) of 500:\n\(failures.prefix(1).joined(separator: "\n\n"))")
    }
}
