/// The steps a user marked in a lesson or a recording, each with an optional note, kept in a small text file
/// beside it (``BookmarkFile``): one line per mark, `STEP` or `STEP note`, lines starting with `#` ignored.
struct Bookmarks: Equatable {
    struct Mark: Equatable {
        var step: Int
        var note: String = ""
    }

    /// In step order, one per step.
    private(set) var marks: [Mark] = []

    /// At most this many marks (a mark past it is refused, and a file's extra lines are left out).
    static let maximumCount = 1000
    /// A note is cut to this many characters.
    static let maximumNoteLength = 200
    /// A bookmark file larger than this is not read (1000 marks with long notes fit).
    static let maximumFileBytes = 256 << 10

    init() {}

    /// Reads a bookmark file's text; a line that is not `STEP [note]` is left out, as are marks past the limit.
    init(text: String) {
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            guard !line.hasPrefix("#"), marks.count < Self.maximumCount else { continue }
            let parts = line.split(separator: " ", maxSplits: 1)
            guard let first = parts.first, first.count <= 12, let step = Int(first), step > 0 else { continue }
            set(note: parts.count > 1 ? String(parts[1]) : "", at: step)
        }
    }

    /// The file's text: a comment naming what it marks, then the marks.
    func text(marking file: String) -> String {
        let name = file.split(separator: "/").last.map(String.init) ?? file
        var text = "# loopviz bookmarks of \(Self.oneLine(name)): STEP [note], one per line\n"
        for mark in marks { text += mark.note.isEmpty ? "\(mark.step)\n" : "\(mark.step) \(mark.note)\n" }
        return text
    }

    func mark(at step: Int) -> Mark? {
        let index = insertionIndex(step)
        return index < marks.count && marks[index].step == step ? marks[index] : nil
    }

    var isFull: Bool { marks.count >= Self.maximumCount }

    /// Marks `step` with `note` (replacing its note); false when full.
    @discardableResult
    mutating func set(note: String, at step: Int) -> Bool {
        let note = String(Self.oneLine(note).prefix(Self.maximumNoteLength))
        let index = insertionIndex(step)
        if index < marks.count && marks[index].step == step {
            marks[index].note = note
            return true
        }
        guard !isFull else { return false }
        marks.insert(Mark(step: step, note: note), at: index)
        return true
    }

    mutating func remove(at step: Int) {
        let index = insertionIndex(step)
        if index < marks.count && marks[index].step == step { marks.remove(at: index) }
    }

    /// The first mark after `step` (forward) or before it.
    func neighbour(of step: Int, forward: Bool) -> Mark? {
        let index = insertionIndex(step)
        if forward {
            let next = index < marks.count && marks[index].step == step ? index + 1 : index
            return next < marks.count ? marks[next] : nil
        }
        return index > 0 ? marks[index - 1] : nil
    }

    /// The index of the first mark at `step` or later: a binary search.
    private func insertionIndex(_ step: Int) -> Int {
        var low = 0
        var high = marks.count
        while low < high {
            let middle = (low + high) / 2
            if marks[middle].step < step { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// A note is one line: line breaks and tabs become spaces.
    private static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline || $0 == "\t" ? " " : $0 })
    }
}
