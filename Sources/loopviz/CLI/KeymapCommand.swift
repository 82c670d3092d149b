/// `loopviz keymap`: the keys in force, as the keymap file that makes them, for a user to start their own from.
enum KeymapCommand {
    static let command = LoopvizCommand(
        name: "keymap", synopsis: "keymap",
        summary: "Print the UI's keys as a keymap file to start your own from (--default: the defaults).",
        options: options, help: help, run: run)

    static let options: [CommandOption] = [
        CommandOption(
            "--keymap", .text(placeholder: "FILE"),
            help: "Check FILE and print the keys it gives (exit 2 with its line and column on a problem)."),
        CommandOption("--default", help: "Print the default keys, whatever keymap file is in use (--keymap too)."),
    ]

    static let help = CommandHelp(
        beforeOptions: """
            OVERVIEW: Print the UI's keys as a keymap file, to start your own from.

            USAGE: loopviz keymap [--keymap FILE | --default]

            Prints the keymap the UI would use: --keymap FILE, else the file LOOPVIZ_KEYMAP names, else
            $XDG_CONFIG_HOME/loopviz/keymap (~/.config/loopviz/keymap) when it exists, else the defaults. Each
            command's line is `bind COMMAND KEY...`, its help above it; save it, change what you want (a command
            left out keeps its default keys) and pass it with --keymap or put it in one of those places:

              loopviz keymap --default > ~/.config/loopviz/keymap

            A file is read over the defaults, in order: `bind COMMAND KEY...` gives COMMAND exactly these keys,
            `unbind KEY...` frees keys; a line starting with # is a comment. Keys: one character, or Space Enter
            Esc Tab BackTab Up Down Left Right PgUp PgDn Home End Backspace (any case). A file is refused whole
            (with its line and column) on an unknown command or key, a key that would do two things in one view,
            no key left for quit or help, more than 64 KiB or 2000 lines. docs/classroom.md ("Your own keys") has
            an example.
            """,
        afterOptions: """
            EXIT STATUS:
              0    the keymap was printed
              2    invalid usage, or the keymap file has a problem (printed with its line and column)
            """)

    static func run(_ scanner: ArgumentScanner) throws(CommandLineProblem) -> ExitStatus {
        if let extra = scanner.positional.first { throw .unexpectedArgument(extra) }
        let keys = scanner.has("--default") ? KeyMap.standard : try KeyMapFile.keys(scanner)
        print(KeyMapFile.text(keys), terminator: "")
        return .success
    }
}
