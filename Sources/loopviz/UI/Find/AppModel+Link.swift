extension AppModel {
    /// The link to the step on screen (`y`): the lesson's or recording's path as opened; none for the built-in
    /// lesson, which `loopviz` opens without one.
    var link: DeepLink {
        let builtIn = fileName == DefaultLesson.fileName && library.isEmpty
        // A windowed replay's step is the file's, and a file of more events than the default budget needs its own.
        let events = session.replayIndex?.count ?? 0
        return DeepLink(
            path: builtIn ? nil : fileName, step: session.eventNumberOffset + cursor,
            maxEvents: events > EventBudget.defaultLimit ? events : nil)
    }
}
