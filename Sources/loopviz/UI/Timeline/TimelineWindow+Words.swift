/// The timeline's window in words, for the status bar after a zoom or pan and for the screen reader.
extension TimelineWindow {
    /// `from 0s to 2.2s, 10ms a column`: the range shown, in the unit of its ticks, and the scale.
    var words: String {
        let spacing = bucket * Int64(Self.minimumTickGap)
        return "from \(Self.label(start, spacing: spacing)) to \(Self.label(end, spacing: spacing)), \(scale)"
    }
}
