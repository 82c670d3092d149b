import LoopEngine

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension UICommand {
    /// `loopviz --follow FILE.jsonl`: the UI on a recording as it grows (``FollowFeed``), read-only.
    static func follow(_ path: String, _ scanner: ArgumentScanner) throws(CommandLineProblem) -> ExitStatus {
        if let extra = scanner.positional.first { throw .followOpensAlone(extra) }
        for option in ["--step", "--clock", "--screen-reader", "--card"] where scanner.gave(option) {
            throw .notWithFollow(option: option)
        }
        let keys = try KeyMapFile.keys(scanner)
        let language = try LanguageOption.value(in: scanner)
        let feed: FollowFeed
        do throws(FollowOpenError) {
            feed = try FollowFeed(path: path)
        } catch {
            throw .cannotFollow(path: error.path, reason: error.reason)
        }
        var model = AppModel(session: Session(following: path), fileName: path)
        try applyLook(scanner, to: &model)
        model.keys = keys
        // Following is playing at the newest event: reduced motion changes nothing of it.
        model.isPaused = false
        model.language = language
        guard let cast = scanner.value("--record") else { return TerminalApp.run(model, follow: feed) }
        let recorder: AsciicastRecorder
        do {
            recorder = try AsciicastRecorder(
                path: cast, inputs: [path], title: "loopviz \(path)", environment: castEnvironment(),
                timestamp: Int(time(nil)), clock: TerminalApp.monotonicSeconds)
        } catch {
            CommandLine.printError(error.description)
            return .usage
        }
        return TerminalApp.run(model, recorder: recorder, follow: feed)
    }
}
