/// A language a lesson's words can be written in. English is every lesson's own language; a lesson may add a
/// translation of its card and narration, and what has none falls back to English.
package enum Language: String, CaseIterable, Sendable, Hashable {
    case en, zh

    /// The language a locale name asks for (`zh_CN.UTF-8` → `.zh`), or nil for one loopviz has no words in.
    package init?(locale: String) {
        let code = locale.prefix { $0.isLetter }.lowercased()
        guard let language = Language(rawValue: code) else { return nil }
        self = language
    }
}
