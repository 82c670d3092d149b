import Foundation

/// The characters and styles of a theme: Unicode or ASCII glyphs, the terminal's colours or none.
struct Glyphs {
    let theme: AppModel.Theme

    var horizontal: String { theme.unicode ? "─" : "-" }
    var dot: String { theme.unicode ? "●" : "*" }
    /// Not pending. ASCII uses `-`, not `o`: the timeline's `o` is an observer.
    var emptyDot: String { theme.unicode ? "○" : "-" }
    var arrow: String { theme.unicode ? "▶" : ">" }
    var trail: String { theme.unicode ? "·" : "." }
    var differs: String { theme.unicode ? "≠" : "!" }
    var full: Character { theme.unicode ? "█" : "#" }
    var empty: Character { theme.unicode ? "░" : "." }
    var asleep: Character { theme.unicode ? "┄" : "_" }
    var awake: Character { theme.unicode ? "━" : "=" }
    /// A timeline lane inside a hang (a busy segment at least `loopviz hangs`'s threshold long); no lane mark is `!`.
    var hang: Character { theme.unicode ? "▓" : "!" }
    var rightArrow: String { theme.unicode ? "→" : "->" }
    var ellipsis: String { theme.unicode ? "…" : "..." }
    var times: String { theme.unicode ? "×" : "x" }
    var upDown: String { theme.unicode ? "↑↓" : "up/down" }
    var narration: String { theme.unicode ? "»" : ">>" }
    /// Worker lanes: idle, created, retired, and the now mark on their time axis.
    var idle: Character { theme.unicode ? "·" : "." }
    var created: Character { "+" }
    var retired: Character { theme.unicode ? "×" : "x" }
    var nowMark: String { theme.unicode ? "▲" : "^" }

    /// `text` with its arrows spelled out when the theme is ASCII (key labels such as `n →`).
    func plain(_ text: String) -> String {
        guard !theme.unicode else { return text }
        return text.replacingOccurrences(of: "→", with: "right").replacingOccurrences(of: "←", with: "left")
            .replacingOccurrences(of: "↑", with: "up").replacingOccurrences(of: "↓", with: "down")
    }

    typealias Style = Screen.Style

    /// Colour when the theme has it; the attribute fallback otherwise, so state stays visible in monochrome.
    func style(_ color: Style.Color, bold: Bool = false, monochrome: Style = .plain) -> Style {
        guard theme.color else {
            var fallback = monochrome
            fallback.bold = fallback.bold || bold
            return fallback
        }
        return Style(foreground: color, bold: bold)
    }

    var title: Style { Style(reverse: true) }
    var header: Style {
        guard theme.color else { return Style(bold: true) }
        return Style(foreground: theme.palette == .light ? .blue : .cyan, bold: true)
    }
    var focusedHeader: Style {
        guard theme.color else { return Style(bold: true, underline: true) }
        switch theme.palette {
        case .standard: return Style(foreground: .yellow, bold: true)
        case .colorblind: return Style(foreground: .yellow, bold: true, underline: true)
        case .light: return Style(foreground: .magenta, bold: true, underline: true)
        }
    }
    var current: Style { Style(bold: true, reverse: true) }
    var dimmed: Style { Style(dim: true) }
    var callout: Style {
        style(theme.palette == .standard ? .green : .blue, bold: true, monochrome: Style(bold: true))
    }
    var activity: Style { style(theme.palette == .light ? .blue : .cyan) }
    var sleeping: Style {
        theme.palette == .standard ? style(.blue, monochrome: Style(dim: true)) : Style(dim: true)
    }
    var warning: Style {
        switch theme.palette {
        case .standard: style(.yellow, bold: true, monochrome: Style(bold: true, underline: true))
        case .colorblind: style(.yellow, bold: true, monochrome: Style(bold: true, underline: true)).underlined
        case .light: style(.red, bold: true, monochrome: Style(bold: true, underline: true)).underlined
        }
    }
    var result: Style {
        let plain = style(.magenta, bold: true, monochrome: Style(bold: true))
        return theme.palette == .standard ? plain : plain.underlined
    }
}

extension Screen.Style {
    /// The same style, underlined: a second sign beside the colour.
    var underlined: Screen.Style {
        var style = self
        style.underline = true
        return style
    }
}
