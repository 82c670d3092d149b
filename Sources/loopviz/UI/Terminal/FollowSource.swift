/// What the UI's loop looks at every ``FollowFeed/interval`` while it follows a recording: ``FollowFeed`` for
/// `--follow FILE`, ``LiveRecording`` for `record --live` (the feed, and the program writing it).
protocol FollowSource: AnyObject {
    /// What one look finds (a `.followed` batch), or nil when there is nothing new. Never blocks.
    func take() -> AppMessage?
}
