import Foundation
import LoopEngine
import SnapshotSupport
import Testing

/// The lessons and the ported tests run empty modes and modes nobody runs only on purpose, in ways the lint
/// recognises: none of them has a warning (CI checks them with `check --strict`).
@Suite("the lessons and the ported tests have no lint warning")
struct LessonLintTests {
    static func files(_ folder: String) -> [URL] {
        let url = Snapshot.packageRoot.appendingPathComponent(folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return names.filter { $0.hasSuffix(".loop") }.sorted().map { url.appendingPathComponent($0) }
    }

    @Test("every file of examples/ and conformance/ parses with no warning", arguments: ["examples", "conformance"])
    func noWarnings(_ folder: String) throws {
        let files = Self.files(folder)
        #expect(files.count > 10)
        for file in files {
            let script = try ScenarioParser.parse(
                String(contentsOf: file, encoding: .utf8), file: file.lastPathComponent)
            #expect(script.warnings.map(\.description) == [], "\(file.lastPathComponent)")
        }
    }
}
