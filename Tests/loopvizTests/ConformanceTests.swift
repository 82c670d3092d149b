import Foundation
import SnapshotSupport
import Testing

/// The peer tests ported into `conformance/` (swift-corelibs-foundation's and GNUstep's run-loop tests, each file
/// citing its test): `loopviz check` must pass every one, and `loopviz compare` must agree with the real CFRunLoop
/// on every one it can run here (a main-thread scenario is skipped, with the reason, until the oracle runs the
/// main thread).
@Suite("the ported peer tests in conformance/", .serialized)
struct ConformanceTests {
    static let folder = LoopvizProcess.packageRoot.appendingPathComponent("conformance")

    static let files: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".loop") }.sorted()
    }()

    @Test("there are ported tests, and each cites the test it comes from", arguments: files)
    func citesItsSource(_ name: String) throws {
        let text = try String(contentsOf: Self.folder.appendingPathComponent(name), encoding: .utf8)
        #expect(text.hasPrefix("# Ported from "), "\(name) starts by citing its test")
        #expect(text.contains("\nexpect"), "\(name) has an expect section")
    }

    @Test("loopviz check passes each ported test", arguments: files)
    func checkPasses(_ name: String) throws {
        let result = try LoopvizProcess.run(["check", Self.folder.appendingPathComponent(name).path])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.hasPrefix("PASS "), "\(result.stdout)")
    }

    #if os(Linux)
    @Test("loopviz compare agrees with the real CFRunLoop on each ported test it can run", arguments: files)
    func compareAgrees(_ name: String) throws {
        try RealTimeGate.exclusive {
            let result = try LoopvizProcess.run(["compare", "--quiet", Self.folder.appendingPathComponent(name).path])
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
            let verdict = result.stdout.split(separator: " ").first.map(String.init)
            #expect(verdict == "AGREE" || verdict == "SKIP", "\(result.stdout)")
            if verdict == "SKIP" { #expect(result.stdout.contains("main thread"), "\(result.stdout)") }
        }
    }
    #endif
}
