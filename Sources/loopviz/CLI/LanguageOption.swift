import Foundation
import LoopEngine

/// `--lang zh|en`, for the UI and `screen`: the language of a lesson's narration and card. Without it, the
/// locale's (`LC_ALL`, `LC_MESSAGES`, `LANG`: a `zh_*` locale is Chinese); a line without a translation is shown
/// in English either way.
enum LanguageOption {
    static let name = "--lang"

    /// The option, as the UI and `screen` declare it.
    static let declaration = CommandOption(
        name, .text(placeholder: "LANG"),
        help: """
            en or zh: the language of the lesson's narration (`say zh "…"`) and card
            (`# [zh]`), English where a line has no translation (default: zh when
            LC_ALL, LC_MESSAGES or LANG is a zh_* locale, else en). The keys, panels and
            help stay English.
            """)

    /// The language asked for on the command line, else the locale's.
    /// - Throws: a usage problem for a value other than en or zh.
    static func value(
        in scanner: ArgumentScanner, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(CommandLineProblem) -> Language {
        guard let text = scanner.value(name) else { return Language.preferred(environment: environment) }
        guard let language = Language(rawValue: text) else { throw .notALanguage(text) }
        return language
    }
}
