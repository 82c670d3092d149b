#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `record --live`: the program being recorded and the recording's feed, looked at together by the UI's loop.
/// The program writes the temporary file; the feed reads it. Once the program ends (reaped between two frames)
/// the file is renamed into place at once — the feed goes on reading it under its final path — so the recording
/// is where it belongs while the UI still shows it. When the UI quits first, ``finish(endedBy:)`` ends the
/// program (SIGTERM, SIGKILL a grace later) and keeps the recording.
final class LiveRecording: FollowSource {
    /// How the file was left once the program ended.
    enum Kept: Equatable {
        /// Renamed into place.
        case committed
        /// Nothing was written (the program did not load the recorder): the temporary file was removed.
        case nothingRecorded
        /// Writing or renaming failed (the message); the old file at the path is left as it was.
        case failed(String)
    }

    /// After its recording said it is complete, the longest wait for the program to exit before it is sent a signal.
    static let exitWait: Duration = .seconds(1)

    private let feed: FollowFeed
    private var watch: RecordedChild.Watch
    private let file: OutputFile
    private let output: String
    /// How the program ended, once it has.
    private(set) var ending: RecordedChild.Ending?
    /// How the file was left, once the program ended.
    private(set) var kept: Kept?
    /// True when the program was still running when the UI quit (it was sent SIGTERM or the UI's signal).
    private(set) var endedByQuit = false

    /// Follows `file`'s temporary file, written by the program `watch` looks at; `output` is the path it is
    /// renamed to.
    init(feed: FollowFeed, watch: RecordedChild.Watch, file: OutputFile, output: String) {
        self.feed = feed
        self.watch = watch
        self.file = file
        self.output = output
    }

    func take() -> AppMessage? {
        if ending == nil, let ended = watch.poll() { end(ended) }
        return feed.take()
    }

    /// After the UI: a program still running is sent `signal` (the one that ended the UI, passed on), or SIGTERM
    /// when the user quit, and waited for (SIGKILL a grace later); then the file is kept. How it ended.
    func finish(endedBy signal: Int32?) -> RecordedChild.Ending {
        if let ending { return ending }
        if let ended = watch.poll() {
            end(ended)
            return ended
        }
        // The recording said it is complete: the program is exiting (the library stops it at `atexit`), so it is
        // given a moment to end on its own rather than be sent a signal it has no need of.
        if feed.saidEnded, let ended = watch.waitForEnd(atMost: Self.exitWait) {
            end(ended)
            return ended
        }
        endedByQuit = true
        watch.pass(signal ?? SIGTERM)
        let ended = watch.waitForEnd()
        end(ended)
        return ended
    }

    /// The program has ended: an empty file is removed (nothing was recorded), any other renamed into place.
    private func end(_ ended: RecordedChild.Ending) {
        ending = ended
        var info = stat()
        if let temporary = file.temporaryPath, stat(temporary, &info) != 0 || info.st_size == 0 {
            file.abandon()
            kept = .nothingRecorded
        } else if let message = file.commit() {
            kept = .failed(message)
        } else {
            kept = .committed
            feed.moved(to: output)
        }
        feed.writerEnded()
    }
}
