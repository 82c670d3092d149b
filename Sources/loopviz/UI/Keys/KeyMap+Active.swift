// The keys in force, asked by command or by key: what `update`, the help, the status bar and the hints read.

extension KeyMap {
    /// The bindings of `view`, in table order.
    func bindings(in view: AppModel.View) -> [KeyBinding] {
        bindings.filter { $0.views.contains(view) }
    }

    /// The command for `key` in `view`, if any. A digit of the item row selects the item of its number.
    func command(for key: Key, in view: AppModel.View = .loop) -> Command? {
        guard let binding = bindings.first(where: { $0.views.contains(view) && $0.keys.contains(key) }) else {
            return nil
        }
        if case .selectItem = binding.command {
            guard case .character(let character) = key, let digit = character.wholeNumberValue, (1...9).contains(digit)
            else { return nil }
            return .selectItem(digit - 1)
        }
        return binding.command
    }

    /// True when `key` does `command` in `view`.
    func isKey(_ key: Key, for command: Command, in view: AppModel.View = .loop) -> Bool {
        self.command(for: key, in: view) == command
    }

    /// The first key of `command` in `view`; nil when it has none.
    func key(for command: Command, in view: AppModel.View = .loop) -> Key? {
        bindings.first { $0.command == command && $0.views.contains(view) }?.keys.first
    }

    /// The first key of `command` in `view` as hints write it (`Space`, `End`, `?`); nil when it has none.
    func name(of command: Command, in view: AppModel.View = .loop) -> String? {
        key(for: command, in: view)?.echo
    }

    /// The key hints name for `command`: its first key, or its name in a keymap file when it has none (`End`;
    /// `follow-newest (no key)`).
    func word(for command: Command, in view: AppModel.View = .loop) -> String {
        name(of: command, in: view) ?? "\(command.fileName) (no key)"
    }

    /// A status bar hint, `"? help"`: the command's first key, then `words`; nil when the command has no key.
    func hint(_ command: Command, _ words: String, in view: AppModel.View = .loop) -> String? {
        name(of: command, in: view).map { "\($0) \(words)" }
    }
}
