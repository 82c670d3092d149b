import Foundation
import LoopEngine

extension LessonLibrary {
    /// A command line's files and folders that cannot make a playlist: the message says which and why.
    struct ScanError: Error, Equatable {
        var message: String
    }

    /// The playlist of `paths`: each folder's `.loop` files in name order (not its subfolders), each file as
    /// named. Bounded: at most ``maximumLessons`` lessons, ``maximumFolderEntries`` names read from a folder and
    /// ``maximumListedFileSize`` bytes of each file; what was left out is said in ``note``.
    static func scan(_ paths: [String], iterationCost: Duration? = nil) -> Result<LessonLibrary, ScanError> {
        var library = LessonLibrary(iterationCost: iterationCost)
        var files: [String] = []
        var notes: [String] = []
        for path in paths {
            let shown = TerminalSafeText.terminalSafe(path)
            var info = stat()
            guard stat(path, &info) == 0 else {
                return .failure(ScanError(message: "\(shown): no such file or folder"))
            }
            if info.st_mode & S_IFMT == S_IFDIR {
                let folder = lessonFiles(in: path)
                if let note = folder.note { notes.append(note) }
                if folder.files.isEmpty && folder.note == nil {
                    return .failure(ScanError(message: "\(shown): a folder with no .loop lesson"))
                }
                files += folder.files
            } else {
                files.append(path)
            }
        }
        if files.count > maximumLessons {
            notes.append("the first \(maximumLessons) of \(files.count) lessons are listed")
            files.removeLast(files.count - maximumLessons)
        }
        let listed = entries(for: files)
        library.entries = listed.entries
        if let note = listed.note { notes.append(note) }
        library.note = notes.isEmpty ? nil : notes.joined(separator: "; ")
        return .success(library)
    }

    /// The playlist a single FILE opens with: its folder's lessons, at the file (so `{` and `}` go to its
    /// neighbours), or the file alone when the folder cannot be listed or does not list it.
    static func around(_ path: String, iterationCost: Duration? = nil) -> LessonLibrary {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let listed = lessonFiles(in: folder.isEmpty ? "/" : folder).files
        let files = listed.count <= maximumLessons ? listed : []
        if let index = files.firstIndex(where: { $0.split(separator: "/").last.map(String.init) == name }) {
            var library = LessonLibrary(iterationCost: iterationCost)
            // The file as the user named it, the others as the folder lists them.
            var named = files
            named[index] = path
            let listed = entries(for: named)
            library.entries = listed.entries
            library.note = listed.note
            library.current = index
            return library
        }
        return LessonLibrary(entries: [entry(for: path, position: 1).0], current: 0, iterationCost: iterationCost)
    }

    /// The `.loop` files of `folder` (hidden ones aside), sorted by name, and what was left out.
    static func lessonFiles(in folder: String) -> (files: [String], note: String?) {
        guard let directory = opendir(folder) else {
            return ([], "\(TerminalSafeText.terminalSafe(folder)): cannot read the folder")
        }
        defer { closedir(directory) }
        var names: [String] = []
        var seen = 0
        var note: String?
        while let item = readdir(directory) {
            seen += 1
            if seen > maximumFolderEntries {
                note =
                    "\(TerminalSafeText.terminalSafe(folder)): only its first \(maximumFolderEntries) names were read"
                break
            }
            let name = withUnsafePointer(to: item.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name.hasSuffix(".loop") && !name.hasPrefix(".") { names.append(name) }
        }
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        return (names.sorted().map { prefix + $0 }, note)
    }

    /// The picker's entries for `files`, each read and parsed while the playlist's ``maximumListedBytes`` last;
    /// the files after it by their names only, which the note says.
    static func entries(for files: [String]) -> (entries: [Entry], note: String?) {
        var budget = maximumListedBytes
        var unread = 0
        let entries = files.enumerated().map { index, path in
            guard budget > 0 else {
                unread += 1
                return Entry(path: path, position: index + 1)
            }
            let (entry, read) = entry(for: path, position: index + 1)
            budget -= read
            return entry
        }
        let note =
            unread == 0
            ? nil
            : "the last \(unread) lessons are listed by file name (the first \(maximumListedBytes >> 20) MiB were read)"
        return (entries, note)
    }

    /// The picker's entry for the file at `path`, read (at most ``maximumListedFileSize`` bytes, regular files
    /// only: a FIFO or a device named `.loop` would block or never end) and parsed; and how many bytes were read.
    static func entry(for path: String, position: Int) -> (Entry, read: Int) {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            return (entry(for: path, position: position, bytes: .failure(.unreadable)), 0)
        }
        let bytes = ScriptLoader.read(path, limit: maximumListedFileSize)
        let read = (try? bytes.get().count) ?? (bytes == .failure(.tooLarge) ? maximumListedFileSize : 0)
        return (entry(for: path, position: position, bytes: bytes), read)
    }

    /// The entry for a file whose bytes were read (or not): its title, card and number, or why it cannot open.
    static func entry(for path: String, position: Int, bytes: Result<[UInt8], ScriptLoader.ReadFailure>) -> Entry {
        var entry = Entry(path: path, position: position)
        switch bytes {
        case .failure(.unreadable): entry.problem = "cannot be read"
        case .failure(.tooLarge): entry.problem = "larger than \(maximumListedFileSize >> 10) KiB, not a lesson"
        case .success(let bytes):
            do {
                let script = try ScenarioParser.parse(utf8: bytes, file: path)
                entry.adopt(script)
            } catch {
                let first = error.diagnostics.first.map { "\($0.line):\($0.column)" } ?? ""
                entry.problem = "does not parse (\(error.total) error\(error.total == 1 ? "" : "s"), first at \(first))"
            }
        }
        return entry
    }
}

extension LessonLibrary.Entry {
    /// An entry known only by its path: titled with its file name, numbered by the digits it starts with (else
    /// by `position`).
    init(path: String, position: Int) {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let digits = name.prefix { $0.isASCII && $0.isNumber }
        self.init(
            path: path, number: digits.isEmpty ? String(position) : String(digits.prefix(4)),
            title: TerminalSafeText.terminalSafe(name),
            teaches: nil, topics: [], problem: nil)
    }

    /// Takes the title and the card of a script that parsed (at a scan, or when the lesson is opened again).
    mutating func adopt(_ script: LoopScript) {
        // Terminal-safe before it is fitted to the picker's columns: an escape is wider than the character.
        title = TerminalSafeText.terminalSafe(script.scenario.name.isEmpty ? fileName : script.scenario.name)
        problem = nil
        let card = LessonCardParts(script.card)
        teaches = card.teaches.map(TerminalSafeText.terminalSafe)
        topics = card.topics
        translatedTeaches = [:]
        for language in Language.allCases where language != .en {
            guard let translated = LessonCardParts(script.card, language: language).teaches, translated != card.teaches
            else { continue }
            translatedTeaches[language] = TerminalSafeText.terminalSafe(translated)
        }
    }
}
