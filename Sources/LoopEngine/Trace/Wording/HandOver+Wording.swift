extension HandOver {
    /// What was handed over, as the exports name it: `perform upload1`, `signal work`, `send net`, `block b`,
    /// `mainQueue update` (the callout's kind and the item, as the callout it causes is named).
    package var words: String {
        switch what {
        case .perform(let task): "perform \(task)"
        case .signal(let source): "signal \(source)"
        case .send(let port): "send \(port)"
        case .block(let block): "block \(block)"
        case .mainQueue(let job): "mainQueue \(job)"
        }
    }

    /// The hand-over's slice on the sending thread: `perform upload1 → worker`.
    package var title: String { "\(words) → \(to)" }
}
