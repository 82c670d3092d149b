extension AppModel {
    /// The link to the step on screen (`y`): the lesson's or recording's path as opened; none for the built-in
    /// lesson, which `loopviz` opens without one.
    var link: DeepLink {
        let builtIn = fileName == DefaultLesson.fileName && library.isEmpty
        return DeepLink(path: builtIn ? nil : fileName, step: cursor)
    }
}
