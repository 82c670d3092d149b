import LoopEngine

extension Explanation {
    /// A timer or an observer handed to a second loop while it is in a mode of its first: CF's silent refusal,
    /// which only loopviz's trace shows.
    static func addDeclined(
        _ item: String, _ kind: LoopEvent.Kind, _ holder: String, here loop: String
    ) -> (case: Case, text: String) {
        let call = kind == .observer ? "CFRunLoopAddObserver" : "CFRunLoopAddTimer"
        let article = kind == .observer ? "an" : "a"
        return (
            .addDeclined,
            "\(call) of \(kind.rawValue) \(item) on \(loop)'s loop did nothing: the \(kind.rawValue) is in a mode "
                + "of \(holder)'s loop, and CF keeps \(article) \(kind.rawValue) in one loop until it leaves its last mode "
                + "there. CF returns without a word; only this trace says so."
        )
    }
}
