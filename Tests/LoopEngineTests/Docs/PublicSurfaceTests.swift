import Foundation
import SnapshotSupport
import Testing

/// LoopEngine's public surface is what an embedder uses, listed in Scripts/public-surface.txt; the
/// rest is `package`. A `public` declaration outside the list fails here (the sources are read as text, as
/// Scripts/access-audit.py reads them).
@Suite("LoopEngine is public only where the allowlist says")
struct PublicSurfaceTests {
    static let sources = Snapshot.packageRoot.appendingPathComponent("Sources/LoopEngine")

    /// The listed top-level names, and the `Type.member` entries kept `package`.
    static func allowlist() throws -> (types: Set<String>, excluded: Set<String>) {
        let text = try String(
            contentsOf: Snapshot.packageRoot.appendingPathComponent("Scripts/public-surface.txt"), encoding: .utf8)
        var types: Set<String> = []
        var excluded: Set<String> = []
        for raw in text.split(separator: "\n") {
            let entry = raw.prefix { $0 != "#" }.trimmingCharacters(in: .whitespaces)
            if entry.isEmpty { continue }
            if entry.contains(".") { excluded.insert(entry) } else { types.insert(entry) }
        }
        return (types, excluded)
    }

    /// `line` with its comments and string literals blanked; `state` carries a block comment or a multi-line
    /// string over lines.
    static func code(_ line: Substring, state: inout String?) -> String {
        let characters = Array(line)
        var out = ""
        var index = 0
        func at(_ text: String) -> Bool {
            index + text.count <= characters.count && String(characters[index..<index + text.count]) == text
        }
        while index < characters.count {
            if let open = state {
                let close = open == "/*" ? "*/" : "\"\"\""
                if at(close) {
                    state = nil
                    index += close.count
                } else {
                    index += 1
                }
                continue
            }
            if at("//") { break }
            if at("/*") || at("\"\"\"") {
                state = at("/*") ? "/*" : "\"\"\""
                index += state!.count
                continue
            }
            if characters[index] == "\"" {
                index += 1
                var depth = 0
                while index < characters.count {
                    if characters[index] == "\\" && index + 1 < characters.count && characters[index + 1] == "(" {
                        depth += 1
                        index += 2
                        continue
                    }
                    if characters[index] == "\\" {
                        index += 2
                        continue
                    }
                    if depth > 0 && characters[index] == ")" {
                        depth -= 1
                    } else if depth == 0 && characters[index] == "\"" {
                        break
                    }
                    index += 1
                }
                index += 1
                out += " "
                continue
            }
            out.append(characters[index])
            index += 1
        }
        return out
    }

    static let declarationWords: Set<String> = [
        "struct", "enum", "class", "actor", "protocol", "extension", "func", "var", "let", "typealias", "init", "case",
        "subscript",
    ]
    static let modifierWords: Set<String> = [
        "public", "package", "internal", "private", "fileprivate", "final", "open", "indirect", "nonisolated", "static",
        "override", "mutating", "nonmutating", "convenience", "required", "lazy", "weak", "unowned", "dynamic",
    ]

    /// The name a declaration line declares (an extension: the type it extends), after its attributes and
    /// modifiers.
    static func declaredName(_ code: String) -> String? {
        let words = code.split { $0 == " " || $0 == "\t" }.map(String.init)
        var index = 0
        while index < words.count,
            words[index].hasPrefix("@") || modifierWords.contains(words[index].prefix { $0 != "(" }.description)
        {
            index += 1
        }
        guard index < words.count, declarationWords.contains(words[index]) else { return nil }
        let name = index + 1 < words.count ? words[index + 1] : ""
        return String(name.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
    }

    @Test("every public declaration of LoopEngine belongs to the allowlisted surface")
    func onlyAllowlistedDeclarationsArePublic() throws {
        let (types, excluded) = try Self.allowlist()
        #expect(types.contains("RunLoopCore"), "Scripts/public-surface.txt was not read")
        var offending: [String] = []
        var files = 0
        let enumerator = FileManager.default.enumerator(at: Self.sources, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            files += 1
            let text = try String(contentsOf: url, encoding: .utf8)
            var state: String?
            var depth = 0
            var owner = ""
            var member = ""
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = Self.code(line, state: &state)
                if let name = Self.declaredName(code) {
                    if depth == 0 {
                        owner = name
                        member = ""
                    } else if depth == 1 {
                        member = name
                    }
                }
                let words = code.split { !($0.isLetter || $0.isNumber || $0 == "_" || $0 == "(") }
                if words.contains("public"), !types.contains(owner) || excluded.contains("\(owner).\(member)") {
                    let path = url.path.replacingOccurrences(of: Snapshot.packageRoot.path + "/", with: "")
                    offending.append("\(path):\(number + 1): public \(member.isEmpty ? owner : "\(owner).\(member)")")
                }
                depth += code.filter { $0 == "{" }.count - code.filter { $0 == "}" }.count
            }
        }
        #expect(files > 50, "Sources/LoopEngine was not read")
        #expect(
            offending.isEmpty,
            """
            These declarations are public but not part of LoopEngine's surface for embedders. Make them `package` \
            (Scripts/access-audit.py does it), or, if an embedder needs one, add its type to \
            Scripts/public-surface.txt and document it (Scripts/docs.sh):
            \(offending.sorted().joined(separator: "\n"))
            """)
    }
}
