import Foundation
import SnapshotSupport
import Testing

/// LoopEngine's public surface is what an embedder uses, listed in Scripts/public-surface.txt; the
/// rest is `package`. A `public` declaration outside the list fails here (the sources are read as text, as
/// Scripts/access-audit.py reads them).
@Suite("LoopEngine is public only where the allowlist says")
struct PublicSurfaceTests {
    /// The listed declaration paths: `Type`, `Type.member`, `Type.Nested.member`.
    static func allowlist() throws -> Set<String> {
        let text = try String(
            contentsOf: Snapshot.packageRoot.appendingPathComponent("Scripts/public-surface.txt"), encoding: .utf8)
        var paths: Set<String> = []
        for raw in text.split(separator: "\n") {
            let entry = raw.prefix { $0 != "#" }.trimmingCharacters(in: .whitespaces)
            if !entry.isEmpty { paths.insert(entry) }
        }
        return paths
    }

    /// The `public` lines of `text` whose declaration path is not listed, as `file:line: public Path`.
    static func unlisted(in text: String, path: String, allowed: Set<String>) -> [String] {
        SourceDeclarations.declarations(in: text).filter { $0.isPublic && !allowed.contains($0.dotted) }.map {
            "\(path):\($0.line): public \($0.dotted)"
        }
    }

    @Test("every public declaration of LoopEngine is listed in the public surface, member by member")
    func onlyListedDeclarationsArePublic() throws {
        let allowed = try Self.allowlist()
        #expect(allowed.contains("RunLoopCore.run"), "Scripts/public-surface.txt was not read")
        let files = try SourceDeclarations.files()
        let offending = files.flatMap { Self.unlisted(in: $0.text, path: $0.path, allowed: allowed) }
        #expect(files.count > 50, "Sources/LoopEngine was not read")
        #expect(
            offending.isEmpty,
            """
            These declarations are public but not part of LoopEngine's surface for embedders. Make them `package` \
            (Scripts/access-audit.py does it), or, if an embedder needs one, add its path to \
            Scripts/public-surface.txt and document it (Scripts/docs.sh):
            \(offending.sorted().joined(separator: "\n"))
            """)
    }

    @Test("every path the public surface lists is a public declaration (the list names nothing that is gone)")
    func everyListedPathIsPublic() throws {
        let declared = Set(
            try SourceDeclarations.files().flatMap {
                SourceDeclarations.declarations(in: $0.text).filter(\.isPublic).map(\.dotted)
            })
        #expect(try Self.allowlist().subtracting(declared).sorted() == [])
    }

    @Test("the tool libraries (LoopFuzz) have no public surface: what the executable uses of them is `package`")
    func toolLibrariesAreNotPublic() throws {
        let files = try SourceDeclarations.files(of: "LoopFuzz")
        #expect(files.count > 5, "Sources/LoopFuzz was not read")
        let offending = files.flatMap { file in
            SourceDeclarations.declarations(in: file.text).filter(\.isPublic).map { "\(file.path):\($0.line)" }
        }
        #expect(offending == [])
    }

    @Test("a member is judged by its own path: a listed type does not make its members public")
    func membersAreJudgedOneByOne() {
        let source = """
            public struct Listed {
                public var kept: Int
                public var dropped: Int  // public in a comment is no declaration
                public struct Inner {
                    public var deep: Int
                }
                public static func < (lhs: Listed, rhs: Listed) -> Bool { lhs.kept < rhs.kept }
                package var said: String { "public" }
            }
            extension Listed.Inner {
                public var other: Int { deep }
            }
            """
        let allowed: Set<String> = ["Listed", "Listed.kept", "Listed.Inner", "Listed.<"]
        #expect(
            Self.unlisted(in: source, path: "F.swift", allowed: allowed) == [
                "F.swift:3: public Listed.dropped", "F.swift:5: public Listed.Inner.deep",
                "F.swift:11: public Listed.Inner.other",
            ])
    }
}
