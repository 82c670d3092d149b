import Foundation
import Testing

/// A capture in the README or docs/ is marked `<!-- output of: loopviz ARGUMENTS -->` on the line before its code
/// block; the block must be exactly what that command prints today (run from the package's folder), so a change
/// to the screen or the trace cannot leave a stale picture behind. Re-make one with the command in its marker. A
/// command that ends with another status than 0 says it: `<!-- output of: loopviz hangs f.loop; exit 1 -->`.
@Suite("captures in the README and docs/ are what loopviz prints")
struct DocCaptureTests {
    struct Capture: CustomTestStringConvertible, Sendable {
        var document: String
        var line: Int
        var arguments: [String]
        var status: Int32 = 0
        var text: String
        var testDescription: String { "\(document):\(line): loopviz \(arguments.joined(separator: " "))" }
    }

    static let marker = "<!-- output of: loopviz "

    static let documents: [String] = {
        let docs = LoopvizProcess.packageRoot.appendingPathComponent("docs")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: docs.path)) ?? []
        return ["README.md"] + names.filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
    }()

    static let captures: [Capture] = documents.flatMap { document -> [Capture] in
        let url = LoopvizProcess.packageRoot.appendingPathComponent(document)
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        return lines.indices.compactMap { index -> Capture? in
            let line = lines[index]
            guard line.hasPrefix(marker), line.hasSuffix(" -->") else { return nil }
            var command = String(line.dropFirst(marker.count).dropLast(4))
            var status: Int32 = 0
            if let semicolon = command.range(of: "; exit "), let value = Int32(command[semicolon.upperBound...]) {
                status = value
                command = String(command[..<semicolon.lowerBound])
            }
            let arguments = command.split(separator: " ").map(String.init)
            var block: [String] = []
            if index + 1 < lines.count, lines[index + 1].hasPrefix("```") {
                block = Array(lines[(index + 2)...].prefix { !$0.hasPrefix("```") })
            }
            return Capture(
                document: document, line: index + 1, arguments: arguments, status: status,
                text: block.joined(separator: "\n"))
        }
    }

    @Test("the README shows a capture of the screen")
    func readmeHasAScreenCapture() {
        #expect(Self.captures.contains { $0.document == "README.md" && $0.arguments.first == "screen" })
    }

    @Test("each capture is what its command prints", arguments: captures)
    func captureMatchesTheCommand(_ capture: Capture) throws {
        let result = try LoopvizProcess.run(capture.arguments, in: LoopvizProcess.packageRoot)
        #expect(result.status == capture.status, "\(result.stderr)")
        let printed = result.stdout.hasSuffix("\n") ? String(result.stdout.dropLast()) : result.stdout
        #expect(printed == capture.text)
    }
}
