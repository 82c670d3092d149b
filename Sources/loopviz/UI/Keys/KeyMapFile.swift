import LoopEngine

/// The keymap file: lines of `bind COMMAND KEY…` (COMMAND gets exactly these keys) and `unbind KEY…` (the keys
/// do nothing), read in order over the defaults; `#` starts a comment line. Every command and key not named keeps
/// its default, so a file says only what it changes. Refused whole, with `file:line:column`, on any problem: a
/// half-applied keymap would leave a user with keys they did not mean.
enum KeyMapFile {
    /// A keymap is a few hundred bytes (the printed defaults are about 6 KiB).
    static let maximumBytes = 64 << 10
    static let maximumLines = 2000
    /// More keys than this for one command is no keymap (the item row's nine digits are the most by default).
    static let maximumKeysPerCommand = 12

    /// The map `bytes` make over `base`, or its first problem.
    static func parse(
        utf8 bytes: [UInt8], file: String, over base: KeyMap = .standard
    ) -> Result<
        KeyMap, KeyMapProblem
    > {
        guard bytes.count <= maximumBytes else { return .failure(KeyMapProblem(file, .tooLarge(limit: maximumBytes))) }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return .failure(KeyMapProblem(file, .notUTF8))
        }
        return parse(text, file: file, over: base)
    }

    /// The map `text` makes over `base`, or its first problem.
    static func parse(_ text: String, file: String, over base: KeyMap = .standard) -> Result<KeyMap, KeyMapProblem> {
        guard text.utf8.count <= maximumBytes else {
            return .failure(KeyMapProblem(file, .tooLarge(limit: maximumBytes)))
        }
        // `\r\n` is one Character, a newline as `\n` is: a file written on Windows reads the same.
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        guard lines.count <= maximumLines + (text.last?.isNewline == true ? 1 : 0) else {
            return .failure(KeyMapProblem(file, .tooManyLines(limit: maximumLines)))
        }
        var reader = Reader(map: base, file: file)
        for (index, line) in lines.enumerated() {
            if let problem = reader.read(line, number: index + 1) { return .failure(problem) }
        }
        if let problem = reader.finish() { return .failure(problem) }
        return .success(reader.map)
    }

    /// The words of the file and where each starts (1-based column, in characters).
    static func words(_ line: Substring) -> [(word: String, column: Int)] {
        var words: [(String, Int)] = []
        var current = ""
        var start = 0
        for (offset, character) in line.enumerated() {
            if character.isWhitespace {
                if !current.isEmpty { words.append((current, start)) }
                current = ""
            } else {
                if current.isEmpty { start = offset + 1 }
                current.append(character)
            }
        }
        if !current.isEmpty { words.append((current, start)) }
        return words
    }

    /// Applies the lines one by one; checks what needs the whole file (a key doing two things, quit or help
    /// without a key) at the end, so the order of `bind` lines does not matter.
    private struct Reader {
        var map: KeyMap
        let file: String
        /// Where the file gave each command each of its keys: a conflict is reported there.
        var boundAt: [Command: [Key: (line: Int, column: Int)]] = [:]
        /// The last line that changed a command's keys.
        var changedAt: [Command: (line: Int, column: Int)] = [:]

        init(map: KeyMap, file: String) {
            self.map = map
            self.file = file
        }

        func problem(_ line: Int, _ column: Int, _ reason: KeyMapProblem.Reason) -> KeyMapProblem {
            KeyMapProblem(file, line: line, column: column, reason)
        }

        mutating func read(_ line: Substring, number: Int) -> KeyMapProblem? {
            let words = KeyMapFile.words(line)
            guard let first = words.first, !first.word.hasPrefix("#") else { return nil }
            switch first.word {
            case "bind":
                guard words.count > 1 else { return problem(number, first.column, .missingCommand) }
                return bind(words[1], keys: words.dropFirst(2), line: number)
            case "unbind":
                guard words.count > 1 else {
                    return problem(number, first.column + first.word.count, .missingKey(directive: "unbind"))
                }
                return unbind(words.dropFirst(), line: number)
            default:
                return problem(number, first.column, .unknownDirective(first.word))
            }
        }

        mutating func bind(
            _ name: (word: String, column: Int), keys words: ArraySlice<(word: String, column: Int)>, line: Int
        ) -> KeyMapProblem? {
            let names = map.bindings.map(\.command.fileName)
            guard let index = map.bindings.firstIndex(where: { $0.command.fileName == name.word }) else {
                let near = EditDistance.nearest(to: name.word, among: names)
                return problem(line, name.column, .unknownCommand(name.word, suggestion: near))
            }
            let command = map.bindings[index].command
            if case .selectItem = command { return problem(line, name.column, .fixedKeys(command: name.word)) }
            guard !words.isEmpty else {
                return problem(line, name.column + name.word.count, .missingKey(directive: "bind"))
            }
            var keys: [Key] = []
            var places: [Key: (line: Int, column: Int)] = [:]
            for word in words {
                guard let key = Key(fileName: word.word) else {
                    return problem(line, word.column, .unknownKey(word.word))
                }
                guard !keys.contains(key) else { continue }
                guard keys.count < KeyMapFile.maximumKeysPerCommand else {
                    return problem(
                        line, word.column, .tooManyKeys(command: name.word, limit: KeyMapFile.maximumKeysPerCommand))
                }
                keys.append(key)
                places[key] = (line, word.column)
            }
            let standard = KeyMap.bindings.first { $0.command == command }
            map.bindings[index].keys = keys
            map.bindings[index].label = keys == standard?.keys ? standard?.label ?? "" : KeyMap.label(keys)
            boundAt[command] = places
            changedAt[command] = (line, name.column)
            return nil
        }

        mutating func unbind(_ words: ArraySlice<(word: String, column: Int)>, line: Int) -> KeyMapProblem? {
            for word in words {
                guard let key = Key(fileName: word.word) else {
                    return problem(line, word.column, .unknownKey(word.word))
                }
                for index in map.bindings.indices where map.bindings[index].keys.contains(key) {
                    let command = map.bindings[index].command
                    map.bindings[index].keys.removeAll { $0 == key }
                    let standard = KeyMap.bindings.first { $0.command == command }
                    let keys = map.bindings[index].keys
                    map.bindings[index].label = keys == standard?.keys ? standard?.label ?? "" : KeyMap.label(keys)
                    boundAt[command]?[key] = nil
                    changedAt[command] = (line, word.column)
                }
            }
            return nil
        }

        /// The first problem of the whole map, by its place in the file.
        func finish() -> KeyMapProblem? {
            var found: [KeyMapProblem] = []
            for command in [Command.quit, .help]
            where map.bindings.contains(where: { $0.command == command && $0.keys.isEmpty }) {
                let place = changedAt[command]
                found.append(
                    KeyMapProblem(file, line: place?.line, column: place?.column, .noKeyLeft(command: command.fileName))
                )
            }
            for (first, one) in map.bindings.enumerated() {
                for other in map.bindings[(first + 1)...] {
                    let views = [AppModel.View.loop, .pool].filter {
                        one.views.contains($0) && other.views.contains($0)
                    }
                    guard !views.isEmpty else { continue }
                    for key in one.keys where other.keys.contains(key) {
                        // At least one of the two is the file's (the defaults are conflict-free): the later place.
                        let places = [boundAt[one.command]?[key], boundAt[other.command]?[key]]
                        guard
                            let place = places.compactMap({ $0 }).max(by: {
                                ($0.line, $0.column) < ($1.line, $1.column)
                            })
                        else { continue }
                        let (bound, kept) =
                            boundAt[other.command]?[key].map { $0 == place } == true ? (other, one) : (one, other)
                        found.append(
                            problem(
                                place.line, place.column,
                                .conflict(
                                    key: key.fileName, command: bound.command.fileName, other: kept.command.fileName,
                                    views: views.map { $0 == .loop ? "loop" : "pool" })))
                    }
                }
            }
            return found.min { ($0.line ?? 0, $0.column ?? 0) < ($1.line ?? 0, $1.column ?? 0) }
        }
    }
}

extension KeyMap {
    /// How the help writes keys the user chose (`j ↓`): each key as the status bar echoes it.
    static func label(_ keys: [Key]) -> String { keys.map(\.echo).joined(separator: " ") }
}
