import Foundation
import SnapshotSupport
import Testing

/// docs/architecture.md names files, folders, types and members in backticks; each must exist, so the page cannot
/// drift from the code unseen (the review of 2026-12-03 found 3 of its 12 claims wrong, and nothing checked them).
@Suite("docs/architecture.md names only paths and types that exist")
struct ArchitectureDocTests {
    static let document = "docs/architecture.md"

    /// Names from outside the package the page mentions: CF's and Foundation's, Swift's.
    static let external: Set<String> = [
        "CFRunLoopRunInMode", "Sendable", "OperationQueue", "DispatchQueue", "FileManager", "Data", "String",
    ]

    /// The backticked words of the page without a space in them (code such as `run(mode:before:)` included).
    static func names() throws -> [String] {
        let text = try String(
            contentsOf: Snapshot.packageRoot.appendingPathComponent(document), encoding: .utf8)
        var names: [String] = []
        for (index, part) in text.split(separator: "`", omittingEmptySubsequences: false).enumerated()
        where index % 2 == 1 && !part.contains(" ") && !part.contains("\n") && !names.contains(String(part)) {
            names.append(String(part))
        }
        return names
    }

    /// A word that names a file or folder: it has a `/` (not at its start), or is a file name.
    static func isPath(_ name: String) -> Bool {
        let fileName = #/^[\w+-]+\.(swift|md|sh|py|txt|c|h)$/#
        let path = #/^[\w.+-]*/[\w./+-]*$/#
        return name.wholeMatch(of: path) != nil || name.wholeMatch(of: fileName) != nil
    }

    /// A word that names a type, possibly with members: `RunLoopCore`, `LoopEvent.Fact`, `Shared.start`.
    static func isTypePath(_ name: String) -> Bool {
        name.wholeMatch(of: #/^[A-Z][A-Za-z0-9]*(\.[A-Za-z_][A-Za-z0-9_]*)*(\(.*\))?$/#) != nil
    }

    /// Every file and folder of the package (links included), relative to its root.
    static let paths: [String] = {
        let root = Snapshot.packageRoot
        var paths: [String] = []
        for top in ["Sources", "Tests", "Scripts", "docs", "examples", "conformance", ".ci"] {
            paths.append(top)
            let folder = root.appendingPathComponent(top)
            guard let walk = FileManager.default.enumerator(atPath: folder.path) else { continue }
            while let entry = walk.nextObject() as? String { paths.append("\(top)/\(entry)") }
        }
        return paths
    }()

    /// True when a file or folder of the package is `name` or ends with it.
    static func exists(_ name: String) -> Bool {
        let trimmed = name.hasSuffix("/") ? String(name.dropLast()) : name
        return paths.contains { $0 == trimmed || $0.hasSuffix("/" + trimmed) }
    }

    /// The names the Swift sources and tests declare, by what declares them (`struct`, `func`, …), and the
    /// manifest's target names as `target`: one pass over the words of every file.
    static let declarations: [String: Set<String>] = {
        let keywords: Set<Substring> = [
            "struct", "enum", "class", "protocol", "actor", "typealias", "extension", "func", "var", "let", "case",
        ]
        var found: [String: Set<String>] = [:]
        let texts = paths.filter { $0.hasSuffix(".swift") }.compactMap {
            try? String(contentsOf: Snapshot.packageRoot.appendingPathComponent($0), encoding: .utf8)
        }
        for text in texts {
            let words = text.split { !($0.isLetter || $0.isNumber || $0 == "_") }
            for (word, next) in zip(words, words.dropFirst()) where keywords.contains(word) {
                found[String(word), default: []].insert(String(next))
            }
        }
        let manifest =
            (try? String(contentsOf: Snapshot.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8))
            ?? ""
        for match in manifest.matches(of: #/name: "(\w[\w-]*)"/#) {
            found["target", default: []].insert(String(match.output.1))
        }
        return found
    }()

    /// True when the sources declare `word` as a type (or the manifest as a target), or, not `asType`, as
    /// something inside one.
    static func declared(_ word: String, asType: Bool) -> Bool {
        let kinds =
            asType
            ? ["struct", "enum", "class", "protocol", "actor", "typealias", "extension", "target"]
            : ["func", "var", "let", "case", "struct", "enum", "class"]
        return kinds.contains { declarations[$0]?.contains(word) == true }
    }

    @Test("every path the page names is a file or folder of the package")
    func pathsExist() throws {
        let missing = try Self.names().filter(Self.isPath).filter { !Self.exists($0) }
        #expect(missing == [], "docs/architecture.md names paths that do not exist")
    }

    @Test("every type the page names is declared, and each member it names after one")
    func typesExist() throws {
        var missing: [String] = []
        for name in try Self.names() where !Self.isPath(name) && Self.isTypePath(name) {
            let parts = name.prefix { $0 != "(" }.split(separator: ".").map(String.init)
            if Self.external.contains(parts[0]) { continue }
            if !Self.declared(parts[0], asType: true)
                || parts.dropFirst().contains(where: { !Self.declared($0, asType: false) })
            {
                missing.append(name)
            }
        }
        #expect(missing == [], "docs/architecture.md names types or members that are not declared")
    }

    @Test("the checks see the page: it names paths and types, and a name that is not there is found missing")
    func checksSeeThePage() throws {
        let names = try Self.names()
        #expect(names.filter(Self.isPath).count > 50)
        #expect(names.filter(Self.isTypePath).count > 50)
        #expect(!Self.exists("Sources/LoopEngine/Core/NoSuchFile.swift"))
        #expect(!Self.declared("NoSuchTypeAnywhere", asType: true))
    }
}
