/// How values read in `.loop` text: keywords, quoted strings, durations, mode and activity lists, conditions.
extension LoopScriptPrinter.Lines {
    /// A keyword, held to the language's list (`ScenarioKeywords.all`) as the parser's cursor is.
    func w(_ word: String) -> String { ScenarioKeywords.word(word) }

    /// Whole milliseconds when it is some, else nanoseconds: always exact.
    func duration(_ value: Duration) -> String {
        let nanoseconds = value.nanosecondsClamped
        return nanoseconds % 1_000_000 == 0 ? "\(nanoseconds / 1_000_000)ms" : "\(nanoseconds)ns"
    }

    func modeList(_ modes: [ModeName]) -> String {
        modes.isEmpty ? w("nothing") : modes.map(\.rawValue).joined(separator: ", ")
    }

    func activityList(_ activities: Activity) -> String {
        if activities == .allActivities { return w("all") }
        return Activity.each.filter { activities.contains($0) }.map(\.description).joined(separator: ", ")
    }

    /// A string literal the lexer reads back to `text`.
    func quoted(_ text: String) -> String {
        var out = "\""
        for character in text {
            switch character {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default: out.append(character)
            }
        }
        return out + "\""
    }
}

extension ScenarioKeywords {
    /// `word`, which must be one of the language's words: what a printer writes, it writes from this list.
    package static func word(_ word: String) -> String {
        assert(all.contains(word), "'\(word)' is no word of ScenarioKeywords")
        return word
    }
}

/// How a condition and a flag read in `.loop` text: an owner's property through the owner (`vc.stopped`) or its weak
/// reference (`weakSelf.stopped`), the weak reference alone for "the owner is alive".
struct OwnerWords {
    let owners: [OwnerSpec]

    func weakName(_ owner: String) -> String {
        owners.first { $0.name == owner }?.weakName ?? owner
    }

    func text(_ reference: FlagReference) -> String {
        switch reference {
        case .flag(let name): name
        case .property(let owner, let name, let weak): "\(weak ? weakName(owner) : owner).\(name)"
        }
    }

    func text(_ condition: Condition) -> String {
        switch condition {
        case .isSet(let reference): text(reference)
        case .ownerAlive(let owner): weakName(owner)
        case .not(let inner): ScenarioKeywords.word("not") + " " + text(inner)
        case .all(let terms): terms.map(text).joined(separator: " " + ScenarioKeywords.word("and") + " ")
        }
    }
}
