import Foundation
import SnapshotSupport
import Testing

/// The code and the tests cite the rules as `docs/cfrunloop.md §N` (the `Rules` suites and the differential cases
/// by `§N` alone): every section cited must exist on that page, so a renumbering cannot leave a citation behind.
@Suite("every section the code cites exists in docs/cfrunloop.md")
struct RuleDocTests {
    /// The section sign, spelled as an ICU escape so that this file cites no section itself.
    static let sign = "\\x{A7}"

    static func matches(_ pattern: String, in text: String) -> [String] {
        guard let regex = try? NSRegularExpression(pattern: pattern, options: [.anchorsMatchLines]) else { return [] }
        let range = NSRange(text.startIndex..., in: text)
        return regex.matches(in: text, range: range).compactMap { match in
            Range(match.range(at: 1), in: text).map { String(text[$0]) }
        }
    }

    /// The sections docs/cfrunloop.md defines: its headings (`## §9 …`, `### §9.3 …`) and the bold labels of its
    /// numbered rules (`**§7.5 …**`).
    static let defined: Set<String> = {
        let url = Snapshot.packageRoot.appendingPathComponent("docs/cfrunloop.md")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        return Set(
            matches("^#{2,3} \(sign)(\\d+(?:\\.\\d+)?) ", in: text)
                + matches("\\*\\*\(sign)(\\d+\\.\\d+) ", in: text))
    }()

    /// The Swift files under Sources/ and Tests/, by path, with their text.
    static let swiftFiles: [(path: String, text: String)] = ["Sources", "Tests"].flatMap { folder in
        let root = Snapshot.packageRoot.appendingPathComponent(folder)
        let files = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? []
        return files.filter { $0.hasSuffix(".swift") }.sorted().compactMap { file in
            (try? String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)).map {
                ("\(folder)/\(file)", $0)
            }
        }
    }

    /// Every `§N` or `§N.M` the Swift files cite, with the file.
    static let cited: [(section: String, file: String)] = swiftFiles.flatMap { file in
        matches("\(sign)(\\d+(?:\\.\\d+)?)", in: file.text).map { ($0, file.path) }
    }

    @Test("the page defines its sections, and the code cites them")
    func bothSidesAreRead() {
        #expect(Self.defined.isSuperset(of: ["1", "2", "2.2", "7.5", "7.7", "9.3", "10.1", "15", "16"]))
        #expect(Self.cited.count > 100)
    }

    @Test("every section cited in Sources/ and Tests/ is a section of docs/cfrunloop.md")
    func everyCitationResolves() {
        let dangling = Self.cited.filter { !Self.defined.contains($0.section) }.map { "\($0.file): \($0.section)" }
        #expect(dangling == [])
    }

    @Test("the code cites the rules by the page, not by a spec outside the repository")
    func noCitationOfTheOldSpec() {
        let stale = Self.swiftFiles.filter { !Self.matches("(spec \(Self.sign))", in: $0.text).isEmpty }.map(\.path)
        #expect(stale == [])
    }
}
