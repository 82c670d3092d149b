import Foundation

/// Parsing helpers for the export tests: Foundation's parser is the independent judge of our hand-written JSON.
enum ExportJSON {
    struct NotAnObject: Error, CustomStringConvertible {
        var text: String
        var description: String { "not a JSON object: \(text)" }
    }

    static func value(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
    }

    static func object(_ text: String) throws -> [String: Any] {
        guard let object = try value(text) as? [String: Any] else { throw NotAnObject(text: text) }
        return object
    }
}
