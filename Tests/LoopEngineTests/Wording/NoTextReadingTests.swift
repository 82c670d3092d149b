import Foundation
import Testing

/// Facts travel as values: no code outside the wording reads an event's words back (a reworded message must not
/// silently change what a panel, a comparison or an export decides).
@Suite("nothing reads event text")
struct NoTextReadingTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources")

    /// `.detail` or `.words` followed on the same line by a test of its text.
    static let reading = try! NSRegularExpression(
        pattern: #"\.(detail|words)\b[^\n]*(hasPrefix|hasSuffix|contains\(|==|!=|split\(|Int\(|firstIndex|range\(of)"#)

    @Test("no source outside Trace/Wording tests an event's words")
    func noSourceParsesEventText() throws {
        let files = FileManager.default.enumerator(at: Self.sources, includingPropertiesForKeys: nil)!
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" && !$0.path.contains("/Trace/Wording/") }
        #expect(files.count > 100)
        var offenders: [String] = []
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let string = String(line)
                let range = NSRange(string.startIndex..., in: string)
                if Self.reading.firstMatch(in: string, range: range) != nil {
                    offenders.append("\(file.lastPathComponent):\(number + 1): \(string)")
                }
            }
        }
        #expect(offenders.isEmpty, "\(offenders.joined(separator: "\n"))")
    }
}
