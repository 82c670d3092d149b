// `loopviz keymap`: a keymap as the file that makes it, for a user to start from.

extension KeyMapFile {
    /// The file that makes `map` over the defaults: a `bind` line for every command (its help text above it),
    /// after the `unbind` lines of the default keys it no longer has. Reading it back gives `map` again.
    static func text(_ map: KeyMap) -> String {
        var lines = [
            "# loopviz keymap: `bind COMMAND KEY...` gives COMMAND exactly these keys; `unbind KEY...` frees keys.",
            "# A command not named keeps its default keys. Keys: one character (j, ?, #), or Space Enter Esc Tab",
            "# BackTab Up Down Left Right PgUp PgDn Home End Backspace. A line starting with # is a comment.",
            "# Used from --keymap FILE, else $LOOPVIZ_KEYMAP, else $XDG_CONFIG_HOME/loopviz/keymap",
            "# (~/.config/loopviz/keymap). Keys inside an open box (a prompt, a list) are not changed here.",
        ]
        var freed: [Key] = []
        for standard in KeyMap.bindings {
            let keys = map.bindings.first { $0.command == standard.command }?.keys ?? []
            for key in standard.keys where !keys.contains(key) && !freed.contains(key) { freed.append(key) }
        }
        if !freed.isEmpty {
            lines += ["", "# The default keys this keymap frees."]
            lines += freed.map { "unbind \($0.fileName)" }
        }
        var group = ""
        for binding in map.bindings {
            if binding.group != group {
                group = binding.group
                lines += ["", "# \(group)"]
            }
            let views =
                binding.views.count == 1 ? (binding.views.contains(.loop) ? " (loop view)" : " (pool view)") : ""
            lines.append("# \(binding.help)\(views)")
            if case .selectItem = binding.command {
                lines.append("#   \(binding.command.fileName): the digits \(KeyMap.label(binding.keys)), not rebound")
            } else if binding.keys.isEmpty {
                lines.append("#   \(binding.command.fileName): no key")
            } else {
                lines.append(
                    "bind \(binding.command.fileName) " + binding.keys.map(\.fileName).joined(separator: " "))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
