import Foundation
import SnapshotSupport
import Testing

/// The deterministic suite stays deterministic: LoopEngineTests and loopvizTests run on the virtual clock, so they
/// never sleep, never run the real CFRunLoop, Foundation's OperationQueue or the real backend, and need no
/// real-time gate. Whatever does belongs in RealTimeJudgeTests, which `swift test --skip RealTimeJudgeTests`
/// leaves out (CONTRIBUTING.md, "The test suites").
@Suite("the deterministic suite has no real time")
struct DeterministicSuiteTests {
    static let targets = ["LoopEngineTests", "loopvizTests"]

    /// A wait on the wall clock, or a way into real time: the oracles, the real CFRunLoop (CoreFoundation) or
    /// Foundation's OperationQueue, the real backend, a real-time gate. Written in pieces, so that this file does
    /// not match itself.
    static let realTime = try! NSRegularExpression(
        pattern: [
            #"\b(u|nano)"# + #"sleep\("#, #"Thread\.s"# + #"leep"#, #"Task\.s"# + #"leep"#,
            #"\bimport Loop"# + #"Oracle\b"#, #"\bReal"# + #"TimeGate\b"#, #"\bReal"# + #"Harness\("#,
            #"\bEpoll"# + #"Waiter\("#, #"\bLoop"# + #"Thread\("#, #"\bMonotonic"# + #"Clock\("#,
            #"\bRealScenario"# + #"Runner\.run\("#, #"\b(CF|FoundationPool|Fuzz)"# + #"Oracle\b"#,
            #"\bimport Core"# + #"Foundation\b"#, #"\bOperation"# + #"Queue\("#,
        ].joined(separator: "|"))

    static func sources(of target: String) -> [URL] {
        let folder = Snapshot.packageRoot.appendingPathComponent("Tests/\(target)")
        return FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)!
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
    }

    @Test("no source of the deterministic targets sleeps or reaches real time", arguments: targets)
    func noRealTime(target: String) throws {
        let files = Self.sources(of: target)
        #expect(files.count > 20)
        var offenders: [String] = []
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let string = String(line)
                let range = NSRange(string.startIndex..., in: string)
                if Self.realTime.firstMatch(in: string, range: range) != nil {
                    offenders.append("\(file.lastPathComponent):\(number + 1): \(string)")
                }
            }
        }
        #expect(offenders.isEmpty, "move these to RealTimeJudgeTests:\n\(offenders.joined(separator: "\n"))")
    }

    @Test("the deterministic test targets do not depend on LoopOracle", arguments: targets)
    func noOracleDependency(target: String) throws {
        let manifest = try String(
            contentsOf: Snapshot.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        let start = try #require(manifest.range(of: "name: \"\(target)\""))
        let declaration = manifest[start.upperBound...].prefix { $0 != ")" }
        #expect(declaration.contains("dependencies:"), "\(declaration)")
        #expect(!declaration.contains("\"LoopOracle\""), "\(declaration)")
    }
}
