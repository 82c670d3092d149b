import Testing

/// Every public symbol of LoopEngine says why it is there: a public declaration, a requirement of a public
/// protocol and a case of a public enum have a `///` comment (one comment may cover a line of cases). A witness of a documented requirement (a backend's `makePort`, a sink's
/// `record`) and a standard library witness (`description`, `==`, `init(rawValue:)`, a collection's indices)
/// are shown by DocC as inherited from the requirement, so they need none of their own.
@Suite("LoopEngine documents every public symbol")
struct PublicDocCommentTests {
    static let standardWitnesses: Set<String> = [
        "description", "==", "<", "+", "-", "hash", "rawValue", "startIndex", "endIndex", "subscript", "Index",
        "Element",
    ]

    /// The declarations of `files` that are public and carry no comment, as `file:line: Path`.
    static func undocumented(in files: [(path: String, text: String)]) -> [String] {
        let scanned = files.map { (path: $0.path, declarations: SourceDeclarations.declarations(in: $0.text)) }
        let requirements = Set(
            scanned.flatMap { $0.declarations.filter(\.isPublicRequirement).compactMap(\.path.last) })
        return scanned.flatMap { file in
            file.declarations.filter { declaration in
                guard declaration.isPublic || declaration.isPublicRequirement || declaration.isPublicCase,
                    !declaration.isDocumented,
                    declaration.kind != "extension", let name = declaration.path.last
                else { return false }
                let literalInit = ["rawValue", "stringLiteral", "arrayLiteral"].contains {
                    declaration.code.contains("init(\($0)")
                }
                let witness = declaration.isPublic && !declaration.isPublicRequirement && requirements.contains(name)
                return !Self.standardWitnesses.contains(name) && !literalInit && !witness
            }.map { "\(file.path):\($0.line): \($0.dotted)" }
        }
    }

    @Test("every public declaration, public protocol requirement and public enum case has a doc comment")
    func everyPublicSymbolIsDocumented() throws {
        let files = try SourceDeclarations.files()
        #expect(files.count > 50, "Sources/LoopEngine was not read")
        let missing = Self.undocumented(in: files)
        #expect(
            missing.isEmpty,
            """
            These public symbols have no doc comment. Say in a `///` line why an embedder has them (or make them \
            `package`, Scripts/public-surface.txt):
            \(missing.joined(separator: "\n"))
            """)
    }

    @Test("a comment counts above the attributes; a witness of a documented requirement needs none")
    func whatCountsAsDocumented() {
        let source = """
            public protocol Seam {
                /// Documented.
                func kept()
                func bare()
            }
            public final class Backend: Seam {
                /// Above its attribute.
                @inline(__always)
                public func inlined() {}
                public func kept() {}
                public func bare() {}
                public func lonely() {}
                public var description: String { "" }
            }
            public enum Choice {
                /// Documented.
                case one, two
                case three
                package var word: String { "" }
            }
            """
        #expect(
            Self.undocumented(in: [("F.swift", source)]) == [
                "F.swift:1: Seam", "F.swift:4: Seam.bare", "F.swift:6: Backend", "F.swift:12: Backend.lonely",
                "F.swift:15: Choice", "F.swift:18: Choice.three",
            ])
    }
}
