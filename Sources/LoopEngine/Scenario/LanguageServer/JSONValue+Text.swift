/// A `JSONValue` written back as JSON text, and the readers the language server takes a message apart with.
extension JSONValue {
    /// The value as compact JSON (strings escaped as `JSONText` escapes them; numbers as they were read).
    var text: String {
        var out = ""
        append(to: &out)
        return out
    }

    private func append(to out: inout String) {
        switch self {
        case .string(let value): JSONText.appendQuoted(value, to: &out)
        case .number(let value): out += value
        case .bool(let value): out += value ? "true" : "false"
        case .null: out += "null"
        case .array(let items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                item.append(to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { out += "," }
                JSONText.appendQuoted(key, to: &out)
                out += ":"
                value.append(to: &out)
            }
            out += "}"
        }
    }

    /// A whole number.
    static func int(_ value: Int) -> JSONValue { .number(String(value)) }

    /// The string, if this is one.
    var string: String? {
        if case .string(let value) = self { value } else { nil }
    }

    /// The whole number, if this is one that fits an `Int`.
    var int: Int? {
        if case .number(let text) = self { Int(text) } else { nil }
    }
}
