import LoopEngine

/// The lessons the UI can open without quitting: the playlist given on the command line (a folder's lessons,
/// or the files named), which lesson is open, and what the picker says about each.
///
/// A value: `update` moves through it and `render` lists it; only ``LessonLibrary/scan(_:)`` and
/// ``LessonOpening/load(_:)`` read files, on the runtime's side.
struct LessonLibrary: Equatable {
    /// One lesson of the playlist, as the picker lists it. Every text comes from a file (its name and contents)
    /// and is shown through the screen, which makes it terminal-safe.
    struct Entry: Equatable {
        var path: String
        /// The number the lesson's file name starts with (`07-…` gives `07`); else its place in the playlist.
        var number: String
        /// The scenario's title; the file name when the file cannot be read or does not parse.
        var title: String
        /// What it teaches, in one line (the card's first sentence); nil without a card.
        var teaches: String?
        /// The card's topics (`Topics: timers, modes`).
        var topics: [String]
        /// Why the file cannot be opened as it is (it does not parse, it is too large): shown in the picker's row.
        var problem: String?
        /// What it teaches in the languages its card is translated into (the first sentence of each section).
        var translatedTeaches: [Language: String] = [:]

        /// What it teaches in `language`, in English when the card has no translation of that part.
        func teaches(in language: Language) -> String? { translatedTeaches[language] ?? teaches }

        /// The file's name without its folders.
        var fileName: String { path.split(separator: "/").last.map(String.init) ?? path }

        /// True when `filter` (any case) is in the title, the file name or a topic, or is the lesson's number
        /// (`7` and `07` both find lesson 07).
        func matches(_ filter: String) -> Bool {
            let wanted = String(filter.lowercased().drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
            guard !wanted.isEmpty else { return true }
            if let number = Int(wanted), Int(self.number) == number { return true }
            return title.lowercased().contains(wanted) || fileName.lowercased().contains(wanted)
                || topics.contains { $0.lowercased().contains(wanted) }
        }
    }

    /// The most lessons a playlist holds: a folder with more lists the first ones (by name) and says so.
    static let maximumLessons = 1000
    /// The most entries of one folder looked at (names only): a folder of millions of files is not read to its
    /// end.
    static let maximumFolderEntries = 100_000
    /// The most bytes of one file the picker reads to list it (a lesson is a few kilobytes): a larger file is
    /// listed by its name, and opening it goes through the usual loader and its own limit.
    static let maximumListedFileSize = 64 << 10
    /// The most bytes the picker reads (and parses) for a whole playlist: parsing costs time by the byte, so a
    /// thousand large files must not hold up the start. The lessons after it are listed by their file names (Enter
    /// still opens them).
    static let maximumListedBytes = 2 << 20

    var entries: [Entry] = []
    /// The entry open now (or whose diagnostics are shown); nil: the built-in lesson or a trace.
    var current: Int?
    /// What the scan left out (too many files), shown in the picker.
    var note: String?
    /// The command line's `--iteration-cost`, applied to every lesson opened.
    var iterationCost: Duration?

    var isEmpty: Bool { entries.isEmpty }

    /// The indexes of the entries `filter` matches, in playlist order.
    func matching(_ filter: String) -> [Int] {
        entries.indices.filter { entries[$0].matches(filter) }
    }
}

/// The picker overlay (`L`): the filter typed after `/`, whether keys still go to it, and the highlighted row
/// (an index into the filtered list).
struct LessonPicker: Equatable {
    var filter = ""
    var typing = false
    var row = 0
}

/// A lesson that cannot be shown as it is: the file that failed and its diagnostics (file:line:column), drawn in
/// place of the panels until another lesson opens or `R` reads the file again.
struct LessonProblem: Error, Equatable {
    var path: String
    /// The loader's report, one line per diagnostic.
    var lines: [String]
    /// `R` after the file is fixed shows this step again (that of the version shown before it broke); nil: the
    /// lesson starts from its first step.
    var keepStep: Int? = nil
}
