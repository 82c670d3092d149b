import Foundation

/// Where a command writes its main output: standard output, or the file of `-o PATH`.
struct OutputFile {
    let path: String?

    /// Writes `text`; returns an error message when the file cannot be written.
    func write(_ text: String) -> String? {
        guard let path, path != "-" else {
            FileHandle.standardOutput.write(Data(text.utf8))
            return nil
        }
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            return nil
        } catch {
            return "loopviz: error: cannot write \(path): \(error.localizedDescription)"
        }
    }
}
