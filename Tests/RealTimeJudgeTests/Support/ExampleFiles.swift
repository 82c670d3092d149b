import Foundation
import LoopEngine
import SnapshotSupport

/// The lessons in examples/, as the judges run them (the deterministic suite's `ExampleLessonTests` checks the same
/// files against their golden traces).
enum ExampleFiles {
    static let lessons: [String] = {
        let folder = Snapshot.packageRoot.appendingPathComponent("examples")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".loop") }.sorted()
    }()

    static func load(_ name: String) throws -> LoopScript {
        let url = Snapshot.packageRoot.appendingPathComponent("examples").appendingPathComponent(name)
        let text = try String(contentsOf: url, encoding: .utf8)
        return try ScenarioParser.parse(text, file: "examples/\(name)")
    }
}
