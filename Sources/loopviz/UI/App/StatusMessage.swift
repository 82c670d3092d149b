import LoopEngine

/// What the status bar says after a key did something (or could not), in two parts: the `essential` part is what
/// the user has to know or do (which key, which item) and is kept whole; the `detail` says why and is the part cut,
/// at a word with an ellipsis, when the bar is narrow. So at 80 columns a message never loses its instruction.
struct StatusMessage: Equatable, ExpressibleByStringInterpolation {
    var essential: String
    var detail: String?

    init(_ essential: String, detail: String? = nil) {
        self.essential = essential
        self.detail = detail
    }

    init(stringLiteral value: String) {
        self.init(value)
    }

    init(stringInterpolation: DefaultStringInterpolation) {
        self.init(String(stringInterpolation: stringInterpolation))
    }

    /// The whole message, as a wide bar shows it.
    var text: String { detail.map { "\(essential) (\($0))" } ?? essential }

    /// The message in `width` columns: the essential part first and whole (cut only when it alone is wider), then
    /// as much of the detail as fits, in parentheses; none of it when less than a few words would show.
    func fitted(_ width: Int, ellipsis: String) -> String {
        guard DisplayWidth.columns(text) > width else { return text }
        let head = TextFit.fit(essential, width: width, ellipsis: ellipsis)
        guard let detail else { return head }
        let room = width - DisplayWidth.columns(head) - 3
        guard room >= 12 else { return head }
        return "\(head) (\(TextFit.fit(detail, width: room, ellipsis: ellipsis)))"
    }
}
