import Foundation
import SnapshotSupport

/// LoopEngine's sources read as text, declaration by declaration, as Scripts/access-audit.py reads them: enough
/// Swift to tell which declaration a `public` belongs to and whether a doc comment precedes it.
enum SourceDeclarations {
    /// One line that declares something, or that says `public`.
    struct Declaration: Equatable {
        /// 1-based.
        var line: Int
        /// The enclosing types' names and its own: `Type`, `Type.member`, `Type.Nested.member`. A line that
        /// declares nothing (a `public` on a continuation line) has the enclosing type's path.
        var path: [String]
        /// `struct`, `func`, `var`, …; empty when the line declares nothing.
        var kind: String
        /// The line's code, comments and string literals blanked.
        var code: String
        /// It says `public`.
        var isPublic: Bool
        /// A `///` comment ends right above it (above its attributes, if they have lines of their own).
        var isDocumented: Bool
        /// It is a requirement of a `public protocol` (which takes no modifier of its own).
        var isPublicRequirement: Bool
        /// It is a `case` of a `public enum` (public with its enum).
        var isPublicCase: Bool

        var dotted: String { path.joined(separator: ".") }
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

    static let typeWords: Set<String> = ["struct", "enum", "class", "actor", "protocol", "extension"]
    static let declarationWords: Set<String> = typeWords.union([
        "func", "var", "let", "typealias", "init", "case", "subscript",
    ])
    static let modifierWords: Set<String> = [
        "public", "package", "internal", "private", "fileprivate", "final", "open", "indirect", "nonisolated", "static",
        "override", "mutating", "nonmutating", "convenience", "required", "lazy", "weak", "unowned", "dynamic",
    ]

    /// What a declaration line declares, after its attributes and modifiers: its kind and its name (an operator's
    /// symbol; an extension: the dotted type it extends), or nil for a line that declares nothing.
    static func declaration(_ code: String) -> (kind: String, name: [String])? {
        let words = code.split { $0 == " " || $0 == "\t" }.map(String.init)
        var index = 0
        while index < words.count,
            words[index].hasPrefix("@") || modifierWords.contains(words[index].prefix { $0 != "(" }.description)
        {
            index += 1
        }
        guard index < words.count else { return nil }
        let kind = String(words[index].prefix { $0.isLetter })
        guard declarationWords.contains(kind) else { return nil }
        let rest = String(words[index].dropFirst(kind.count)) + (index + 1 < words.count ? words[index + 1] : "")
        let trimmed = rest.drop { $0 == "`" }
        if kind == "extension" {
            return (
                kind,
                trimmed.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }.split(separator: ".").map(
                    String.init)
            )
        }
        let identifier = trimmed.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        let symbol = trimmed.prefix { "-+*/%<>=!&|^~.?".contains($0) }
        let name = !identifier.isEmpty ? String(identifier) : !symbol.isEmpty ? String(symbol) : kind
        return (kind, [name])
    }

    /// Every declaration of `text` directly in a type's body (or at the top level), and every line saying
    /// `public`. A type's body is a scope: a declaration directly in it is `Type.member`, in a nested type
    /// `Type.Nested.member`. Declarations inside function bodies are local and never public.
    static func declarations(in text: String) -> [Declaration] {
        var found: [Declaration] = []
        var state: String?
        var depth = 0
        var scopes: [(path: [String], depth: Int, publicKind: String?)] = []
        var pending: (path: [String], publicKind: String?)?
        var previous = ""  // the last line before this one that is not an attribute of its own
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let code = Self.code(line, state: &state)
            while let last = scopes.last, depth < last.depth { scopes.removeLast() }
            let enclosing = scopes.last?.path ?? []
            let words = code.split { !($0.isLetter || $0.isNumber || $0 == "_" || $0 == "(") }
            let isPublic = words.contains("public")
            var declared: (kind: String, path: [String])?
            if depth == (scopes.last?.depth ?? 0), let (kind, name) = Self.declaration(code) {
                declared = (kind, kind == "extension" ? name : enclosing + name)
                pending = typeWords.contains(kind) ? (declared!.path, isPublic ? kind : nil) : nil
            }
            if declared != nil || isPublic {
                found.append(
                    Declaration(
                        line: number + 1, path: declared?.path ?? enclosing, kind: declared?.kind ?? "", code: code,
                        isPublic: isPublic, isDocumented: previous.hasPrefix("///"),
                        isPublicRequirement: declared != nil && scopes.last?.publicKind == "protocol",
                        isPublicCase: declared?.kind == "case" && scopes.last?.publicKind == "enum"))
            }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if !trimmed.hasPrefix("@") || trimmed.contains(" ") && declared != nil { previous = trimmed }
            if let opened = pending, code.contains("{") {
                scopes.append((opened.path, depth + 1, opened.publicKind))
                pending = nil
            }
            depth += code.filter { $0 == "{" }.count - code.filter { $0 == "}" }.count
        }
        return found
    }

    /// Every Swift file of LoopEngine, with its path relative to the package.
    /// The Swift files of `target` (LoopEngine unless said), each with its path from the package's root.
    static func files(of target: String = "LoopEngine") throws -> [(path: String, text: String)] {
        let sources = Snapshot.packageRoot.appendingPathComponent("Sources/\(target)")
        var files: [(path: String, text: String)] = []
        let enumerator = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            let path = url.path.replacingOccurrences(of: Snapshot.packageRoot.path + "/", with: "")
            files.append((path, try String(contentsOf: url, encoding: .utf8)))
        }
        return files.sorted { $0.path < $1.path }
    }
}
