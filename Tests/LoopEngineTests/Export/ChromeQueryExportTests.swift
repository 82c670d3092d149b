import Foundation
import LoopEngine
import Testing

@Suite("Chrome trace export of queries")
struct ChromeQueryExportTests {
    @Test("a query is an instant named by its question and answer, in the query category")
    func queryIsAnInstant() throws {
        let script = try ScenarioParser.parse(
            "thread T\n  port K\n  query currentMode\n  query limitDate default\n", file: "t.loop")
        let events = ScenarioRunner.run(script.scenario).events
        let top = try ExportJSON.object(ChromeTraceFormatter.format(events, scenario: "queries"))
        let trace = try #require(top["traceEvents"] as? [[String: Any]])
        let queries = trace.filter { $0["cat"] as? String == "query" }
        #expect(
            queries.map { $0["name"] as? String } == [
                "query currentMode is nil", "query limitDate default is distantFuture",
            ])
        #expect(queries.allSatisfy { $0["ph"] as? String == "i" })
    }
}
