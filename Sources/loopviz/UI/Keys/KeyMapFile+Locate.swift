#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Which keymap file the UI reads, and reading it.

extension KeyMapFile {
    /// Where a keymap comes from: the path and why that one (the first that applies wins).
    enum Source: Equatable {
        /// `--keymap FILE`.
        case option(String)
        /// `LOOPVIZ_KEYMAP`.
        case environment(String)
        /// `$XDG_CONFIG_HOME/loopviz/keymap`, else `~/.config/loopviz/keymap`, when it exists.
        case config(String)

        var path: String {
            switch self {
            case .option(let path), .environment(let path), .config(let path): path
            }
        }
    }

    /// The keymap file to read: `--keymap`, else `LOOPVIZ_KEYMAP` (not empty), else the configuration file when it
    /// exists (`XDG_CONFIG_HOME` when set and absolute, as the XDG rules say, else `HOME`'s `.config`); nil for the
    /// defaults. `environment` and `exists` are the process's in use, parameters so tests choose them.
    static func locate(
        option: String?, environment: (String) -> String?, exists: (String) -> Bool
    ) -> Source? {
        if let option { return .option(option) }
        if let path = environment("LOOPVIZ_KEYMAP"), !path.isEmpty { return .environment(path) }
        let config: String
        if let xdg = environment("XDG_CONFIG_HOME"), xdg.hasPrefix("/") {
            config = xdg
        } else if let home = environment("HOME"), home.hasPrefix("/") {
            config = home + "/.config"
        } else {
            return nil
        }
        let path = config + "/loopviz/keymap"
        return exists(path) ? .config(path) : nil
    }

    /// The keymap `--keymap` (nil when not given) and the environment choose: the defaults when no file applies.
    static func active(option: String?) -> Result<KeyMap, KeyMapProblem> {
        let source = locate(
            option: option, environment: { getenv($0).map { String(cString: $0) } },
            exists: { access($0, F_OK) == 0 })
        guard let source else { return .success(.standard) }
        return load(source.path)
    }

    /// The keymap in the file at `path`, over the defaults.
    static func load(_ path: String) -> Result<KeyMap, KeyMapProblem> {
        var info = stat()
        guard stat(path, &info) == 0 else { return .failure(KeyMapProblem(path, .noSuchFile)) }
        if info.st_mode & S_IFMT == S_IFDIR { return .failure(KeyMapProblem(path, .isFolder)) }
        switch ScriptLoader.read(path, limit: maximumBytes) {
        case .success(let bytes): return parse(utf8: bytes, file: path)
        case .failure(.tooLarge): return .failure(KeyMapProblem(path, .tooLarge(limit: maximumBytes)))
        case .failure(.unreadable): return .failure(KeyMapProblem(path, .unreadable))
        }
    }
}

extension KeyMapFile {
    /// The UI's `--keymap FILE` (also `screen`'s and `keymap`'s).
    static let option = CommandOption(
        "--keymap", .text(placeholder: "FILE"),
        help: """
            Your own keys: a keymap file (`bind COMMAND KEY...`, `unbind KEY...`) read over
            the defaults; also LOOPVIZ_KEYMAP, else $XDG_CONFIG_HOME/loopviz/keymap
            (~/.config/loopviz/keymap) when it exists. `loopviz keymap` prints one to start
            from; a problem in it stops loopviz (exit 2) with its line and column.
            """)

    /// The keys `--keymap` and the environment choose, or the problem that stops the command.
    static func keys(_ scanner: ArgumentScanner) throws(CommandLineProblem) -> KeyMap {
        switch active(option: scanner.value("--keymap")) {
        case .success(let keys): return keys
        case .failure(let problem): throw .keyMap(problem)
        }
    }
}
