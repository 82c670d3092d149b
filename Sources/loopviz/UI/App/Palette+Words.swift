extension AppModel.Palette {
    /// How the status bar names the palette.
    var words: String {
        switch self {
        case .standard: "standard"
        case .colorblind: "colour-blind safe (blue and yellow, underlines)"
        case .light: "for a light background"
        }
    }
}
