import Foundation
import SnapshotSupport
import Testing

/// The peer tests ported into `conformance/` (swift-corelibs-foundation's, GNUstep's and Chromium's run-loop tests, each file
/// citing its test): `loopviz check` must pass every one, and `loopviz compare` must agree with the real CFRunLoop
/// on every one - none is skipped (main-thread and multi-thread ports run on real threads, the main thread's on the
/// `loopviz` process's main thread). A case that cannot be compared is not ported; conformance/README.md says why.
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

    @Test("conformance/README.md lists each ported test in its table", arguments: files)
    func listedInTheReadme(_ name: String) throws {
        let readme = try String(contentsOf: Self.folder.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("| `\(name)` |"), "\(name) has a row in conformance/README.md")
    }

    @Test("loopviz check passes each ported test", arguments: files)
    func checkPasses(_ name: String) throws {
        let result = try LoopvizProcess.run(["check", Self.folder.appendingPathComponent(name).path])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.hasPrefix("PASS "), "\(result.stdout)")
    }

    #if os(Linux)
    @Test("loopviz compare agrees with the real CFRunLoop on each ported test", arguments: files)
    func compareAgrees(_ name: String) throws {
        let path = Self.folder.appendingPathComponent(name).path
        let result = try CompareEveryLessonTests.compare(["--quiet", path])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.hasPrefix("AGREE \(path) "), "\(result.stdout)\(result.stderr)")
    }
    #endif
}
